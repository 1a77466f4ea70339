// The linear pair path's plan and kernels (linear_pairs-inl.h) and its channels-last variant
// (channels_last-inl.h), dispatched at run time.
// Compiled once per target by foreach_target.h; the HWY_ONCE block at the end owns the
// dispatch (kernel.h declares the functions).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "linear_pairs.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "channels_last-inl.h"
#include "linear_pairs-inl.h"

#if HWY_ONCE
namespace gridsample {

HWY_EXPORT(PlanLinearPairs);
HWY_EXPORT(SampleLinearPairs);
HWY_EXPORT(ToChannelsLast);
HWY_EXPORT(SampleLinearChannelsLast);

void PlanLinearPairs(const float* grid, size_t rank, const int64_t* sizes,
                     const int64_t* strides, const Options& options, int fixed_bits,
                     size_t count, size_t stride, int32_t* base_offsets, float* row_weights) {
  HWY_DYNAMIC_DISPATCH(PlanLinearPairs)(grid, rank, sizes, strides, options, fixed_bits, count,
                                        stride, base_offsets, row_weights);
}
bool SampleLinearPairs(PairKind kind, const void* plane, const int32_t* base_offsets,
                       const int32_t* row_deltas, const float* row_weights, size_t rows,
                       size_t stride, size_t count, float* out, void* dst) {
  return HWY_DYNAMIC_DISPATCH(SampleLinearPairs)(kind, plane, base_offsets, row_deltas,
                                                 row_weights, rows, stride, count, out, dst);
}

void ToChannelsLast(PairKind kind, const void* planes, size_t channels, size_t plane,
                    size_t padded, size_t begin, size_t end, float* pixels) {
  HWY_DYNAMIC_DISPATCH(ToChannelsLast)(kind, planes, channels, plane, padded, begin, end,
                                       pixels);
}
bool SampleLinearChannelsLast(PairKind kind, const float* pixels, size_t channels,
                              size_t padded, const int32_t* base_offsets,
                              const int32_t* row_deltas, const float* row_weights, size_t rows,
                              size_t stride, size_t count, void* out, size_t out_stride) {
  return HWY_DYNAMIC_DISPATCH(SampleLinearChannelsLast)(kind, pixels, channels, padded,
                                                        base_offsets, row_deltas, row_weights,
                                                        rows, stride, count, out, out_stride);
}

}  // namespace gridsample
#endif  // HWY_ONCE
