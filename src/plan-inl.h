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

// Calls f(std::integral_constant<size_t, rank>) for rank in 1..kMaxRank.
template <size_t kMaxRank, class F>
HWY_INLINE void VisitRank(size_t rank, F&& f) {
  static_assert(kMaxRank >= 3 && kMaxRank <= 4, "ranks 1 to 3 or 4");
  switch (rank) {
    case 1:
      return f(std::integral_constant<size_t, 1>());
    case 2:
      return f(std::integral_constant<size_t, 2>());
    case 3:
      return f(std::integral_constant<size_t, 3>());
    default:
      return f(std::integral_constant<size_t, kMaxRank>());
  }
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

// The part of an integer `part` (of 2^fraction_bits) that goes to an axis's right element of
// weight `right_weight` where the left one takes the rest: round(part * weight), ties to even,
// as convert.h's SplitFixedWeights splits it.
template <class V>
HWY_INLINE V FixedRightPart(V part, V right_weight) {
  return hn::Round(hn::Mul(part, right_weight));
}

// The fixed-point weights of integer outputs (convert.h's SplitFixedWeights, in vectors) for
// windows of two elements, as k * 2^-fraction_bits in the float rows (exact: k <= 2^24), row by
// row as PlanWindowsForRank stores weights. An axis's element weights are its taps' (coords.h,
// EncodePairTaps): the right element gets round(part * weight) and the left one the rest where
// both taps are inside (or the one outside weighs 0), round(part * weight) elsewhere. Where the
// left element does not hold tap x0 (a shifted pair at the last index), tap x0 + 1 weighs 0, so
// this is SplitFixedWeights' rule. Parts are integers below 2^24, exact in float32. `complete`
// says that every lane of every axis is complete, so that block.complete need not be read.
// Depth first from axis 0, so the leaves come out in odometer order.
template <size_t kAxis, size_t kRank, class D>
HWY_INLINE void SplitFixedPair(D d, const WindowBlock<2>& block, const bool* all_whole,
                               hn::Vec<D> part, size_t leaf, hn::Vec<D> unit, size_t pitch,
                               float* HWY_RESTRICT row_weights) {
  const auto k_right = FixedRightPart(part, hn::Load(d, block.weights[kAxis][1]));
  auto k_left = hn::Sub(part, k_right);
  if (!all_whole[kAxis]) {
    const hn::RebindToSigned<D> di;
    const auto whole = hn::Ne(hn::Load(di, block.complete[kAxis]), hn::Zero(di));
    k_left = hn::IfThenElse(hn::RebindMask(d, whole), k_left,
                            hn::Round(hn::Mul(part, hn::Load(d, block.weights[kAxis][0]))));
  }
  if constexpr (kAxis + 1 == kRank) {  // leaves: elements 2 * leaf (left) and 2 * leaf + 1
    hn::StoreU(hn::Mul(k_left, unit), d, row_weights + 2 * leaf * pitch);
    hn::StoreU(hn::Mul(k_right, unit), d, row_weights + (2 * leaf + 1) * pitch);
  } else {
    SplitFixedPair<kAxis + 1, kRank>(d, block, all_whole, k_left, 2 * leaf, unit, pitch,
                                     row_weights);
    SplitFixedPair<kAxis + 1, kRank>(d, block, all_whole, k_right, 2 * leaf + 1, unit, pitch,
                                     row_weights);
  }
}
// `whole` is 2^fraction_bits, `unit` its inverse.
template <size_t kRank, class D>
HWY_INLINE void StoreFixedPairWeights(D d, const WindowBlock<2>& block, hn::Vec<D> whole,
                                      hn::Vec<D> unit, bool complete, size_t pitch,
                                      float* HWY_RESTRICT row_weights) {
  bool all_whole[kRank];
  for (size_t a = 0; a < kRank; ++a) {
    const hn::RebindToSigned<D> di;
    all_whole[a] =
        complete || hn::AllFalse(di, hn::Eq(hn::Load(di, block.complete[a]), hn::Zero(di)));
  }
  SplitFixedPair<0, kRank>(d, block, all_whole, whole, 0, unit, pitch, row_weights);
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

// The plan of the pair and quad paths (linear_pairs.h, cubic_quads.h), for kRank axes whose
// windows of Axis::kTaps elements Axis plans. Per vector of locations: each axis's windows (as
// vectors, or lane by lane where a lane needs the scalar plan), then the corner offset and the
// weights: for pairs every row's, float products, or with `fixed_bits` the fixed-point weights
// of integer outputs; for quads the inner axis's four and one product per row.
template <size_t kRank, class Axis>
void PlanWindowsForRank(const float* HWY_RESTRICT grid, const int64_t* sizes,
                        const int64_t* strides, const Options& options, int fixed_bits,
                        size_t count, size_t pitch, int32_t* HWY_RESTRICT base_offsets,
                        float* HWY_RESTRICT row_weights) {
  constexpr size_t kTaps = Axis::kTaps;
  constexpr size_t kIn = kRank - 1;  // the innermost axis
  size_t rows = 1;
  for (size_t a = 0; a < kIn; ++a) rows *= kTaps;
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t lanes = hn::Lanes(d);
  const bool fixed = fixed_bits > 0;
  const auto fixed_whole = hn::Set(d, std::ldexp(1.0f, fixed_bits));
  const auto fixed_unit = hn::Set(d, std::ldexp(1.0f, -fixed_bits));
  WindowBlock<kTaps> block;
  alignas(64) float tail[kMaxFloatLanes * kRank];
  // Whether every pair lies inside: border or reflection padding, every axis of 2 or more
  // elements (PairsAt's kInside).
  bool inside = options.padding != Padding::kZeros;
  for (size_t a = 0; a < kRank; ++a) inside = inside && sizes[a] >= 2;
  // Pairs planned in registers: 2-D images that stay inside (Axis::Inside2D), and on x86 3-D
  // volumes (Axis::InRegisters3D; W4 1.03x, WebAssembly's were slower) but for fixed-point
  // weights under zeros padding, which need each lane's completeness.
  constexpr bool kRegisters2D = kRank == 2 && kTaps == 2;
  constexpr bool kRegisters3D = kRank == 3 && kTaps == 2 && GRIDSAMPLE_X86_BITS != 0;
  const bool registers_3d = !(fixed && options.padding == Padding::kZeros);
  // Grid values the vector plans accept (kVectorGridLimit).
  const auto within = [d](hn::Vec<decltype(d)> g) {
    return hn::AllTrue(d, hn::Lt(hn::Abs(g), hn::Set(d, kVectorGridLimit)));
  };
  for (size_t i = 0; i < count; i += lanes) {
    PrefetchGrid<kRank>(grid, i, count, lanes);
    hn::Vec<decltype(d)> c0, c1, c2, c3;
    const float* coords = LoadGridVectors<kRank>(d, grid, i, count, tail, c0, c1, c2, c3);
    if constexpr (kRegisters2D) {
      if (inside && within(c0) && within(c1) &&
          Axis::Inside2D(d, c0, c1, sizes, strides, options, fixed, fixed_whole, fixed_unit, pitch,
                         base_offsets + i, row_weights + i)) {
        continue;
      }
    }
    if constexpr (kRegisters3D) {
      if (registers_3d && within(c0) && within(c1) && within(c2)) {
        const auto plan = [&](auto inside) {
          return Axis::template InRegisters3D<decltype(inside)::value>(
              d, c0, c1, c2, sizes, strides, options, fixed, fixed_whole, fixed_unit, pitch,
              base_offsets + i, row_weights + i);
        };
        if (inside ? plan(std::true_type()) : plan(std::false_type())) continue;
      }
    }
    bool vector = true;
    for (size_t a = 0; a < kRank && vector; ++a) {
      const auto g = AxisComponent<kRank>(a, c0, c1, c2, c3);
      vector = within(g) && Axis::Vector(d, g, sizes[a], options, fixed, &block, a);
    }
    if (!vector) {
      for (size_t lane = 0; lane < lanes; ++lane) {
        for (size_t a = 0; a < kRank; ++a) {
          Axis::Scalar(coords[lane * kRank + (kRank - 1 - a)], sizes[a], options, fixed, &block, a,
                       lane);
        }
      }
    }
    // One base offset per location: row k's window starts at base + row_deltas[k] (window_plan.h).
    auto base = hn::Load(di, block.start[kIn]);
    for (size_t a = 0; a < kIn; ++a) {
      base = hn::Add(base, hn::Mul(hn::Load(di, block.start[a]),
                                   hn::Set(di, static_cast<int32_t>(strides[a]))));
    }
    hn::StoreU(base, di, base_offsets + i);
    if constexpr (kTaps == 2) {
      if (fixed) {
        // Lanes planned in vectors are finite, and complete unless padded with zeros.
        StoreFixedPairWeights<kRank>(d, block, fixed_whole, fixed_unit,
                                     vector && options.padding != Padding::kZeros, pitch,
                                     row_weights + i);
        continue;
      }
    }
    if constexpr (kTaps == 4) {
      // Quads are weighed separably (cubic_quads.h): the inner axis's four weights, then each
      // row's (the product of the outer axes').
      for (size_t k = 0; k < kTaps; ++k) {
        hn::StoreU(hn::Load(d, block.weights[kIn][k]), d, row_weights + k * pitch + i);
      }
      if constexpr (kIn == 0) continue;
    }
    // Rows in odometer order (axis 0 the most significant digit); weights multiply from axis 0
    // inwards, as the reference does.
    for (size_t row = 0; row < rows; ++row) {
      auto product = hn::Set(d, 1.0f);
      size_t place = rows;
      for (size_t a = 0; a < kIn; ++a) {
        place /= kTaps;
        const auto w = hn::Load(d, block.weights[a][row / place % kTaps]);
        product = a == 0 ? w : hn::Mul(product, w);
      }
      if constexpr (kTaps == 4) {
        hn::StoreU(product, d, row_weights + (kTaps + row) * pitch + i);
        continue;
      }
      for (size_t k = 0; k < kTaps; ++k) {
        const auto inner = hn::Load(d, block.weights[kIn][k]);
        hn::StoreU(kIn == 0 ? inner : hn::Mul(product, inner), d,
                   row_weights + (kTaps * row + k) * pitch + i);
      }
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_PLAN_INL_H_
