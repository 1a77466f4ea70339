// Element conversions between a tensor's storage type and the type interpolation runs in,
// following ../shared/NOTES.md (ONNX Cast semantics on the way back). Shared by the fast path
// and the reference: conversions are not part of what the reference is an oracle for, and the
// dtype tests pin them independently.
#ifndef GRIDSAMPLE_SRC_CONVERT_H_
#define GRIDSAMPLE_SRC_CONVERT_H_

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
enum class Kind { kFloat, kHalf, kBFloat16, kInt, kBool, kComplex, kString };

// Compile-time facts about a dtype, generated from the registry.
//   Storage  one element in memory.
//   Scalar   one real component in memory (complex splits into kParts of them).
//   Compute  the type interpolation runs in.
template <DType D>
struct Traits;
#define GRIDSAMPLE_DTYPE(Enum, name, StorageT, ComputeT, KindV)                             \
  template <>                                                                              \
  struct Traits<DType::k##Enum> {                                                          \
    using Storage = StorageT;                                                              \
    using Compute = ComputeT;                                                              \
    static constexpr Kind kKind = Kind::KindV;                                             \
    static constexpr int kParts = kKind == Kind::kComplex ? 2 : 1;                         \
    using Scalar = typename std::conditional<kKind == Kind::kComplex, Compute, Storage>::type; \
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
  if constexpr (T::kKind == Kind::kHalf) {
    return F32FromF16Bits(v);
  } else if constexpr (T::kKind == Kind::kBFloat16) {
    return F32FromBF16Bits(v);
  } else if constexpr (T::kKind == Kind::kBool) {
    return v != 0 ? C(1) : C(0);  // any nonzero byte is true
  } else {
    static_assert(T::kKind != Kind::kString, "strings do not interpolate");
    return static_cast<C>(v);
  }
}

// Compute type → one real component in memory (ONNX Cast semantics).
template <DType D>
typename Traits<D>::Scalar FromCompute(typename Traits<D>::Compute v) {
  using T = Traits<D>;
  using S = typename T::Scalar;
  if constexpr (T::kKind == Kind::kHalf) {
    return F16BitsFromF32(v);
  } else if constexpr (T::kKind == Kind::kBFloat16) {
    return BF16BitsFromF32(v);
  } else if constexpr (T::kKind == Kind::kBool) {
    return (v != 0 && !std::isnan(v)) ? S(1) : S(0);
  } else if constexpr (T::kKind == Kind::kInt) {
    return SaturatingCast<S>(v);
  } else {
    static_assert(T::kKind != Kind::kString, "strings do not interpolate");
    return static_cast<S>(v);
  }
}

// An element copied by nearest sampling: bit-exact, except that a bool byte is normalised to
// 0/1 (any nonzero byte reads as true).
template <DType D>
typename Traits<D>::Storage CopyValue(const typename Traits<D>::Storage& v) {
  if constexpr (Traits<D>::kKind == Kind::kBool) {
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
  if constexpr (T::kKind == Kind::kString) {
    return std::string();
  } else if constexpr (T::kKind == Kind::kComplex) {
    const auto nan = std::numeric_limits<typename T::Compute>::quiet_NaN();
    return typename T::Storage(nan, nan);
  } else {
    return FromCompute<D>(std::numeric_limits<typename T::Compute>::quiet_NaN());
  }
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_CONVERT_H_
