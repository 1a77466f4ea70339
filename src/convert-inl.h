// The vector twins of convert.h's float16 and bfloat16 conversions, per SIMD target, each
// giving its scalar original's bits lane by lane (tests/convert_vector_test.cc checks it on
// every target): the portable forms, for targets without F16C (Highway 1.0.3's own PromoteTo
// and DemoteTo turn inf and NaN into finite numbers there). Included by linear_pairs-inl.h.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_CONVERT_INL_H_
#undef GRIDSAMPLE_SRC_CONVERT_INL_H_
#else
#define GRIDSAMPLE_SRC_CONVERT_INL_H_
#endif

#include "convert.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// float32 → binary16 bits (in uint32 lanes) as convert.h's F16BitsFromF32: round to nearest
// even, overflow to inf, NaN stays NaN with its top payload bits.
template <class D>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> FloatToHalf(D d, hn::Vec<D> v) {
  const hn::RebindToUnsigned<D> du;
  const hn::RebindToSigned<D> di;
  const auto bits = hn::BitCast(du, v);
  const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 0x8000u));
  const auto magnitude = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
  const auto m = hn::BitCast(di, magnitude);  // compares as signed: below 2^31
  const auto nan =
      hn::Or(hn::Set(du, 0x7E00u), hn::And(hn::ShiftRight<13>(magnitude), hn::Set(du, 0x3FFu)));
  // Subnormal halves: the count of 2^-24 units, rounded half to even by the conversion. Only
  // those lanes are converted: on EMU128 NearestInt is a C++ cast, undefined for NaN and for
  // values beyond int32 (clang's UndefinedBehaviorSanitizer reports them).
  const auto is_subnormal = hn::Lt(m, hn::Set(di, 0x38800000));
  const auto units = hn::Mul(hn::BitCast(d, magnitude), hn::Set(d, 16777216.0f));
  const auto subnormal =
      hn::BitCast(du, hn::NearestInt(hn::IfThenElseZero(hn::RebindMask(d, is_subnormal), units)));
  const auto odd = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(du, 1u));
  const auto normal = hn::ShiftRight<13>(
      hn::Sub(hn::Add(hn::Add(magnitude, hn::Set(du, 0xFFFu)), odd), hn::Set(du, 112u << 23)));
  auto h = hn::IfThenElse(hn::RebindMask(du, is_subnormal), subnormal, normal);
  h = hn::IfThenElse(hn::RebindMask(du, hn::Gt(m, hn::Set(di, 0x477FEFFF))), hn::Set(du, 0x7C00u),
                     h);
  h = hn::IfThenElse(hn::RebindMask(du, hn::Gt(m, hn::Set(di, 0x7F800000))), nan, h);
  return hn::Or(h, sign);
}

// float32 → bfloat16 bits as convert.h's BF16BitsFromF32.
template <class D>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> FloatToBFloat16(D /*d*/, hn::Vec<D> v) {
  const hn::RebindToUnsigned<D> du;
  const auto bits = hn::BitCast(du, v);
  const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
  const auto rounded = hn::ShiftRight<16>(hn::Add(hn::Add(bits, hn::Set(du, 0x7FFFu)), odd));
  const auto nan = hn::Or(hn::ShiftRight<16>(bits), hn::Set(du, 0x40u));
  return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), nan, rounded);
}

// IEEE binary16 bits (in the low half of each lane) → float32, exactly: the magnitude bits
// shifted into place, times 2^112, rebias normals and scale subnormals alike; the all-ones
// exponent (inf, NaN) is set directly.
template <class D, class VU>
HWY_INLINE hn::Vec<D> HalfToFloat(D d, VU h) {
  const hn::RebindToUnsigned<D> du;
  const auto magnitude = hn::And(h, hn::Set(du, 0x7FFFu));
  const auto scaled =
      hn::BitCast(du, hn::Mul(hn::BitCast(d, hn::ShiftLeft<13>(magnitude)), hn::Set(d, 0x1p112f)));
  const auto special = hn::Or(hn::ShiftLeft<13>(magnitude), hn::Set(du, 0x7F800000u));
  const hn::RebindToSigned<D> di;
  const auto is_special =
      hn::RebindMask(du, hn::Gt(hn::BitCast(di, magnitude), hn::Set(di, 0x7BFF)));
  const auto bits = hn::IfThenElse(is_special, special, scaled);
  return hn::BitCast(d, hn::Or(bits, hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)))));
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_CONVERT_INL_H_
