// The cubic quad path (cubic_quads.cc, cubic_quads-inl.h): cubic interpolation of float32 data,
// 1 to kMaxQuadRank spatial axes of at least 4 elements each, input planes of at most
// kMaxWindowPlane elements.
#ifndef GRIDSAMPLE_SRC_CUBIC_QUADS_H_
#define GRIDSAMPLE_SRC_CUBIC_QUADS_H_

#include <cstddef>
#include <cstdint>

#include "gridsample/gridsample.h"
#include "window_plan.h"

namespace gridsample {

struct PathQuery;  // path_choice.h

// The pair path's contract (linear_pairs.h) with windows of four, weighed separably: per
// location one base offset, the inner axis's four weights at row_weights[e * pitch + i], and
// for rank 2 and 3 one weight for each of its 4^(rank-1) rows at row_weights[(4 + row) * pitch
// + i], the row's window starting at base + row_deltas[row] (WindowRowDeltas(rank, 4, ...)).
// The sum is the rows' sums of their elements times the inner weights, each times the row's
// weight (WeighQuad), or in 3-D the columns' sums over the rows times the inner weights
// (ColumnsFirst, WeighColumns): in that order on every path (WeighQuadWindow, which the quad
// kernel and the channels-last path share). SampleCubicQuads samples one channel
// of a planned tile (`plan`) at `plane`, as SampleLinearPairs does for kF32.
void PlanCubicQuads(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                    const Options& options, size_t count, size_t pitch, int32_t* base_offsets,
                    float* row_weights);
bool SampleCubicQuads(const float* plane, const WindowPlanView& plan, float* out);

// Whether PlanCubicQuads can plan the call: cubic float32 X, a float32-computed grid, 1 to
// kMaxQuadRank axes of at least 4 elements each, planes within kMaxWindowPlane. The
// channels-last path samples its plans too.
bool CubicQuadsFit(const PathQuery& query);

// The quad path's row (path_choice.cc): it fits where the plan does and X is planar.
bool QuadsPathFits(const PathQuery& query);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_CUBIC_QUADS_H_
