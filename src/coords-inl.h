// The vector twins of coords.h, per SIMD target: unnormalisation, padding (reflection), the
// cubic weight and the far clamp for vectors of coordinates, each in its scalar original's
// operation order, so that a lane gives the scalar's number bit for bit
// (tests/coords_vector_test.cc checks it on every target). Included by the -inl.h files of the
// plans.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_COORDS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_COORDS_INL_H_
#undef GRIDSAMPLE_SRC_COORDS_INL_H_
#else
#define GRIDSAMPLE_SRC_COORDS_INL_H_
#endif

#include <cstdint>

#include "coords.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The functions below take an axis as an AxisExtent (coords.h), which the plans make once per
// tile: converting the size at every vector of locations cost the plans a fifth of their
// instructions. Their forms that take the size make it themselves.

// coords.h's Unnormalize for a vector of grid values, in the same operation order (x/2 and
// x*0.5 round alike).
template <class D>
HWY_INLINE hn::Vec<D> UnnormalizeVector(D d, hn::Vec<D> g, const AxisExtent& axis,
                                        bool align_corners) {
  const auto one = hn::Set(d, 1.0f), half = hn::Set(d, 0.5f);
  const auto scale = hn::Set(d, axis.scale);
  return align_corners ? hn::Mul(hn::Mul(hn::Add(g, one), half), scale)
                       : hn::Mul(hn::Sub(hn::Mul(hn::Add(g, one), scale), one), half);
}
template <class D>
HWY_INLINE hn::Vec<D> UnnormalizeVector(D d, hn::Vec<D> g, int64_t size, bool align_corners) {
  return UnnormalizeVector(d, g, AxisExtent(size, align_corners), align_corners);
}

// coords.h's Reflect for lanes with |p| < period, where its fmods reduce to at most one
// subtraction; false (p unchanged) if some lane is farther out.
template <class D>
HWY_INLINE bool ReflectVector(D d, hn::Vec<D>& p, const AxisExtent& axis, bool align_corners) {
  using V = hn::Vec<D>;
  const V half = hn::Set(d, 0.5f), zero = hn::Zero(d);
  const V last = hn::Set(d, axis.last);
  const V period = hn::Set(d, axis.period);
  if (!hn::AllTrue(d, hn::Lt(hn::Abs(p), period))) return false;
  if (align_corners) {
    V q = hn::Abs(p);
    q = hn::IfThenElse(hn::Gt(q, last), hn::Sub(period, q), q);
    p = hn::Min(hn::Max(q, zero), last);
  } else {
    V u = hn::Abs(hn::Add(p, half));
    u = hn::IfThenElse(hn::Ge(u, period), hn::Sub(u, period), u);
    u = hn::IfThenElse(hn::Gt(u, hn::Set(d, axis.extent)), hn::Sub(period, u), u);
    p = hn::Min(hn::Max(hn::Sub(u, half), zero), last);
  }
  return true;
}
template <class D>
HWY_INLINE bool ReflectVector(D d, hn::Vec<D>& p, int64_t size, bool align_corners) {
  return ReflectVector(d, p, AxisExtent(size, align_corners), align_corners);
}

// coords.h's PadCoordinate for a vector of coordinates p, in place; false (p unusable) where
// ReflectVector declines a lane that folds more than once.
template <class D>
HWY_INLINE bool PadCoordinateVector(D d, hn::Vec<D>& p, const AxisExtent& axis,
                                    const Options& options) {
  if (options.padding == Padding::kBorder) {
    p = hn::Min(hn::Max(p, hn::Zero(d)), hn::Set(d, axis.last));
  }
  return options.padding != Padding::kReflection ||
         ReflectVector(d, p, axis, options.align_corners);
}
template <class D>
HWY_INLINE bool PadCoordinateVector(D d, hn::Vec<D>& p, int64_t size, const Options& options) {
  return PadCoordinateVector(d, p, AxisExtent(size, options.align_corners), options);
}

// coords.h's CubicWeight's two pieces, in its operation order (the factored forms): the inner
// one (|t| <= 1) and the outer one (1 < |t| < 2, and 0 from 2), for t >= 0.
template <class D>
HWY_INLINE hn::Vec<D> CubicInnerVector(D d, hn::Vec<D> t) {
  const auto one = hn::Set(d, 1.0f);
  return hn::Mul(hn::Sub(t, one),
                 hn::Sub(hn::Sub(hn::Mul(hn::Mul(hn::Set(d, 1.25f), t), t), t), one));
}
template <class D>
HWY_INLINE hn::Vec<D> CubicOuterVector(D d, hn::Vec<D> t) {
  const auto two = hn::Set(d, 2.0f);
  const auto t1 = hn::Sub(t, hn::Set(d, 1.0f)), t2 = hn::Sub(t, two);
  const auto outer = hn::Mul(hn::Mul(hn::Mul(hn::Set(d, -0.75f), t1), t2), t2);
  return hn::IfThenElseZero(hn::Lt(t, two), outer);
}

// The cubic weights of taps x0 - 1, x0, x0 + 1 and x0 + 2 of a coordinate x0 + t, t in [0, 1):
// CubicWeight of t + 1, t, 1 - t and 2 - t, each with the one piece it takes, as the first and
// last are at least 1 and the others at most 1 (where one is exactly 1, both pieces give -0).
template <class D>
HWY_INLINE void CubicTapWeightsVector(D d, hn::Vec<D> t, hn::Vec<D>& w0, hn::Vec<D>& w1,
                                      hn::Vec<D>& w2, hn::Vec<D>& w3) {
  const auto one = hn::Set(d, 1.0f);
  w0 = CubicOuterVector(d, hn::Add(t, one));
  w1 = CubicInnerVector(d, t);
  w2 = CubicInnerVector(d, hn::Sub(one, t));
  w3 = CubicOuterVector(d, hn::Sub(hn::Set(d, 2.0f), t));
}

// coords.h's ClampFar for a vector of coordinates on an axis.
template <class D>
HWY_INLINE hn::Vec<D> ClampFarVector(D d, hn::Vec<D> q, const AxisExtent& axis) {
  return hn::Min(hn::Max(q, hn::Set(d, axis.far_low)), hn::Set(d, axis.far_high));
}
template <class D>
HWY_INLINE hn::Vec<D> ClampFarVector(D d, hn::Vec<D> q, int64_t size) {
  return ClampFarVector(d, q, AxisExtent(size, false));
}

// hn::ConvertTo(di, v) for lanes known to be integers within int32's range (coordinates the
// plans have clamped): x86's conversion alone, without the fix-up Highway adds for lanes out of
// range (four instructions a vector on AVX2).
template <class DI, class V>
HWY_INLINE hn::Vec<DI> TruncateInRange(DI di, V v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3
  if constexpr (sizeof(v.raw) == 64) {
#if HWY_TARGET <= HWY_AVX3
    return hn::Vec<DI>{_mm512_cvttps_epi32(v.raw)};
#endif
  } else if constexpr (sizeof(v.raw) == 32) {
#if HWY_TARGET <= HWY_AVX2
    return hn::Vec<DI>{_mm256_cvttps_epi32(v.raw)};
#endif
  } else {
    return hn::Vec<DI>{_mm_cvttps_epi32(v.raw)};
  }
#endif
  return hn::ConvertTo(di, v);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_COORDS_INL_H_
