// The cubic quad path's per-target entry points (cubic_quads.h) over its plan and kernel
// (cubic_quads-inl.h). Compiled once per target by foreach_target.h; the HWY_ONCE block at the
// end owns the dispatch and the path's conditions (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cubic_quads.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "cubic_quads.h"
#include "cubic_quads-inl.h"
#include "path_choice.h"

#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

void PlanCubicQuads(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                    const Options& options, size_t count, size_t pitch, int32_t* base_offsets,
                    float* row_weights) {
  VisitRank<kMaxQuadRank>(rank, [&](auto r) {
    PlanWindowsForRank<decltype(r)::value, QuadAxis>(grid, sizes, strides, options,
                                                     /*fixed_bits=*/0, count, pitch, base_offsets,
                                                     row_weights);
  });
}

bool SampleCubicQuads(const float* plane, const WindowPlanView& plan, float* out) {
  return VisitQuadRows(plan.rows, [&](auto r) {
    return SampleCubicQuadsForRank<decltype(r)::value>(
        plane, plan.base_offsets, plan.row_deltas, plan.row_weights, plan.pitch, plan.count, out);
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

bool CubicQuadsFit(const PathQuery& q) {
  const Problem& p = q.problem;
  return q.options.mode == Mode::kCubic && q.types.windows && q.types.float32_x &&
         p.rank <= kMaxQuadRank && q.small_plane &&
         std::all_of(p.in.begin(), p.in.end(), [](int64_t e) { return e >= 4; });
}

bool QuadsPathFits(const PathQuery& q) { return CubicQuadsFit(q) && !q.channels_last; }

HWY_EXPORT(PlanCubicQuads);
HWY_EXPORT(SampleCubicQuads);

void PlanCubicQuads(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                    const Options& options, size_t count, size_t pitch, int32_t* base_offsets,
                    float* row_weights) {
  HWY_DYNAMIC_DISPATCH(PlanCubicQuads)
  (grid, rank, sizes, strides, options, count, pitch, base_offsets, row_weights);
}
bool SampleCubicQuads(const float* plane, const WindowPlanView& plan, float* out) {
  return HWY_DYNAMIC_DISPATCH(SampleCubicQuads)(plane, plan, out);
}

}  // namespace gridsample
#endif  // HWY_ONCE
