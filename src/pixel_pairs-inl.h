// The pixel-pair path, per SIMD target: linear interpolation of channels-last uint8 and float32
// pixels of 3 or 4 channels. Included by pixel_pairs.cc once per target (foreach_target).
//
// Lanes are locations, as in the pair kernel. Each row of a location's window is two adjacent
// pixels: RGBA bytes, 8 bytes a pair, are gathered into vectors as the pair path gathers float32
// pairs (GatherPairs, one load per pair); other pixels are copied whole into a block buffer (the
// left pixels in one, the right ones in another). The channels are then split in vectors: uint8
// pixels are uint32 lanes whose bytes are shifted out, float32 ones are deinterleaved by
// LoadInterleaved3/4. Each channel's
// sum takes the pair kernel's order (row by row, left then right), so the results equal the
// pair path's on each plane, bit for bit. The sums are interleaved back into pixels as they are
// stored.

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
    if (kC == 4 && valid == hn::Lanes(d)) {
      hn::StoreU(packed, du, reinterpret_cast<uint32_t*>(out));
      return;
    }
    alignas(64) uint32_t words[kMaxFloatLanes];
    hn::Store(packed, du, words);
    for (size_t k = 0; k < valid; ++k) std::memcpy(out + k * kC, &words[k], kC);
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
// RGBA bytes: each row's pair of pixels is 8 bytes, gathered as the float32 pair kernel gathers
// its pairs (GatherAndWeigh, in general registers: no store to reload), whose offsets count
// 4-byte units, here pixels.
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
    SampleRgbaPairs<kRows>(pixels, base_offsets, row_deltas, row_weights, pitch, count,
                           static_cast<uint8_t*>(out));
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
