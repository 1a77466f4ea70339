// The pixel-pair path, per SIMD target: linear interpolation of channels-last uint8 and float32
// pixels of 3 or 4 channels. Included by pixel_pairs.cc once per target (foreach_target).
//
// Lanes are locations, as in the pair kernel. Each row of a location's window is two adjacent
// pixels. RGBA bytes, 8 bytes a pair, are loaded a pair at a time and summed in integer lanes
// (SampleRgbaFixed) on x86 and WebAssembly, gathered into float lanes on NEON, and copied as
// other pixels are on SVE, whose vectors have no fixed count of 128-bit blocks. Other pixels are
// copied whole into a block buffer (the left pixels in one, the right ones in another) and their
// channels split in vectors: uint8 pixels are uint32 lanes whose bytes are shifted out, float32
// ones are deinterleaved by LoadInterleaved3/4. Each channel's float sum takes the pair kernel's
// order (row by row, left then right), and integer sums are exact, so the results equal the pair
// path's on each plane, bit for bit. The sums are interleaved back into pixels as they are stored.

// Per-target include guard (the Highway idiom).
#if defined(GRIDSAMPLE_SRC_PIXEL_PAIRS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GRIDSAMPLE_SRC_PIXEL_PAIRS_INL_H_
#undef GRIDSAMPLE_SRC_PIXEL_PAIRS_INL_H_
#else
#define GRIDSAMPLE_SRC_PIXEL_PAIRS_INL_H_
#endif

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "hwy/highway.h"
#include "linear_pairs-inl.h"
#include "pixel_pairs.h"
#include "plan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The byte of each uint32 lane of v at bit `shift`, as float32; the top byte (shift 24) needs
// no mask. (No lambdas over vectors here: SVE's are sizeless and cannot be captured.)
template <class D>
HWY_INLINE hn::Vec<D> ByteAt(D d, hn::Vec<hn::RebindToUnsigned<D>> v, int shift) {
  const hn::RebindToUnsigned<D> du;
  auto byte = hn::ShiftRightSame(v, shift);
  if (shift < 24) byte = hn::And(byte, hn::Set(du, 0xFFu));
  return hn::ConvertTo(d, hn::BitCast(hn::RebindToSigned<D>(), byte));
}

// For sums v in [0, 256): floor(v) (their truncation) in the low byte of each uint32 lane, the
// bits above it those of 2^23: zeros up to bit 23, so that shifted left by 8, 16 or 24 the
// byte comes alone. Adding 2^23 to an integer below it writes the integer into the mantissa
// exactly, which costs less than ConvertTo's guard against overflow.
template <class D>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<D>> TruncatedByte(D d, hn::Vec<D> v) {
  return hn::BitCast(hn::RebindToUnsigned<D>(), hn::Add(hn::Floor(v), hn::Set(d, 8388608.0f)));
}

// uint8 pixels: each pixel of a pair as a uint32 lane (its 3 or 4 bytes in the low bits of
// the left one; the right one's 4 bytes end the pair, so that no load passes it).
template <size_t kC>
struct BytePixels {
  using Element = uint8_t;
  using Slot = uint32_t;
  static constexpr size_t kSlots = 1;  // per pixel
  // Channel c's byte in a left and a right slot.
  static constexpr int kLeftShift = 0;
  static constexpr int kRightShift = 8 * (4 - static_cast<int>(kC));

  static HWY_INLINE void Copy(const unsigned char* pair, Slot* left, Slot* right) {
    std::memcpy(left, pair, sizeof(Slot));
    std::memcpy(right, pair + 2 * kC - sizeof(Slot), sizeof(Slot));
  }
  // The channels of pixels in the uint32 lanes of v (channel c's byte at bit shift + 8c), as
  // float32 (exact: bytes).
  template <class D>
  static HWY_INLINE void Split(D d, hn::Vec<hn::RebindToUnsigned<D>> v, int shift, hn::Vec<D>& c0,
                               hn::Vec<D>& c1, hn::Vec<D>& c2, hn::Vec<D>& c3) {
    c0 = ByteAt(d, v, shift);
    c1 = ByteAt(d, v, shift + 8);
    c2 = ByteAt(d, v, shift + 16);
    if constexpr (kC == 4) c3 = ByteAt(d, v, shift + 24);
  }
  // The channels of slots[i..] as float32.
  template <class D>
  static HWY_INLINE void Load(D d, const Slot* slots, int shift, hn::Vec<D>& c0, hn::Vec<D>& c1,
                              hn::Vec<D>& c2, hn::Vec<D>& c3) {
    Split(d, hn::Load(hn::RebindToUnsigned<D>(), slots), shift, c0, c1, c2, c3);
  }
  // `valid` pixels from the channels' exact sums: truncated (the sums lie in [0, 255]).
  template <class D>
  static HWY_INLINE void Store(D d, hn::Vec<D> c0, hn::Vec<D> c1, hn::Vec<D> c2, hn::Vec<D> c3,
                               size_t valid, Element* out) {
    const hn::RebindToUnsigned<D> du;
    auto packed = hn::Or(
        hn::And(TruncatedByte(d, c0), hn::Set(du, 0xFFu)),
        hn::Or(hn::ShiftLeft<8>(TruncatedByte(d, c1)), hn::ShiftLeft<16>(TruncatedByte(d, c2))));
    if constexpr (kC == 4) packed = hn::Or(packed, hn::ShiftLeft<24>(TruncatedByte(d, c3)));
    StoreWords(du, packed, valid, out);
  }
  // `valid` pixels from the uint32 lanes of `words`, each pixel's kC bytes in its lane's low
  // bytes.
  template <class DU>
  static HWY_INLINE void StoreWords(DU du, hn::Vec<DU> words, size_t valid, Element* out) {
    if (kC == 4 && valid == hn::Lanes(du)) {
      hn::StoreU(words, du, reinterpret_cast<uint32_t*>(out));
      return;
    }
    alignas(64) uint32_t last[kMaxFloatLanes];
    hn::Store(words, du, last);
    for (size_t k = 0; k < valid; ++k) std::memcpy(out + k * kC, &last[k], kC);
  }
};

// float32 pixels: their channels side by side in the slots, deinterleaved by the loads.
template <size_t kC>
struct FloatPixels {
  using Element = float;
  using Slot = float;
  static constexpr size_t kSlots = kC;
  static constexpr int kLeftShift = 0;
  static constexpr int kRightShift = 0;

  static HWY_INLINE void Copy(const unsigned char* pair, Slot* left, Slot* right) {
    std::memcpy(left, pair, kC * sizeof(float));
    std::memcpy(right, pair + kC * sizeof(float), kC * sizeof(float));
  }
  template <class D>
  static HWY_INLINE void Load(D d, const Slot* slots, int /*shift*/, hn::Vec<D>& c0, hn::Vec<D>& c1,
                              hn::Vec<D>& c2, hn::Vec<D>& c3) {
    if constexpr (kC == 4) {
      hn::LoadInterleaved4(d, slots, c0, c1, c2, c3);
    } else {
      hn::LoadInterleaved3(d, slots, c0, c1, c2);
    }
  }
  template <class D>
  static HWY_INLINE void Store(D d, hn::Vec<D> c0, hn::Vec<D> c1, hn::Vec<D> c2, hn::Vec<D> c3,
                               size_t valid, Element* out) {
    alignas(64) float last[kMaxFloatLanes * kC];  // the last, partial vector: through a buffer
    float* to = valid == hn::Lanes(d) ? out : last;
    if constexpr (kC == 4) {
      hn::StoreInterleaved4(c0, c1, c2, c3, d, to);
    } else {
      hn::StoreInterleaved3(c0, c1, c2, d, to);
    }
    if (to == last) std::copy(last, last + valid * kC, out);
  }
};

// acc_c += c_c * w for each of the kC channels.
template <size_t kC, class V>
HWY_INLINE void WeighChannels(V c0, V c1, V c2, V c3, V w, V& acc0, V& acc1, V& acc2, V& acc3) {
  acc0 = hn::MulAdd(c0, w, acc0);
  acc1 = hn::MulAdd(c1, w, acc1);
  acc2 = hn::MulAdd(c2, w, acc2);
  if constexpr (kC == 4) acc3 = hn::MulAdd(c3, w, acc3);
}

template <ElementKind K, size_t kC>
using PixelFormat =
    typename std::conditional<K == ElementKind::kU8, BytePixels<kC>, FloatPixels<kC>>::type;

// The pixel kernels' sums of a vector of locations at..: channel by channel, row by row, the
// left then the right pixel, each weighed by its weight, as the pair kernel sums each plane;
// load(row, right, c0, c1, c2, c3) (the loader, gathered or copied) gives the channels of a
// row's left or right pixels. Then the `valid` pixels of sums are stored at out + at * kC and
// the NaN ones noted in `nan` (float32; bytes' sums are exact).
template <ElementKind K, size_t kC, size_t kRows, class D, class Load, class M>
HWY_INLINE void WeighPixelPairs(D d, const Load& load, const float* HWY_RESTRICT row_weights,
                                size_t pitch, size_t at, size_t valid,
                                typename PixelFormat<K, kC>::Element* out, M& nan) {
  auto acc0 = hn::Zero(d), acc1 = hn::Zero(d), acc2 = hn::Zero(d), acc3 = hn::Zero(d);
  for (size_t row = 0; row < kRows; ++row) {
    const float* weights = row_weights + 2 * row * pitch + at;
    hn::Vec<D> c0, c1, c2, c3 = hn::Zero(d);
    load(row, /*right=*/false, c0, c1, c2, c3);
    WeighChannels<kC>(c0, c1, c2, c3, hn::LoadU(d, weights), acc0, acc1, acc2, acc3);
    load(row, /*right=*/true, c0, c1, c2, c3);
    WeighChannels<kC>(c0, c1, c2, c3, hn::LoadU(d, weights + pitch), acc0, acc1, acc2, acc3);
  }
  if constexpr (K == ElementKind::kF32) {
    auto any = hn::Or(hn::Or(hn::IsNaN(acc0), hn::IsNaN(acc1)), hn::IsNaN(acc2));
    if constexpr (kC == 4) any = hn::Or(any, hn::IsNaN(acc3));
    nan = hn::Or(nan, hn::And(any, hn::FirstN(d, valid)));
  }
  PixelFormat<K, kC>::Store(d, acc0, acc1, acc2, acc3, valid, out + at * kC);
}

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
// Whether RGBA bytes are summed in integer lanes (SampleRgbaFixed): where one instruction
// multiplies and adds a vector's int16 pairs (x86's pmaddwd, WebAssembly's i32x4.dot_i16x8_s).
// NEON takes three (a widening multiply of each half, a pairwise add), and its integer loop came
// out longer than the float one (docs/benchmarks.md): there each row's 8 bytes are gathered as
// the float32 pair kernel gathers its pairs (GatherAndWeigh, in general registers: no store to
// reload), whose offsets count 4-byte units, here pixels, and split into float lanes.
inline constexpr bool kRgbaInIntegers = HWY_ARCH_X86 || HWY_ARCH_WASM;

// RGBA bytes in float lanes (kRgbaInIntegers false).
template <size_t kRows>
void SampleRgbaPairs(const void* pixels, const int32_t* HWY_RESTRICT base_offsets,
                     const int32_t* row_deltas, const float* HWY_RESTRICT row_weights, size_t pitch,
                     size_t count, uint8_t* out) {
  using Format = BytePixels<4>;
  const hn::ScalableTag<float> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  using V = hn::Vec<decltype(d)>;
  const unsigned char* rows[kRows];
  RowStarts<kRows>(pixels, row_deltas, 4, rows);
  auto never = hn::FirstN(d, 0);  // exact sums are never NaN
  // Loaded one by one: AVX-512's gathers were slower here even where they are faster on float32
  // planes (docs/benchmarks.md).
  GatherAndWeigh<kRows, PairFormat<ElementKind::kF32>>(
      d, rows, base_offsets, count, 4, /*hardware=*/false,
      [&](const V* left, const V* right, size_t i, size_t valid) {
        const auto gathered = [&](size_t row, bool right_pixel, V& c0, V& c1, V& c2, V& c3) {
          Format::Split(d, hn::BitCast(du, right_pixel ? right[row] : left[row]),
                        right_pixel ? Format::kRightShift : Format::kLeftShift, c0, c1, c2, c3);
        };
        WeighPixelPairs<ElementKind::kU8, 4, kRows>(d, gathered, row_weights, pitch, i, valid, out,
                                                    never);
      });
}

// A vector of bytes whose 128-bit block b holds load(b), 8 bytes, in its low half.
template <class D8, class Load>
HWY_INLINE hn::Vec<D8> EightBytesPerBlock(D8 d8, const Load& load, size_t first_block = 0) {
  if constexpr (hn::MaxLanes(D8()) <= 16) {
    return hn::ZeroExtendVector(d8, load(first_block));
  } else {
    const hn::Half<D8> half;
    constexpr size_t kHalfBlocks = hn::MaxLanes(hn::Half<D8>()) / 16;
    return hn::Combine(d8, EightBytesPerBlock(half, load, first_block + kHalfBlocks),
                       EightBytesPerBlock(half, load, first_block));
  }
}

// The weights of a vector of locations as the int16 multiply-adds take them: per int32 lane,
// the top row's fixed-point weight in the low int16 and the bottom row's in the high one; `high`
// holds their high bytes (to 2^8, for a weight of 2^16), `low` their low bytes. The plan's
// weights are multiples of 2^-16 in [0, 1]: 128 + w holds w * 2^16 in its low mantissa bits,
// exactly, which is cheaper than a conversion.
template <class D32, class VF>
HWY_INLINE void FixedWeightPairs(D32 d32, VF top, VF bottom, hn::Vec<D32>& high,
                                 hn::Vec<D32>& low) {
  const hn::Rebind<float, D32> df;
  const hn::Repartition<uint16_t, D32> d16;
  const auto offset = hn::Set(df, 128.0f);
  const auto t = hn::BitCast(d32, hn::Add(top, offset));
  const auto b = hn::BitCast(d32, hn::Add(bottom, offset));
  high = hn::BitCast(d32, hn::OddEven(hn::BitCast(d16, hn::ShiftLeft<8>(b)),
                                      hn::BitCast(d16, hn::ShiftRight<8>(t))));
  low = hn::And(
      hn::BitCast(d32, hn::OddEven(hn::BitCast(d16, hn::ShiftLeft<16>(b)), hn::BitCast(d16, t))),
      hn::Set(d32, 0x00FF00FF));
}

// RGBA bytes, summed in integer lanes (the sums are exact either way): locations in the 32-bit
// lanes, as in the float kernels. Per 128-bit block of 4 locations, a pair of rows' 8-byte pixel
// pairs are interleaved byte by byte and transposed into one vector per channel and side (left,
// right pixel) whose int16 pairs are a location's (top, bottom) bytes; one multiply-add of int16
// pairs (pmaddwd, i32x4.dot_i16x8_s) weighs each such pair. A weight reaches 2^16, past int16,
// so its high and low bytes are summed apart and joined as 256 high + low. Against splitting
// the pixels' bytes into float lanes this takes fewer instructions where vectors hold 4 floats
// (SSE4, WebAssembly), about as many in wider ones (docs/benchmarks.md).
template <size_t kRows>
void SampleRgbaFixed(const void* pixels, const int32_t* HWY_RESTRICT base_offsets,
                     const int32_t* row_deltas, const float* HWY_RESTRICT row_weights, size_t pitch,
                     size_t count, uint8_t* out) {
  const hn::ScalableTag<int32_t> d32;
  const hn::Repartition<uint32_t, decltype(d32)> d32u;
  const hn::Repartition<uint16_t, decltype(d32)> d16u;
  const hn::Repartition<int16_t, decltype(d32)> d16;
  const hn::Repartition<uint8_t, decltype(d32)> d8;
  const hn::Full64<uint8_t> d8h;
  using V32 = hn::Vec<decltype(d32)>;
  using V16 = hn::Vec<decltype(d16)>;
  const size_t lanes = hn::Lanes(d32);
  const unsigned char* rows[kRows];
  RowStarts<kRows>(pixels, row_deltas, 4, rows);
  const auto zero = hn::Zero(d8);
  // One product sum at a time, in Highway's portable form (on x86 and WebAssembly, one
  // multiply-add, and RearrangeToOddPlusEven returns its first argument).
  const auto weigh = [&](V16 taps, V32 weights) {
    V32 odd = hn::Zero(d32);
    const V32 even =
        hn::ReorderWidenMulAccumulate(d32, taps, hn::BitCast(d16, weights), hn::Zero(d32), odd);
    return hn::RearrangeToOddPlusEven(even, odd);
  };
  for (size_t i = 0; i < count; i += lanes) {
    PrefetchAhead<kRows>(rows, base_offsets, i, count, 4);
    // Per channel and location: the sums of the weights' high and low bytes.
    V32 high_sums[4], low_sums[4];
    for (size_t c = 0; c < 4; ++c) high_sums[c] = low_sums[c] = hn::Zero(d32);
    for (size_t top = 0; top < kRows; top += 2) {
      const bool paired = top + 1 < kRows;  // an odd last row pairs with itself, weighed 0
      const size_t bottom = paired ? top + 1 : top;
      // both[q]: in block b, location i + 4b + q's top and bottom pixel pairs interleaved; per
      // uint16 lane, one channel's (top, bottom) bytes, the left pixel's channels first.
      hn::Vec<decltype(d16u)> both[4];
      for (size_t q = 0; q < 4; ++q) {
        const auto row = [&](size_t r) {
          return EightBytesPerBlock(d8, [&](size_t block) {
            const size_t at = static_cast<size_t>(base_offsets[i + 4 * block + q]) * 4;
            return hn::LoadU(d8h, rows[r] + at);
          });
        };
        both[q] = hn::BitCast(d16u, hn::InterleaveLower(d8, row(top), row(bottom)));
      }
      for (size_t side = 0; side < 2; ++side) {
        const auto pairs = [&](auto a, auto b) {
          return side == 0 ? hn::InterleaveLower(d16u, a, b) : hn::InterleaveUpper(d16u, a, b);
        };
        const auto s01 = hn::BitCast(d32u, pairs(both[0], both[1]));
        const auto s23 = hn::BitCast(d32u, pairs(both[2], both[3]));
        // Channels 0-1, then 2-3: the (top, bottom) bytes of 4 locations each, per block.
        const auto rg = hn::BitCast(d8, hn::InterleaveLower(d32u, s01, s23));
        const auto ba = hn::BitCast(d8, hn::InterleaveUpper(d32u, s01, s23));
        const V16 taps[4] = {hn::BitCast(d16, hn::ZipLower(rg, zero)),
                             hn::BitCast(d16, hn::ZipUpper(d16u, rg, zero)),
                             hn::BitCast(d16, hn::ZipLower(ba, zero)),
                             hn::BitCast(d16, hn::ZipUpper(d16u, ba, zero))};
        // Row r's weights of the side: row_weights + (2r + side) * pitch (window_plan.h).
        const float* weights = row_weights + (2 * top + side) * pitch + i;
        const hn::Rebind<float, decltype(d32)> df;
        V32 high, low;
        FixedWeightPairs(d32, hn::LoadU(df, weights),
                         paired ? hn::LoadU(df, weights + 2 * pitch) : hn::Zero(df), high, low);
        for (size_t c = 0; c < 4; ++c) {
          high_sums[c] = hn::Add(high_sums[c], weigh(taps[c], high));
          low_sums[c] = hn::Add(low_sums[c], weigh(taps[c], low));
        }
      }
    }
    // Each exact sum is below 2^24 and truncates to its bits 16-23: moved to its channel's byte.
    V32 sums[4];
    for (size_t c = 0; c < 4; ++c) sums[c] = hn::Add(hn::ShiftLeft<8>(high_sums[c]), low_sums[c]);
    const auto byte = [&](V32 v, uint32_t mask) {
      return hn::And(v, hn::BitCast(d32, hn::Set(d32u, mask)));
    };
    const auto pixel =
        hn::Or(hn::Or(hn::ShiftRight<16>(sums[0]), byte(hn::ShiftRight<8>(sums[1]), 0xFF00u)),
               hn::Or(byte(sums[2], 0xFF0000u), byte(hn::ShiftLeft<8>(sums[3]), 0xFF000000u)));
    BytePixels<4>::StoreWords(d32u, hn::BitCast(d32u, pixel), std::min(lanes, count - i),
                              out + i * 4);
  }
}
#endif

// The pixel kernel's policies for CopyAndWeighBlocks: blocks of copied left and right pixels,
// left[row][j * kSlots..] and right[row][j * kSlots..], from the rows at rows[row] (the caller's
// arrays, as PairBlock's), prefetched ahead.
template <ElementKind K, size_t kC, size_t kRows>
struct PixelBlock {
  using Format = PixelFormat<K, kC>;
  using Slot = typename Format::Slot;
  static constexpr size_t kSlots = Format::kSlots;
  static constexpr size_t kPixelBytes = kC * sizeof(typename Format::Element);
  Slot (*left)[kWindowBlock * kSlots];
  Slot (*right)[kWindowBlock * kSlots];
  const unsigned char* const* rows;
  const int32_t* base_offsets;
  size_t count;
  typename Format::Element* out;

  HWY_INLINE void Prefetch(size_t i) {
    PrefetchAhead<kRows>(rows, base_offsets, i, count, kPixelBytes);
  }
  HWY_INLINE void Copy(size_t row, size_t j, size_t base) {
    Format::Copy(rows[row] + base * kPixelBytes, &left[row][j * kSlots], &right[row][j * kSlots]);
  }
  template <class D, class M>
  HWY_INLINE void Weigh(D d, size_t j, const float* HWY_RESTRICT row_weights, size_t pitch,
                        size_t at, size_t valid, M& nan) {
    const auto copied = [&](size_t row, bool right_pixel, hn::Vec<D>& c0, hn::Vec<D>& c1,
                            hn::Vec<D>& c2, hn::Vec<D>& c3) {
      const Slot* slots = right_pixel ? &right[row][j * kSlots] : &left[row][j * kSlots];
      Format::Load(d, slots, right_pixel ? Format::kRightShift : Format::kLeftShift, c0, c1, c2,
                   c3);
    };
    WeighPixelPairs<K, kC, kRows>(d, copied, row_weights, pitch, at, valid, out, nan);
  }
};

template <ElementKind K, size_t kC, size_t kRows>
bool SamplePixelPairsForRank(const void* pixels, const int32_t* HWY_RESTRICT base_offsets,
                             const int32_t* row_deltas, const float* HWY_RESTRICT row_weights,
                             size_t pitch, size_t count, void* out) {
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  if constexpr (K == ElementKind::kU8 && kC == 4) {
    auto* bytes = static_cast<uint8_t*>(out);
    if constexpr (kRgbaInIntegers) {
      SampleRgbaFixed<kRows>(pixels, base_offsets, row_deltas, row_weights, pitch, count, bytes);
    } else {
      SampleRgbaPairs<kRows>(pixels, base_offsets, row_deltas, row_weights, pitch, count, bytes);
    }
    return false;  // exact sums are never NaN
  }
#endif
  using Format = PixelFormat<K, kC>;
  using Slot = typename Format::Slot;
  constexpr size_t kPixelBytes = kC * sizeof(typename Format::Element);
  const hn::ScalableTag<float> d;
  const unsigned char* rows[kRows];
  RowStarts<kRows>(pixels, row_deltas, kPixelBytes, rows);
  alignas(64) Slot left[kRows][kWindowBlock * Format::kSlots];
  alignas(64) Slot right[kRows][kWindowBlock * Format::kSlots];
  auto* elements = static_cast<typename Format::Element*>(out);
  PixelBlock<K, kC, kRows> block{left, right, rows, base_offsets, count, elements};
  auto nan = hn::FirstN(d, 0);
  CopyAndWeighBlocks<kWindowBlock, kRows>(d, base_offsets, row_weights, pitch, count, block, nan);
  return !hn::AllFalse(d, nan);
}

template <ElementKind K, size_t kC>
bool SamplePixelPairsForPixels(const void* pixels, const WindowPlanView& plan, void* out) {
  return VisitPairRows(plan.rows, [&](auto r) {
    return SamplePixelPairsForRank<K, kC, decltype(r)::value>(
        pixels, plan.base_offsets, plan.row_deltas, plan.row_weights, plan.pitch, plan.count, out);
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_PIXEL_PAIRS_INL_H_
