// The nearest plan (nearest-inl.h), dispatched at run time.
// Compiled once per target by foreach_target.h; the HWY_ONCE block at the end owns the
// dispatch (kernel.h declares the functions).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "nearest.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "nearest-inl.h"

#if HWY_ONCE
namespace gridsample {

HWY_EXPORT(PlanNearest);

void PlanNearest(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                 const Options& options, size_t count, int64_t* offsets) {
  HWY_DYNAMIC_DISPATCH(PlanNearest)(grid, rank, sizes, strides, options, count, offsets);
}

}  // namespace gridsample
#endif  // HWY_ONCE
