// The cubic quad path's plan and kernel (cubic_quads-inl.h), dispatched at run time.
// Compiled once per target by foreach_target.h; the HWY_ONCE block at the end owns the
// dispatch (kernel.h declares the functions).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cubic_quads.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "cubic_quads-inl.h"

#if HWY_ONCE
namespace gridsample {

HWY_EXPORT(PlanCubicQuads);
HWY_EXPORT(SampleCubicQuads);

void PlanCubicQuads(const float* grid, size_t rank, const int64_t* sizes,
                    const int64_t* strides, const Options& options, size_t count, size_t stride,
                    int32_t* base_offsets, float* row_weights) {
  HWY_DYNAMIC_DISPATCH(PlanCubicQuads)(grid, rank, sizes, strides, options, count, stride,
                                       base_offsets, row_weights);
}
bool SampleCubicQuads(const float* plane, const int32_t* base_offsets,
                      const int32_t* row_deltas, const float* row_weights, size_t rows,
                      size_t stride, size_t count, float* out) {
  return HWY_DYNAMIC_DISPATCH(SampleCubicQuads)(plane, base_offsets, row_deltas, row_weights,
                                                rows, stride, count, out);
}

}  // namespace gridsample
#endif  // HWY_ONCE
