// The nearest plan, per SIMD target: the offset of the one element each output location copies,
// for 1 to kMaxPairRank spatial axes and a float32 grid. Included by nearest.cc once per target;
// the vector coordinate helpers are plan-inl.h's. Lanes whose grid value
// is far out or not finite, or whose reflection folds more than once, go through the scalar
// coords.h, which gives the same offsets.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_NEAREST_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_NEAREST_INL_H_
#undef GRIDSAMPLE_SRC_NEAREST_INL_H_
#else
#define GRIDSAMPLE_SRC_NEAREST_INL_H_
#endif

#include <algorithm>
#include <cstring>

#include "coords.h"
#include "hwy/highway.h"
#include "window_plan.h"
#include "plan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// AxisTaps' nearest case for a vector: round half to even, then pad. Adds the lanes' offsets
// along the axis to `offset` and marks lanes outside the input in `outside`; false if some
// lane needs the scalar plan.
template <class D, class VI, class M>
HWY_INLINE bool PlanNearestAxisVector(D d, hn::Vec<D> g, const AxisExtent& axis, int64_t stride,
                                      const Options& options, VI& offset, M& outside) {
  const hn::RebindToSigned<D> di;
  const auto zero = hn::Zero(d);
  const auto last = hn::Set(d, axis.last);
  auto r = hn::Round(UnnormalizeVector(d, g, axis, options.align_corners));
  if (!PadCoordinateVector(d, r, axis, options)) return false;
  r = ClampFarVector(d, r, axis);
  outside = hn::Or(outside, hn::RebindMask(di, hn::Or(hn::Lt(r, zero), hn::Gt(r, last))));
  offset =
      hn::Add(offset, hn::Mul(TruncateInRange(di, r), hn::Set(di, static_cast<int32_t>(stride))));
  return true;
}

template <size_t kRank>
void PlanNearestForRank(const float* HWY_RESTRICT grid, const int64_t* sizes,
                        const int64_t* strides, const Options& options, size_t count,
                        int64_t* HWY_RESTRICT offsets) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t lanes = hn::Lanes(d);
  const auto limit = hn::Set(d, kVectorGridLimit);
  AxisExtent extents[kRank];
  for (size_t a = 0; a < kRank; ++a) extents[a] = AxisExtent(sizes[a], options.align_corners);
  alignas(64) float tail[kMaxFloatLanes * kRank];
  alignas(64) int32_t lane_offsets[kMaxFloatLanes];
  alignas(64) int32_t lane_outside[kMaxFloatLanes];
  for (size_t i = 0; i < count; i += lanes) {
    const size_t n = std::min(lanes, count - i);
    hn::Vec<decltype(d)> c0, c1, c2, c3;
    const float* coords = LoadGridVectors<kRank>(d, grid, i, count, tail, c0, c1, c2, c3);
    auto offset = hn::Zero(di);
    auto outside = hn::FirstN(di, 0);
    bool vector = true;
    for (size_t a = 0; a < kRank && vector; ++a) {
      const auto g = AxisComponent<kRank>(a, c0, c1, c2, c3);
      vector = hn::AllTrue(d, hn::Lt(hn::Abs(g), limit)) &&
               PlanNearestAxisVector(d, g, extents[a], strides[a], options, offset, outside);
    }
    if (vector) {
      hn::Store(offset, di, lane_offsets);
      hn::Store(hn::VecFromMask(di, outside), di, lane_outside);
      for (size_t lane = 0; lane < n; ++lane) {
        offsets[i + lane] = lane_outside[lane] ? kZeroTap : lane_offsets[lane];
      }
      continue;
    }
    for (size_t lane = 0; lane < n; ++lane) {  // as PlanTile combines the axes' taps
      int64_t total = 0;
      for (size_t a = 0; a < kRank; ++a) {
        int64_t tap;
        float weight;
        GridValueTaps(coords[lane * kRank + (kRank - 1 - a)], sizes[a], strides[a], options, &tap,
                      &weight);
        total = CombineTaps(total, tap);
      }
      offsets[i + lane] = total;
    }
  }
}

// CopyPlaneElements (nearest.h) for elements of T: a vector's elements loaded one by one into
// a block the compiler keeps in registers (x86 inserts each load into the vector), then stored
// whole; or with `gathers`, 32-bit elements on 512-bit targets, by AVX-512's gathers of 8
// elements at 64-bit offsets (NearestGathersPay says which is faster on the CPU at hand).
template <typename T>
void CopyPlaneElementsOf(const T* HWY_RESTRICT plane, const int64_t* HWY_RESTRICT offsets,
                         size_t count, T* HWY_RESTRICT out, bool gathers) {
  const hn::ScalableTag<T> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
#if GRIDSAMPLE_X86_BITS == 512
  if constexpr (sizeof(T) == sizeof(float)) {
    for (; gathers && i + 16 <= count; i += 16) {
      const __m256 low = _mm512_i64gather_ps(_mm512_loadu_si512(offsets + i), plane, 4);
      const __m256 high = _mm512_i64gather_ps(_mm512_loadu_si512(offsets + i + 8), plane, 4);
      _mm512_storeu_ps(reinterpret_cast<float*>(out + i),
                       _mm512_insertf32x8(_mm512_castps256_ps512(low), high, 1));
    }
  }
#else
  (void)gathers;
#endif
  for (; i + lanes <= count; i += lanes) {
    alignas(64) T block[HWY_MAX_BYTES / sizeof(T)];
    for (size_t k = 0; k < lanes; ++k) block[k] = plane[offsets[i + k]];
    hn::StoreU(hn::Load(d, block), d, out + i);
  }
  for (; i < count; ++i) out[i] = plane[offsets[i]];
}

// CopyPlaneElementsOf for elements of element_bytes (1, 2, 4 or 8), with or without the
// gathers (32-bit elements only).
inline void CopyElementsOfSize(size_t element_bytes, const void* plane, const int64_t* offsets,
                               size_t count, void* out, bool gathers) {
  switch (element_bytes) {
    case 1:
      return CopyPlaneElementsOf(static_cast<const uint8_t*>(plane), offsets, count,
                                 static_cast<uint8_t*>(out), gathers);
    case 2:
      return CopyPlaneElementsOf(static_cast<const uint16_t*>(plane), offsets, count,
                                 static_cast<uint16_t*>(out), gathers);
    case 4:
      return CopyPlaneElementsOf(static_cast<const uint32_t*>(plane), offsets, count,
                                 static_cast<uint32_t*>(out), gathers);
    default:
      return CopyPlaneElementsOf(static_cast<const uint64_t*>(plane), offsets, count,
                                 static_cast<uint64_t*>(out), gathers);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_NEAREST_INL_H_
