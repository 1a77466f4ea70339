// The cubic quad path, per SIMD target: cubic interpolation of float32 data for 1 to 3 spatial
// axes of at least 4 elements each. Included by cubic_quads.cc once per target; the plan is
// plan-inl.h's PlanWindowsForRank.
//
// Plan (PlanWindowsForRank with QuadAxis): each axis's four padded taps become a window of four
// adjacent indices inside the input (coords.h, EncodeQuadTaps), so padding lives in the weights.
// Per output location that leaves one base offset (the corner of the 4^r window), the inner axis's
// four weights, and one weight for each of its 4^(r-1) rows (the product of the outer axes').
// Lanes whose taps reflect more than once, or whose grid value is far out or not finite, are
// planned with the scalar coords.h, which gives the same numbers.
//
// Kernel (SampleCubicQuadsForRank): per channel, each row's four elements are copied with one
// 128-bit load, then split into four vectors (LoadInterleaved4), weighed by the inner weights
// and the row's sum by the row's weight: separably, which needs a quarter of the weights of a
// product per tap and sums the rows in independent chains.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_CUBIC_QUADS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_CUBIC_QUADS_INL_H_
#undef GRIDSAMPLE_SRC_CUBIC_QUADS_INL_H_
#else
#define GRIDSAMPLE_SRC_CUBIC_QUADS_INL_H_
#endif

#include <algorithm>
#include <cstring>

#include "coords.h"
#include "hwy/highway.h"
#include "cubic_quads.h"
#include "plan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Tap x0 + offset of each lane, padded as AxisTaps pads it (PadCoordinateVector), and under
// zeros padding `size` where it lies outside (an index no window reaches); false if a
// reflection folds more than once.
template <class D>
HWY_INLINE bool PaddedQuadTap(D d, hn::Vec<D> x0, float offset, const AxisExtent& axis,
                              const Options& options, hn::Vec<hn::RebindToSigned<D>>& tap) {
  const hn::RebindToSigned<D> di;
  const auto last = hn::Set(d, axis.last);
  auto index = hn::Add(x0, hn::Set(d, offset));
  if (!PadCoordinateVector(d, index, axis, options)) return false;
  tap = TruncateInRange(di, index);
  if (options.padding == Padding::kZeros) {
    const auto inside = hn::And(hn::Ge(index, hn::Zero(d)), hn::Le(index, last));
    tap = hn::IfThenElse(hn::RebindMask(di, inside), tap,
                         hn::Set(di, static_cast<int32_t>(axis.size)));
  }
  return true;
}

// w where the tap is at `element`, else 0.
template <class D, class VI>
HWY_INLINE hn::Vec<D> WeightAt(D d, VI tap, VI element, hn::Vec<D> w) {
  return hn::IfThenElseZero(hn::RebindMask(d, hn::Eq(tap, element)), w);
}

// The weight of the window element at `element`: the sum of the weights of the taps there, in
// tap order from +0, as EncodeQuadTaps sums them (signed zeros included).
template <class D, class VI>
HWY_INLINE hn::Vec<D> QuadElementWeight(D d, VI element, VI tap0, VI tap1, VI tap2, VI tap3,
                                        hn::Vec<D> w0, hn::Vec<D> w1, hn::Vec<D> w2,
                                        hn::Vec<D> w3) {
  auto sum = hn::Add(hn::Zero(d), WeightAt(d, tap0, element, w0));
  sum = hn::Add(sum, WeightAt(d, tap1, element, w1));
  sum = hn::Add(sum, WeightAt(d, tap2, element, w2));
  return hn::Add(sum, WeightAt(d, tap3, element, w3));
}

// The vector plan of one axis (AxisTaps' cubic case, then EncodeQuadTaps); false if some lane
// needs the scalar plan. The taps and weights stay in registers (named, not arrays: vectors are
// sizeless on SVE).
template <class D>
HWY_INLINE bool PlanCubicAxisVector(D d, hn::Vec<D> g, const AxisExtent& extent,
                                    const Options& options, WindowBlock<4>* block, size_t axis) {
  const hn::RebindToSigned<D> di;
  using V = hn::Vec<D>;
  const V p = UnnormalizeVector(d, g, extent, options.align_corners);
  V x0 = hn::Floor(p);
  const V t = hn::Sub(p, x0);
  V w0, w1, w2, w3;
  CubicTapWeightsVector(d, t, w0, w1, w2, w3);
  if (options.padding == Padding::kReflection) {
    // AxisTaps first moves x0 into (-period, period) with fmod: a no-op for these lanes.
    const V period = hn::Set(d, extent.period);
    if (!hn::AllTrue(d, hn::Lt(hn::Abs(x0), period))) return false;
  }
  if (options.padding == Padding::kZeros) {
    x0 = ClampFarVector(d, x0, extent);
  }
  hn::Vec<decltype(di)> tap0, tap1, tap2, tap3;
  if (!PaddedQuadTap(d, x0, -1.0f, extent, options, tap0) ||
      !PaddedQuadTap(d, x0, 0.0f, extent, options, tap1) ||
      !PaddedQuadTap(d, x0, 1.0f, extent, options, tap2) ||
      !PaddedQuadTap(d, x0, 2.0f, extent, options, tap3)) {
    return false;
  }
  auto lowest = hn::Min(hn::Set(di, static_cast<int32_t>(extent.size - 4)), tap0);
  lowest = hn::Min(hn::Min(lowest, tap1), hn::Min(tap2, tap3));
  hn::Store(lowest, di, block->start[axis]);  // the window start
  for (int k = 0; k < 4; ++k) {
    const auto element = hn::Add(lowest, hn::Set(di, k));
    hn::Store(QuadElementWeight(d, element, tap0, tap1, tap2, tap3, w0, w1, w2, w3), d,
              block->weights[axis][k]);
  }
  return true;
}

// The quad path's axis plans for PlanWindowsForRank: vector (PlanCubicAxisVector) and scalar
// (coords.h).
struct QuadAxis {
  static constexpr size_t kTaps = 4;
  // `fixed` (integer outputs) never reaches the quad path: it samples float32 only.
  template <class D>
  static bool Vector(D d, hn::Vec<D> g, const AxisExtent& extent, const Options& options,
                     bool /*fixed*/, WindowBlock<4>* block, size_t axis) {
    return PlanCubicAxisVector(d, g, extent, options, block, axis);
  }
  static void Scalar(float g, int64_t size, const Options& options, bool /*fixed*/,
                     WindowBlock<4>* block, size_t axis, size_t lane) {
    int64_t taps[4];
    float weights[4], encoded[4];
    GridValueTaps(g, size, /*stride=*/1, options, taps, weights);
    EncodeQuadTaps(taps, weights, size, &block->start[axis][lane], encoded);
    for (size_t k = 0; k < 4; ++k) block->weights[axis][k][lane] = encoded[k];
  }
  // Quads are weighed separably (cubic_quads.h): the inner axis's four weights, then each
  // row's, the product of the outer axes' (StoreRowProducts).
  template <size_t kRank, class D>
  static HWY_INLINE void StoreWeights(D d, const WindowBlock<4>& block, bool /*vector*/,
                                      const WindowAxes& axes, hn::Vec<D> /*whole*/,
                                      hn::Vec<D> /*unit*/, float* HWY_RESTRICT row_weights) {
    for (size_t k = 0; k < kTaps; ++k) {
      hn::StoreU(hn::Load(d, block.weights[kRank - 1][k]), d, row_weights + k * axes.pitch);
    }
    if constexpr (kRank > 1) {
      StoreBlockProducts(d, block, axes.pitch, row_weights + kTaps * axes.pitch,
                         std::make_index_sequence<(kRank - 1) * kTaps>());
    }
  }
  // No plan in registers: every plan goes through the block.
  template <size_t kRank, class D>
  static HWY_INLINE bool InRegisters(D /*d*/, hn::Vec<D> /*c0*/, hn::Vec<D> /*c1*/,
                                     hn::Vec<D> /*c2*/, const WindowAxes& /*axes*/,
                                     hn::Vec<D> /*whole*/, hn::Vec<D> /*unit*/,
                                     int32_t* HWY_RESTRICT /*base_out*/,
                                     float* HWY_RESTRICT /*weights_out*/) {
    return false;
  }
};

// One row of a quad plan weighed by the inner axis's weights w0..w3: with the row weights this
// is the quad path's sum, term by term in this order on every path that samples a quad plan
// (channels_last-inl.h too), so that they agree bit for bit.
template <class V>
HWY_INLINE V WeighQuad(V e0, V e1, V e2, V e3, V w0, V w1, V w2, V w3) {
  return hn::MulAdd(e3, w3, hn::MulAdd(e2, w2, hn::MulAdd(e1, w1, hn::Mul(e0, w0))));
}

// Whether a quad plan of kRows rows is summed columns first: each of the window's four columns
// summed over the rows (multiply-adds by the row weights from zero, rows in order), then the
// columns' sums weighed by the inner weights (WeighColumns), instead of each row weighed
// (WeighQuad) and the rows' sums summed. In 3-D, where 16 rows share the inner weights, that
// is 64 multiply-adds and 7 operations a location instead of 80, and a row's four taps are
// adjacent in memory and summed lane by lane, so that pixels narrower than a vector take a
// row in one or two loads (SumSmallPixelColumns, channels_last-inl.h). In 2-D it would be 23
// operations instead of 20.
template <size_t kRows>
constexpr bool ColumnsFirst() {
  return kRows >= 16;
}

// The four columns' sums a0..a3 of a quad plan summed columns first, weighed by the inner
// weights w0..w3: in this order on every path, so that they agree bit for bit.
template <class V>
HWY_INLINE V WeighColumns(V a0, V a1, V a2, V a3, V w0, V w1, V w2, V w3) {
  return hn::Add(hn::Add(hn::Mul(a0, w0), hn::Mul(a2, w2)),
                 hn::Add(hn::Mul(a1, w1), hn::Mul(a3, w3)));
}

// The sum of one location's quad window over kRows rows, in the one order of every path
// (rows weighed and summed, or columns first: ColumnsFirst): row(r, e0, e1, e2, e3) sets the
// four taps of row r, weight(k) gives weight k (0-3 the inner ones, 4 + r row r's) at each
// use, so that the caller decides what is held in registers and what is loaded.
template <size_t kRows, class D, class Row, class Weight>
HWY_INLINE hn::Vec<D> WeighQuadWindow(D d, const Row& row, const Weight& weight) {
  if constexpr (ColumnsFirst<kRows>()) {
    auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
    for (size_t r = 0; r < kRows; ++r) {
      hn::Vec<D> e0, e1, e2, e3;
      row(r, e0, e1, e2, e3);
      const auto w = weight(4 + r);
      a0 = hn::MulAdd(e0, w, a0);
      a1 = hn::MulAdd(e1, w, a1);
      a2 = hn::MulAdd(e2, w, a2);
      a3 = hn::MulAdd(e3, w, a3);
    }
    return WeighColumns(a0, a1, a2, a3, weight(0), weight(1), weight(2), weight(3));
  } else {
    auto acc = hn::Zero(d);
    for (size_t r = 0; r < kRows; ++r) {
      hn::Vec<D> e0, e1, e2, e3;
      row(r, e0, e1, e2, e3);
      const auto sum = WeighQuad(e0, e1, e2, e3, weight(0), weight(1), weight(2), weight(3));
      if constexpr (kRows == 1) {
        acc = sum;
      } else {
        acc = hn::MulAdd(sum, weight(4 + r), acc);
      }
    }
    return acc;
  }
}

// Calls f(std::integral_constant<size_t, rows>) for the rows of a quad plan (4^(rank-1)): 1, 4
// or kMaxQuadRows.
template <class F>
HWY_INLINE auto VisitQuadRows(size_t rows, F&& f) {
  return VisitSize<1, 4, kMaxQuadRows>(rows, f);
}

// The quad kernel's policies for CopyAndWeighBlocks: a block of rows of four copied elements,
// quads[row][4 * j..], from plane + deltas[row] (the caller's arrays, as PairBlock's), each
// row split into four vectors (LoadInterleaved4), weighed by the inner weights and its sum by
// the row's weight. Not prefetched: the prefetches ahead were measured on the pair kernels
// only (docs/benchmarks.md).
template <size_t kRows, size_t kBlock>
struct QuadBlock {
  float (*quads)[kBlock * 4];
  const float* plane;
  const size_t* deltas;
  float* HWY_RESTRICT out;

  HWY_INLINE void Prefetch(size_t /*i*/) {}
  HWY_INLINE void Copy(size_t row, size_t j, size_t base) {
    std::memcpy(&quads[row][4 * j], plane + base + deltas[row], 4 * sizeof(float));
  }
  template <class D, class M>
  HWY_INLINE void Weigh(D d, size_t j, const float* HWY_RESTRICT row_weights, size_t pitch,
                        size_t at, size_t valid, M& nan) {
    const float* weights = row_weights + at;
    // The inner weights loaded once, the rows' as they come.
    const auto w0 = hn::LoadU(d, weights), w1 = hn::LoadU(d, weights + pitch);
    const auto w2 = hn::LoadU(d, weights + 2 * pitch), w3 = hn::LoadU(d, weights + 3 * pitch);
    const auto acc = WeighQuadWindow<kRows>(
        d,
        [&](size_t row, hn::Vec<D>& e0, hn::Vec<D>& e1, hn::Vec<D>& e2, hn::Vec<D>& e3) {
          hn::LoadInterleaved4(d, &quads[row][4 * j], e0, e1, e2, e3);
        },
        [&](size_t k) {
          return k == 0   ? w0
                 : k == 1 ? w1
                 : k == 2 ? w2
                 : k == 3 ? w3
                          : hn::LoadU(d, weights + k * pitch);
        });
    StoreSums<FloatSums>(d, acc, valid, out + at, out + at, nan);
  }
};

template <size_t kRows>
bool SampleCubicQuadsForRank(const float* HWY_RESTRICT plane,
                             const int32_t* HWY_RESTRICT base_offsets, const int32_t* row_deltas,
                             const float* HWY_RESTRICT row_weights, size_t pitch, size_t count,
                             float* HWY_RESTRICT out) {
  const hn::ScalableTag<float> d;
  // Fewer locations per block as rows grow: the quad buffer stays at 16 KiB (more only where a
  // vector holds more than 16 floats, as a block is read in whole vectors).
  constexpr size_t kBlock = kRows >= 16 ? std::max<size_t>(16, kMaxFloatLanes) : kWindowBlock;
  static_assert(kWindowBlock >= kMaxFloatLanes, "a block holds whole vectors");
  size_t deltas[kRows];
  for (size_t row = 0; row < kRows; ++row) deltas[row] = static_cast<size_t>(row_deltas[row]);
  alignas(64) float quads[kRows][kBlock * 4];
  QuadBlock<kRows, kBlock> block{quads, plane, deltas, out};
  auto nan = hn::FirstN(d, 0);
  CopyAndWeighBlocks<kBlock, kRows>(d, base_offsets, row_weights, pitch, count, block, nan);
  return !hn::AllFalse(d, nan);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_CUBIC_QUADS_INL_H_
