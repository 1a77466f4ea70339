// The fast path: plan → kernel → convert, over tiles of output locations.
//
// A tile is up to `tile` output locations of one batch item. Its plan (the integer taps and
// weights of every axis, then their combinations) is computed once and reused by every
// channel, so coordinate math and padding never run per channel. Tiles are the unit of
// parallel work: results do not depend on how they are spread over threads.
#include "sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "aligned_row.h"
#include "channels_last.h"
#include "convert.h"
#include "coords.h"
#include "cubic_quads.h"
#include "dispatch.h"
#include "linear_pairs.h"
#include "nearest.h"
#include "pixel_pairs.h"
#include "rows.h"
#include "thread_pool.h"
#include "windows.h"

namespace gridsample {
namespace {

// The tuning constants of path selection and tiling, each with its reason; measured on x86
// only (docs/benchmarks.md has the figures, and what ARM hardware would need measured).
struct Tuning {
  // Tap combinations held per tile on the generic path: the plan (about 16 bytes each) stays
  // in L2 while all channels reuse it.
  static constexpr size_t kPlanBudget = 16384;
  // Weights planned per tile on the pair and quad paths: larger tiles read each input plane
  // fewer times, smaller ones keep the plan nearer the core (8192 beat 4096 and 16384).
  static constexpr size_t kWindowPlanBudget = 8192;
  // Below this many weighted taps a call stays on the calling thread.
  static constexpr int64_t kParallelThreshold = 1 << 16;
  // The channels-last copy holds at most this many floats, 32 MB: one batch item's copy must
  // fit.
  static constexpr size_t kMaxChannelsLast = size_t{8} << 20;
  // Input elements per work item of the channels-last copy (whole kRowBlocks of locations):
  // enough work items for every thread even when the planes are small.
  static constexpr size_t kToChannelsLastItem = size_t{1} << 16;
  // Channels-last needs this many channels (fewer leave its per-location work, a broadcast
  // weight per tap, shared by too few) and 2 to 4 axes (1-D gathers are too cheap to beat) and
  // an output at least half the input (the copy reads all of it). Then linear sampling pays
  // with at least kChannelsLastWidth channels times rows per location (the pair path's scalar
  // loads are cheap below) and input planes past kChannelsLastPlane elements unless 2-D
  // (smaller ones stay in L1 for the pair path); cubic sampling pays in 2-D, and in 3-D from
  // kChannelsLastCubic3D channels (64 taps a location: the quad path's loads stay cheaper).
  static constexpr size_t kChannelsLastChannels = 8;
  static constexpr size_t kChannelsLastWidth = 32;
  static constexpr size_t kChannelsLastPlane = 4096;
  static constexpr size_t kChannelsLastCubic3D = 12;
  // The channels-last path prefetches each block's output lines before it transposes its sums
  // into them when one batch item's output passes this many bytes: the lines of a larger
  // output are mostly not in L2, and each store would wait for its own (W6 1.2x, W1 1.1x as
  // fast); a smaller one stays in L2 between calls, where the prefetches only cost (W3's 256
  // KiB items: 0.97x).
  static constexpr size_t kPrefetchOutput = size_t{1} << 20;
  // The pair path writes float32 outputs of more than this many bytes (per call) with
  // non-temporal stores (PairFlags::stream_output): each of their lines is otherwise read from
  // memory before it is overwritten, and evicts the input and grid the call still reads (W2, a
  // 12 MB output: 1.2-1.4x as fast; 6 MB: 1.04x; 3 MB and less: no gain or a loss, as such an
  // output may stay in the caches for the caller; docs/benchmarks.md).
  static constexpr size_t kStreamOutput = size_t{4} << 20;
  // The generic and nearest paths split channels over threads from this many per thread: two
  // threads splitting locations each read every input plane (W5 at 2 threads was slower than
  // at 1), and a block of channels shares its tile's plan.
  static constexpr size_t kChannelBlocks = 4;
};

size_t RoundUp(size_t n, size_t block) { return (n + block - 1) / block * block; }

// Whether the channels-last path pays for sampling windows of `taps` (2: linear, 4: cubic) in
// `rows` rows per location, against the pair or quad path (Tuning; docs/benchmarks.md).
bool ChannelsLastPays(const Problem& p, size_t taps, size_t rows) {
  const size_t channels = static_cast<size_t>(p.channels);
  if (p.rank < 2 || channels < Tuning::kChannelsLastChannels || 2 * p.out_plane < p.in_plane) {
    return false;
  }
  if (taps == 4) return p.rank == 2 || channels >= Tuning::kChannelsLastCubic3D;
  return channels * rows >= Tuning::kChannelsLastWidth &&
         (p.rank == 2 || static_cast<size_t>(p.in_plane) > Tuning::kChannelsLastPlane);
}

std::atomic<int> forced_path{-1};  // ForceSamplerPathForTest's path, or -1
// ForcePairFlagsForTest's flags (hardware_gathers in bit 0, stream_output in bit 1), or -1.
std::atomic<int> forced_pair_flags{-1};

// The channels-last copy of up to Tuning::kMaxChannelsLast floats (ChoosePath keeps one batch
// item within it), kept by each calling thread for its next call: a fresh copy of a few
// megabytes costs the kernel's page faults, as much as the path saves (docs/benchmarks.md).
// Throws std::bad_alloc.
float* KeptCopy(size_t floats) {
  thread_local AlignedRow<float> kept;
  thread_local size_t size = 0;
  if (size < floats) {
    kept.reset();  // the old one first: both need not fit at once
    size = 0;
    kept = AllocateRow<float>(floats);
    size = floats;
  }
  return kept.get();
}

// The paths that plan windows of adjacent elements (PlanWindowsTile) rather than per-axis taps.
constexpr bool IsWindowPath(SamplerPath path) {
  return path == SamplerPath::kPairs || path == SamplerPath::kChannelsLast ||
         path == SamplerPath::kQuads || path == SamplerPath::kPixelPairs;
}

// Whether the kernels see X and Y channels-last: with one channel, both layouts are the same
// memory, and the planar paths take it.
bool ChannelsLast(const Problem& p) { return p.layout == Layout::kChannelsLast && p.channels > 1; }

// The element offset of channel c of batch item n in X (plane = in_plane) or Y (out_plane), in
// either layout; the channel's pixels are then PixelStep apart.
int64_t ChannelStart(const Problem& p, int64_t n, int64_t c, int64_t plane) {
  return p.layout == Layout::kChannelsLast ? n * plane * p.channels + c
                                           : (n * p.channels + c) * plane;
}
int64_t PixelStep(const Problem& p) { return p.layout == Layout::kChannelsLast ? p.channels : 1; }

// The per-call constants every tile needs.
struct CallSetup {
  SamplerPath path;
  const Problem* problem;
  Options options;
  size_t taps;          // per axis
  size_t combinations;  // taps^rank
  size_t tile;          // locations per tile, a multiple of kRowBlock
  int64_t tiles_per_batch;
  // The window paths (IsWindowPath; windows.h): linear pairs (PlanLinearPairs) or cubic quads
  // (PlanCubicQuads), `rows` = taps^(r-1) rows per location, each starting at a row delta.
  PairKind pair_kind;
  size_t rows;
  int32_t row_deltas[kMaxWindowRows];
  // The channels-last path (channels_last.h) when padded_channels > 0: the pair or quad path's
  // plan, and the input of batch items pixels_batch.. with the channels of each pixel side by
  // side, padded_channels apart: a copy, or X itself (float32 channels-last X whose channels
  // are a multiple of kChannelPad).
  size_t padded_channels;
  const float* pixels;
  int64_t pixels_batch;
  bool prefetch_output;  // PathChoice::prefetch_output
  PairFlags pair_flags;  // PathChoice::pair_flags
  // Elements between a channel's adjacent pixels in X and Y: 1, or C channels-last.
  int64_t pixel_step;
  // Integer and bool X on the generic path: fixed-point weights summed exactly (convert.h).
  bool exact;
  // Integer and bool X: kFixedBits of X's dtype; 0 for the other dtypes.
  int fixed_bits;
};

// Scratch of one worker, sized once per call on the calling thread (so that an allocation
// failure is reported, not thrown on a worker) and reused across the worker's tiles. Every
// row is `tile` long, a multiple of kRowBlock, so rows stay aligned for the kernels.
template <typename C>
struct Scratch {
  int64_t* axis_offsets = nullptr;  // [axis][tap][location]
  C* axis_weights = nullptr;        // [axis][tap][location]
  int64_t* offsets = nullptr;       // [combination][location]
  C* weights = nullptr;             // [combination][location]
  C* values = nullptr;              // [location]
  C* acc = nullptr;                 // [location]
  int64_t* fixed = nullptr;         // [combination][location]: integer outputs' weights
  ExactSum<C>* exact = nullptr;     // [location]: integer outputs' sums
  std::vector<size_t> pick;         // one tap per axis: the current combination
  // Integer outputs: one location's taps and fixed-point weights (SplitFixedWeights).
  std::vector<C> location_weights;
  std::vector<int64_t> location_offsets, location_fixed;
  // Pair and quad paths only.
  int32_t* base_offsets = nullptr;   // [location]
  float* row_weights = nullptr;      // [weight][location] (linear_pairs.h, cubic_quads.h)
  float* grid_values = nullptr;      // [location][axis]: a float16/bfloat16 grid as float32
  AlignedRow<unsigned char> memory;  // all of the rows above

  // One block for every row, each aligned for the kernels: a small call's cost is mostly
  // allocation. Uninitialised (no per-call memset): every entry is written before it is read.
  void Allocate(const CallSetup& setup) {
    const size_t rank = setup.problem->rank, tile = setup.tile;
    size_t total = 0;
    const auto reserve = [&total](size_t bytes) {
      const size_t at = RoundUp(total, kRowAlignment);
      total = at + bytes;
      return at;
    };
    const size_t acc_at = reserve(tile * sizeof(C));
    if (IsWindowPath(setup.path)) {
      const size_t base_at = reserve(tile * sizeof(int32_t));
      const size_t weights_at =
          reserve(WindowWeights(setup.taps, setup.rows) * tile * sizeof(float));
      const size_t grid_at = reserve(rank * tile * sizeof(float));
      memory = AllocateRow<unsigned char>(total);
      acc = At<C>(acc_at);
      base_offsets = At<int32_t>(base_at);
      row_weights = At<float>(weights_at);
      grid_values = At<float>(grid_at);
      return;
    }
    const size_t axis_offsets_at = reserve(rank * setup.taps * tile * sizeof(int64_t));
    const size_t axis_weights_at = reserve(rank * setup.taps * tile * sizeof(C));
    const size_t offsets_at = reserve(setup.combinations * tile * sizeof(int64_t));
    const size_t weights_at = reserve(setup.combinations * tile * sizeof(C));
    const size_t values_at = reserve(tile * sizeof(C));
    const size_t fixed_at = setup.exact ? reserve(setup.combinations * tile * sizeof(int64_t)) : 0;
    const size_t exact_at = setup.exact ? reserve(tile * sizeof(ExactSum<C>)) : 0;
    memory = AllocateRow<unsigned char>(total);
    acc = At<C>(acc_at);
    axis_offsets = At<int64_t>(axis_offsets_at);
    axis_weights = At<C>(axis_weights_at);
    offsets = At<int64_t>(offsets_at);
    weights = At<C>(weights_at);
    values = At<C>(values_at);
    if (setup.exact) {
      fixed = At<int64_t>(fixed_at);
      exact = At<ExactSum<C>>(exact_at);
      location_weights.resize(rank * setup.taps);
      location_offsets.resize(rank * setup.taps);
      location_fixed.resize(setup.combinations);
    }
    pick.resize(rank);
  }
  template <typename T>
  T* At(size_t at) {
    return reinterpret_cast<T*>(memory.get() + at);
  }
};

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

// The grid values of locations l0.. of batch item n, as stored.
template <DType GD>
const typename Traits<GD>::Storage* GridAt(const Problem& p, const void* grid, int64_t n,
                                           int64_t l0) {
  return static_cast<const typename Traits<GD>::Storage*>(grid) +
         (n * p.out_plane + l0) * static_cast<int64_t>(p.rank);
}

// Plans one tile: the taps of every axis at every location, then (for linear and cubic) the
// weight and offset of every combination of one tap per axis, in odometer order (last axis
// fastest, as the reference sums them).
template <DType GD, typename C>
void PlanTile(const CallSetup& setup, const void* grid, int64_t n, int64_t l0, size_t count,
              Scratch<C>* s) {
  const Problem& p = *setup.problem;
  const size_t r = p.rank, taps = setup.taps, pitch = setup.tile;
  const bool weighted = setup.options.mode != Mode::kNearest;  // nearest copies: no weights
  const auto* coords = GridAt<GD>(p, grid, n, l0);
  if constexpr (GD == DType::kFloat32) {
    if (setup.path == SamplerPath::kNearestPlan) {  // one offset each
      PlanNearest(coords, r, p.in.data(), p.stride.data(), setup.options, count, s->offsets);
      return;
    }
  }
  for (size_t i = 0; i < count; ++i, coords += r) {
    for (size_t a = 0; a < r; ++a) {
      int64_t offsets[4];
      C weights[4];
      // grid[..., 0] is the innermost axis: spatial axis a reads component r-1-a.
      GridValueTaps(ToCompute<GD>(coords[r - 1 - a]), p.in[a], p.stride[a], setup.options, offsets,
                    weights);
      for (size_t j = 0; j < taps; ++j) {
        s->axis_offsets[(a * taps + j) * pitch + i] = offsets[j];
        s->axis_weights[(a * taps + j) * pitch + i] = weights[j];
      }
    }
  }
  if (weighted && setup.exact) {  // fixed-point weights, a location at a time
    C* weights = s->location_weights.data();
    int64_t* offsets = s->location_offsets.data();
    int64_t* fixed = s->location_fixed.data();
    for (size_t i = 0; i < count; ++i) {
      for (size_t a = 0; a < r * taps; ++a) {
        weights[a] = s->axis_weights[a * pitch + i];
        offsets[a] = s->axis_offsets[a * pitch + i];
      }
      SplitFixedWeights(r, taps, setup.fixed_bits, weights, offsets, fixed);
      for (size_t k = 0; k < setup.combinations; ++k) s->fixed[k * pitch + i] = fixed[k];
    }
  }
  for (size_t row = 0; weighted && row < r * taps; ++row) {  // the kernels read tails: 0
    std::fill(&s->axis_weights[row * pitch + count], &s->axis_weights[(row + 1) * pitch], C(0));
  }

  std::fill(s->pick.begin(), s->pick.end(), 0);
  for (size_t k = 0; k < setup.combinations; ++k) {
    int64_t* offset_row = s->offsets + k * pitch;
    C* weight_row = s->weights + k * pitch;
    std::fill(offset_row, offset_row + count, 0);
    const bool products = weighted && !setup.exact;
    if (products) std::fill(weight_row, weight_row + pitch, C(1));
    for (size_t a = 0; a < r; ++a) {
      const size_t row = (a * taps + s->pick[a]) * pitch;
      const int64_t* axis_offset = s->axis_offsets + row;
      for (size_t i = 0; i < count; ++i) offset_row[i] = CombineTaps(offset_row[i], axis_offset[i]);
      if (products) MulRow(weight_row, s->axis_weights + row, weight_row, pitch);
    }
    for (size_t a = r; a-- > 0;) {
      if (++s->pick[a] < taps) break;
      s->pick[a] = 0;
    }
  }
}

// The element kind the pair path reads for dtype D (the registry's Pair column).
template <DType D>
constexpr PairKind PairKindOf() {
  switch (D) {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, Grid, Pair, ...) \
  case DType::k##Enum:                                                              \
    return PairKind::Pair;
#include "gridsample/dtypes.inc"
  }
  return PairKind::kNone;
}

// Plans one tile for the pair or quad path (a float32-computed grid: float32, float16,
// bfloat16).
template <DType GD>
void PlanWindowsTile(const CallSetup& setup, const void* grid, int64_t n, int64_t l0, size_t count,
                     Scratch<float>* s) {
  const Problem& p = *setup.problem;
  const auto* coords = GridAt<GD>(p, grid, n, l0);
  const float* values;
  if constexpr (std::is_same<typename Traits<GD>::Storage, float>::value) {
    values = coords;
  } else {
    for (size_t i = 0; i < count * p.rank; ++i) s->grid_values[i] = ToCompute<GD>(coords[i]);
    values = s->grid_values;
  }
  if (setup.options.mode == Mode::kCubic) {
    PlanCubicQuads(values, p.rank, p.in.data(), p.stride.data(), setup.options, count, setup.tile,
                   s->base_offsets, s->row_weights);
  } else {
    PlanLinearPairs(values, p.rank, p.in.data(), p.stride.data(), setup.options, setup.fixed_bits,
                    count, setup.tile, s->base_offsets, s->row_weights);
  }
}

// The value at one location as the generic path computes it, tap by tap: for the few outputs
// the pair and quad kernels flag as NaN, which may come from a non-finite input element that
// the sum skips (outside the input) or weighs by 0.
template <DType XD, DType GD>
float ExactValue(const CallSetup& setup, const typename Traits<GD>::Storage* coords,
                 const typename Traits<XD>::Scalar* in) {
  const Problem& p = *setup.problem;
  const size_t r = p.rank;
  int64_t taps[kMaxPairRank][4];
  float weights[kMaxPairRank][4];
  for (size_t a = 0; a < r; ++a) {
    GridValueTaps(ToCompute<GD>(coords[r - 1 - a]), p.in[a], p.stride[a], setup.options, taps[a],
                  weights[a]);
  }
  float acc = 0;
  for (size_t k = 0; k < setup.combinations; ++k) {
    int64_t offset = 0;
    float weight = 1;
    size_t digits = k;  // one tap per axis, the last axis fastest
    size_t picks[kMaxPairRank];
    for (size_t a = r; a-- > 0; digits /= setup.taps) picks[a] = digits % setup.taps;
    for (size_t a = 0; a < r; ++a) {
      const size_t tap = picks[a];
      offset = CombineTaps(offset, taps[a][tap]);
      weight *= weights[a][tap];
    }
    acc += TapValue<XD>(in, offset, setup.pixel_step, 0) * weight;
  }
  return acc;
}

// Recomputes tap by tap the outputs of one channel (the channel at `in`, its locations l0.. of
// batch item n at dst, both pixel_step apart) that a window kernel left NaN. A NaN sum gives a
// NaN output and a number never does (float16 and bfloat16 overflow to infinity), so the
// outputs say which.
template <DType XD, DType GD>
void RecomputeNaNs(const CallSetup& setup, const void* grid, int64_t n, int64_t l0, size_t count,
                   const typename Traits<XD>::Scalar* in, typename Traits<XD>::Storage* dst) {
  const Problem& p = *setup.problem;
  const auto* coords = GridAt<GD>(p, grid, n, l0);
  const size_t step = static_cast<size_t>(setup.pixel_step);
  for (size_t i = 0; i < count; ++i) {
    if (std::isnan(ToCompute<XD>(dst[i * step]))) {
      dst[i * step] = FromCompute<XD>(ExactValue<XD, GD>(setup, coords + i * p.rank, in));
    }
  }
}

// The pair (or quad) path for every channel of a planned tile.
template <DType XD, DType GD>
void SampleWindowsTile(const CallSetup& setup, const void* grid, const void* x, void* y, int64_t n,
                       int64_t l0, size_t count, Scratch<float>* s) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  for (int64_t c = 0; c < p.channels; ++c) {
    const int64_t plane_index = n * p.channels + c;
    const Storage* in = static_cast<const Storage*>(x) + plane_index * p.in_plane;
    Storage* dst = static_cast<Storage*>(y) + plane_index * p.out_plane + l0;
    bool flagged = false;
    if constexpr (std::is_same<Storage, float>::value) {
      if (setup.options.mode == Mode::kCubic) {
        flagged = SampleCubicQuads(in, s->base_offsets, setup.row_deltas, s->row_weights,
                                   setup.rows, setup.tile, count, dst);
      }
    }
    if (setup.options.mode != Mode::kCubic) {
      // Narrow outputs need no float sums: their NaN outputs say where the sums were NaN.
      float* sums = nullptr;
      if constexpr (std::is_same<Storage, float>::value) sums = dst;
      flagged =
          SampleLinearPairs(setup.pair_kind, in, s->base_offsets, setup.row_deltas, s->row_weights,
                            setup.rows, setup.tile, count, setup.pair_flags, sums, dst);
    }
    if (flagged) RecomputeNaNs<XD, GD>(setup, grid, n, l0, count, in, dst);
  }
}

// The channels-last path for every channel of a planned tile.
template <DType XD, DType GD>
void SampleChannelsLastTile(const CallSetup& setup, const void* grid, const void* x, void* y,
                            int64_t n, int64_t l0, size_t count, Scratch<float>* s) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  const size_t padded = setup.padded_channels;
  const float* pixels =
      setup.pixels + static_cast<size_t>((n - setup.pixels_batch) * p.in_plane) * padded;
  Storage* out =
      static_cast<Storage*>(y) + ChannelStart(p, n, 0, p.out_plane) + l0 * setup.pixel_step;
  const bool last = ChannelsLast(p);
  const bool flagged =
      SampleChannelsLast(setup.pair_kind, pixels, static_cast<size_t>(p.channels), padded,
                         s->base_offsets, setup.row_deltas, s->row_weights, setup.taps, setup.rows,
                         setup.tile, count, out, last ? 1 : static_cast<size_t>(p.out_plane),
                         last ? static_cast<size_t>(p.channels) : 1, setup.prefetch_output);
  for (int64_t c = 0; flagged && c < p.channels; ++c) {
    RecomputeNaNs<XD, GD>(setup, grid, n, l0, count,
                          static_cast<const Storage*>(x) + ChannelStart(p, n, c, p.in_plane),
                          out + (last ? c : c * p.out_plane));
  }
}

// The pixel-pair path for every channel of a planned tile (channels-last X and Y).
template <DType XD, DType GD>
void SamplePixelPairsTile(const CallSetup& setup, const void* grid, const void* x, void* y,
                          int64_t n, int64_t l0, size_t count, Scratch<float>* s) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  const Storage* in = static_cast<const Storage*>(x) + ChannelStart(p, n, 0, p.in_plane);
  Storage* out =
      static_cast<Storage*>(y) + ChannelStart(p, n, 0, p.out_plane) + l0 * setup.pixel_step;
  const bool flagged =
      SamplePixelPairs(setup.pair_kind, static_cast<size_t>(p.channels), in, s->base_offsets,
                       setup.row_deltas, s->row_weights, setup.rows, setup.tile, count, out);
  for (int64_t c = 0; flagged && c < p.channels; ++c) {
    RecomputeNaNs<XD, GD>(setup, grid, n, l0, count, in + c, out + c);
  }
}

// Samples every channel of one planned tile.
template <DType XD, typename C>
void SampleTile(const CallSetup& setup, const void* x, void* y, int64_t n, int64_t l0, size_t count,
                int64_t c0, int64_t c1, Scratch<C>* s) {
  using XT = Traits<XD>;
  using Storage = typename XT::Storage;
  const Problem& p = *setup.problem;
  const size_t pitch = setup.tile;
  // The plan's offsets count pixels; a channel's pixels are `step` elements apart.
  const int64_t step = setup.pixel_step;
  // Nearest: whether every location of the tile reads an input pixel (none outside under zeros
  // padding, none non-finite), as on most calls; then each channel's copy has no case per
  // location (W5 1.11 times as fast).
  bool all_read = setup.options.mode == Mode::kNearest;
  for (size_t i = 0; all_read && i < count; ++i) all_read = s->offsets[i] >= 0;
  for (int64_t c = c0; c < c1; ++c) {
    const Storage* plane = static_cast<const Storage*>(x) + ChannelStart(p, n, c, p.in_plane);
    Storage* out = static_cast<Storage*>(y) + ChannelStart(p, n, c, p.out_plane) + l0 * step;
    if (setup.options.mode == Mode::kNearest) {
      // A copy: exact for every type, strings included.
      const int64_t* offsets = s->offsets;
      if (all_read && step == 1) {  // planes: no multiply either (W5 at 2 threads 1.07x)
        for (size_t i = 0; i < count; ++i) out[i] = CopyValue<XD>(plane[offsets[i]]);
        continue;
      }
      if (all_read) {
        for (size_t i = 0; i < count; ++i) out[i * step] = CopyValue<XD>(plane[offsets[i] * step]);
        continue;
      }
      for (size_t i = 0; i < count; ++i) {
        const int64_t offset = offsets[i];
        out[i * step] = offset >= 0          ? CopyValue<XD>(plane[offset * step])
                        : offset == kZeroTap ? Storage{}
                                             : NonFiniteValue<XD>();
      }
      continue;
    }
    if constexpr (kExactOutputs<XD>) {
      // The exact sum of fixed-point weights times the integer taps (convert.h).
      ExactSum<C>* acc = s->exact;
      std::fill(acc, acc + count, ExactSum<C>(0));
      for (size_t k = 0; k < setup.combinations; ++k) {
        const int64_t* offsets = s->offsets + k * pitch;
        const int64_t* fixed = s->fixed + k * pitch;
        for (size_t i = 0; i < count; ++i) {
          if (offsets[i] >= 0) {
            acc[i] += static_cast<ExactSum<C>>(fixed[i]) *
                      static_cast<ExactSum<C>>(ExactTap<XD>(plane[offsets[i] * step]));
          }
        }
      }
      for (size_t i = 0; i < count; ++i) out[i * step] = FromExact<XD>(acc[i]);
    } else if constexpr (XT::kConversion != Conversion::kString) {
      using Scalar = typename XT::Scalar;
      const auto* in = reinterpret_cast<const Scalar*>(plane);
      auto* dst = reinterpret_cast<Scalar*>(out);
      C* acc = s->acc;
      C* values = s->values;
      for (int part = 0; part < XT::kParts; ++part) {
        std::fill(acc, acc + pitch, C(0));
        std::fill(values + count, values + pitch, C(0));
        for (size_t k = 0; k < setup.combinations; ++k) {
          const int64_t* offsets = s->offsets + k * pitch;
          for (size_t i = 0; i < count; ++i) {
            values[i] = TapValue<XD>(in, offsets[i], step, part);
          }
          MulAddRow(values, s->weights + k * pitch, acc, pitch);
        }
        for (size_t i = 0; i < count; ++i) {
          dst[i * step * XT::kParts + part] = FromCompute<XD>(acc[i]);
        }
      }
    }
  }
}

// The path, channels-last padding, tile and threads of one call: the one place they are chosen.
struct PathChoice {
  SamplerPath path;
  size_t padded_channels;  // the channels-last path's channels per pixel, else 0
  bool copy_pixels;        // the channels-last path reads a copy of X (else X itself)
  bool prefetch_output;    // the channels-last path prefetches its output lines (kPrefetchOutput)
  PairFlags pair_flags;    // how the pair path gathers its pairs and stores its sums
  size_t tile;             // locations per tile, a multiple of kRowBlock
  size_t threads;
  size_t channel_blocks;  // work items split each tile's channels in this many blocks
};

// What the dtypes of a call allow (PathTypesOf): the paths' element kinds and grid types.
struct PathTypes {
  PairKind pair_kind;
  bool windows;        // X has a pair kind and the grid computes in float32
  bool channels_last;  // ... and the pair kind is a float one
  bool float32_x;
  bool float32_grid;
  size_t x_bytes;  // bytes per element of X
};

template <DType XD, DType GD>
constexpr PathTypes PathTypesOf() {
  constexpr PairKind kPairKind = PairKindOf<XD>();
  constexpr bool kWindows =
      kPairKind != PairKind::kNone && std::is_same<typename Traits<GD>::Compute, float>::value;
  return {kPairKind,
          kWindows,
          kWindows && (kPairKind == PairKind::kF32 || kPairKind == PairKind::kF16 ||
                       kPairKind == PairKind::kBF16),
          XD == DType::kFloat32,
          GD == DType::kFloat32,
          sizeof(typename Traits<XD>::Storage)};
}

PathChoice ChoosePath(const Problem& p, const Options& options, const PathTypes& types) {
  const size_t taps = static_cast<size_t>(TapsPerAxis(options.mode));
  size_t combinations = 1;
  for (size_t a = 0; a < p.rank; ++a) combinations *= taps;
  const size_t rows = combinations / taps;
  // Where each path can sample the call at all: its element kinds, grid type, ranks, sizes and
  // layout. The pair and quad kernels read planes; channels-last X goes to the kernels that
  // read pixels.
  const bool last = ChannelsLast(p);
  const size_t channels = static_cast<size_t>(p.channels);
  const bool small_plane = p.in_plane <= kMaxWindowPlane;
  const bool pairs_fit = options.mode == Mode::kLinear && types.windows && p.rank <= kMaxPairRank &&
                         p.in[p.rank - 1] >= 2 && small_plane;
  const bool quads_fit = options.mode == Mode::kCubic && types.windows && types.float32_x &&
                         p.rank <= kMaxQuadRank && small_plane &&
                         std::all_of(p.in.begin(), p.in.end(), [](int64_t e) { return e >= 4; });
  // Channels-last float32 X whose pixels fill whole blocks of kChannelPad is read as it is.
  const bool direct = last && types.float32_x && channels % kChannelPad == 0;
  const size_t padded = direct ? channels : RoundUp(channels, kChannelPad);
  bool can[kSamplerPaths] = {};
  auto at = [&can](SamplerPath path) -> bool& { return can[static_cast<int>(path)]; };
  at(SamplerPath::kGeneric) = true;
  at(SamplerPath::kNearestPlan) =
      options.mode == Mode::kNearest && types.float32_grid && p.rank <= kMaxPairRank && small_plane;
  at(SamplerPath::kPairs) = pairs_fit && !last;
  at(SamplerPath::kQuads) = quads_fit && !last;
  at(SamplerPath::kChannelsLast) =
      types.channels_last && (pairs_fit || quads_fit) &&
      (direct || static_cast<size_t>(p.in_plane) <= Tuning::kMaxChannelsLast / padded);
  at(SamplerPath::kPixelPairs) = last && pairs_fit && PixelPairsTake(types.pair_kind, channels);
  // The fastest that can, as measured (Tuning), unless a test forces one that can. For
  // channels-last X, the kernels that read pixels beat the generic path whatever the sizes.
  PathChoice choice{SamplerPath::kGeneric, 0, false, false, PairFlags{}, 0, 0, 1};
  for (SamplerPath path : {SamplerPath::kNearestPlan, SamplerPath::kPairs, SamplerPath::kQuads}) {
    if (at(path)) choice.path = path;
  }
  if (at(SamplerPath::kChannelsLast) && (last || ChannelsLastPays(p, taps, rows))) {
    choice.path = SamplerPath::kChannelsLast;
  }
  if (at(SamplerPath::kPixelPairs)) choice.path = SamplerPath::kPixelPairs;
  const int forced = forced_path.load(std::memory_order_relaxed);
  if (forced >= 0 && can[forced]) choice.path = static_cast<SamplerPath>(forced);
  // Whether one batch item's planes of `plane` elements pass `bytes` (kPrefetchOutput).
  const auto item_passes = [&](int64_t plane, size_t bytes) {
    return static_cast<double>(p.channels) * static_cast<double>(plane) *
               static_cast<double>(types.x_bytes) >
           static_cast<double>(bytes);
  };
  if (choice.path == SamplerPath::kPairs) {
    const int forced_flags = forced_pair_flags.load(std::memory_order_relaxed);
    if (forced_flags >= 0) {
      choice.pair_flags.hardware_gathers = (forced_flags & 1) != 0;
      choice.pair_flags.stream_output = (forced_flags & 2) != 0;
    } else {
      choice.pair_flags.hardware_gathers = HardwareGathersPay();
      choice.pair_flags.stream_output =
          static_cast<double>(p.y_count) * static_cast<double>(types.x_bytes) >
          static_cast<double>(Tuning::kStreamOutput);
    }
  }
  if (choice.path == SamplerPath::kChannelsLast) {
    choice.padded_channels = padded;
    choice.copy_pixels = !direct;
    choice.prefetch_output = item_passes(p.out_plane, Tuning::kPrefetchOutput);
  }

  const double work = static_cast<double>(p.y_count) * static_cast<double>(combinations);
  size_t threads = ThreadsForCall(options.num_threads);
  if (work < Tuning::kParallelThreshold) threads = 1;
  // On the generic and nearest paths, whose tiles read every input plane, threads split the
  // channels rather than the locations where there are enough of them (kChannelBlocks).
  if (!IsWindowPath(choice.path) && threads > 1 &&
      static_cast<size_t>(p.channels) >= Tuning::kChannelBlocks * threads) {
    choice.channel_blocks = threads;
  }
  // Tiles as large as the plan budget allows, but small enough that every thread gets a few
  // (a batch of one image must still spread over the threads).
  size_t tile = IsWindowPath(choice.path) ? Tuning::kWindowPlanBudget / combinations
                                          : std::max<size_t>(Tuning::kPlanBudget / combinations, 1);
  const size_t per_batch = static_cast<size_t>(p.out_plane);
  const size_t wanted_items = (4 * threads + choice.channel_blocks - 1) / choice.channel_blocks;
  if (threads > 1 && static_cast<size_t>(p.batch) < wanted_items) {
    const size_t per_item =
        (static_cast<size_t>(p.batch) * per_batch + wanted_items - 1) / wanted_items;
    tile = std::min(tile, std::max<size_t>(per_item, kRowBlock));
  }
  choice.tile = RoundUp(std::min(tile, per_batch), kRowBlock);
  const size_t tiles = static_cast<size_t>(p.batch) * ((per_batch + choice.tile - 1) / choice.tile);
  choice.threads = std::min(threads, tiles * choice.channel_blocks);
  return choice;
}

template <DType XD, DType GD>
void Run(const Problem& p, const TensorView& x, const TensorView& grid, const MutableTensorView& y,
         const Options& options) {
  using C = typename Traits<XD>::Compute;
  if (p.y_count == 0) return;
  constexpr PathTypes kTypes = PathTypesOf<XD, GD>();
  const PathChoice choice = ChoosePath(p, options, kTypes);
  CallSetup setup;
  setup.path = choice.path;
  setup.problem = &p;
  setup.options = options;
  setup.taps = static_cast<size_t>(TapsPerAxis(options.mode));
  setup.combinations = 1;
  for (size_t a = 0; a < p.rank; ++a) setup.combinations *= setup.taps;
  constexpr bool kWindowTypes = kTypes.windows, kChannelsLastTypes = kTypes.channels_last;
  constexpr bool kPixelTypes = kWindowTypes && PixelPairsKind(kTypes.pair_kind);
  setup.pair_kind = kTypes.pair_kind;  // read on the window paths only
  setup.rows = setup.combinations / setup.taps;
  if (IsWindowPath(setup.path)) {
    WindowRowDeltas(p.rank, setup.taps, p.in.data(), p.stride.data(), setup.row_deltas);
  }
  setup.fixed_bits = kExactOutputs<XD> ? kFixedBits<XD> : 0;
  setup.exact = kExactOutputs<XD> && !IsWindowPath(setup.path) && options.mode != Mode::kNearest;
  setup.padded_channels = choice.padded_channels;
  setup.prefetch_output = choice.prefetch_output;
  setup.pair_flags = choice.pair_flags;
  setup.pixels = nullptr;
  setup.pixels_batch = 0;
  setup.pixel_step = PixelStep(p);
  setup.tile = choice.tile;
  setup.tiles_per_batch =
      (p.out_plane + static_cast<int64_t>(setup.tile) - 1) / static_cast<int64_t>(setup.tile);
  const size_t threads = choice.threads;

  std::vector<Scratch<C>> scratch(threads);
  for (Scratch<C>& worker : scratch) worker.Allocate(setup);
  // The channels-last path copies and samples a few batch items at a time: one per thread, at
  // most as many as the kept copy holds, so that each item's pixels are sampled while they are
  // still in the cache of the core that copied them (W3 at 1 thread: 1.05x against 4 at a
  // time). The other paths, and the channels-last path reading X itself, take the whole batch
  // at once.
  int64_t batch_step = p.batch;
  float* pixels = nullptr;
  const size_t channels = static_cast<size_t>(p.channels);
  const size_t plane = static_cast<size_t>(p.in_plane), padded = setup.padded_channels;
  const bool copy = kChannelsLastTypes && choice.copy_pixels;
  if (copy) {
    batch_step = std::min({p.batch, static_cast<int64_t>(threads),
                           static_cast<int64_t>(Tuning::kMaxChannelsLast / (plane * padded))});
    pixels = KeptCopy(static_cast<size_t>(batch_step) * plane * padded);
    setup.pixels = pixels;
  } else if (padded > 0) {
    setup.pixels = static_cast<const float*>(x.data);
  }
  for (int64_t n0 = 0; n0 < p.batch; n0 += batch_step) {
    const int64_t batch_items = std::min(batch_step, p.batch - n0);
    if (copy) {
      const size_t per_item =
          RoundUp(std::max<size_t>(Tuning::kToChannelsLastItem / channels, 1), kRowBlock);
      const size_t blocks = (plane + per_item - 1) / per_item;
      ParallelFor(static_cast<size_t>(batch_items) * blocks, threads, [&](size_t item, size_t) {
        const size_t k = item / blocks, begin = item % blocks * per_item;
        const auto* from = static_cast<const typename Traits<XD>::Storage*>(x.data) +
                           (static_cast<size_t>(n0) + k) * channels * plane;
        float* to = pixels + k * plane * padded;
        const size_t end = std::min(plane, begin + per_item);
        if (ChannelsLast(p)) {
          PadChannelsLast(setup.pair_kind, from, channels, padded, begin, end, to);
        } else {
          ToChannelsLast(setup.pair_kind, from, channels, plane, padded, begin, end, to);
        }
      });
      setup.pixels_batch = n0;
    }
    // Items run block by block (ParallelFor gives each thread a contiguous share: one channel
    // block of every tile, whose planes are all it reads).
    const size_t channel_blocks = choice.channel_blocks;
    const size_t tiles = static_cast<size_t>(batch_items * setup.tiles_per_batch);
    const size_t items = tiles * channel_blocks;
    ParallelFor(items, std::min(threads, items), [&](size_t item, size_t worker) {
      const int64_t tile = static_cast<int64_t>(item % tiles);
      const int64_t n = n0 + tile / setup.tiles_per_batch;
      const int64_t l0 = tile % setup.tiles_per_batch * static_cast<int64_t>(setup.tile);
      const size_t count = static_cast<size_t>(
          std::min<int64_t>(static_cast<int64_t>(setup.tile), p.out_plane - l0));
      if constexpr (kWindowTypes) {
        if (IsWindowPath(setup.path)) {
          PlanWindowsTile<GD>(setup, grid.data, n, l0, count, &scratch[worker]);
          if constexpr (kPixelTypes) {
            if (setup.path == SamplerPath::kPixelPairs) {
              SamplePixelPairsTile<XD, GD>(setup, grid.data, x.data, y.data, n, l0, count,
                                           &scratch[worker]);
              return;
            }
          }
          if constexpr (kChannelsLastTypes) {
            if (setup.padded_channels > 0) {
              SampleChannelsLastTile<XD, GD>(setup, grid.data, x.data, y.data, n, l0, count,
                                             &scratch[worker]);
              return;
            }
          }
          SampleWindowsTile<XD, GD>(setup, grid.data, x.data, y.data, n, l0, count,
                                    &scratch[worker]);
          return;
        }
      }
      // Each channel block's worker plans the tile for itself.
      const size_t block = item / tiles;
      const int64_t c0 = static_cast<int64_t>(block * channels / channel_blocks);
      const int64_t c1 = static_cast<int64_t>((block + 1) * channels / channel_blocks);
      PlanTile<GD>(setup, grid.data, n, l0, count, &scratch[worker]);
      SampleTile<XD>(setup, x.data, y.data, n, l0, count, c0, c1, &scratch[worker]);
    });
  }
}

}  // namespace

const char* SamplerPathName(SamplerPath path) {
  switch (path) {
    case SamplerPath::kGeneric:
      return "generic";
    case SamplerPath::kNearestPlan:
      return "nearest_plan";
    case SamplerPath::kPairs:
      return "pairs";
    case SamplerPath::kChannelsLast:
      return "channels_last";
    case SamplerPath::kQuads:
      return "quads";
    case SamplerPath::kPixelPairs:
      return "pixel_pairs";
  }
  return nullptr;
}

void ForceSamplerPathForTest(std::optional<SamplerPath> path) {
  forced_path.store(path ? static_cast<int>(*path) : -1, std::memory_order_relaxed);
}

void ForcePairFlagsForTest(std::optional<PairFlags> flags) {
  const int bits = flags ? static_cast<int>(flags->hardware_gathers) |
                               static_cast<int>(flags->stream_output) << 1
                         : -1;
  forced_pair_flags.store(bits, std::memory_order_relaxed);
}

Status RunSampler(const Problem& problem, const TensorView& x, const TensorView& grid,
                  const MutableTensorView& y, const Options& options) {
  try {
    VisitDTypes(x.dtype, grid.dtype, [&](auto xd, auto gd) {
      Run<decltype(xd)::value, decltype(gd)::value>(problem, x, grid, y, options);
    });
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfRange, "y: out of memory for the sampling plan");
  } catch (const std::system_error& e) {  // the thread pool could not start its threads
    return Status(StatusCode::kOutOfRange, std::string("options.num_threads: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace gridsample
