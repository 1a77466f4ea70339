// The window paths' tile functions (IsWindowPath): the plan of a tile, then the pair, quad,
// channels-last or pixel-pair kernel over its channels, and the exact recomputation of the few
// outputs those kernels flag. Included by sampler.cc; the kernels are in the paths' own files.
#ifndef GRIDSAMPLE_SRC_WINDOW_TILES_H_
#define GRIDSAMPLE_SRC_WINDOW_TILES_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "call_setup.h"
#include "channels_last.h"
#include "convert.h"
#include "coords.h"
#include "cubic_quads.h"
#include "linear_pairs.h"
#include "pixel_pairs.h"
#include "window_plan.h"

namespace gridsample {

// Scratch of one worker on the window paths (as GenericScratch).
struct WindowScratch {
  int32_t* base_offsets = nullptr;  // [location]
  float* row_weights = nullptr;     // [weight][location] (linear_pairs.h, cubic_quads.h)
  float* grid_values = nullptr;     // [location][axis]: a float16/bfloat16 grid as float32
  ScratchArena arena;               // all of the rows above

  void Allocate(const CallSetup& setup) {
    const size_t tile = setup.choice.tile;
    const size_t base_at = arena.Reserve(tile * sizeof(int32_t));
    const size_t weights_at =
        arena.Reserve(WindowWeights(setup.taps, setup.rows) * tile * sizeof(float));
    const size_t grid_at = arena.Reserve(setup.problem->rank * tile * sizeof(float));
    arena.Allocate();
    base_offsets = arena.At<int32_t>(base_at);
    row_weights = arena.At<float>(weights_at);
    grid_values = arena.At<float>(grid_at);
  }
};

// Plans one tile for the window paths (a float32-computed grid: float32, float16, bfloat16) in
// s's rows; returns the view of that plan every window kernel takes.
template <DType GD>
WindowPlanView PlanWindowsTile(const CallSetup& setup, const void* grid, int64_t n, int64_t l0,
                               size_t count, WindowScratch* s) {
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
    PlanCubicQuads(values, p.rank, p.in.data(), p.stride.data(), setup.options, count,
                   setup.choice.tile, s->base_offsets, s->row_weights);
  } else {
    PlanLinearPairs(values, p.rank, p.in.data(), p.stride.data(), setup.options, setup.fixed_bits,
                    count, setup.choice.tile, s->base_offsets, s->row_weights);
  }
  WindowPlanView plan;
  plan.base_offsets = s->base_offsets;
  plan.row_deltas = setup.row_deltas;
  plan.row_weights = s->row_weights;
  plan.taps = setup.taps;
  plan.rows = setup.rows;
  plan.pitch = setup.choice.tile;
  plan.count = count;
  return plan;
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

// The pair (or quad) path for every channel of a planned tile (`plan`, of batch item n's
// locations l0..).
template <DType XD, DType GD>
void SampleWindowsTile(const CallSetup& setup, const WindowPlanView& plan, const void* grid,
                       const void* x, void* y, int64_t n, int64_t l0) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  const size_t plane_bytes = static_cast<size_t>(p.in_plane) * sizeof(Storage);
  const size_t next_plane = ScatteredWindows(plan, plane_bytes, sizeof(Storage)) ? plane_bytes : 0;
  for (int64_t c = 0; c < p.channels; ++c) {
    const int64_t plane_index = n * p.channels + c;
    const Storage* in = static_cast<const Storage*>(x) + plane_index * p.in_plane;
    Storage* dst = static_cast<Storage*>(y) + plane_index * p.out_plane + l0;
    bool flagged = false;
    if constexpr (std::is_same<Storage, float>::value) {
      if (setup.options.mode == Mode::kCubic) {
        flagged = SampleCubicQuads(in, plan, dst);
      }
    }
    if (setup.options.mode != Mode::kCubic) {
      // Narrow outputs need no float sums: their NaN outputs say where the sums were NaN.
      float* sums = nullptr;
      if constexpr (std::is_same<Storage, float>::value) sums = dst;
      flagged = SampleLinearPairs(setup.element_kind, in, plan, setup.choice.pair_flags,
                                  c + 1 < p.channels ? next_plane : 0, sums, dst);
    }
    if (flagged) RecomputeNaNs<XD, GD>(setup, grid, n, l0, plan.count, in, dst);
  }
}

// The channels-last path for `channels` of a planned tile, from batch item n's `pixels` of
// those channels, `padded` floats apart: all of them, or a group of planar X's
// (PathChoice::group_channels).
template <DType XD, DType GD>
void SampleChannelsLastTile(const CallSetup& setup, const WindowPlanView& plan, const void* grid,
                            const void* x, void* y, int64_t n, int64_t l0, const float* pixels,
                            ChannelRange channels, size_t padded) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  const int64_t first = static_cast<int64_t>(channels.first);
  Storage* out =
      static_cast<Storage*>(y) + ChannelStart(p, n, first, p.out_plane) + l0 * setup.pixel_step;
  const bool last = ChannelsLast(p);
  const bool flagged =
      SampleChannelsLast(setup.element_kind, pixels, channels.count, padded, plan, out,
                         last ? 1 : static_cast<size_t>(p.out_plane),
                         last ? static_cast<size_t>(p.channels) : 1, setup.choice.last_flags);
  for (size_t c = 0; flagged && c < channels.count; ++c) {
    const int64_t channel = first + static_cast<int64_t>(c);
    RecomputeNaNs<XD, GD>(setup, grid, n, l0, plan.count,
                          static_cast<const Storage*>(x) + ChannelStart(p, n, channel, p.in_plane),
                          out + (last ? c : c * static_cast<size_t>(p.out_plane)));
  }
}

// The pixel-pair path for every channel of a planned tile (channels-last X and Y).
template <DType XD, DType GD>
void SamplePixelPairsTile(const CallSetup& setup, const WindowPlanView& plan, const void* grid,
                          const void* x, void* y, int64_t n, int64_t l0) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  const Storage* in = static_cast<const Storage*>(x) + ChannelStart(p, n, 0, p.in_plane);
  Storage* out =
      static_cast<Storage*>(y) + ChannelStart(p, n, 0, p.out_plane) + l0 * setup.pixel_step;
  const bool flagged =
      SamplePixelPairs(setup.element_kind, static_cast<size_t>(p.channels), in, plan, out);
  for (int64_t c = 0; flagged && c < p.channels; ++c) {
    RecomputeNaNs<XD, GD>(setup, grid, n, l0, plan.count, in + c, out + c);
  }
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_WINDOW_TILES_H_
