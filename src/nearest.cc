// The nearest plan's per-target entry point (nearest.h) over nearest-inl.h. Compiled once per
// target by foreach_target.h; the HWY_ONCE block at the end owns the dispatch and the path's
// condition (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "nearest.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "aligned_row.h"
#include "hwy/highway.h"
#include "nearest.h"
#include "nearest-inl.h"
#include "path_choice.h"
#include "timed_choice.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

void PlanNearest(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                 const Options& options, size_t count, int64_t* offsets) {
  VisitRank<kMaxPairRank>(rank, [&](auto r) {
    PlanNearestForRank<decltype(r)::value>(grid, sizes, strides, options, count, offsets);
  });
}

#if GRIDSAMPLE_X86_BITS == 512
// Whether 32-bit nearest copies run faster on this CPU with AVX-512's gathers (SecondWayFaster),
// timed on a plane in L1 both ways, as the pair kernel's gathers are (linear_pairs.cc): an Intel
// Xeon (Emerald Rapids) copied W5 a fifth faster with them, where AVX2's gathers on an AMD Zen 3
// were slower than loads one by one (docs/benchmarks.md).
bool TimeNearestGathers() {
  constexpr size_t kSide = 64;              // a plane of 16 KiB: in L1 on every x86 core
  constexpr size_t kCount = 4 * kRowBlock;  // locations, scattered over the plane
  alignas(64) uint32_t plane[kSide * kSide];
  alignas(64) uint32_t out[kCount];
  alignas(64) int64_t offsets[kCount];
  ProbeNumbers numbers;
  for (uint32_t& value : plane) value = static_cast<uint32_t>(numbers.Next() * 0x1p24f);
  for (int64_t& offset : offsets) {
    offset = static_cast<int64_t>(numbers.Next() * static_cast<float>(kSide * kSide - 1));
  }
  return SecondWayFaster(
      [&](bool gathers) { CopyPlaneElementsOf(plane, offsets, kCount, out, gathers); }, 16);
}
#endif

// TimeNearestGathers' answer, once per process and target (false below 512 bits).
bool NearestGathersPay() {
#if GRIDSAMPLE_X86_BITS == 512
  static const bool pays = TimeNearestGathers();
  return pays;
#else
  return false;
#endif
}

void CopyPlaneElements(size_t element_bytes, const void* plane, const int64_t* offsets,
                       size_t count, void* out) {
  // Only 32-bit copies gather, so only they time the gathers.
  CopyElementsOfSize(element_bytes, plane, offsets, count, out,
                     element_bytes == sizeof(float) && NearestGathersPay());
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
