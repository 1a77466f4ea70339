// What every tile of one call shares (sampler.cc makes it once per call), and the helpers the
// paths' tile functions (generic_path.h, window_tiles.h) use to find their data in X, Y and the
// grid.
#ifndef GRIDSAMPLE_SRC_CALL_SETUP_H_
#define GRIDSAMPLE_SRC_CALL_SETUP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "aligned_row.h"
#include "convert.h"
#include "coords.h"
#include "output_progress.h"
#include "path_choice.h"
#include "validate.h"
#include "window_plan.h"

namespace gridsample {

// The per-call constants every tile needs.
struct CallSetup {
  PathChoice choice;  // the path, its settings, the tile size and threads (ChoosePath)
  const Problem* problem;
  Options options;
  size_t taps;          // per axis
  size_t combinations;  // taps^rank
  int64_t tiles_per_batch;
  // Locations the first tile of each batch item is short by (TileAt), so that the later tiles'
  // outputs start on a line of Y where the pair path streams them: each line then goes out as
  // whole vector stores rather than in pieces (TileShift).
  int64_t tile_shift;
  // The window paths (IsWindowPath; window_plan.h): linear pairs (PlanLinearPairs) or cubic quads
  // (PlanCubicQuads), `rows` = taps^(r-1) rows per location, each starting at a row delta.
  ElementKind element_kind;
  size_t rows;
  int32_t row_deltas[kMaxWindowRows];
  // The channels-last path (channels_last.h): the input of batch items pixels_batch.. with the
  // channels of each pixel side by side, choice.padded_channels apart: a copy, or X itself.
  const float* pixels;
  int64_t pixels_batch;
  // Elements between a channel's adjacent pixels in X and Y: 1, or C channels-last.
  int64_t pixel_step;
  // Integer and bool X on the generic path: fixed-point weights summed exactly (convert.h).
  bool exact;
  // Integer and bool X: kFixedBits of X's dtype; 0 for the other dtypes.
  int fixed_bits;
  // Told of each work item's finished part of Y (output_progress.h), or nullptr: not told.
  OutputProgress* progress;
};

// Tile t of a batch item (t < tiles_per_batch): its first location and its count.
struct TileSpan {
  int64_t first;
  size_t count;
};
inline TileSpan TileAt(const CallSetup& setup, int64_t t) {
  const int64_t tile = static_cast<int64_t>(setup.choice.tile);
  const int64_t first = std::max<int64_t>(t * tile - setup.tile_shift, 0);
  const int64_t end = std::min((t + 1) * tile - setup.tile_shift, setup.problem->out_plane);
  return {first, static_cast<size_t>(end - first)};
}

// Rows of a worker's scratch laid out in one allocation, each aligned for the kernels: a small
// call's cost is mostly allocation. Uninitialised (no per-call memset): every entry is written
// before it is read.
class ScratchArena {
 public:
  // Room for `bytes` more; returns where they start.
  size_t Reserve(size_t bytes) {
    const size_t at = RoundUp(total_, kRowAlignment);
    total_ = at + bytes;
    return at;
  }
  // Allocates everything reserved (throws std::bad_alloc).
  void Allocate() { memory_ = AllocateRow<unsigned char>(total_); }
  template <typename T>
  T* At(size_t at) {
    return reinterpret_cast<T*>(memory_.get() + at);
  }

 private:
  size_t total_ = 0;
  AlignedRow<unsigned char> memory_;
};

// The element offset of channel c of batch item n in X (plane = in_plane) or Y (out_plane), in
// either layout; the channel's pixels are then PixelStep apart.
inline int64_t ChannelStart(const Problem& p, int64_t n, int64_t c, int64_t plane) {
  return p.layout == Layout::kChannelsLast ? n * plane * p.channels + c
                                           : (n * p.channels + c) * plane;
}
inline int64_t PixelStep(const Problem& p) {
  return p.layout == Layout::kChannelsLast ? p.channels : 1;
}

// The grid values of locations l0.. of batch item n, as stored.
template <DType GD>
const typename Traits<GD>::Storage* GridAt(const Problem& p, const void* grid, int64_t n,
                                           int64_t l0) {
  return static_cast<const typename Traits<GD>::Storage*>(grid) +
         (n * p.out_plane + l0) * static_cast<int64_t>(p.rank);
}

// The value tap `offset` (a pixel of the channel at `in`, whose pixels are `step` elements
// apart) contributes to an interpolation: the element, 0 outside the input (zeros padding),
// NaN where the grid coordinate was not finite.
template <DType XD>
typename Traits<XD>::Compute TapValue(const typename Traits<XD>::Scalar* in, int64_t offset,
                                      int64_t step, int part) {
  using C = typename Traits<XD>::Compute;
  if (offset >= 0) return ToCompute<XD>(in[offset * step * Traits<XD>::kParts + part]);
  return offset == kZeroTap ? C(0) : std::numeric_limits<C>::quiet_NaN();
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_CALL_SETUP_H_
