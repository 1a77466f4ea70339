// Coordinate math of the fast path, in one place: unnormalise a grid value, resolve padding
// (clamp, reflect) and turn a coordinate into the integer taps and weights of one axis. The
// vector twins of these functions are in coords-inl.h.
// Semantics: docs/semantics.md. The reference (reference.cc) derives the same results with
// code of its own, so that each checks the other.
#ifndef GRIDSAMPLE_SRC_COORDS_H_
#define GRIDSAMPLE_SRC_COORDS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gridsample/gridsample.h"

namespace gridsample {

// Tap offsets below zero mark taps that contribute no input element.
inline constexpr int64_t kZeroTap = -1;  // outside the input under zeros padding: contributes 0
inline constexpr int64_t kNaNTap = -2;   // the grid coordinate was not finite: the output is NaN

// The offset of a combination of taps, one axis added at a time: a negative tap marker wins
// over offsets, and kNaNTap (the smaller) wins over kZeroTap.
inline int64_t CombineTaps(int64_t sum, int64_t add) {
  return (sum < 0 || add < 0) ? std::min(sum, add) : sum + add;
}

// Taps per axis for each mode (modes.inc): nearest 1, linear 2, cubic 4.
inline constexpr int TapsPerAxis(Mode mode) {
  switch (mode) {
#define GRIDSAMPLE_MODE(Enum, name, alias, taps) \
  case Mode::k##Enum:                            \
    return taps;
#include "gridsample/modes.inc"
  }
  return 1;
}

// A type with more exponent range than T, for coordinates whose unnormalisation overflows T
// (a float32 grid value near 3e38 times the axis size). Where long double is no wider than
// double, such float64 coordinates saturate to ±inf and resolve as the far edge.
template <typename T>
using Wider = typename std::conditional<std::is_same<T, float>::value, double, long double>::type;

// Pixel coordinate of normalised grid value g on an axis of `size` elements, in T, with the
// operation order of docs/semantics.md (no FMA contraction: see CMakeLists.txt).
template <typename T>
T Unnormalize(T g, int64_t size, bool align_corners) {
  const T s = static_cast<T>(size);
  return align_corners ? (g + T(1)) / T(2) * (s - T(1)) : ((g + T(1)) * s - T(1)) / T(2);
}

// q clamped into [0, last].
template <typename T>
T ClampToAxis(T q, T last) {
  return std::min(std::max(q, T(0)), last);
}

// Keeps far-away coordinates convertible to integers under zeros padding: every tap of a
// coordinate this far outside [0, last] is outside too, so the clamp changes no result.
inline constexpr int kFarMargin = 8;
template <typename T>
T ClampFar(T q, T last) {
  return std::min(std::max(q, -T(kFarMargin)), last + T(kFarMargin));
}

// Reflection repeats with this period: twice the distance between the mirrors, which sit at 0
// and size-1 (align_corners) or at -0.5 and size-0.5. Zero for a size-1 axis with
// align_corners, whose mirrors coincide.
template <typename T>
T ReflectionPeriod(int64_t size, bool align_corners) {
  return T(2) * static_cast<T>(align_corners ? size - 1 : size);
}

// Reflects coordinate p into [0, size-1]: about 0 and size-1 (align_corners) or about -0.5
// and size-0.5, as often as needed, then clamps. O(1) and exact for any finite p: the period
// is removed with fmod (exact) before the half-pixel shift, which would round for huge p.
template <typename T>
T Reflect(T p, int64_t size, bool align_corners) {
  const T last = static_cast<T>(size - 1);
  const T period = ReflectionPeriod<T>(size, align_corners);
  if (align_corners) {
    if (period == T(0)) return T(0);
    T q = std::fmod(std::fabs(p), period);
    if (q > last) q = period - q;
    return ClampToAxis(q, last);
  }
  const T width = static_cast<T>(size);
  T u = std::fabs(std::fmod(p, period) + T(0.5));  // distance from the -0.5 mirror
  u = std::fmod(u, period);
  if (u > width) u = period - u;
  return ClampToAxis(u - T(0.5), last);
}

// Padding of coordinate q on an axis of `size`, resolved for every mode in this one place:
// border clamps q into [0, size-1], reflection reflects it there (Reflect); zeros padding
// leaves it as it is, for the taps outside to contribute nothing.
template <typename T>
T PadCoordinate(T q, int64_t size, const Options& options) {
  if (options.padding == Padding::kBorder) return ClampToAxis(q, static_cast<T>(size - 1));
  if (options.padding == Padding::kReflection) return Reflect(q, size, options.align_corners);
  return q;
}

// Cubic convolution weight (A = -0.75) at distance t from a tap: (A+2)t^3 - (A+3)t^2 + 1 for
// t <= 1, A(t^3 - 5t^2 + 8t - 4) for 1 < t < 2. Evaluated in factored form, which is exact at
// t = 1 and 2 and accurate near them: the expanded polynomials cancel there and lose every
// digit of a weight near 0 (and so its sign).
template <typename W>
W CubicWeight(W t) {
  constexpr W kA = W(-0.75);
  t = std::fabs(t);
  if (t <= W(1)) return (t - W(1)) * ((kA + W(2)) * t * t - t - W(1));
  if (t < W(2)) return kA * (t - W(1)) * (t - W(2)) * (t - W(2));
  return W(0);
}

// p - floor(p) in W, subtracting in the wider of the two types so that it is exact (in T
// alone it rounds for p just below 0).
template <typename W, typename T>
W Fraction(T p, T floor_p) {
  using Wide = decltype(T() + W());
  return static_cast<W>(static_cast<Wide>(p) - static_cast<Wide>(floor_p));
}

// The taps of one axis for one output location.
//   offsets[j]  the tap's index along the axis times `stride`, or kZeroTap.
//   weights[j]  the tap's weight, in W.
// p is the unnormalised coordinate in T (the grid's compute type, or Wider of it after an
// overflow). W is the type interpolation runs in (X's compute type): the weights are part of
// the interpolation, and they derive from the exact fraction p - floor(p) (Fraction).
template <typename T, typename W>
void AxisTaps(T p, int64_t size, int64_t stride, const Options& options, int64_t* offsets,
              W* weights) {
  const T last = static_cast<T>(size - 1);
  // A tap index t in [0, size) is kept; any other is zero padding (only reachable under zeros).
  auto emit = [&](int j, T index, W weight) {
    const bool inside = index >= T(0) && index <= last;
    offsets[j] = inside ? static_cast<int64_t>(index) * stride : kZeroTap;
    weights[j] = weight;
  };
  auto clamp_far = [&](T q) { return ClampFar(q, last); };

  switch (options.mode) {
    case Mode::kNearest: {
      // Round half to even first, then pad (docs/semantics.md).
      emit(0, clamp_far(PadCoordinate(std::nearbyint(p), size, options)), W(1));
      return;
    }
    case Mode::kLinear: {
      p = clamp_far(PadCoordinate(p, size, options));
      const T x0 = std::floor(p);
      const W t = Fraction<W>(p, x0);
      emit(0, x0, W(1) - t);
      emit(1, x0 + T(1), t);
      return;
    }
    case Mode::kCubic: {
      // Each of the four integer taps is padded on its own; p itself is not clamped.
      T x0 = std::floor(p);
      const W t = Fraction<W>(p, x0);
      const T period = ReflectionPeriod<T>(size, options.align_corners);
      if (options.padding == Padding::kReflection && period > T(0)) {
        // Reflection is periodic in the tap index: move x0 near the origin first, exactly, so
        // that x0-1..x0+2 stay distinct even where they would round together in T.
        x0 = std::fmod(x0, period);
      }
      if (options.padding == Padding::kZeros) x0 = clamp_far(x0);
      const W tap_weights[4] = {CubicWeight(t + W(1)), CubicWeight(t), CubicWeight(W(1) - t),
                                CubicWeight(W(2) - t)};
      for (int j = 0; j < 4; ++j) {
        emit(j, PadCoordinate(x0 + static_cast<T>(j - 1), size, options), tap_weights[j]);
      }
      return;
    }
  }
}

// Taps of one axis for a location whose grid value g is not finite.
template <typename W>
void NaNTaps(int taps, int64_t* offsets, W* weights) {
  for (int j = 0; j < taps; ++j) {
    offsets[j] = kNaNTap;
    weights[j] = W(0);
  }
}

// Everything from the normalised grid value g (in G, the grid's compute type) to the taps of
// one axis: non-finite values, unnormalisation (with the overflow fallback) and padding.
// Weights come out in W, X's compute type.
template <typename G, typename W>
void GridValueTaps(G g, int64_t size, int64_t stride, const Options& options, int64_t* offsets,
                   W* weights) {
  if (!std::isfinite(g)) return NaNTaps(TapsPerAxis(options.mode), offsets, weights);
  const G p = Unnormalize(g, size, options.align_corners);
  if (std::isfinite(p)) return AxisTaps(p, size, stride, options, offsets, weights);
  using Wide = Wider<G>;
  AxisTaps(Unnormalize(static_cast<Wide>(g), size, options.align_corners), size, stride, options,
           offsets, weights);
}

// The linear pair path (linear_pairs-inl.h) encodes an axis's two taps x0, x0+1 as a pair of
// adjacent indices that always lie inside the input, `left` and left+1, with a weight for each:
// a tap that contributes nothing (outside under zeros padding, or past a clamped border) moves
// its weight nowhere, and the pair element it does not cover gets weight 0. So the kernel
// reads memory with no edge cases. On an axis of size 1 only `left` = 0 exists and the right
// weight is 0. A non-finite grid value gives NaN weights, so that the output comes out NaN and
// the kernel's caller recomputes it exactly. This scalar form takes AxisTaps' result (indices,
// stride 1); the vector plan computes the same numbers lane by lane from x0.
inline int64_t PairLeft(int64_t x0, int64_t size) {
  return std::min(std::max<int64_t>(x0, 0), std::max<int64_t>(size - 2, 0));
}
inline void EncodePairTaps(const int64_t taps[2], const float weights[2], int64_t size,
                           int32_t* left, float* left_weight, float* right_weight) {
  *left = 0;
  *left_weight = *right_weight = 0.0f;
  if (taps[0] == kNaNTap) {
    *left_weight = *right_weight = std::numeric_limits<float>::quiet_NaN();
    return;
  }
  if (taps[0] < 0 && taps[1] < 0) return;  // both outside: nothing contributes
  // AxisTaps marks taps outside; a tap inside pins x0.
  const int64_t x0 = taps[0] >= 0 ? taps[0] : taps[1] - 1;
  const int64_t l = PairLeft(x0, size);
  *left = static_cast<int32_t>(l);
  *left_weight = x0 == l ? weights[0] : x0 + 1 == l ? weights[1] : 0.0f;
  if (size >= 2) *right_weight = x0 == l ? weights[1] : x0 == l + 1 ? weights[0] : 0.0f;
}

// The cubic quad path (cubic_quads-inl.h) encodes an axis's four padded taps the same way,
// as four adjacent indices q..q+3 inside the input (size >= 4): the window starts at the
// lowest tap inside the input, clamped so that it fits. Padding is 1-Lipschitz (clamping and
// folding bring no two taps farther apart), so every tap inside lands in the window. Each
// window element's weight is the sum, in tap order, of the weights of the taps on it; taps
// outside (zeros padding) add nothing. NaN weights mark a non-finite grid value, as for pairs.
inline void EncodeQuadTaps(const int64_t taps[4], const float weights[4], int64_t size, int32_t* q,
                           float encoded[4]) {
  if (taps[0] == kNaNTap) {
    *q = 0;
    std::fill(encoded, encoded + 4, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  int64_t lowest = size;  // no tap inside: the window's position does not matter
  for (int j = 0; j < 4; ++j) {
    if (taps[j] >= 0) lowest = std::min(lowest, taps[j]);
  }
  const int64_t start = std::min<int64_t>(lowest, size - 4);
  *q = static_cast<int32_t>(start);
  for (int k = 0; k < 4; ++k) {
    float sum = 0.0f;
    for (int j = 0; j < 4; ++j) sum += taps[j] == start + k ? weights[j] : 0.0f;
    encoded[k] = sum;
  }
}

// One axis as the vector coordinate code (coords-inl.h and the plans) reads it: the floats and
// integers each step derives from the axis's size, derived here once per plan instead of once
// per vector of locations, each by the expression the scalar code above uses.
struct AxisExtent {
  int64_t size;
  float extent;     // size
  float last;       // size - 1
  float scale;      // Unnormalize's factor: size - 1 (as extent - 1) with align_corners, else size
  float pair_last;  // size - 2: the last left element of a pair inside the axis
  float period;     // ReflectionPeriod
  float far_low;    // ClampFar's bounds: -kFarMargin and last + kFarMargin
  float far_high;
  int32_t last_left;  // PairLeft(size - 2, size)

  AxisExtent() : AxisExtent(1, false) {}
  AxisExtent(int64_t axis_size, bool align_corners)
      : size(axis_size),
        extent(static_cast<float>(axis_size)),
        last(static_cast<float>(axis_size - 1)),
        scale(align_corners ? static_cast<float>(axis_size) - 1.0f : static_cast<float>(axis_size)),
        pair_last(static_cast<float>(axis_size - 2)),
        period(ReflectionPeriod<float>(axis_size, align_corners)),
        far_low(-static_cast<float>(kFarMargin)),
        far_high(static_cast<float>(axis_size - 1) + static_cast<float>(kFarMargin)),
        last_left(static_cast<int32_t>(PairLeft(axis_size - 2, axis_size))) {}
};

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_COORDS_H_
