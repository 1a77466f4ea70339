// The nearest plan's per-target entry point (nearest.h) over nearest-inl.h. Compiled once per
// target by foreach_target.h; the HWY_ONCE block at the end owns the dispatch and the path's
// condition (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "nearest.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "nearest.h"
#include "nearest-inl.h"
#include "path_choice.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

void PlanNearest(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                 const Options& options, size_t count, int64_t* offsets) {
  VisitRank<kMaxPairRank>(rank, [&](auto r) {
    PlanNearestForRank<decltype(r)::value>(grid, sizes, strides, options, count, offsets);
  });
}

void CopyPlaneElements(size_t element_bytes, const void* plane, const int64_t* offsets,
                       size_t count, void* out) {
  switch (element_bytes) {
    case 1:
      return CopyPlaneElementsOf(static_cast<const uint8_t*>(plane), offsets, count,
                                 static_cast<uint8_t*>(out));
    case 2:
      return CopyPlaneElementsOf(static_cast<const uint16_t*>(plane), offsets, count,
                                 static_cast<uint16_t*>(out));
    case 4:
      return CopyPlaneElementsOf(static_cast<const uint32_t*>(plane), offsets, count,
                                 static_cast<uint32_t*>(out));
    default:
      return CopyPlaneElementsOf(static_cast<const uint64_t*>(plane), offsets, count,
                                 static_cast<uint64_t*>(out));
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

bool NearestPlanFits(const PathQuery& q) {
  return q.options.mode == Mode::kNearest && q.types.float32_grid &&
         q.problem.rank <= kMaxPairRank && q.small_plane;
}

HWY_EXPORT(PlanNearest);
HWY_EXPORT(CopyPlaneElements);

void PlanNearest(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                 const Options& options, size_t count, int64_t* offsets) {
  HWY_DYNAMIC_DISPATCH(PlanNearest)(grid, rank, sizes, strides, options, count, offsets);
}
void CopyPlaneElements(size_t element_bytes, const void* plane, const int64_t* offsets,
                       size_t count, void* out) {
  HWY_DYNAMIC_DISPATCH(CopyPlaneElements)(element_bytes, plane, offsets, count, out);
}

}  // namespace gridsample
#endif  // HWY_ONCE
