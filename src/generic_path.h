// The generic path: per-axis taps, then a row of offsets and weights per tap combination, summed
// channel by channel (and the nearest-plan path, which plans one offset per location and copies).
// It samples every call: every dtype, rank, mode, padding and layout. Included by sampler.cc.
#ifndef GRIDSAMPLE_SRC_GENERIC_PATH_H_
#define GRIDSAMPLE_SRC_GENERIC_PATH_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "call_setup.h"
#include "convert.h"
#include "coords.h"
#include "nearest.h"
#include "rows.h"

namespace gridsample {

// Scratch of one worker on these paths, sized once per call on the calling thread (so that an
// allocation failure is reported, not thrown on a worker) and reused across its tiles. Every
// row is `tile` long, a multiple of kRowBlock, so rows stay aligned for the kernels.
template <typename C>
struct GenericScratch {
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
  ScratchArena arena;  // all of the rows above

  void Allocate(const CallSetup& setup) {
    const size_t rank = setup.problem->rank, tile = setup.choice.tile;
    const size_t combinations = setup.combinations;
    const size_t acc_at = arena.Reserve(tile * sizeof(C));
    const size_t axis_offsets_at = arena.Reserve(rank * setup.taps * tile * sizeof(int64_t));
    const size_t axis_weights_at = arena.Reserve(rank * setup.taps * tile * sizeof(C));
    const size_t offsets_at = arena.Reserve(combinations * tile * sizeof(int64_t));
    const size_t weights_at = arena.Reserve(combinations * tile * sizeof(C));
    const size_t values_at = arena.Reserve(tile * sizeof(C));
    const size_t fixed_at = setup.exact ? arena.Reserve(combinations * tile * sizeof(int64_t)) : 0;
    const size_t exact_at = setup.exact ? arena.Reserve(tile * sizeof(ExactSum<C>)) : 0;
    arena.Allocate();
    acc = arena.At<C>(acc_at);
    axis_offsets = arena.At<int64_t>(axis_offsets_at);
    axis_weights = arena.At<C>(axis_weights_at);
    offsets = arena.At<int64_t>(offsets_at);
    weights = arena.At<C>(weights_at);
    values = arena.At<C>(values_at);
    if (setup.exact) {
      fixed = arena.At<int64_t>(fixed_at);
      exact = arena.At<ExactSum<C>>(exact_at);
      location_weights.resize(rank * setup.taps);
      location_offsets.resize(rank * setup.taps);
      location_fixed.resize(combinations);
    }
    pick.resize(rank);
  }
};

// Plans one tile: the taps of every axis at every location, then (for linear and cubic) the
// weight and offset of every combination of one tap per axis, in odometer order (last axis
// fastest, as the reference sums them).
template <DType GD, typename C>
void PlanTile(const CallSetup& setup, const void* grid, int64_t n, int64_t l0, size_t count,
              GenericScratch<C>* s) {
  const Problem& p = *setup.problem;
  const size_t r = p.rank, taps = setup.taps, pitch = setup.choice.tile;
  const bool weighted = setup.options.mode != Mode::kNearest;  // nearest copies: no weights
  const auto* coords = GridAt<GD>(p, grid, n, l0);
  if constexpr (GD == DType::kFloat32) {
    if (setup.choice.path == SamplerPath::kNearestPlan) {  // one offset each
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

// Nearest: one channel's copy (exact for every type, strings included) of the pixels `offsets`
// name. `all_read`: every location reads an input pixel (none outside under zeros padding, none
// non-finite), as on most calls; then the copy has no case per location.
template <DType XD>
void CopyNearest(const typename Traits<XD>::Storage* plane, const int64_t* offsets, size_t count,
                 int64_t step, bool all_read, typename Traits<XD>::Storage* out) {
  using Storage = typename Traits<XD>::Storage;
  if (all_read && step == 1) {  // planes: no multiply either
    // Elements copied as their bits (bool's are made 0 or 1, strings are objects).
    constexpr bool kBits = std::is_trivially_copyable<Storage>::value &&
                           Traits<XD>::kConversion != Conversion::kBool &&
                           (sizeof(Storage) & (sizeof(Storage) - 1)) == 0 && sizeof(Storage) <= 8;
    if constexpr (kBits) {
      CopyPlaneElements(sizeof(Storage), plane, offsets, count, out);
      return;
    }
    for (size_t i = 0; i < count; ++i) out[i] = CopyValue<XD>(plane[offsets[i]]);
    return;
  }
  if (all_read) {
    for (size_t i = 0; i < count; ++i) out[i * step] = CopyValue<XD>(plane[offsets[i] * step]);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const int64_t offset = offsets[i];
    out[i * step] = offset >= 0          ? CopyValue<XD>(plane[offset * step])
                    : offset == kZeroTap ? Storage{}
                                         : NonFiniteValue<XD>();
  }
}

// Integer and bool X: one channel's exact sums of fixed-point weights times the integer taps
// (convert.h).
template <DType XD, typename C>
void SumExact(const CallSetup& setup, const typename Traits<XD>::Storage* plane, size_t count,
              GenericScratch<C>* s, typename Traits<XD>::Storage* out) {
  const size_t pitch = setup.choice.tile;
  const int64_t step = setup.pixel_step;
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
}

// The other dtypes: one channel's sums of weights times taps in the compute type, component by
// component (complex X has two).
template <DType XD, typename C>
void SumFloat(const CallSetup& setup, const typename Traits<XD>::Storage* plane, size_t count,
              GenericScratch<C>* s, typename Traits<XD>::Storage* out) {
  using XT = Traits<XD>;
  using Scalar = typename XT::Scalar;
  const size_t pitch = setup.choice.tile;
  const int64_t step = setup.pixel_step;
  const auto* in = reinterpret_cast<const Scalar*>(plane);
  auto* dst = reinterpret_cast<Scalar*>(out);
  C* acc = s->acc;
  C* values = s->values;
  for (int part = 0; part < XT::kParts; ++part) {
    std::fill(acc, acc + pitch, C(0));
    std::fill(values + count, values + pitch, C(0));
    for (size_t k = 0; k < setup.combinations; ++k) {
      const int64_t* offsets = s->offsets + k * pitch;
      for (size_t i = 0; i < count; ++i) values[i] = TapValue<XD>(in, offsets[i], step, part);
      MulAddRow(values, s->weights + k * pitch, acc, pitch);
    }
    for (size_t i = 0; i < count; ++i) dst[i * step * XT::kParts + part] = FromCompute<XD>(acc[i]);
  }
}

// Samples channels [c0, c1) of one planned tile.
template <DType XD, typename C>
void SampleTile(const CallSetup& setup, const void* x, void* y, int64_t n, int64_t l0, size_t count,
                int64_t c0, int64_t c1, GenericScratch<C>* s) {
  using Storage = typename Traits<XD>::Storage;
  const Problem& p = *setup.problem;
  // The plan's offsets count pixels; a channel's pixels are `step` elements apart.
  const int64_t step = setup.pixel_step;
  const bool nearest = setup.options.mode == Mode::kNearest;
  bool all_read = nearest;
  for (size_t i = 0; all_read && i < count; ++i) all_read = s->offsets[i] >= 0;
  for (int64_t c = c0; c < c1; ++c) {
    const Storage* plane = static_cast<const Storage*>(x) + ChannelStart(p, n, c, p.in_plane);
    Storage* out = static_cast<Storage*>(y) + ChannelStart(p, n, c, p.out_plane) + l0 * step;
    if (nearest) {
      CopyNearest<XD>(plane, s->offsets, count, step, all_read, out);
    } else if constexpr (kExactOutputs<XD>) {
      SumExact<XD>(setup, plane, count, s, out);
    } else if constexpr (Traits<XD>::kConversion != Conversion::kString) {
      SumFloat<XD>(setup, plane, count, s, out);
    }
  }
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_GENERIC_PATH_H_
