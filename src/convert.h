// Element conversions between a tensor's storage type and the type interpolation runs in,
// following docs/semantics.md (ONNX Cast semantics on the way back). Shared by the fast path
// and the reference: conversions are not part of what the reference is an oracle for, and the
// dtype tests pin them independently.
#ifndef GRIDSAMPLE_SRC_CONVERT_H_
#define GRIDSAMPLE_SRC_CONVERT_H_

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "gridsample/gridsample.h"

namespace gridsample {

// How a dtype converts; the last column of dtypes.inc.
enum class Conversion { kFloat, kHalf, kBFloat16, kInt, kBool, kComplex, kString };

// Compile-time facts about a dtype, generated from the registry.
//   Storage  one element in memory.
//   Scalar   one real component in memory (complex splits into kParts of them).
//   Compute  the type interpolation runs in.
template <DType D>
struct Traits;
#define GRIDSAMPLE_DTYPE(Enum, name, StorageT, ComputeT, ConversionV, ...)                    \
  template <>                                                                                 \
  struct Traits<DType::k##Enum> {                                                             \
    using Storage = StorageT;                                                                 \
    using Compute = ComputeT;                                                                 \
    static constexpr Conversion kConversion = Conversion::ConversionV;                        \
    static constexpr int kParts = kConversion == Conversion::kComplex ? 2 : 1;                \
    using Scalar = std::conditional_t<kConversion == Conversion::kComplex, Compute, Storage>; \
  };
#include "gridsample/dtypes.inc"

inline uint32_t BitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
inline float FloatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// IEEE binary16 bits → float32 (exact).
inline float F32FromF16Bits(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  const uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float32
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return FloatOf(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  return FloatOf(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// float32 → IEEE binary16 bits, rounding to nearest even; overflow gives inf, NaN stays NaN.
inline uint16_t F16BitsFromF32(float f) {
  const uint32_t bits = BitsOf(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) {  // NaN: keep the top payload bits, force quiet
    return static_cast<uint16_t>(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));
  }
  // 65520 is half-way between 65504 (largest half) and 65536: ties go to the even, inf.
  if (magnitude >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);
  if (magnitude < 0x38800000u) {  // below 2^-14: a half subnormal (or zero)
    // Scaling by 2^24 is exact; the integer count of 2^-24 units rounds half to even.
    const float units = FloatOf(magnitude) * 16777216.0f;
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(units)));
  }
  // Normal: round the 13 dropped mantissa bits half to even, then rebias the exponent
  // (127 → 15). A carry out of the mantissa correctly bumps the exponent.
  const uint32_t rounded = magnitude + 0xFFFu + ((magnitude >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rounded - (112u << 23)) >> 13));
}

// bfloat16 bits (the top half of a float32) → float32 (exact).
inline float F32FromBF16Bits(uint16_t b) { return FloatOf(static_cast<uint32_t>(b) << 16); }

// float32 → bfloat16 bits, rounding to nearest even; NaN stays NaN.
inline uint16_t BF16BitsFromF32(float f) {
  const uint32_t bits = BitsOf(f);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

// float64 → float32 rounded to odd: the float32 next to `d` toward zero, its last bit set when
// that is inexact. Rounding this float32 to a format at least two bits narrower rounds `d`
// itself (no double rounding), so float16/bfloat16 outputs computed in float64 round once.
inline float RoundToOddF32(double d) {
  float f = static_cast<float>(d);
  if (std::isnan(d) || static_cast<double>(f) == d) return f;
  // Past the float32 range `f` is an infinity: the step toward zero gives the largest finite.
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
  return FloatOf(BitsOf(f) | 1u);
}

// float64 → IEEE binary16 / bfloat16 bits, rounding to nearest even once.
inline uint16_t F16BitsFromF64(double d) { return F16BitsFromF32(RoundToOddF32(d)); }
inline uint16_t BF16BitsFromF64(double d) { return BF16BitsFromF32(RoundToOddF32(d)); }

// ONNX Cast from floating point to an integer type: NaN → 0, truncate toward zero, saturate.
template <typename Int, typename Float>
Int SaturatingCast(Float v) {
  static_assert(std::is_integral<Int>::value, "integer target");
  if (std::isnan(v)) return 0;
  // Both bounds are powers of two (or zero), so exactly representable in Float.
  const Float lowest = static_cast<Float>(std::numeric_limits<Int>::min());
  const Float past_max = std::ldexp(Float(1), std::numeric_limits<Int>::digits);
  if (v <= lowest) return std::numeric_limits<Int>::min();
  if (v >= past_max) return std::numeric_limits<Int>::max();
  return static_cast<Int>(v);  // in range after the checks: truncation is defined
}

// One real component in memory → compute type.
template <DType D>
typename Traits<D>::Compute ToCompute(typename Traits<D>::Scalar v) {
  using T = Traits<D>;
  using C = typename T::Compute;
  if constexpr (T::kConversion == Conversion::kHalf) {
    return F32FromF16Bits(v);
  } else if constexpr (T::kConversion == Conversion::kBFloat16) {
    return F32FromBF16Bits(v);
  } else if constexpr (T::kConversion == Conversion::kBool) {
    return v != 0 ? C(1) : C(0);  // any nonzero byte is true
  } else {
    static_assert(T::kConversion != Conversion::kString, "strings do not interpolate");
    return static_cast<C>(v);
  }
}

// Compute type → one real component in memory (ONNX Cast semantics).
template <DType D>
typename Traits<D>::Scalar FromCompute(typename Traits<D>::Compute v) {
  using T = Traits<D>;
  using S = typename T::Scalar;
  if constexpr (T::kConversion == Conversion::kHalf) {
    return F16BitsFromF32(v);
  } else if constexpr (T::kConversion == Conversion::kBFloat16) {
    return BF16BitsFromF32(v);
  } else if constexpr (T::kConversion == Conversion::kBool) {
    return (v != 0 && !std::isnan(v)) ? S(1) : S(0);
  } else if constexpr (T::kConversion == Conversion::kInt) {
    return SaturatingCast<S>(v);
  } else {
    static_assert(T::kConversion != Conversion::kString, "strings do not interpolate");
    return static_cast<S>(v);
  }
}

// Integer and bool outputs are the truncation of an EXACT sum (docs/semantics.md, Types): their
// weights are fixed-point, integer multiples of 2^-kFixedBits<D> that sum to exactly one where
// every tap is inside (SplitFixedWeights), and the taps are summed as integers (ExactSum<C>), so
// float rounding never carries a result across an integer. The fraction bits grow with the element:
// 16 for 8-bit types and bool (a float32 sum of such weights times 8-bit elements stays below 2^24,
// so the fast path sums them exactly in float32; OpenCV's remap weighs 8-bit pixels in 2^-15), 24
// for 16-bit ones (the precision of their float32 weights near one), 52 for 32- and 64-bit ones (of
// their float64 weights).
template <DType D>
inline constexpr int kFixedBits = sizeof(typename Traits<D>::Storage) == 1   ? 16
                                  : sizeof(typename Traits<D>::Storage) == 2 ? 24
                                                                             : 52;
__extension__ typedef __int128 Int128;  // GCC and Clang, wasm32 included
// The sum of weights times taps, for X's compute type C: below 2^(24 + 16) times the sum of
// |weights| for the float32-weighted (8- and 16-bit) types, 2^(52 + 64) times it for the others;
// the sum of |weights| stays below 2^10 for any plan that fits in memory.
template <typename C>
using ExactSum = typename std::conditional<std::is_same<C, float>::value, int64_t, Int128>::type;

// Whether D's outputs are the truncation of an exact sum: the integer and bool types.
template <DType D>
inline constexpr bool kExactOutputs =
    Traits<D>::kConversion == Conversion::kInt || Traits<D>::kConversion == Conversion::kBool;

// An integer or bool element as the exact integer it is (bool: any nonzero byte is 1).
template <DType D>
Int128 ExactTap(typename Traits<D>::Storage v) {
  static_assert(kExactOutputs<D>, "integers");
  if constexpr (Traits<D>::kConversion == Conversion::kBool) return v != 0 ? 1 : 0;
  return static_cast<Int128>(v);
}

// ONNX Cast of the exact value sum / 2^kFixedBits<D>: truncation toward zero (integer division
// truncates), then saturation to the type's range; bool: nonzero is true.
template <DType D>
typename Traits<D>::Storage FromExact(Int128 sum) {
  using S = typename Traits<D>::Storage;
  if constexpr (Traits<D>::kConversion == Conversion::kBool) {
    return sum != 0 ? S(1) : S(0);
  } else {
    const Int128 q = sum / (Int128{1} << kFixedBits<D>);
    if (q < static_cast<Int128>(std::numeric_limits<S>::min())) {
      return std::numeric_limits<S>::min();
    }
    if (q > static_cast<Int128>(std::numeric_limits<S>::max())) {
      return std::numeric_limits<S>::max();
    }
    return static_cast<S>(q);
  }
}

// The fixed-point weights of one output location (docs/semantics.md, Types), for `rank` axes
// of `taps` taps each: weights[a * taps + j] is tap j's weight on axis a (X's compute type C, from
// coords.h) and offsets[a * taps + j] its offset (negative: no input element, coords.h).
// The whole, 2^fraction_bits, is split axis by axis, axis 0 first: a part P goes to the taps of
// the next axis as round(P * w) each (P * w in C, rounded to even), except that on an axis
// whose taps are all inside (or weigh 0 where they are not) tap x0, the last at or below the
// coordinate (linear: the first tap, cubic: the second), takes the rest, so that the parts add
// up to P exactly. The leaves, in odometer order (last axis fastest), go to fixed[combination].
// Any NaN weight makes every leaf 0.
template <typename C>
void SplitFixedWeights(size_t rank, size_t taps, int fraction_bits, const C* weights,
                       const int64_t* offsets, int64_t* fixed) {
  size_t combinations = 1;
  for (size_t a = 0; a < rank; ++a) combinations *= taps;
  for (size_t i = 0; i < rank * taps; ++i) {
    if (std::isnan(weights[i])) return std::fill(fixed, fixed + combinations, int64_t{0});
  }
  const size_t rest = taps == 4 ? 1 : 0;  // tap x0
  size_t count = 1;
  fixed[0] = int64_t{1} << fraction_bits;
  for (size_t a = 0; a < rank; ++a) {
    const C* w = weights + a * taps;
    bool complete = true;
    for (size_t j = 0; j < taps; ++j) {
      complete = complete && (offsets[a * taps + j] >= 0 || w[j] == C(0));
    }
    // In place, from the last part down: part p's children land at p * taps.. (p * taps >= p).
    for (size_t p = count; p-- > 0;) {
      const int64_t part = fixed[p];
      int64_t left = part;
      for (size_t j = 0; j < taps; ++j) {
        const int64_t k = static_cast<int64_t>(std::nearbyint(static_cast<C>(part) * w[j]));
        fixed[p * taps + j] = k;
        if (j != rest) left -= k;
      }
      if (complete) fixed[p * taps + rest] = left;
    }
    count *= taps;
  }
}

// An element copied by nearest sampling: bit-exact, except that a bool byte is normalised to
// 0/1 (any nonzero byte reads as true).
template <DType D>
typename Traits<D>::Storage CopyValue(const typename Traits<D>::Storage& v) {
  if constexpr (Traits<D>::kConversion == Conversion::kBool) {
    return v != 0 ? 1 : 0;
  } else {
    return v;
  }
}

// The output element for a location whose grid coordinate is not finite: NaN for floating
// point (both parts of a complex), 0 for integer/bool, "" for strings.
template <DType D>
typename Traits<D>::Storage NonFiniteValue() {
  using T = Traits<D>;
  if constexpr (T::kConversion == Conversion::kString) {
    return std::string();
  } else if constexpr (T::kConversion == Conversion::kComplex) {
    const auto nan = std::numeric_limits<typename T::Compute>::quiet_NaN();
    return typename T::Storage(nan, nan);
  } else {
    return FromCompute<D>(std::numeric_limits<typename T::Compute>::quiet_NaN());
  }
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_CONVERT_H_
