// The channels-last path, per SIMD target: linear and cubic interpolation of images with many
// channels (float32, float16, bfloat16), and of channels-last X, from float32 pixels with the
// channels innermost (a copy of X, or X itself). Included by channels_last.cc once per target
// (foreach_target), after the pair path whose plan and element formats it shares.
//
// The pair path gathers each location's pairs once per channel: 2^r scalar loads per output
// element, from a plane that outgrows L1 when it is large. With the channels innermost, each
// tap of a location is a run of adjacent channels, loaded as whole vectors and weighed by the
// tap's weight broadcast: the same plan (PlanLinearPairs), the same sums in the same order, so
// the results equal the pair path's bit for bit. The price, for channels-first X, is a
// transposition of the input (ToChannelsLast) and of each block of sums back to one plane per
// channel; channels-last X and Y need neither.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_CHANNELS_LAST_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_CHANNELS_LAST_INL_H_
#undef GRIDSAMPLE_SRC_CHANNELS_LAST_INL_H_
#else
#define GRIDSAMPLE_SRC_CHANNELS_LAST_INL_H_
#endif

#include <algorithm>
#include <type_traits>

#include "hwy/highway.h"
#include "channels_last.h"
#include "cubic_quads-inl.h"
#include "linear_pairs-inl.h"
#include "plan-inl.h"
#include "window_plan.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Output locations whose sums are transposed together: 512 bytes of each channel's plane
// written at once (the best measured: docs/benchmarks.md).
inline constexpr size_t kLastBlock = 128;
// Channels summed per pass over a block, so that the block's sums stay in L1 however many
// channels there are. The rows of those sums are longer by a vector, as the last vector of a
// pass may run past its channels.
inline constexpr size_t kLastChunk = 32;
inline constexpr size_t kLastSumsPitch = kLastChunk + kMaxFloatLanes;
// Locations per step of ToChannelsLast (the best measured: docs/benchmarks.md).
inline constexpr size_t kToLastBlock = 256;

// The widest square block Transpose moves in registers, per target (a macro, so that other
// targets never compile the wider code): 16 with 512-bit vectors, 8 with 256-bit ones, 4 on
// 128-bit targets, 1 (element by element) where vectors are scalable or scalar.
#undef GRIDSAMPLE_TRANSPOSE_BLOCK
#if GRIDSAMPLE_X86_BITS == 512
#define GRIDSAMPLE_TRANSPOSE_BLOCK 16
#elif GRIDSAMPLE_X86_BITS == 256
#define GRIDSAMPLE_TRANSPOSE_BLOCK 8
#elif HWY_HAVE_SCALABLE || HWY_TARGET == HWY_SCALAR
#define GRIDSAMPLE_TRANSPOSE_BLOCK 1
#else
#define GRIDSAMPLE_TRANSPOSE_BLOCK 4
#endif

#if GRIDSAMPLE_TRANSPOSE_BLOCK >= 4
// A vector whose 128-bit block b is the 4 floats at src + b * block_pitch.
template <class D>
HWY_INLINE hn::Vec<D> LoadBlocksApart(D d, const float* HWY_RESTRICT src, size_t block_pitch) {
  if constexpr (hn::MaxLanes(D()) == 4) {
    return hn::LoadU(d, src);
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d,
                       LoadBlocksApart(dh, src + hn::MaxLanes(dh) / 4 * block_pitch, block_pitch),
                       LoadBlocksApart(dh, src, block_pitch));
  }
}

// dst[c * dst_pitch + j] = src[j * src_pitch + c] for c < 4 and j below D's lanes: with 128-bit
// vectors a 4x4 block; with wider ones each of the 4 rows of dst written as one whole vector
// (a 64-byte line with 512-bit vectors), where 4x4 blocks write it in 16-byte pieces. Row j of
// src goes to block j / 4 of a vector, so that one 4x4 transposition within each block puts
// every column in order.
template <class D>
HWY_INLINE void Transpose4Rows(D d, const float* HWY_RESTRICT src, size_t src_pitch,
                               float* HWY_RESTRICT dst, size_t dst_pitch) {
  const hn::Repartition<double, D> dd;
  const size_t block_pitch = 4 * src_pitch;
  const auto r0 = LoadBlocksApart(d, src, block_pitch);
  const auto r1 = LoadBlocksApart(d, src + src_pitch, block_pitch);
  const auto r2 = LoadBlocksApart(d, src + 2 * src_pitch, block_pitch);
  const auto r3 = LoadBlocksApart(d, src + 3 * src_pitch, block_pitch);
  const auto low01 = hn::BitCast(dd, hn::InterleaveLower(d, r0, r1));
  const auto high01 = hn::BitCast(dd, hn::InterleaveUpper(d, r0, r1));
  const auto low23 = hn::BitCast(dd, hn::InterleaveLower(d, r2, r3));
  const auto high23 = hn::BitCast(dd, hn::InterleaveUpper(d, r2, r3));
  hn::StoreU(hn::BitCast(d, hn::InterleaveLower(dd, low01, low23)), d, dst);
  hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(dd, low01, low23)), d, dst + dst_pitch);
  hn::StoreU(hn::BitCast(d, hn::InterleaveLower(dd, high01, high23)), d, dst + 2 * dst_pitch);
  hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(dd, high01, high23)), d, dst + 3 * dst_pitch);
}
#endif

#if GRIDSAMPLE_TRANSPOSE_BLOCK >= 8
// dst[c * dst_pitch + j] = src[j * src_pitch + c] for j, c < 8, in 256-bit vectors: a 4x4
// transposition within each 128-bit half (columns c and c + 4 side by side, rows 0-3 and 4-7
// apart), then the halves swapped across. 40 instructions where four 4x4 blocks take 64, and
// stores of 32 bytes.
HWY_INLINE void Transpose8x8(const float* HWY_RESTRICT src, size_t src_pitch,
                             float* HWY_RESTRICT dst, size_t dst_pitch) {
  const hn::Full256<float> d;
  const hn::Repartition<double, decltype(d)> dd;
  hn::Vec<decltype(dd)> pairs[8];  // rows 2k, 2k+1 interleaved: columns (0 1 | 4 5), (2 3 | 6 7)
  for (size_t k = 0; k < 4; ++k) {
    const auto even = hn::LoadU(d, src + 2 * k * src_pitch);
    const auto odd = hn::LoadU(d, src + (2 * k + 1) * src_pitch);
    pairs[2 * k] = hn::BitCast(dd, hn::InterleaveLower(d, even, odd));
    pairs[2 * k + 1] = hn::BitCast(dd, hn::InterleaveUpper(d, even, odd));
  }
  for (size_t half = 0; half < 2; ++half) {  // columns 2 * half, 2 * half + 1 (and + 4)
    const auto low = pairs[half], high = pairs[2 + half];                   // rows 0-1, 2-3
    const auto low4 = pairs[4 + half], high4 = pairs[6 + half];             // rows 4-5, 6-7
    const auto first = hn::BitCast(d, hn::InterleaveLower(dd, low, high));  // rows 0-3
    const auto second = hn::BitCast(d, hn::InterleaveUpper(dd, low, high));
    const auto first4 = hn::BitCast(d, hn::InterleaveLower(dd, low4, high4));  // rows 4-7
    const auto second4 = hn::BitCast(d, hn::InterleaveUpper(dd, low4, high4));
    float* column = dst + 2 * half * dst_pitch;
    hn::StoreU(hn::ConcatLowerLower(d, first4, first), d, column);
    hn::StoreU(hn::ConcatLowerLower(d, second4, second), d, column + dst_pitch);
    hn::StoreU(hn::ConcatUpperUpper(d, first4, first), d, column + 4 * dst_pitch);
    hn::StoreU(hn::ConcatUpperUpper(d, second4, second), d, column + 5 * dst_pitch);
  }
}
#endif

#if GRIDSAMPLE_TRANSPOSE_BLOCK == 16
// dst[c * dst_pitch + j] = src[j * src_pitch + c] for j, c < 16, in 512-bit vectors: a 4x4
// transposition within each 128-bit block (as Transpose8x8), then one of the 4x4 blocks across
// the vectors. Each load and store is a whole 64-byte row, so a row a power of two apart from
// the others is read or written once, whole.
HWY_INLINE void Transpose16x16(const float* HWY_RESTRICT src, size_t src_pitch,
                               float* HWY_RESTRICT dst, size_t dst_pitch) {
  const hn::Full512<float> d;
  const hn::Repartition<double, decltype(d)> dd;
  using V = hn::Vec<decltype(d)>;
  V pairs[16];  // rows 2k, 2k+1 interleaved: per block b, columns 4b, 4b+1 (even) or +2, +3
  for (size_t k = 0; k < 8; ++k) {
    const V even = hn::LoadU(d, src + 2 * k * src_pitch);
    const V odd = hn::LoadU(d, src + (2 * k + 1) * src_pitch);
    pairs[2 * k] = hn::InterleaveLower(d, even, odd);
    pairs[2 * k + 1] = hn::InterleaveUpper(d, even, odd);
  }
  V quads[16];  // [4k + m], block b: column 4b + m of rows 4k..4k+3
  for (size_t k = 0; k < 4; ++k) {
    for (size_t half = 0; half < 2; ++half) {
      const auto low = hn::BitCast(dd, pairs[4 * k + half]);
      const auto high = hn::BitCast(dd, pairs[4 * k + 2 + half]);
      quads[4 * k + 2 * half] = hn::BitCast(d, hn::InterleaveLower(dd, low, high));
      quads[4 * k + 2 * half + 1] = hn::BitCast(d, hn::InterleaveUpper(dd, low, high));
    }
  }
  for (size_t m = 0; m < 4; ++m) {
    const V a = quads[m], b = quads[4 + m], c = quads[8 + m], e = quads[12 + m];
    const V ab_even = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a);  // a0 b0 a2 b2
    const V ab_odd = hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a));   // a1 b1 a3 b3
    const V ce_even = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(e), c);
    const V ce_odd = hn::OddEvenBlocks(e, hn::SwapAdjacentBlocks(c));
    hn::StoreU(hn::ConcatLowerLower(d, ce_even, ab_even), d, dst + m * dst_pitch);
    hn::StoreU(hn::ConcatLowerLower(d, ce_odd, ab_odd), d, dst + (4 + m) * dst_pitch);
    hn::StoreU(hn::ConcatUpperUpper(d, ce_even, ab_even), d, dst + (8 + m) * dst_pitch);
    hn::StoreU(hn::ConcatUpperUpper(d, ce_odd, ab_odd), d, dst + (12 + m) * dst_pitch);
  }
}
#endif

// One square block of kBlock rows and columns (a size this target has: 16, 8 or 4).
template <size_t kBlock>
HWY_INLINE void TransposeBlock(const float* HWY_RESTRICT src, size_t src_pitch,
                               float* HWY_RESTRICT dst, size_t dst_pitch) {
  static_assert(kBlock >= 4 && kBlock <= GRIDSAMPLE_TRANSPOSE_BLOCK, "a block this target has");
#if GRIDSAMPLE_TRANSPOSE_BLOCK == 16
  if constexpr (kBlock == 16) Transpose16x16(src, src_pitch, dst, dst_pitch);
#endif
#if GRIDSAMPLE_TRANSPOSE_BLOCK >= 8
  if constexpr (kBlock == 8) Transpose8x8(src, src_pitch, dst, dst_pitch);
#endif
#if GRIDSAMPLE_TRANSPOSE_BLOCK >= 4
  if constexpr (kBlock == 4) Transpose4Rows(hn::Full128<float>(), src, src_pitch, dst, dst_pitch);
#endif
}

// dst[c * dst_pitch + j] = src[j * src_pitch + c] for j < rows, c < columns, in the widest
// square blocks that fit (of at most kMaxBlock), then in halves of them, then element by
// element. Each row of dst is written whole before the next rows: dst's rows may be a power of
// two apart (the output's planes), and revisiting them would evict lines before they are
// complete.
template <size_t kMaxBlock = GRIDSAMPLE_TRANSPOSE_BLOCK>
HWY_INLINE void Transpose(const float* HWY_RESTRICT src, size_t src_pitch, size_t rows,
                          size_t columns, float* HWY_RESTRICT dst, size_t dst_pitch) {
  constexpr size_t kBlock = std::min<size_t>(kMaxBlock, GRIDSAMPLE_TRANSPOSE_BLOCK);
  if constexpr (kBlock >= 4) {
    // Fewer rows or columns than a block go straight to smaller blocks: the loops below would
    // call them once per block for nothing (a third of R4's copy of 4 planes, in instructions).
    if (rows < kBlock || columns < kBlock) {
      if (rows != 0 && columns != 0) {
        Transpose<kBlock / 2>(src, src_pitch, rows, columns, dst, dst_pitch);
      }
      return;
    }
    size_t c = 0;
    for (; c + kBlock <= columns; c += kBlock) {
      size_t j = 0;
      for (; j + kBlock <= rows; j += kBlock) {
        TransposeBlock<kBlock>(src + j * src_pitch + c, src_pitch, dst + c * dst_pitch + j,
                               dst_pitch);
      }
      // The rows left of these columns.
      Transpose<kBlock / 2>(src + j * src_pitch + c, src_pitch, rows - j, kBlock,
                            dst + c * dst_pitch + j, dst_pitch);
    }
    Transpose<kBlock / 2>(src + c, src_pitch, rows, columns - c, dst + c * dst_pitch,
                          dst_pitch);  // the columns left
  } else {
    for (size_t c = 0; c < columns; ++c) {
      for (size_t j = 0; j < rows; ++j) dst[c * dst_pitch + j] = src[j * src_pitch + c];
    }
  }
}

// out[i] = row[i] as float32 for i < n, widened in vectors as the pair path widens.
template <ElementKind K>
HWY_INLINE void WidenRow(const typename PairFormat<K>::Element* row, size_t n, float* out) {
  using Format = PairFormat<K>;
  using Element = typename Format::Element;
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(Format::Widen(d, row + i), d, out + i);
  if (i < n) {  // the rest through a buffer: the row may end here
    Element rest[kMaxFloatLanes] = {};
    std::copy(row + i, row + n, rest);
    alignas(64) float wide[kMaxFloatLanes];
    hn::Store(Format::Widen(d, rest), d, wide);
    std::copy(wide, wide + (n - i), out + i);
  }
}

template <ElementKind K>
void ToChannelsLastForKind(const void* planes, size_t channels, size_t plane, size_t padded,
                           size_t begin, size_t end, float* pixels) {
  using Format = PairFormat<K>;
  using Element = typename Format::Element;
  const auto* elements = static_cast<const Element*>(planes);
  // Planes read at once: one transposed block's rows, and at least 8, so that each pixel's
  // written run is 32 bytes or more (8 beat 4 with 256-bit vectors, and in WebAssembly's
  // 4x4 blocks: W6 1.37 times as fast; docs/benchmarks.md), but no more than that, as the
  // planes may be a power of two apart and more of them would evict their lines before the
  // next locations use them.
  constexpr size_t kGroup = GRIDSAMPLE_TRANSPOSE_BLOCK > 8 ? GRIDSAMPLE_TRANSPOSE_BLOCK : 8;
  alignas(64) float widened[kGroup][kToLastBlock];
  // A last group that ends short of a block of 4 planes is transposed with rows of zeros up to
  // that block, which are the pixels' padding: the element loop for its odd planes and the
  // padding's fill took longer (RGB planes cost more than RGBA ones).
  const size_t last_group = (channels - 1) % kGroup + 1;
  const size_t last_rows =
      std::min(RoundUp(last_group, size_t{4}), padded - (channels - last_group));
  const size_t transposed = channels - last_group + last_rows;  // floats of each pixel
  for (size_t p0 = begin; p0 < end; p0 += kToLastBlock) {
    const size_t n = std::min(kToLastBlock, end - p0);
    for (size_t c = 0; c < channels; c += kGroup) {
      const size_t group = std::min<size_t>(kGroup, channels - c);
      const size_t rows = group == kGroup ? group : last_rows;
      const Element* first = elements + c * plane + p0;
      if constexpr (K == ElementKind::kF32) {
        if (rows == group) {
          Transpose(first, plane, group, n, pixels + p0 * padded + c, padded);
          continue;
        }
        for (size_t k = 0; k < group; ++k) std::copy_n(first + k * plane, n, widened[k]);
      } else {
        for (size_t k = 0; k < group; ++k) WidenRow<K>(first + k * plane, n, widened[k]);
      }
      for (size_t k = group; k < rows; ++k) std::fill_n(widened[k], n, 0.0f);
      Transpose(widened[0], kToLastBlock, rows, n, pixels + p0 * padded + c, padded);
    }
    if (transposed < padded) {  // the padding left (an empty loop took a fifth of W4's copy)
      for (size_t p = p0; p < p0 + n; ++p) {
        std::fill(pixels + p * padded + transposed, pixels + (p + 1) * padded, 0.0f);
      }
    }
  }
}

// PadChannelsLast (channels_last.h): each pixel's channels widened to float32 and padded.
template <ElementKind K>
void PadChannelsLastForKind(const void* in, size_t channels, size_t padded, size_t begin,
                            size_t end, float* pixels) {
  const auto* elements = static_cast<const typename PairFormat<K>::Element*>(in);
  for (size_t p = begin; p < end; ++p) {
    float* pixel = pixels + p * padded;
    if constexpr (K == ElementKind::kF32) {
      std::copy(elements + p * channels, elements + (p + 1) * channels, pixel);
    } else {
      WidenRow<K>(elements + p * channels, channels, pixel);
    }
    std::fill(pixel + channels, pixel + padded, 0.0f);
  }
}

// Calls f(std::integral_constant<ElementKind, kind>) for the kinds this path takes
// (channels_last.h).
template <class F>
HWY_INLINE auto VisitFloatKind(ElementKind kind, F&& f) {
  switch (kind) {
    case ElementKind::kF16:
      return f(std::integral_constant<ElementKind, ElementKind::kF16>());
    case ElementKind::kBF16:
      return f(std::integral_constant<ElementKind, ElementKind::kBF16>());
    default:
      return f(std::integral_constant<ElementKind, ElementKind::kF32>());
  }
}

// The sum of one vector of a location's channels over its window, in the order of the pair
// and quad kernels (WeighQuad or WeighColumns for quads): tap(row, e) loads element e of row
// `row`, weight(k) is the location's weight k as a vector.
template <size_t kTaps, size_t kRows, class D, class Tap, class Weight>
HWY_INLINE hn::Vec<D> WeighWindow(D d, const Tap& tap, const Weight& weight) {
  if constexpr (kTaps == 4) {
    return WeighQuadWindow<kRows>(
        d,
        [&](size_t row, hn::Vec<D>& e0, hn::Vec<D>& e1, hn::Vec<D>& e2, hn::Vec<D>& e3) {
          e0 = tap(row, 0);
          e1 = tap(row, 1);
          e2 = tap(row, 2);
          e3 = tap(row, 3);
        },
        weight);
  } else {
    auto acc = hn::Zero(d);
    for (size_t row = 0; row < kRows; ++row) {
      for (size_t e = 0; e < kTaps; ++e) {
        acc = hn::MulAdd(tap(row, e), weight(kTaps * row + e), acc);
      }
    }
    return acc;
  }
}

// Whether SumBlock may load a plan's weights a vector of locations at a time and permute each
// location's out (kWeightsAcross): on x86 only (below).
inline constexpr bool kPermutesWeights =
    HWY_ARCH_X86 && !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR;

// The sums of locations i0..i0+n-1 over channels c0..c0+width-1 (and on to the next whole
// vector), sums[j * kLastSumsPitch + c] for location i0 + j and channel c0 + c, from a plan of
// kRows rows of kTaps adjacent pixels each (the pair plan: 2, the quad plan: 4), summed in the
// order of the pair and quad kernels; false if one may be NaN. D's lanes divide `padded` and
// kLastChunk, so no load runs past a pixel's padded channels. A nonzero kVectors says that
// each pixel is that many whole vectors (padded = kVectors * lanes, one chunk): then every
// tap is a constant offset from its row's first, which the compiler folds into the loads, in
// fewer micro-ops than with a register index (docs/benchmarks.md); 0 leaves the count to
// `width`. kPairsPermuted: how a pair plan's weights reach pixels of one vector on x86 (below).
template <class D, size_t kTaps, size_t kRows, size_t kVectors, bool kPairsPermuted = true>
HWY_NOINLINE bool SumBlock(const float* pixels, size_t padded,
                           const int32_t* HWY_RESTRICT base_offsets, const int32_t* row_deltas,
                           const float* HWY_RESTRICT row_weights, size_t pitch, size_t i0, size_t n,
                           size_t c0, size_t width, float* HWY_RESTRICT sums) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  constexpr size_t kWeights = WindowWeights(kTaps, kRows);
  // Floats per pixel, and where each row starts for a location whose corner is pixel 0: a
  // location's taps are then one register (its corner's offset) from these, which the loads
  // take as an index.
  const size_t step = kVectors != 0 ? kVectors * hn::MaxLanes(d) : padded;
  const float* rows_at[kRows];
  for (size_t row = 0; row < kRows; ++row) {
    rows_at[row] = pixels + static_cast<size_t>(row_deltas[row]) * step + c0;
  }
  auto nan = hn::FirstN(d, 0);
  // With one vector per pixel on x86, each weight of a pair plan may be loaded a vector of
  // locations at a time (`across`) and each location's lane permuted out in registers: one load
  // per weight and vector of locations instead of one per weight and location, for a
  // permutation on the vector units, which the multiply-adds use too. For pixels of
  // kSmallPixel floats the CPU decides (kPairsPermuted, PermutedWeightsPay: an AMD Zen 3 ran
  // R4 1.1 times as fast permuted, an Intel Xeon 1.05-1.1 times as fast broadcast); wider
  // pixels permute (docs/benchmarks.md). Quad plans, whose weights serve 4 or 16 multiply-adds
  // each, permute only in 512-bit vectors (measured on a Zen 5): in narrower ones a broadcast
  // from memory is a load alone with AVX (SSE4's load and shuffle measured no slower). Not in
  // WebAssembly, whose lane permutation is a loop of bytes under Highway 1.0.3, nor on ARM,
  // where it was not measured.
#if !HWY_HAVE_SCALABLE
  constexpr bool kWeightsAcross =
      kVectors == 1 && kPermutesWeights &&
      (kTaps == 2 ? kPairsPermuted : hn::MaxLanes(D()) * sizeof(float) == 64);
  const hn::RebindToSigned<D> di;
  hn::Vec<D> across[kWeightsAcross ? kWeights : 1];  // loaded at the first location
  for (auto& v : across) v = hn::Zero(d);
#endif
  for (size_t j = 0; j < n; ++j) {
    const size_t i = i0 + j;
    const size_t corner = static_cast<size_t>(base_offsets[i]) * step;
    // The weights, broadcast as vectors once per location (then `use`d). SVE vectors are
    // sizeless and cannot be array elements: there the weights are held as floats and broadcast
    // at each use. (Floats on every target made GCC 12 keep the rows' weight pointers on the
    // stack and broadcast inside the loop on AVX-512.)
#if HWY_HAVE_SCALABLE
    float weight[kWeights];
    for (size_t k = 0; k < kWeights; ++k) weight[k] = row_weights[k * pitch + i];
    const auto use = [d](float w) { return hn::Set(d, w); };
#else
    using V = hn::Vec<decltype(d)>;
    V weight[kWeights];
    if constexpr (kWeightsAcross) {
      const size_t lane = j % lanes;  // location j's lane of `across`
      if (lane == 0) {                // the plan's rows hold whole vectors (pitch is a multiple)
        for (size_t k = 0; k < kWeights; ++k) {
          across[k] = hn::LoadU(d, row_weights + k * pitch + i);
        }
      }
      const auto indices = hn::IndicesFromVec(d, hn::Set(di, static_cast<int32_t>(lane)));
      for (size_t k = 0; k < kWeights; ++k) weight[k] = hn::TableLookupLanes(across[k], indices);
    } else {
      for (size_t k = 0; k < kWeights; ++k) weight[k] = hn::Set(d, row_weights[k * pitch + i]);
    }
    const auto use = [](V w) { return w; };
#endif
    // Past `width` the loads read padding: those sums are never stored.
    const size_t end = kVectors != 0 ? step : width;
    for (size_t c = 0; c < end; c += lanes) {
      const auto tap = [&](size_t row, size_t e) {
        return hn::LoadU(d, rows_at[row] + corner + e * step + c);
      };
      const auto acc = WeighWindow<kTaps, kRows>(d, tap, [&](size_t k) { return use(weight[k]); });
      nan = hn::Or(nan, hn::IsNaN(acc));
      hn::StoreU(acc, d, sums + j * kLastSumsPitch + c);
    }
  }
  return hn::AllFalse(d, nan);
}

#if GRIDSAMPLE_X86_BITS >= 256
// column[k] = the k-th 128-bit block of kParts vectors part[] of D (2 of 256 bits or 1 of
// 512), lowest first. (kParts is a parameter so that the branch not taken is never compiled.)
template <size_t kParts, class D, class V4>
HWY_INLINE void SplitBlocks(D d, const hn::Vec<D>* part, V4* column) {
  const hn::Half<D> dh;
  if constexpr (kParts == 2) {
    for (size_t q = 0; q < 2; ++q) {
      column[2 * q] = hn::LowerHalf(dh, part[q]);
      column[2 * q + 1] = hn::UpperHalf(dh, part[q]);
    }
  } else {
    const hn::Half<decltype(dh)> dq;
    const auto low = hn::LowerHalf(dh, part[0]), high = hn::UpperHalf(dh, part[0]);
    column[0] = hn::LowerHalf(dq, low);
    column[1] = hn::UpperHalf(dq, low);
    column[2] = hn::LowerHalf(dq, high);
    column[3] = hn::UpperHalf(dq, high);
  }
  (void)d;
}

// SumBlock for a quad plan summed columns first (ColumnsFirst) over pixels of kSmallPixel
// floats, where a vector holds 2 or 4 such pixels (AVX2, AVX-512): a row's four taps, 16 adjacent
// floats, are loaded in 2 or 1 vectors and summed over the rows lane by lane, each column's pixel
// in its own 128-bit part, which WeighColumns then weighs as SumBlock's 128-bit kernel does, bit
// for bit. That kernel takes a multiply-add a tap; this one, one for 2 or 4 taps (16 or 32 a 3-D
// location instead of 64).
template <size_t kRows>
HWY_NOINLINE bool SumSmallPixelColumns(const float* pixels, size_t /*padded*/,
                                       const int32_t* HWY_RESTRICT base_offsets,
                                       const int32_t* row_deltas,
                                       const float* HWY_RESTRICT row_weights, size_t pitch,
                                       size_t i0, size_t n, size_t /*c0*/, size_t /*width*/,
                                       float* HWY_RESTRICT sums) {
  static_assert(ColumnsFirst<kRows>() && kRows == 16, "3-D rows summed lane by lane");
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, kSmallPixel> d4;
  using V = hn::Vec<decltype(d)>;
  constexpr size_t kLanes = hn::MaxLanes(d);
  constexpr size_t kParts = 4 * kSmallPixel / kLanes;  // vectors a row
  static_assert(kParts == 1 || kParts == 2, "a row in one or two vectors");
  const float* rows_at[kRows];
  for (size_t row = 0; row < kRows; ++row) {
    rows_at[row] = pixels + static_cast<size_t>(row_deltas[row]) * kSmallPixel;
  }
  auto nan = hn::FirstN(d4, 0);
  for (size_t j = 0; j < n; ++j) {
    const size_t i = i0 + j;
    const size_t corner = static_cast<size_t>(base_offsets[i]) * kSmallPixel;
    V part[kParts];
    for (auto& v : part) v = hn::Zero(d);
    for (size_t row = 0; row < kRows; ++row) {
      const auto w = hn::Set(d, row_weights[(4 + row) * pitch + i]);
      for (size_t q = 0; q < kParts; ++q) {
        part[q] = hn::MulAdd(hn::LoadU(d, rows_at[row] + corner + q * kLanes), w, part[q]);
      }
    }
    hn::Vec<decltype(d4)> column[4];  // each column's pixel
    SplitBlocks<kParts>(d, part, column);
    const auto weight = [&](size_t k) { return hn::Set(d4, row_weights[k * pitch + i]); };
    const auto total = WeighColumns(column[0], column[1], column[2], column[3], weight(0),
                                    weight(1), weight(2), weight(3));
    nan = hn::Or(nan, hn::IsNaN(total));
    hn::StoreU(total, d4, sums + j * kLastSumsPitch);
  }
  return hn::AllFalse(d4, nan);
}
#endif  // GRIDSAMPLE_X86_BITS >= 256

// Calls f(std::integral_constant<size_t, taps>, std::integral_constant<size_t, rows>) for the
// window plans this path samples: pairs (2 taps, VisitPairRows) and quads (4, VisitQuadRows).
template <class F>
HWY_INLINE auto VisitWindowPlan(size_t taps, size_t rows, F&& f) {
  if (taps == 2) {
    return VisitPairRows(rows, [&](auto r) { return f(std::integral_constant<size_t, 2>(), r); });
  }
  return VisitQuadRows(rows, [&](auto r) { return f(std::integral_constant<size_t, 4>(), r); });
}

// SumBlock's sums stored as elements of K, one plane per channel: the sum of channel c at
// location j goes to element at + c * out_pitch + j of `out` (StoreBlock), or pixel by pixel
// to element at + j * out_pitch + c (StorePixelsBlock). With `prefetch`, StoreBlock first
// prefetches the block's lines of every plane, so that the stores do not each wait for their
// line from memory; StorePixelsBlock's rows are contiguous, which the hardware prefetches.
template <ElementKind K>
HWY_NOINLINE void StoreBlock(const float* HWY_RESTRICT sums, size_t n, size_t width, void* out,
                             size_t at, size_t out_pitch, bool prefetch) {
  using Element = typename PairFormat<K>::Element;
  auto* first = static_cast<Element*>(out) + at;
  if (prefetch) {
    constexpr size_t kLine = 64 / sizeof(Element);  // elements in a 64-byte line
    for (size_t c = 0; c < width; ++c) {
      for (size_t j = 0; j < n; j += kLine) hwy::Prefetch(first + c * out_pitch + j);
    }
  }
  if constexpr (K == ElementKind::kF32) {
    // 4 planes at a time: 8 or 16 output planes written at once (a power of two apart)
    // evicted each other's lines and were slower (docs/benchmarks.md).
#if GRIDSAMPLE_X86_BITS >= 256
    // With wider vectors, each plane's lines written whole, as vectors that start where the
    // lines do: a vector across two lines cost more than the 16-byte pieces, and most heap
    // blocks (the bench's outputs, Node.js's buffers) are only 16-byte aligned. The planes
    // share one offset only where their pitch is whole vectors (docs/benchmarks.md).
    const hn::ScalableTag<float> d;
    constexpr size_t kLanes = hn::MaxLanes(d);
    const size_t offset = reinterpret_cast<uintptr_t>(first) / sizeof(float) % kLanes;
    const size_t head = out_pitch % kLanes == 0 ? std::min(n, (kLanes - offset) % kLanes) : n;
    size_t c = 0;
    for (; c + 4 <= width; c += 4) {
      Transpose<4>(sums + c, kLastSumsPitch, head, 4, first + c * out_pitch, out_pitch);
      size_t j = head;
      for (; j + kLanes <= n; j += kLanes) {
        Transpose4Rows(d, sums + j * kLastSumsPitch + c, kLastSumsPitch, first + c * out_pitch + j,
                       out_pitch);
      }
      Transpose<4>(sums + j * kLastSumsPitch + c, kLastSumsPitch, n - j, 4,
                   first + c * out_pitch + j, out_pitch);
    }
    Transpose<4>(sums + c, kLastSumsPitch, n, width - c, first + c * out_pitch, out_pitch);
#else
    Transpose<4>(sums, kLastSumsPitch, n, width, first, out_pitch);
#endif
  } else {  // one plane at a time through L1, converted in vectors
    const hn::ScalableTag<float> d;
    const size_t lanes = hn::Lanes(d);
    alignas(64) float planes[kLastChunk * kLastBlock];  // [channel][location]
    Transpose(sums, kLastSumsPitch, n, width, planes, kLastBlock);
    auto ignored = hn::FirstN(d, 0);  // SumBlock found the NaN sums
    for (size_t c = 0; c < width; ++c) {
      for (size_t j = 0; j < n; j += lanes) {
        StoreSums<PairFormat<K>>(d, hn::Load(d, planes + c * kLastBlock + j),
                                 std::min(lanes, n - j), nullptr, first + c * out_pitch + j,
                                 ignored);
      }
    }
  }
}

template <ElementKind K>
HWY_NOINLINE void StorePixelsBlock(const float* HWY_RESTRICT sums, size_t n, size_t width,
                                   void* out, size_t at, size_t out_pitch, bool /*prefetch*/) {
  auto* first = static_cast<typename PairFormat<K>::Element*>(out) + at;
  for (size_t j = 0; j < n; ++j) {
    const float* row = sums + j * kLastSumsPitch;
    if constexpr (K == ElementKind::kF32) {
      std::copy(row, row + width, first + j * out_pitch);
    } else {
      const hn::ScalableTag<float> d;
      const size_t lanes = hn::Lanes(d);
      auto ignored = hn::FirstN(d, 0);  // SumBlock found the NaN sums
      for (size_t c = 0; c < width; c += lanes) {
        StoreSums<PairFormat<K>>(d, hn::LoadU(d, row + c), std::min(lanes, width - c), nullptr,
                                 first + j * out_pitch + c, ignored);
      }
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_CHANNELS_LAST_INL_H_
