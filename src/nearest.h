// The nearest plan (nearest.cc, nearest-inl.h).
#ifndef GRIDSAMPLE_SRC_NEAREST_H_
#define GRIDSAMPLE_SRC_NEAREST_H_

#include <cstddef>
#include <cstdint>

#include "gridsample/gridsample.h"
#include "window_plan.h"

namespace gridsample {

struct PathQuery;  // path_choice.h

// For `count` locations of a float32 grid (`rank` <= kMaxPairRank values per location, input
// planes of at most kMaxWindowPlane elements), offsets[i] = the element offset location i
// copies, or kZeroTap / kNaNTap (coords.h) as the generic plan marks them.
void PlanNearest(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                 const Options& options, size_t count, int64_t* offsets);

// One channel's nearest copy where every location reads an element (no kZeroTap or kNaNTap) and
// the output is a plane: out[i] = plane[offsets[i]] for i < count, elements of `element_bytes`
// (1, 2, 4 or 8) copied bit for bit. Each vector of outputs is loaded element by element and
// stored whole, which halves the time of storing each element apart (docs/benchmarks.md), or
// for 32-bit elements on AVX-512 gathered, where the first call times that faster on this CPU.
void CopyPlaneElements(size_t element_bytes, const void* plane, const int64_t* offsets,
                       size_t count, void* out);

// The nearest-plan path's row (path_choice.cc): nearest with a float32 grid, 1 to kMaxPairRank
// axes, planes within kMaxWindowPlane. It beats the generic path wherever it fits.
bool NearestPlanFits(const PathQuery& query);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_NEAREST_H_
