// What the window paths (linear pairs, pixel pairs, channels-last, cubic quads) share: the
// element formats they read, their limits, the view of a plan their kernels take and the layout
// of its rows. Each path's header declares its plan and kernels.
#ifndef GRIDSAMPLE_SRC_WINDOW_PLAN_H_
#define GRIDSAMPLE_SRC_WINDOW_PLAN_H_

#include <cstddef>
#include <cstdint>

namespace gridsample {

// The element formats the window kernels read (the pair path all of them, the pixel pairs
// kU8 and kF32, the channels-last path the float ones), each converted to float32 as convert.h
// does; kNone marks the dtypes they do not read (the registry's Element column,
// src/gridsample/dtypes.inc).
enum class ElementKind { kNone, kF32, kF16, kBF16, kI8, kU8, kI16, kU16, kBool };

// The pair, quad and nearest plans compute offsets and coordinates in int32, with room to spare.
inline constexpr int64_t kMaxWindowPlane = int64_t{1} << 30;

// The most spatial axes of the linear pair path (and the nearest plan) and of the cubic quads.
inline constexpr size_t kMaxPairRank = 4;
inline constexpr size_t kMaxQuadRank = 3;
// Rows per location: 2^(rank-1) of pairs, 4^(rank-1) of quads.
inline constexpr size_t kMaxPairRows = size_t{1} << (kMaxPairRank - 1);
inline constexpr size_t kMaxQuadRows = size_t{1} << (2 * (kMaxQuadRank - 1));

// The most rows a window plan has: linear in kMaxPairRank axes, cubic in kMaxQuadRank.
inline constexpr size_t kMaxWindowRows = kMaxPairRows > kMaxQuadRows ? kMaxPairRows : kMaxQuadRows;

// The weights a window plan stores per location (row_weights' rows, `pitch` apart): pairs one
// per element of each row (linear_pairs.h), quads the inner axis's four and, with more than one
// row, one per row (cubic_quads.h).
constexpr size_t WindowWeights(size_t taps, size_t rows) {
  return taps == 4 ? 4 + (rows > 1 ? rows : 0) : taps * rows;
}

// A planned tile as every window kernel reads it, made once per tile (window_tiles.h,
// PlanWindowsTile) from the plan of PlanLinearPairs (taps = 2) or PlanCubicQuads (taps = 4):
// for locations i < count, the element offset of the window's corner base_offsets[i] and the
// weights row_weights[k * pitch + i], k < WindowWeights(taps, rows) (linear_pairs.h and
// cubic_quads.h say which weight is which). Row `row` of a window starts at base_offsets[i] +
// row_deltas[row] (WindowRowDeltas).
struct WindowPlanView {
  const int32_t* base_offsets;
  const int32_t* row_deltas;
  const float* row_weights;
  size_t taps;   // per axis: 2 (pairs) or 4 (quads)
  size_t rows;   // taps^(rank-1)
  size_t pitch;  // between a location's weights: the tile's length, a multiple of kRowBlock
  size_t count;
};

// Whether the windows of a planned tile lie scattered over planes of `plane_bytes` that the
// caches do not hold between channels: most corners (of the tile's first kScatterSample) a cache
// line or more from the previous location's, and planes larger than kCachedPlane. Each plane's
// lines are then read from L3 or memory one miss at a time, none reused from the previous channel
// (a sparse sampling such as keypoints' descriptors), and the pair kernel prefetches the next
// plane's windows (SampleLinearPairs' next_plane). A smooth warp's neighbours share their lines,
// which the kernel's own prefetches and the hardware's cover; a plane of at most kCachedPlane is
// read from nearer caches, where the prefetches only cost (docs/benchmarks.md).
inline constexpr size_t kCachedPlane = size_t{32} << 10;
inline constexpr size_t kScatterSample = 64;
inline bool ScatteredWindows(const WindowPlanView& plan, size_t plane_bytes, size_t element_bytes) {
  if (plane_bytes <= kCachedPlane) return false;
  const int64_t line = static_cast<int64_t>(64 / element_bytes);  // elements of a 64-byte line
  const size_t sample = plan.count < kScatterSample ? plan.count : kScatterSample;
  size_t far = 0;
  for (size_t i = 1; i < sample; ++i) {
    const int64_t step = static_cast<int64_t>(plan.base_offsets[i]) - plan.base_offsets[i - 1];
    far += step >= line || step <= -line;
  }
  return 2 * far > sample;
}

// row_deltas[row] for the rows of PlanLinearPairs (taps = 2) and PlanCubicQuads (taps = 4):
// the offset of the row's window from the corner, the row's base-`taps` digits (axis 0 most
// significant) times the outer axes' strides. An outer axis with fewer elements than `taps`
// (linear: size 1) has a single index, so its other taps add nothing (their weight is 0).
inline void WindowRowDeltas(size_t rank, size_t taps, const int64_t* sizes, const int64_t* strides,
                            int32_t* row_deltas) {
  size_t rows = 1;
  for (size_t a = 0; a + 1 < rank; ++a) rows *= taps;
  for (size_t row = 0; row < rows; ++row) {
    int64_t delta = 0;
    size_t place = rows;
    for (size_t a = 0; a + 1 < rank; ++a) {
      place /= taps;
      const size_t digit = row / place % taps;
      if (sizes[a] >= static_cast<int64_t>(taps)) {
        delta += static_cast<int64_t>(digit) * strides[a];
      }
    }
    row_deltas[row] = static_cast<int32_t>(delta);
  }
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_WINDOW_PLAN_H_
