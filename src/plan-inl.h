// What the vector plans of the pair, quad and nearest paths share, per SIMD target: loading a
// vector of grid values, the windows plan (PlanWindowsForRank), storing sums, the pair kernels'
// prefetches (PrefetchAhead) and the window kernels' loop over copied blocks
// (CopyAndWeighBlocks). The vector forms of coords.h's coordinate math are
// coords-inl.h's. Included by the -inl.h files of those paths.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_PLAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_PLAN_INL_H_
#undef GRIDSAMPLE_SRC_PLAN_INL_H_
#else
#define GRIDSAMPLE_SRC_PLAN_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "coords-inl.h"
#include "coords.h"
#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "window_plan.h"

// This target's x86 vector width in bits (256: AVX2, 512: the AVX-512 family), 0 off x86: what
// the x86-only code (hardware gathers, F16C conversions, transpositions in registers) tests.
// By the ordering of Highway's target bits, not by target names: Highway 1.1 added AVX-512
// targets that rank above AVX3 (lower bits: AVX3_ZEN4, AVX3_SPR), which a list of names would
// leave on portable code on the CPUs they serve. A macro, re-evaluated for each target, so
// that other targets never compile that code.
#undef GRIDSAMPLE_X86_BITS
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && HWY_MAX_BYTES >= 32
#define GRIDSAMPLE_X86_BITS (HWY_MAX_BYTES * 8)
#else
#define GRIDSAMPLE_X86_BITS 0
#endif

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes of the widest float32 vector any target has: sizes the per-block scratch arrays.
inline constexpr size_t kMaxFloatLanes = HWY_MAX_BYTES / sizeof(float);
// Grid values of at most this magnitude unnormalise to finite, int32-convertible coordinates
// on any axis the vector plans accept; larger ones take the scalar path (coords.h's overflow
// handling).
inline constexpr float kVectorGridLimit = 1048576.0f;

// Locations whose windows are copied together before they are weighed: small enough that the
// copies stay in L1, a multiple of every target's lane count.
inline constexpr size_t kWindowBlock = 64;

// One block of L locations: per axis the first index of its window of kTaps adjacent elements
// and their weights (coords.h: EncodePairTaps, EncodeQuadTaps), in memory so that the vector
// and the scalar (fallback) plans feed the same combining code.
template <size_t kTaps>
struct WindowBlock {
  alignas(64) int32_t start[kMaxPairRank][kMaxFloatLanes];
  alignas(64) float weights[kMaxPairRank][kTaps][kMaxFloatLanes];
  // Fixed-point plans only: nonzero where every tap of the axis is inside or weighs 0.
  alignas(64) int32_t complete[kMaxPairRank][kMaxFloatLanes];
};

// The grid values of locations i.. (one vector of them; past `count` padded with zeros, never
// read): component c (grid[..., c]) of every lane in c0..c3. Returns where the lanes' values
// are, `kRank` per lane, for the scalar plan.
template <size_t kRank, class D>
HWY_INLINE const float* LoadGridVectors(D d, const float* grid, size_t i, size_t count, float* tail,
                                        hn::Vec<D>& c0, hn::Vec<D>& c1, hn::Vec<D>& c2,
                                        hn::Vec<D>& c3) {
  const size_t lanes = hn::Lanes(d);
  const float* coords = grid + i * kRank;
  if (i + lanes > count) {
    const size_t valid = (count - i) * kRank;
    std::memcpy(tail, coords, valid * sizeof(float));
    std::fill(tail + valid, tail + lanes * kRank, 0.0f);
    coords = tail;
  }
  c0 = c1 = c2 = c3 = hn::Zero(d);
  if constexpr (kRank == 1) c0 = hn::LoadU(d, coords);
  if constexpr (kRank == 2) hn::LoadInterleaved2(d, coords, c0, c1);
  if constexpr (kRank == 3) hn::LoadInterleaved3(d, coords, c0, c1, c2);
  if constexpr (kRank == 4) hn::LoadInterleaved4(d, coords, c0, c1, c2, c3);
  return coords;
}

// The component spatial axis a of kRank reads (grid[..., 0] is the innermost axis).
template <size_t kRank, class V>
HWY_INLINE V AxisComponent(size_t a, V c0, V c1, V c2, V c3) {
  const size_t c = kRank - 1 - a;
  return c == 0 ? c0 : c == 1 ? c1 : c == 2 ? c2 : c3;
}

// Calls f(std::integral_constant<size_t, k>) for the first k of kValue, kMore... that equals
// `value`, else for the last: the one step from a size known at run time (a rank, a plan's
// rows) to a template argument.
template <size_t kValue, size_t... kMore, class F>
HWY_INLINE auto VisitSize(size_t value, F&& f) {
  if constexpr (sizeof...(kMore) > 0) {
    if (value != kValue) return VisitSize<kMore...>(value, f);
  }
  (void)value;
  return f(std::integral_constant<size_t, kValue>());
}

// Calls f(std::integral_constant<size_t, rank>) for rank in 1..kMaxRank.
template <size_t kMaxRank, class F>
HWY_INLINE void VisitRank(size_t rank, F&& f) {
  static_assert(kMaxRank >= 3 && kMaxRank <= 4, "ranks 1 to 3 or 4");
  VisitSize<1, 2, 3, kMaxRank>(rank, f);
}

// Stores `valid` (at most a vector of) sums at out (unless null) and, converted by Format, at
// elements (the same memory for float32), and notes which are NaN in `nan`.
template <class Format, class D, class M>
HWY_INLINE void StoreSums(D d, hn::Vec<D> acc, size_t valid, float* out,
                          typename Format::Element* elements, M& nan) {
  using Element = typename Format::Element;
  constexpr bool kFloat = std::is_same<Element, float>::value;
  if (valid == hn::Lanes(d)) {
    nan = hn::Or(nan, hn::IsNaN(acc));
    if (!kFloat && out != nullptr) hn::StoreU(acc, d, out);
    Format::Store(d, acc, elements);
    return;
  }
  alignas(64) float last[kMaxFloatLanes];  // the last, partial vector: through buffers
  alignas(64) Element converted[kMaxFloatLanes];
  hn::Store(acc, d, last);
  Format::Store(d, acc, converted);
  nan = hn::Or(nan, hn::And(hn::IsNaN(acc), hn::FirstN(d, valid)));
  if (!kFloat && out != nullptr) std::memcpy(out, last, valid * sizeof(float));
  std::memcpy(elements, converted, valid * sizeof(Element));
}

// float32 sums stored as they are (StoreSums' Format for float32 outputs).
struct FloatSums {
  using Element = float;
  template <class D>
  static void Store(D d, hn::Vec<D> v, Element* dst) {
    hn::StoreU(v, d, dst);
  }
};

// A whole vector of float32 sums at dst, 16-byte aligned, with non-temporal stores: each line
// of an output larger than the caches is then written without first being read (the caller
// ends with hwy::FlushStream). A vector is stored whole where dst is aligned to its size, else
// in halves, down to 16 bytes. Plain stores off x86 and on SSE4, where Highway's Stream is one,
// or was not measured (docs/benchmarks.md).
template <class D>
HWY_INLINE void StreamSums(D d, hn::Vec<D> v, float* HWY_RESTRICT dst) {
#if GRIDSAMPLE_X86_BITS
  constexpr size_t kBytes = hn::MaxLanes(d) * sizeof(float);
  if constexpr (kBytes > 16) {
    if (reinterpret_cast<uintptr_t>(dst) % kBytes != 0) {
      const hn::Half<D> dh;
      StreamSums(dh, hn::LowerHalf(dh, v), dst);
      StreamSums(dh, hn::UpperHalf(dh, v), dst + hn::MaxLanes(dh));
      return;
    }
  }
  hn::Stream(v, d, dst);
#else
  hn::StoreU(v, d, dst);
#endif
}

// The k-th of w (vectors are sizeless on SVE: no tuples or arrays of them).
template <size_t k, class V, class... W>
HWY_INLINE V Pick(V first, W... rest) {
  if constexpr (k == 0) {
    ((void)rest, ...);
    return first;
  } else {
    (void)first;
    return Pick<k - 1>(rest...);
  }
}

// StoreRowProducts' steps: for each tap kTap.. of the next axis, whose weights lead `weights`
// (kTaps of them, then the following axes'), its product with `product`, that of the axes
// before (kFirst: none), then the following axes' products with that; `row` is the combination
// of the axes before, to which the tap adds a last digit.
template <size_t kTaps, bool kFirst, size_t kTap, class D, class... W>
HWY_INLINE void StoreTapProducts(D d, hn::Vec<D> product, size_t row, size_t pitch,
                                 float* HWY_RESTRICT out, W... weights);
// StoreTapProducts of the axis after the next: the weights after the first kDrop, or the
// product itself after the last axis.
template <size_t kTaps, size_t kDrop, class D, class V, class... W>
HWY_INLINE void StoreNextAxisProducts(D d, V product, size_t row, size_t pitch,
                                      float* HWY_RESTRICT out, V first, W... rest) {
  (void)first;
  if constexpr (kDrop > 1) {
    StoreNextAxisProducts<kTaps, kDrop - 1>(d, product, row, pitch, out, rest...);
  } else if constexpr (sizeof...(W) == 0) {
    hn::StoreU(product, d, out + row * pitch);
  } else {
    StoreTapProducts<kTaps, /*kFirst=*/false, 0>(d, product, row, pitch, out, rest...);
  }
}
template <size_t kTaps, bool kFirst, size_t kTap, class D, class... W>
HWY_INLINE void StoreTapProducts(D d, hn::Vec<D> product, size_t row, size_t pitch,
                                 float* HWY_RESTRICT out, W... weights) {
  hn::Vec<D> next = Pick<kTap>(weights...);
  if constexpr (!kFirst) next = hn::Mul(product, next);
  StoreNextAxisProducts<kTaps, kTaps>(d, next, row * kTaps + kTap, pitch, out, weights...);
  if constexpr (kTap + 1 < kTaps) {
    StoreTapProducts<kTaps, kFirst, kTap + 1>(d, product, row, pitch, out, weights...);
  }
}

// The row weights of a window plan as products of one weight per axis: for every combination
// of the axes' taps, in odometer order (the first axis the most significant digit), the
// product of their weights, multiplied from the first axis inwards as the reference multiplies,
// at out[combination * pitch]. The weights are kTaps per axis, the first axis's first: in
// registers, the register plans' own or loaded from a WindowBlock (StoreBlockProducts).
template <size_t kTaps, class D, class... W>
HWY_INLINE void StoreRowProducts(D d, size_t pitch, float* HWY_RESTRICT out, hn::Vec<D> first,
                                 W... weights) {
  StoreTapProducts<kTaps, /*kFirst=*/true, 0>(d, first, 0, pitch, out, first, weights...);
}

// SplitFixedPairs' lanes where every axis is complete (all taps inside, or the ones outside
// weighing 0): the left element takes the rest of each part.
struct CompleteLanes {
  template <size_t kAxis, class D>
  HWY_INLINE hn::Vec<D> Left(D /*d*/, hn::Vec<D> /*part*/, hn::Vec<D> rest) const {
    return rest;
  }
};

// The fixed-point weights of integer outputs (convert.h's SplitFixedWeights, in vectors) for
// windows of two elements, as k * 2^-fraction_bits (k * `unit`) in the float rows (exact:
// k <= 2^24), in odometer order, depth first from axis 0: the part `part` of the combination
// `leaf` of the axes before kAxis goes round(part * weight) (ties to even) to axis kAxis's right
// element, of weight right_weight, and the rest to its left one, or where lanes.Left says the
// lane is not complete, round(part * its own weight). An axis's element weights are its taps'
// (coords.h, EncodePairTaps); where the left element does not hold tap x0 (a shifted pair at
// the last index), tap x0 + 1 weighs 0, so this is SplitFixedWeights' rule. Parts are integers
// below 2^24, exact in float32.
template <size_t kAxis, class D, class Lanes>
HWY_INLINE void SplitFixedPairs(D d, hn::Vec<D> part, size_t leaf, hn::Vec<D> unit, size_t pitch,
                                float* HWY_RESTRICT out, const Lanes& /*lanes*/) {
  hn::StoreU(hn::Mul(part, unit), d, out + leaf * pitch);
}
template <size_t kAxis, class D, class Lanes, class... W>
HWY_INLINE void SplitFixedPairs(D d, hn::Vec<D> part, size_t leaf, hn::Vec<D> unit, size_t pitch,
                                float* HWY_RESTRICT out, const Lanes& lanes,
                                hn::Vec<D> right_weight, W... right_weights) {
  const auto right = hn::Round(hn::Mul(part, right_weight));
  const auto left = lanes.template Left<kAxis>(d, part, hn::Sub(part, right));
  SplitFixedPairs<kAxis + 1>(d, left, 2 * leaf, unit, pitch, out, lanes, right_weights...);
  SplitFixedPairs<kAxis + 1>(d, right, 2 * leaf + 1, unit, pitch, out, lanes, right_weights...);
}

// rows[r]: where row r of the window at a location's corner starts, in an input whose elements
// (pairs' halves, or pixels) are `unit` bytes: first + row_deltas[r] * unit. The pair kernels
// read each row at rows[r] + base_offsets[i] * unit.
template <size_t kRows>
HWY_INLINE void RowStarts(const void* first, const int32_t* row_deltas, size_t unit,
                          const unsigned char** rows) {
  for (size_t row = 0; row < kRows; ++row) {
    rows[row] =
        static_cast<const unsigned char*>(first) + static_cast<size_t>(row_deltas[row]) * unit;
  }
}

// The pair kernels' prefetches: every kPrefetchEvery-th location they sample, the rows of the
// window kPrefetchAhead locations on (rows[r] + base_offsets[...] * unit bytes), unless that is
// past `count`. An affine warp of a large image reads each input row in short runs, a row
// apart, which no hardware prefetcher predicts. Neighbours share their lines, so every 16th
// location is enough; 64 ahead measured best (docs/benchmarks.md).
inline constexpr size_t kPrefetchEvery = 16;
inline constexpr size_t kPrefetchAhead = 64;
template <size_t kRows>
HWY_INLINE void PrefetchAhead(const unsigned char* const* rows,
                              const int32_t* HWY_RESTRICT base_offsets, size_t i, size_t count,
                              size_t unit) {
#if HWY_ARCH_WASM  // no prefetch instruction: nothing to compute
  (void)rows, (void)base_offsets, (void)i, (void)count, (void)unit;
#else
  if (i % kPrefetchEvery != 0 || i + kPrefetchAhead >= count) return;
  const size_t at = static_cast<size_t>(base_offsets[i + kPrefetchAhead]) * unit;
  for (size_t row = 0; row < kRows; ++row) hwy::Prefetch(rows[row] + at);
#endif
}

// The pair kernels' prefetches of a scattered tile (ScatteredWindows): the rows of the windows
// of locations i..i+n-1 in the plane `next` bytes on, which the kernel samples after this one
// (none where `next` is 0). Scattered windows miss the caches one line at a time, and each plane
// is read once per tile: prefetched a plane ahead, they arrive while this plane is sampled.
template <size_t kRows>
HWY_INLINE void PrefetchNextPlane(const unsigned char* const* rows, size_t next,
                                  const int32_t* HWY_RESTRICT base_offsets, size_t i, size_t n,
                                  size_t unit) {
#if HWY_ARCH_WASM  // no prefetch instruction: nothing to compute
  (void)rows, (void)next, (void)base_offsets, (void)i, (void)n, (void)unit;
#else
  if (next == 0) return;
  for (size_t k = 0; k < n; ++k) {
    const size_t at = next + static_cast<size_t>(base_offsets[i + k]) * unit;
    for (size_t row = 0; row < kRows; ++row) hwy::Prefetch(rows[row] + at);
  }
#endif
}

// The loop of the window kernels that copy a block of windows before they weigh them (the pair
// kernel's 16-bit elements and scalable targets, the pixel pairs, the quads), over `count`
// locations in blocks of kBlock, with Window's policies: the loader Window::Copy(row, j, base),
// which copies row `row` of the window at element offset `base` (base_offsets[i]) into the
// block as its location j, after Window::Prefetch(i) (PrefetchAhead, or nothing); and the storer
// Window::Weigh(d, j, row_weights, pitch, i, valid, nan), which weighs the block's vector of
// locations from j (plan locations from i) and stores their `valid` sums, noting NaN ones in
// `nan`. The block is copied in whole vectors: the plan's last vector is whole (linear_pairs.h)
// and every window lies inside the input.
template <size_t kBlock, size_t kRows, class D, class Window, class M>
HWY_INLINE void CopyAndWeighBlocks(D d, const int32_t* HWY_RESTRICT base_offsets,
                                   const float* HWY_RESTRICT row_weights, size_t pitch,
                                   size_t count, Window& window, M& nan) {
  const size_t lanes = hn::Lanes(d);
  for (size_t i0 = 0; i0 < count; i0 += kBlock) {
    const size_t n = std::min(kBlock, count - i0);
    const size_t whole = (n + lanes - 1) / lanes * lanes;
    for (size_t j = 0; j < whole; ++j) {
      window.Prefetch(i0 + j);
      const size_t base = static_cast<size_t>(base_offsets[i0 + j]);
      for (size_t row = 0; row < kRows; ++row) window.Copy(row, j, base);
    }
    for (size_t j = 0; j < n; j += lanes) {
      window.Weigh(d, j, row_weights, pitch, i0 + j, std::min(lanes, n - j), nan);
    }
  }
}

// The plans' prefetches of the grid: the lines of the vector of locations kGridAhead on from
// location i (unless that is past `count`). A large grid is read from memory while the input
// and output compete for it, and the hardware's prefetches did not run far enough ahead (W2
// 1.17x, W10 1.05x; 128 and 1024 locations ahead measured less: docs/benchmarks.md).
inline constexpr size_t kGridAhead = 512;
template <size_t kRank>
HWY_INLINE void PrefetchGrid(const float* grid, size_t i, size_t count, size_t lanes) {
#if HWY_ARCH_WASM  // no prefetch instruction: nothing to compute
  (void)grid, (void)i, (void)count, (void)lanes;
#else
  if (i + kGridAhead >= count) return;
  const auto* ahead = reinterpret_cast<const unsigned char*>(grid + (i + kGridAhead) * kRank);
  for (size_t b = 0; b < lanes * kRank * sizeof(float); b += 64) hwy::Prefetch(ahead + b);
#endif
}

// What the axis plans of a window plan read (PlanWindowsForRank; no vectors: SVE's are
// sizeless).
struct WindowAxes {
  const int64_t* sizes;
  const AxisExtent* extents;  // of the same axes
  const int64_t* strides;
  Options options;
  bool fixed;    // fixed-point weights, for integer outputs (linear_pairs.h)
  bool inside;   // border or reflection padding, every axis of 2 or more elements: every pair
                 // lies inside (PairsAt's kInside)
  size_t pitch;  // between a location's weights in the plan's rows
};

// Whether the vector plans accept grid values g (kVectorGridLimit).
template <class D>
HWY_INLINE bool WithinVectorLimit(D d, hn::Vec<D> g) {
  return hn::AllTrue(d, hn::Lt(hn::Abs(g), hn::Set(d, kVectorGridLimit)));
}

// Each axis's windows of one vector of locations (grid components c0..c3, `coords` as
// LoadGridVectors returns them) in `block`: as vectors (Axis::Vector), or lane by lane where a
// lane needs the scalar plan (Axis::Scalar), which gives the same numbers. Returns whether the
// vectors planned them.
template <size_t kRank, class Axis, class D>
HWY_INLINE bool PlanAxes(D d, hn::Vec<D> c0, hn::Vec<D> c1, hn::Vec<D> c2, hn::Vec<D> c3,
                         const float* coords, const WindowAxes& axes,
                         WindowBlock<Axis::kTaps>* block) {
  bool vector = true;
  for (size_t a = 0; a < kRank && vector; ++a) {
    const auto g = AxisComponent<kRank>(a, c0, c1, c2, c3);
    vector = WithinVectorLimit(d, g) &&
             Axis::Vector(d, g, axes.extents[a], axes.options, axes.fixed, block, a);
  }
  if (!vector) {
    for (size_t lane = 0; lane < hn::Lanes(d); ++lane) {
      for (size_t a = 0; a < kRank; ++a) {
        Axis::Scalar(coords[lane * kRank + (kRank - 1 - a)], axes.sizes[a], axes.options,
                     axes.fixed, block, a, lane);
      }
    }
  }
  return vector;
}

// One base offset per location: row k's window starts at base + row_deltas[k] (window_plan.h).
template <size_t kRank, size_t kTaps, class D>
HWY_INLINE void StoreCornerOffsets(D /*d*/, const WindowBlock<kTaps>& block, const int64_t* strides,
                                   int32_t* HWY_RESTRICT base_offsets) {
  const hn::RebindToSigned<D> di;
  auto base = hn::Load(di, block.start[kRank - 1]);
  for (size_t a = 0; a + 1 < kRank; ++a) {
    base = hn::Add(
        base, hn::Mul(hn::Load(di, block.start[a]), hn::Set(di, static_cast<int32_t>(strides[a]))));
  }
  hn::StoreU(base, di, base_offsets);
}

// StoreRowProducts of the block's weights of its first sizeof...(kIndex) / kTaps axes.
template <size_t kTaps, class D, size_t... kIndex>
HWY_INLINE void StoreBlockProducts(D d, const WindowBlock<kTaps>& block, size_t pitch,
                                   float* HWY_RESTRICT out, std::index_sequence<kIndex...>) {
  StoreRowProducts<kTaps>(d, pitch, out,
                          hn::Load(d, block.weights[kIndex / kTaps][kIndex % kTaps])...);
}

// SplitFixedPairs' lanes of a block of pairs: lanes not complete on an axis take their left
// element's own round(part * weight). `all_whole[a]` says that every lane of axis a is complete,
// so that block.complete need not be read.
struct BlockLanes {
  const WindowBlock<2>* block;
  const bool* all_whole;
  template <size_t kAxis, class D>
  HWY_INLINE hn::Vec<D> Left(D d, hn::Vec<D> part, hn::Vec<D> rest) const {
    if (all_whole[kAxis]) return rest;
    const hn::RebindToSigned<D> di;
    const auto whole = hn::Ne(hn::Load(di, block->complete[kAxis]), hn::Zero(di));
    return hn::IfThenElse(hn::RebindMask(d, whole), rest,
                          hn::Round(hn::Mul(part, hn::Load(d, block->weights[kAxis][0]))));
  }
};

// SplitFixedPairs of the whole (`whole` = 2^fraction_bits, `unit` its inverse) over a block of
// pairs, whose lanes are all complete where `complete` says so.
template <size_t kRank, class D, size_t... kAxis>
HWY_INLINE void StoreFixedPairWeights(D d, const WindowBlock<2>& block, hn::Vec<D> whole,
                                      hn::Vec<D> unit, bool complete, size_t pitch,
                                      float* HWY_RESTRICT out, std::index_sequence<kAxis...>) {
  const hn::RebindToSigned<D> di;
  const bool all_whole[kRank] = {
      (complete || hn::AllFalse(di, hn::Eq(hn::Load(di, block.complete[kAxis]), hn::Zero(di))))...};
  SplitFixedPairs<0>(d, whole, 0, unit, pitch, out, BlockLanes{&block, all_whole},
                     hn::Load(d, block.weights[kAxis][1])...);
}

// The plan of the pair and quad paths (linear_pairs.h, cubic_quads.h), for kRank axes whose
// windows of Axis::kTaps elements Axis plans. Per vector of locations, the whole plan in
// registers where Axis::InRegisters makes it; else each axis's windows in a block (PlanAxes),
// then the corner offset and the row weights, which Axis::StoreWeights makes from the block.
template <size_t kRank, class Axis>
void PlanWindowsForRank(const float* HWY_RESTRICT grid, const int64_t* sizes,
                        const int64_t* strides, const Options& options, int fixed_bits,
                        size_t count, size_t pitch, int32_t* HWY_RESTRICT base_offsets,
                        float* HWY_RESTRICT row_weights) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  AxisExtent extents[kRank];
  for (size_t a = 0; a < kRank; ++a) extents[a] = AxisExtent(sizes[a], options.align_corners);
  WindowAxes axes{
      sizes, extents, strides, options, fixed_bits > 0, options.padding != Padding::kZeros, pitch};
  for (size_t a = 0; a < kRank; ++a) axes.inside = axes.inside && sizes[a] >= 2;
  // Fixed-point weights split 2^fraction_bits and are stored in units of its inverse.
  const auto whole = hn::Set(d, std::ldexp(1.0f, fixed_bits));
  const auto unit = hn::Set(d, std::ldexp(1.0f, -fixed_bits));
  WindowBlock<Axis::kTaps> block;
  alignas(64) float tail[kMaxFloatLanes * kRank];
  for (size_t i = 0; i < count; i += lanes) {
    PrefetchGrid<kRank>(grid, i, count, lanes);
    hn::Vec<decltype(d)> c0, c1, c2, c3;
    const float* coords = LoadGridVectors<kRank>(d, grid, i, count, tail, c0, c1, c2, c3);
    if (Axis::template InRegisters<kRank>(d, c0, c1, c2, axes, whole, unit, base_offsets + i,
                                          row_weights + i)) {
      continue;
    }
    const bool vector = PlanAxes<kRank, Axis>(d, c0, c1, c2, c3, coords, axes, &block);
    StoreCornerOffsets<kRank>(d, block, strides, base_offsets + i);
    Axis::template StoreWeights<kRank>(d, block, vector, axes, whole, unit, row_weights + i);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_PLAN_INL_H_
