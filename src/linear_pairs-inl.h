// The linear pair path, per SIMD target: linear interpolation of one-component data computed in
// float32, for 1 to 4 spatial axes. Included by linear_pairs.cc once per target (foreach_target).
//
// Plan (PlanWindowsForRank with PairAxis): every axis's two taps become a pair of adjacent indices
// inside the input with a weight each (coords.h, EncodePairTaps), so padding lives in the
// weights and the kernel has no edge cases. Per output location that leaves one base offset
// (the corner of the 2^r neighbourhood) and two weights for each of its 2^(r-1) rows. Lanes are
// computed as vectors; a vector with a grid value far outside or not finite, or a reflection
// that folds more than once, is planned lane by lane with the scalar coords.h instead, which
// gives the same numbers.
//
// Kernel (SampleLinearPairsForRank): per channel, each location's pair in each row is loaded with
// one scalar load (as one 16-, 32- or 64-bit integer), which measured faster than hardware gathers
// on L1/L2-resident data. Float32 and 8-bit pairs go straight into vectors (GatherPairs);
// 16-bit ones are copied through a block buffer. Then they are split, widened to float32 and
// weighed as vectors; float16 converts with F16C where x86 has it.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_LINEAR_PAIRS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_LINEAR_PAIRS_INL_H_
#undef GRIDSAMPLE_SRC_LINEAR_PAIRS_INL_H_
#else
#define GRIDSAMPLE_SRC_LINEAR_PAIRS_INL_H_
#endif

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "convert-inl.h"
#include "coords.h"
#include "hwy/highway.h"
#include "linear_pairs.h"
#include "plan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The pair of coordinates p in [0, size - 1] on an axis of size >= 2: it starts at floor(p), or
// at size - 2 where p = size - 1, whose t = 1 gives the left element weight +0 and the right
// one 1, as EncodePairTaps does. Returns the start; t is the right element's weight.
template <class D>
HWY_INLINE hn::Vec<D> InsidePair(D d, hn::Vec<D> p, const AxisExtent& axis, hn::Vec<D>& t) {
  const auto x0f = hn::Min(hn::Floor(p), hn::Set(d, axis.pair_last));
  t = hn::Sub(p, x0f);
  return x0f;
}

// The coordinates of grid values g on an axis of `size`, padded by border or reflection
// (PadCoordinateVector); false where a reflection folds more than once somewhere.
template <class D>
HWY_INLINE bool PaddedCoordinates(D d, hn::Vec<D> g, const AxisExtent& axis, const Options& options,
                                  hn::Vec<D>& p) {
  p = UnnormalizeVector(d, g, axis, options.align_corners);
  return PadCoordinateVector(d, p, axis, options);
}

// The pairs of one axis for the lanes of PaddedCoordinates' p, in registers: each lane's left
// element and the weights of it and the next. With a `complete_out`, also whether each lane's
// taps are all inside or weigh 0 where not (written under zeros padding only). kInside says
// that the padding is border or reflection and the axis has 2 or more elements, so that every
// pair lies inside: the edge cases' code is then left out.
template <bool kInside = false, class D>
HWY_INLINE void PairsAt(D d, hn::Vec<D> p, const AxisExtent& axis, const Options& options,
                        hn::Vec<hn::RebindToSigned<D>>& left, hn::Vec<D>& left_weight,
                        hn::Vec<D>& right_weight, int32_t* complete_out) {
  const hn::RebindToSigned<D> di;
  using V = hn::Vec<D>;
  const int64_t size = axis.size;
  const V one = hn::Set(d, 1.0f), zero = hn::Zero(d);
  if (kInside || (options.padding != Padding::kZeros && size >= 2)) {
    const V x0f = InsidePair(d, p, axis, right_weight);
    left = TruncateInRange(di, x0f);
    left_weight = hn::Sub(one, right_weight);
    return;
  }
  if (options.padding == Padding::kZeros) p = ClampFarVector(d, p, axis);  // others: inside
  const V x0f = hn::Floor(p);
  const V t = hn::Sub(p, x0f);
  const V w0 = hn::Sub(one, t);
  const auto x0 = TruncateInRange(di, x0f);
  const auto x1 = hn::Add(x0, hn::Set(di, 1));
  left = hn::Min(hn::Max(x0, hn::Zero(di)), hn::Set(di, axis.last_left));
  const auto x0_left = hn::RebindMask(d, hn::Eq(x0, left));
  const auto x1_left = hn::RebindMask(d, hn::Eq(x1, left));
  const auto x0_right = hn::RebindMask(d, hn::Eq(x0, hn::Add(left, hn::Set(di, 1))));
  left_weight = hn::IfThenElse(x0_left, w0, hn::IfThenElseZero(x1_left, t));
  const V right = hn::IfThenElse(x0_left, t, hn::IfThenElseZero(x0_right, w0));
  right_weight = size >= 2 ? right : zero;
  // Border and reflection keep x0 inside, and x1 too unless t = 0: their vector lanes are all
  // complete (StoreFixedPairWeights is told so); zeros padding need not be.
  if (complete_out != nullptr && options.padding == Padding::kZeros) {
    const auto end = hn::Set(di, static_cast<int32_t>(size));
    const auto x0_inside = hn::And(hn::Gt(x0, hn::Set(di, -1)), hn::Lt(x0, end));
    const auto x1_inside = hn::Lt(x1, end);
    const auto x1_weightless = hn::RebindMask(di, hn::Eq(t, zero));
    hn::Store(hn::VecFromMask(di, hn::And(x0_inside, hn::Or(x1_inside, x1_weightless))), di,
              complete_out);
  }
}

// Whether every lane of coordinates p (PaddedCoordinates') has both its taps inside an axis of
// 2 or more elements: where so under zeros padding, PairsAt<true>'s inside branch gives the
// same weights as the padded one (p = size - 1 too: weights 0 and 1 on the last pair) without
// its clamps, comparisons and selects. A NaN lane is not inside.
template <class D>
HWY_INLINE bool TapsInside(D d, hn::Vec<D> p, const AxisExtent& axis) {
  return axis.size >= 2 &&
         hn::AllTrue(d, hn::And(hn::Ge(p, hn::Zero(d)), hn::Le(p, hn::Set(d, axis.last))));
}

// The vector plan of one axis for the lanes of g (PaddedCoordinates, PairsAt), stored; false
// if some lane needs the scalar plan.
template <class D>
HWY_INLINE bool PlanAxisVector(D d, hn::Vec<D> g, const AxisExtent& axis, const Options& options,
                               int32_t* left_out, float* left_weight_out, float* right_weight_out,
                               int32_t* complete_out) {
  const hn::RebindToSigned<D> di;
  hn::Vec<decltype(di)> left;
  hn::Vec<D> p, left_weight, right_weight;
  if (!PaddedCoordinates(d, g, axis, options, p)) return false;
  // Fixed-point weights under zeros padding need each lane's completeness: the padded branch.
  if (complete_out == nullptr && options.padding == Padding::kZeros && TapsInside(d, p, axis)) {
    PairsAt<true>(d, p, axis, options, left, left_weight, right_weight, nullptr);
  } else {
    PairsAt(d, p, axis, options, left, left_weight, right_weight, complete_out);
  }
  hn::Store(left, di, left_out);
  hn::Store(left_weight, d, left_weight_out);
  hn::Store(right_weight, d, right_weight_out);
  return true;
}

// The pair path's axis plans for PlanWindowsForRank: vector (PlanAxisVector) and scalar
// (coords.h) into a block, the row weights of a block, and the plans in registers.
struct PairAxis {
  static constexpr size_t kTaps = 2;
  template <class D>
  static bool Vector(D d, hn::Vec<D> g, const AxisExtent& extent, const Options& options,
                     bool fixed, WindowBlock<2>* block, size_t axis) {
    return PlanAxisVector(d, g, extent, options, block->start[axis], block->weights[axis][0],
                          block->weights[axis][1], fixed ? block->complete[axis] : nullptr);
  }
  // Each row's two weights: float products, or with axes.fixed the fixed-point split of
  // `whole` in units of `unit`, whose lanes planned in vectors are finite, and complete unless
  // padded with zeros.
  template <size_t kRank, class D>
  static HWY_INLINE void StoreWeights(D d, const WindowBlock<2>& block, bool vector,
                                      const WindowAxes& axes, hn::Vec<D> whole, hn::Vec<D> unit,
                                      float* HWY_RESTRICT row_weights) {
    if (axes.fixed) {
      StoreFixedPairWeights<kRank>(d, block, whole, unit,
                                   vector && axes.options.padding != Padding::kZeros, axes.pitch,
                                   row_weights, std::make_index_sequence<kRank>());
    } else {
      StoreBlockProducts(d, block, axes.pitch, row_weights,
                         std::make_index_sequence<kRank * kTaps>());
    }
  }
  // The whole plan of a vector of locations in registers, the same numbers without the
  // WindowBlock between the axes and the weights: 2-D images whose pairs lie inside
  // (Inside2D), and on x86 the other 2-D images and 3-D volumes (InRegistersPadded;
  // WebAssembly's were slower) but for fixed-point weights under zeros padding, which need each
  // lane's completeness. False, with nothing stored, where the plan needs the block.
  template <size_t kRank, class D>
  static HWY_INLINE bool InRegisters(D d, hn::Vec<D> c0, hn::Vec<D> c1, hn::Vec<D> c2,
                                     const WindowAxes& axes, hn::Vec<D> whole, hn::Vec<D> unit,
                                     int32_t* HWY_RESTRICT base_out,
                                     float* HWY_RESTRICT weights_out) {
    if constexpr (kRank == 2) {
      if (!WithinVectorLimit(d, c0) || !WithinVectorLimit(d, c1)) return false;
      if (axes.inside) return Inside2D(d, c0, c1, axes, whole, unit, base_out, weights_out);
    }
    if constexpr ((kRank == 2 || kRank == 3) && GRIDSAMPLE_X86_BITS != 0) {
      if (axes.fixed && axes.options.padding == Padding::kZeros) return false;
      if constexpr (kRank == 3) {
        if (!WithinVectorLimit(d, c0) || !WithinVectorLimit(d, c1) || !WithinVectorLimit(d, c2)) {
          return false;
        }
        if (axes.inside) {
          return InRegistersPadded<3, true>(d, c0, c1, c2, axes, whole, unit, base_out,
                                            weights_out);
        }
      }
      return InRegistersPadded<kRank, false>(d, c0, c1, c2, axes, whole, unit, base_out,
                                             weights_out);
    } else {
      (void)d, (void)c0, (void)c1, (void)c2, (void)axes, (void)whole, (void)unit;
      (void)base_out, (void)weights_out;
      return false;
    }
  }
  // A whole vector of 2-D locations (x, y) whose pairs lie inside (axes.inside):
  // PlanAxisVector's inside branch on both axes, then the corner offset and the row weights
  // (every lane complete). False, with nothing stored, where a reflection folds more than once.
  template <class D>
  static HWY_INLINE bool Inside2D(D d, hn::Vec<D> x, hn::Vec<D> y, const WindowAxes& axes,
                                  hn::Vec<D> whole, hn::Vec<D> unit, int32_t* HWY_RESTRICT base_out,
                                  float* HWY_RESTRICT weights_out) {
    using V = hn::Vec<D>;
    const hn::RebindToSigned<D> di;
    const AxisExtent* extents = axes.extents;
    V px = UnnormalizeVector(d, x, extents[1], axes.options.align_corners);
    V py = UnnormalizeVector(d, y, extents[0], axes.options.align_corners);
    if (!PadCoordinateVector(d, px, extents[1], axes.options) ||
        !PadCoordinateVector(d, py, extents[0], axes.options)) {
      return false;
    }
    V tx, ty;
    const V x0 = InsidePair(d, px, extents[1], tx);
    const V y0 = InsidePair(d, py, extents[0], ty);
    const auto stride = hn::Set(di, static_cast<int32_t>(axes.strides[0]));
    hn::StoreU(hn::Add(TruncateInRange(di, x0), hn::Mul(TruncateInRange(di, y0), stride)), di,
               base_out);
    if (axes.fixed) {
      SplitFixedPairs<0>(d, whole, 0, unit, axes.pitch, weights_out, CompleteLanes(), ty, tx);
    } else {
      const V one = hn::Set(d, 1.0f);
      StoreRowProducts<kTaps>(d, axes.pitch, weights_out, hn::Sub(one, ty), ty, hn::Sub(one, tx),
                              tx);
    }
    return true;
  }
  // A whole vector of 2-D or 3-D locations (grid components x, y and for 3-D z):
  // PaddedCoordinates and PairsAt on each axis, then the corner offset and the row weights
  // (every lane complete). kInside as for PairsAt, on every axis; under zeros padding a vector
  // whose taps all lie inside (TapsInside) takes the inside branch too. False, with nothing
  // stored, where a reflection folds more than once.
  template <size_t kRank, bool kInside, class D>
  static HWY_INLINE bool InRegistersPadded(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> z,
                                           const WindowAxes& axes, hn::Vec<D> whole,
                                           hn::Vec<D> unit, int32_t* HWY_RESTRICT base_out,
                                           float* HWY_RESTRICT weights_out) {
    static_assert(kRank == 2 || kRank == 3, "images and volumes");
    using V = hn::Vec<D>;
    const AxisExtent* extents = axes.extents;
    const Options& options = axes.options;
    V px, py, pz;
    if (!PaddedCoordinates(d, x, extents[kRank - 1], options, px) ||
        !PaddedCoordinates(d, y, extents[kRank - 2], options, py)) {
      return false;
    }
    if constexpr (kRank == 3) {
      if (!PaddedCoordinates(d, z, extents[0], options, pz)) return false;
    }
    if constexpr (!kInside) {
      if (options.padding == Padding::kZeros && TapsInside(d, px, extents[kRank - 1]) &&
          TapsInside(d, py, extents[kRank - 2]) && (kRank == 2 || TapsInside(d, pz, extents[0]))) {
        StorePlanInRegisters<kRank, true>(d, px, py, pz, axes, whole, unit, base_out, weights_out);
        return true;
      }
    }
    StorePlanInRegisters<kRank, kInside>(d, px, py, pz, axes, whole, unit, base_out, weights_out);
    return true;
  }
  // InRegistersPadded's plan of the padded coordinates px, py and for 3-D pz.
  template <size_t kRank, bool kInside, class D>
  static HWY_INLINE void StorePlanInRegisters(D d, hn::Vec<D> px, hn::Vec<D> py, hn::Vec<D> pz,
                                              const WindowAxes& axes, hn::Vec<D> whole,
                                              hn::Vec<D> unit, int32_t* HWY_RESTRICT base_out,
                                              float* HWY_RESTRICT weights_out) {
    using V = hn::Vec<D>;
    const hn::RebindToSigned<D> di;
    const AxisExtent* extents = axes.extents;
    const Options& options = axes.options;
    hn::Vec<decltype(di)> x0, y0, z0;
    V wx0, wx1, wy0, wy1, wz0, wz1;
    PairsAt<kInside>(d, px, extents[kRank - 1], options, x0, wx0, wx1, nullptr);
    PairsAt<kInside>(d, py, extents[kRank - 2], options, y0, wy0, wy1, nullptr);
    const auto y_stride = hn::Set(di, static_cast<int32_t>(axes.strides[kRank - 2]));
    auto base = hn::Add(x0, hn::Mul(y0, y_stride));
    if constexpr (kRank == 3) {
      PairsAt<kInside>(d, pz, extents[0], options, z0, wz0, wz1, nullptr);
      base = hn::Add(base, hn::Mul(z0, hn::Set(di, static_cast<int32_t>(axes.strides[0]))));
    }
    hn::StoreU(base, di, base_out);
    if constexpr (kRank == 3) {
      if (axes.fixed) {
        SplitFixedPairs<0>(d, whole, 0, unit, axes.pitch, weights_out, CompleteLanes(), wz1, wy1,
                           wx1);
      } else {
        StoreRowProducts<kTaps>(d, axes.pitch, weights_out, wz0, wz1, wy0, wy1, wx0, wx1);
      }
    } else if (axes.fixed) {
      SplitFixedPairs<0>(d, whole, 0, unit, axes.pitch, weights_out, CompleteLanes(), wy1, wx1);
    } else {
      StoreRowProducts<kTaps>(d, axes.pitch, weights_out, wy0, wy1, wx0, wx1);
    }
  }
  static void Scalar(float g, int64_t size, const Options& options, bool fixed,
                     WindowBlock<2>* block, size_t axis, size_t lane) {
    int64_t taps[2];
    float weights[2];
    GridValueTaps(g, size, /*stride=*/1, options, taps, weights);
    float* left = &block->weights[axis][0][lane];
    float* right = &block->weights[axis][1][lane];
    EncodePairTaps(taps, weights, size, &block->start[axis][lane], left, right);
    if (!fixed) return;
    // Fixed-point weights of a non-finite grid value are all 0 (so is the output).
    const bool nan = taps[0] == kNaNTap;
    if (nan) *left = *right = 0.0f;
    block->complete[axis][lane] =
        !nan && (taps[0] >= 0 || weights[0] == 0.0f) && (taps[1] >= 0 || weights[1] == 0.0f);
  }
};

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
// Lane k of out[r]: the pair (one integer of twice the element's width) at element offsets[k]
// of rows[r], for each of kRows rows. The pairs are loaded into general registers, packed into
// 64-bit chunks and the chunks combined into halves, then wholes, all rows together so that each
// offset is read once. For float32 that beat copying the pairs through memory, whose vector
// reloads wait for the small stores to land, and hardware gathers except on AVX-512
// (docs/benchmarks.md); for 16-bit elements, and for 8-bit ones in 128-bit vectors, copying
// stayed as fast or faster.
// Scalable vectors have no Combine.
template <size_t kRows, class D>
HWY_INLINE void GatherPairs(D d, const unsigned char* const* rows,
                            const int32_t* HWY_RESTRICT offsets, hn::Vec<D>* out) {
  using Pair = hn::TFromD<D>;
  if constexpr (hn::MaxLanes(d) * sizeof(Pair) == 16) {
    constexpr size_t kPerChunk = sizeof(uint64_t) / sizeof(Pair);
    uint64_t chunks[kRows][2] = {};  // the first pair in the low bits
    for (size_t k = 0; k < 2 * kPerChunk; ++k) {
      const size_t at = static_cast<size_t>(offsets[k]) * (sizeof(Pair) / 2);
      for (size_t r = 0; r < kRows; ++r) {
        Pair pair;
        std::memcpy(&pair, rows[r] + at, sizeof(Pair));
        chunks[r][k / kPerChunk] |= static_cast<uint64_t>(pair)
                                    << (8 * sizeof(Pair) * (k % kPerChunk));
      }
    }
    const hn::Repartition<uint64_t, D> d64;
    const hn::Half<decltype(d64)> dh;
    for (size_t r = 0; r < kRows; ++r) {
      out[r] =
          hn::BitCast(d, hn::Combine(d64, hn::Set(dh, chunks[r][1]), hn::Set(dh, chunks[r][0])));
    }
  } else {
    static_assert(hn::MaxLanes(d) * sizeof(Pair) > 16, "whole 128-bit parts");
    const hn::Half<D> dh;
    hn::Vec<decltype(dh)> low[kRows], high[kRows];
    GatherPairs<kRows>(dh, rows, offsets, low);
    GatherPairs<kRows>(dh, rows, offsets + hn::MaxLanes(dh), high);
    for (size_t r = 0; r < kRows; ++r) out[r] = hn::Combine(d, high[r], low[r]);
  }
}
#endif

// How the pairs of each element kind sit in memory (one integer of twice the element's width,
// first element in the low half: every target Highway supports here is little-endian) and how
// they widen to float32 with the conversions of convert.h.
template <ElementKind K>
struct PairFormat;

// The two kBits-bit integers in the low 2 * kBits bits of each uint32 lane of v (the first in
// the low half): the integer element kinds' widening, to float32 (8-bit kinds), or as int32 bits in
// float-typed vectors (16-bit kinds, which WeighPair sums as integers; one vector type for
// every kind's elements).
template <size_t kBits, bool kSigned, class D>
HWY_INLINE void SplitIntegers(D d, hn::Vec<hn::RebindToUnsigned<D>> v, hn::Vec<D>& left,
                              hn::Vec<D>& right) {
  const hn::RebindToSigned<D> di;
  const auto widen = [d](hn::Vec<decltype(di)> i) {
    return kBits == 8 ? hn::ConvertTo(d, i) : hn::BitCast(d, i);
  };
  if constexpr (kSigned) {  // sign-extended by shifting each to the top and back
    const auto s = hn::BitCast(di, v);
    left = widen(hn::ShiftRight<32 - kBits>(hn::ShiftLeft<32 - kBits>(s)));
    right = widen(hn::ShiftRight<32 - kBits>(hn::ShiftLeft<32 - 2 * kBits>(s)));
  } else {
    const hn::RebindToUnsigned<D> du;
    left = widen(hn::BitCast(di, hn::And(v, hn::Set(du, (1u << kBits) - 1))));
    right = widen(hn::BitCast(di, hn::ShiftRight<kBits>(v)));
  }
}

// The integer and bool kinds, planned with fixed-point weights (linear_pairs.h) and summed
// exactly.
constexpr bool FixedPairKind(ElementKind kind) {
  return kind != ElementKind::kF32 && kind != ElementKind::kF16 && kind != ElementKind::kBF16;
}
// The 16-bit integer kinds: their fixed-point sums (24 fraction bits) pass 2^24, so WeighPair
// sums them exactly in integers; the 8-bit kinds' (16 fraction bits) stay below 2^24 and are
// exact in float32.
constexpr bool IntegerSums(ElementKind kind) {
  return kind == ElementKind::kI16 || kind == ElementKind::kU16;
}

// acc += x * w. For the IntegerSums kinds x carries int32 bits and w is a fixed-point weight
// k * 2^-24 (k <= 2^24), and the sum K = sum of x * k is exact, in wrapping uint32 arithmetic
// as two sums: `acc` of x * (k >> 12) and `low` of x * (k & 4095) (below 2^28 and 2^32), which
// StoreExact combines.
template <ElementKind K, class D>
HWY_INLINE void WeighPair(D d, hn::Vec<D> x, hn::Vec<D> w, hn::Vec<D>& acc, hn::Vec<D>& low) {
  if constexpr (!IntegerSums(K)) {
    acc = hn::MulAdd(x, w, acc);
  } else {
    const hn::RebindToUnsigned<D> du;
    const auto xu = hn::BitCast(du, x);
    const auto k = hn::BitCast(
        du, hn::ConvertTo(hn::RebindToSigned<D>(), hn::Mul(w, hn::Set(d, 16777216.0f))));
    acc = hn::BitCast(d, hn::Add(hn::BitCast(du, acc), hn::Mul(xu, hn::ShiftRight<12>(k))));
    low =
        hn::BitCast(d, hn::Add(hn::BitCast(du, low), hn::Mul(xu, hn::And(k, hn::Set(du, 4095u)))));
  }
}

// The first `valid` lanes of WeighPair's exact sums of a FixedPairKind as the output elements:
// the sum truncated toward zero and saturated (bool: nonzero), as convert.h's FromExact. The
// 8-bit kinds' sums are float32 and exact, so converting truncates them exactly (never NaN:
// a non-finite location weighs 0). The 16-bit kinds' are K = acc * 2^12 + low in units of
// 2^-24: floor divisions by 2^12 are arithmetic shifts, nested, floor(K / 2^24) =
// floor((acc + floor(low / 2^12)) / 2^12), and a negative K with a remainder truncates up.
template <ElementKind K, class D>
HWY_INLINE void StoreExact(D d, hn::Vec<D> acc, hn::Vec<D> low, size_t valid,
                           typename PairFormat<K>::Element* dst) {
  using Element = typename PairFormat<K>::Element;
  const hn::RebindToUnsigned<D> du;
  const hn::RebindToSigned<D> di;
  const hn::Rebind<Element, D> dn;
  const auto a = hn::BitCast(du, acc), l = hn::BitCast(du, low);
  hn::Vec<decltype(di)> q;
  if constexpr (K == ElementKind::kBool) {  // nonzero is true
    q = hn::IfThenElseZero(hn::RebindMask(di, hn::Ne(acc, hn::Zero(d))), hn::Set(di, 1));
  } else if constexpr (!IntegerSums(K)) {
    q = hn::ConvertTo(di, acc);
  } else if constexpr (K == ElementKind::kU16) {  // K >= 0; low may pass 2^31
    q = hn::BitCast(di, hn::ShiftRight<12>(hn::Add(a, hn::ShiftRight<12>(l))));
  } else {
    const auto floor =
        hn::ShiftRight<12>(hn::Add(hn::BitCast(di, a), hn::ShiftRight<12>(hn::BitCast(di, l))));
    const auto remainder = hn::And(hn::Add(hn::ShiftLeft<12>(a), l), hn::Set(du, 0xFFFFFFu));
    const auto up =
        hn::And(hn::Lt(floor, hn::Zero(di)), hn::RebindMask(di, hn::Ne(remainder, hn::Zero(du))));
    q = hn::IfThenElse(up, hn::Add(floor, hn::Set(di, 1)), floor);
  }
  if (valid == hn::Lanes(d)) {
    hn::StoreU(hn::DemoteTo(dn, q), dn, dst);
    return;
  }
  alignas(64) Element converted[kMaxFloatLanes];  // the last, partial vector
  hn::StoreU(hn::DemoteTo(dn, q), dn, converted);
  std::memcpy(dst, converted, valid * sizeof(Element));
}

template <>
struct PairFormat<ElementKind::kF32> : FloatSums {
  using Pair = uint64_t;
  // A vector of elements as float32 (the channels-last path's widening).
  template <class D>
  static hn::Vec<D> Widen(D d, const Element* elements) {
    return hn::LoadU(d, elements);
  }
  template <class D>
  static void Load(D d, const Pair* pairs, hn::Vec<D>& left, hn::Vec<D>& right) {
    hn::LoadInterleaved2(d, reinterpret_cast<const float*>(pairs), left, right);
  }
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  // left[r], right[r]: the pairs at `offsets` of rows[r], split. With `hardware`, 512-bit
  // targets gather them with AVX-512's 64-bit gathers; otherwise, and on other targets, they
  // are loaded one by one (GatherPairs). Which is faster depends on the CPU (linear_pairs.h).
  template <size_t kRows, class D>
  static HWY_INLINE void Gather(D d, const unsigned char* const* rows, const int32_t* offsets,
                                bool hardware, hn::Vec<D>* left, hn::Vec<D>* right) {
    const hn::Repartition<Pair, D> dp;
    hn::Vec<decltype(dp)> low[kRows], high[kRows];
    (void)hardware;
#if GRIDSAMPLE_X86_BITS == 512
    if (hn::MaxLanes(dp) == 8 && hardware) {
      // Highway 1.0.3 gathers only with indices as wide as the lanes: the intrinsic takes the
      // 32-bit offsets (4-byte units) as they are.
      const auto* index = reinterpret_cast<const __m256i*>(offsets);
      const __m256i low_index = _mm256_loadu_si256(index);
      const __m256i high_index = _mm256_loadu_si256(index + 1);
      for (size_t r = 0; r < kRows; ++r) {
        low[r] = hn::Vec<decltype(dp)>{_mm512_i32gather_epi64(low_index, rows[r], 4)};
        high[r] = hn::Vec<decltype(dp)>{_mm512_i32gather_epi64(high_index, rows[r], 4)};
      }
    } else  // NOLINT(readability/braces): the else of a target's own branch
#endif
#if GRIDSAMPLE_X86_BITS == 256
        if constexpr (hn::MaxLanes(dp) == 4) {
      // Each 128-bit block holds two locations' pairs: locations 0-1 and 4-5 in `low`, 2-3 and
      // 6-7 in `high`, so that one shuffle within the blocks splits them in location order,
      // where ConcatEven and ConcatOdd each add a permute across the blocks.
      const hn::Half<decltype(dp)> dh;
      hn::Vec<decltype(dh)> first[kRows], second[kRows], third[kRows], fourth[kRows];
      GatherPairs<kRows>(dh, rows, offsets, first);
      GatherPairs<kRows>(dh, rows, offsets + 2, second);
      GatherPairs<kRows>(dh, rows, offsets + 4, third);
      GatherPairs<kRows>(dh, rows, offsets + 6, fourth);
      for (size_t r = 0; r < kRows; ++r) {
        const auto even = hn::BitCast(d, hn::Combine(dp, third[r], first[r])).raw;
        const auto odd = hn::BitCast(d, hn::Combine(dp, fourth[r], second[r])).raw;
        left[r] = hn::Vec<D>{_mm256_shuffle_ps(even, odd, _MM_SHUFFLE(2, 0, 2, 0))};
        right[r] = hn::Vec<D>{_mm256_shuffle_ps(even, odd, _MM_SHUFFLE(3, 1, 3, 1))};
      }
      return;
    } else  // NOLINT(readability/braces): the else of a target's own branch
#endif
    {
      GatherPairs<kRows>(dp, rows, offsets, low);
      GatherPairs<kRows>(dp, rows, offsets + hn::Lanes(dp), high);
    }
    for (size_t r = 0; r < kRows; ++r) {
      left[r] = hn::ConcatEven(d, hn::BitCast(d, high[r]), hn::BitCast(d, low[r]));
      right[r] = hn::ConcatOdd(d, hn::BitCast(d, high[r]), hn::BitCast(d, low[r]));
    }
  }
#endif
};

// Whether this target converts float16 with F16C (x86 from AVX2): exactly, round to nearest
// even, where Highway 1.0.3's portable PromoteTo turns inf and NaN into finite numbers. A
// macro, so that other targets never compile the F16C code.
#undef GRIDSAMPLE_F16C
#define GRIDSAMPLE_F16C (GRIDSAMPLE_X86_BITS >= 256)

// 16-bit elements: pairs as uint32 lanes.
template <ElementKind K>
struct PairFormat16 {
  using Pair = uint32_t;
  using Element = typename std::conditional<K == ElementKind::kI16, int16_t, uint16_t>::type;
  template <class D>
  static void Store(D d, hn::Vec<D> v, Element* dst) {
    const hn::Rebind<Element, D> dn;
#if GRIDSAMPLE_F16C
    if constexpr (K == ElementKind::kF16) {  // F16C: round to nearest even, as FloatToHalf
      const hn::Rebind<hwy::float16_t, D> df16;
      hn::StoreU(hn::BitCast(dn, hn::DemoteTo(df16, v)), dn, dst);
      return;
    }
#endif
    const hn::RebindToSigned<D> di;  // float16, bfloat16 (the integer kinds: StoreExact)
    const auto bits = K == ElementKind::kF16 ? FloatToHalf(d, v) : FloatToBFloat16(d, v);
    hn::StoreU(hn::DemoteTo(dn, hn::BitCast(di, bits)), dn, dst);
  }
  template <class D>
  static void Load(D d, const Pair* pairs, hn::Vec<D>& left, hn::Vec<D>& right) {
    const hn::RebindToUnsigned<D> du;
    const auto v = hn::LoadU(du, pairs);
    const auto low = hn::And(v, hn::Set(du, 0xFFFFu));
    const auto high = hn::ShiftRight<16>(v);
    if constexpr (K == ElementKind::kU16 || K == ElementKind::kI16) {
      SplitIntegers<16, K == ElementKind::kI16>(d, v, left, right);
    } else if constexpr (K == ElementKind::kBF16) {
      left = hn::BitCast(d, hn::ShiftLeft<16>(v));
      right = hn::BitCast(d, hn::And(v, hn::Set(du, 0xFFFF0000u)));
    } else {
#if GRIDSAMPLE_F16C
      const hn::Rebind<uint16_t, D> du16;
      const hn::Rebind<hwy::float16_t, D> df16;
      left = hn::PromoteTo(d, hn::BitCast(df16, hn::TruncateTo(du16, v)));
      right = hn::PromoteTo(d, hn::BitCast(df16, hn::TruncateTo(du16, high)));
#else
      left = HalfToFloat(d, low);
      right = HalfToFloat(d, high);
#endif
    }
  }
  // A vector of float16 or bfloat16 elements as float32, as Load widens each element of a pair.
  template <class D>
  static hn::Vec<D> Widen(D d, const Element* elements) {
    static_assert(K == ElementKind::kF16 || K == ElementKind::kBF16, "float elements only");
    const hn::Rebind<uint16_t, D> du16;
#if GRIDSAMPLE_F16C
    if constexpr (K == ElementKind::kF16) {  // F16C, as in Load
      const hn::Rebind<hwy::float16_t, D> df16;
      return hn::PromoteTo(d, hn::BitCast(df16, hn::LoadU(du16, elements)));
    }
#endif
    const auto v = hn::PromoteTo(hn::RebindToUnsigned<D>(), hn::LoadU(du16, elements));
    if constexpr (K == ElementKind::kBF16) return hn::BitCast(d, hn::ShiftLeft<16>(v));
    return HalfToFloat(d, v);
  }
};
template <>
struct PairFormat<ElementKind::kF16> : PairFormat16<ElementKind::kF16> {};
template <>
struct PairFormat<ElementKind::kBF16> : PairFormat16<ElementKind::kBF16> {};
template <>
struct PairFormat<ElementKind::kI16> : PairFormat16<ElementKind::kI16> {};
template <>
struct PairFormat<ElementKind::kU16> : PairFormat16<ElementKind::kU16> {};

// 8-bit elements: pairs as uint16, widened to uint32 lanes.
template <ElementKind K>
struct PairFormat8 {
  using Pair = uint16_t;
  using Element = typename std::conditional<K == ElementKind::kI8, int8_t, uint8_t>::type;
  template <class D>
  static void Load(D d, const Pair* pairs, hn::Vec<D>& left, hn::Vec<D>& right) {
    const hn::Rebind<uint16_t, D> du16;
    Split(d, hn::PromoteTo(hn::RebindToUnsigned<D>(), hn::LoadU(du16, pairs)), left, right);
  }
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  template <size_t kRows, class D>
  static HWY_INLINE void Gather(D d, const unsigned char* const* rows, const int32_t* offsets,
                                bool /*hardware: none for 8-bit pairs*/, hn::Vec<D>* left,
                                hn::Vec<D>* right) {
    const hn::Rebind<uint16_t, D> du16;
    hn::Vec<decltype(du16)> pairs[kRows];
    GatherPairs<kRows>(du16, rows, offsets, pairs);
    for (size_t r = 0; r < kRows; ++r) {
      Split(d, hn::PromoteTo(hn::RebindToUnsigned<D>(), pairs[r]), left[r], right[r]);
    }
  }
#endif
  // The two elements of each pair (a uint32 lane holding the pair in its low 16 bits).
  template <class D>
  static HWY_INLINE void Split(D d, hn::Vec<hn::RebindToUnsigned<D>> v, hn::Vec<D>& left,
                               hn::Vec<D>& right) {
    if constexpr (K == ElementKind::kU8 || K == ElementKind::kI8) {
      SplitIntegers<8, K == ElementKind::kI8>(d, v, left, right);
    } else {  // bool: any nonzero byte is 1
      const hn::RebindToUnsigned<D> du;
      const auto one = hn::Set(d, 1.0f);
      const auto low = hn::And(v, hn::Set(du, 0xFFu));
      const auto high = hn::ShiftRight<8>(v);
      left = hn::IfThenElseZero(hn::RebindMask(d, hn::Ne(low, hn::Zero(du))), one);
      right = hn::IfThenElseZero(hn::RebindMask(d, hn::Ne(high, hn::Zero(du))), one);
    }
  }
};
template <>
struct PairFormat<ElementKind::kI8> : PairFormat8<ElementKind::kI8> {};
template <>
struct PairFormat<ElementKind::kU8> : PairFormat8<ElementKind::kU8> {};
template <>
struct PairFormat<ElementKind::kBool> : PairFormat8<ElementKind::kBool> {};

// Where the pair kernel's sums go: float32 sums to `sums` (unless null) and, converted, the
// output elements to `elements`; with `stream`, whole vectors of float32 sums through
// StreamSums.
template <ElementKind K>
struct PairOutput {
  float* sums;
  typename PairFormat<K>::Element* elements;
  bool stream;
};

// A vector of the pair kernel's sums of locations at..: the integer and bool kinds' through
// StoreExact, the float kinds' through StoreSums (their NaN lanes noted in `nan`), or
// StreamSums.
template <ElementKind K, class D, class M>
HWY_INLINE void StorePairSums(D d, hn::Vec<D> acc, hn::Vec<D> low, size_t valid,
                              const PairOutput<K>& to, size_t at, M& nan) {
  if constexpr (FixedPairKind(K)) {
    StoreExact<K>(d, acc, low, valid, to.elements + at);
  } else {
    if constexpr (K == ElementKind::kF32) {
      if (to.stream && valid == hn::Lanes(d)) {
        nan = hn::Or(nan, hn::IsNaN(acc));
        StreamSums(d, acc, to.elements + at);
        return;
      }
    }
    StoreSums<PairFormat<K>>(d, acc, valid, to.sums == nullptr ? nullptr : to.sums + at,
                             to.elements + at, nan);
  }
}

// The pair kernel's sum of a vector of locations at..: row by row, its left and right elements
// (load(row, left, right): the loader, gathered or copied) each weighed by its weight; then
// stored (StorePairSums).
template <ElementKind K, size_t kRows, class D, class Load, class M>
HWY_INLINE void WeighPairs(D d, const Load& load, const float* HWY_RESTRICT row_weights,
                           size_t pitch, size_t valid, const PairOutput<K>& to, size_t at, M& nan) {
  auto acc = hn::Zero(d), low = hn::Zero(d);
  for (size_t row = 0; row < kRows; ++row) {
    hn::Vec<D> left, right;
    load(row, left, right);
    const float* weights = row_weights + 2 * row * pitch + at;
    WeighPair<K>(d, left, hn::LoadU(d, weights), acc, low);
    WeighPair<K>(d, right, hn::LoadU(d, weights + pitch), acc, low);
  }
  StorePairSums<K>(d, acc, low, valid, to, at, nan);
}

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
// The loop of the kernels that gather each vector of locations' pairs into registers (the pair
// kernel's float32 and 8-bit pairs, the RGBA pixel pairs): per vector of locations i.., the
// pairs of its rows as Format::Gather loads them (left[row], right[row]), which
// weigh(left, right, i, valid) weighs and stores. The plan's last vector is whole
// (linear_pairs.h), so every lane reads a pair inside the input. The rows ahead are prefetched
// as the copying kernels prefetch them (PrefetchAhead).
template <size_t kRows, class Format, class D, class Weigh>
HWY_INLINE void GatherAndWeigh(D d, const unsigned char* const* rows,
                               const int32_t* HWY_RESTRICT base_offsets, size_t count, size_t unit,
                               bool hardware, const Weigh& weigh) {
  const size_t lanes = hn::Lanes(d);
  for (size_t i = 0; i < count; i += lanes) {
    PrefetchAhead<kRows>(rows, base_offsets, i, count, unit);
    hn::Vec<D> left[kRows], right[kRows];
    Format::template Gather<kRows>(d, rows, base_offsets + i, hardware, left, right);
    weigh(left, right, i, std::min(lanes, count - i));
  }
}
#endif

// The pair kernel's policies for CopyAndWeighBlocks: a block of copied pairs, pairs[row][j],
// from the rows at rows[row] (both the caller's arrays: in a struct with the rest, the block
// made GCC 12 reload the rest from memory), prefetched ahead, and with kPrefetchNext in the
// next plane (PrefetchNextPlane).
template <ElementKind K, size_t kRows, bool kPrefetchNext>
struct PairBlock {
  using Format = PairFormat<K>;
  static constexpr size_t kElement = sizeof(typename Format::Pair) / 2;
  typename Format::Pair (*pairs)[kWindowBlock];
  const unsigned char* const* rows;
  const int32_t* base_offsets;
  size_t count;
  size_t next_plane;  // PrefetchNextPlane's distance, or 0
  PairOutput<K> to;

  HWY_INLINE void Prefetch(size_t i) {
    PrefetchAhead<kRows>(rows, base_offsets, i, count, kElement);
    if constexpr (kPrefetchNext)
      PrefetchNextPlane<kRows>(rows, next_plane, base_offsets, i, 1, kElement);
  }
  HWY_INLINE void Copy(size_t row, size_t j, size_t base) {
    std::memcpy(&pairs[row][j], rows[row] + base * kElement, sizeof(pairs[row][j]));
  }
  template <class D, class M>
  HWY_INLINE void Weigh(D d, size_t j, const float* HWY_RESTRICT row_weights, size_t pitch,
                        size_t at, size_t valid, M& nan) {
    const auto copied = [&](size_t row, hn::Vec<D>& left, hn::Vec<D>& right) {
      Format::Load(d, pairs[row] + j, left, right);
    };
    WeighPairs<K, kRows>(d, copied, row_weights, pitch, valid, to, at, nan);
  }
};

// kPrefetchNext: the windows of the plane next_plane bytes on are prefetched (PrefetchNextPlane);
// a template argument, as the prefetches' addresses, computed with the loads', cost the other
// calls about a tenth of their instructions.
template <ElementKind K, size_t kRows, bool kPrefetchNext>
bool SampleLinearPairsForRank(const void* plane, const int32_t* HWY_RESTRICT base_offsets,
                              const int32_t* row_deltas, const float* HWY_RESTRICT row_weights,
                              size_t pitch, size_t count, PairFlags flags, size_t next_plane,
                              float* out, void* dst) {
  using Format = PairFormat<K>;
  // Whole vectors start a multiple of 4 floats after dst: all are 16-byte aligned, or none.
  const PairOutput<K> to{
      out, static_cast<typename Format::Element*>(dst),
      K == ElementKind::kF32 && flags.stream_output && reinterpret_cast<uintptr_t>(dst) % 16 == 0};
  const hn::ScalableTag<float> d;
  constexpr size_t kElement = sizeof(typename Format::Pair) / 2;
  const unsigned char* rows[kRows];
  RowStarts<kRows>(plane, row_deltas, kElement, rows);
  auto nan = hn::FirstN(d, 0);
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  // Gathering pays for float32 pairs, and for 8-bit ones in vectors of 8 or more lanes (16-bit
  // pairs fill whole 128-bit parts); copying is as fast for 16-bit elements.
  using Pair = typename Format::Pair;
  constexpr bool kGather = sizeof(Pair) == sizeof(uint64_t) ||
                           (sizeof(Pair) == sizeof(uint16_t) && hn::MaxLanes(d) >= 8);
  if constexpr (kGather) {
    using V = hn::Vec<decltype(d)>;
    GatherAndWeigh<kRows, Format>(
        d, rows, base_offsets, count, kElement, flags.hardware_gathers,
        [&](const V* left, const V* right, size_t i, size_t valid) {
          if constexpr (kPrefetchNext) {
            PrefetchNextPlane<kRows>(rows, next_plane, base_offsets, i, valid, kElement);
          }
          const auto gathered = [&](size_t row, V& l, V& r) { l = left[row], r = right[row]; };
          WeighPairs<K, kRows>(d, gathered, row_weights, pitch, valid, to, i, nan);
        });
    if (to.stream) hwy::FlushStream();
    return !hn::AllFalse(d, nan);
  }
#endif
  alignas(64) typename Format::Pair pairs[kRows][kWindowBlock];
  PairBlock<K, kRows, kPrefetchNext> block{pairs, rows, base_offsets, count, next_plane, to};
  CopyAndWeighBlocks<kWindowBlock, kRows>(d, base_offsets, row_weights, pitch, count, block, nan);
  if (to.stream) hwy::FlushStream();
  return !hn::AllFalse(d, nan);
}

// Calls f(std::integral_constant<size_t, rows>) for the rows of a pair plan (2^(rank-1)): 1, 2,
// 4 or kMaxPairRows.
template <class F>
HWY_INLINE auto VisitPairRows(size_t rows, F&& f) {
  return VisitSize<1, 2, 4, kMaxPairRows>(rows, f);
}

// Float32 planes only prefetch the next plane (SampleLinearPairs): the sparse samplings that need
// it sample float features, and each kind's second instantiation would cost code.
template <ElementKind K>
bool SampleLinearPairsForKind(const void* plane, const WindowPlanView& plan, PairFlags flags,
                              size_t next_plane, float* out, void* dst) {
  return VisitPairRows(plan.rows, [&](auto r) {
    constexpr size_t kRows = decltype(r)::value;
    const auto sample = [&](auto prefetch_next) {
      return SampleLinearPairsForRank<K, kRows, decltype(prefetch_next)::value>(
          plane, plan.base_offsets, plan.row_deltas, plan.row_weights, plan.pitch, plan.count,
          flags, next_plane, out, dst);
    };
    if (K == ElementKind::kF32 && next_plane != 0) {
      return sample(std::integral_constant<bool, K == ElementKind::kF32>());
    }
    return sample(std::false_type());
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_LINEAR_PAIRS_INL_H_
