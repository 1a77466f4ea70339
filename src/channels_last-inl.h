// The channels-last linear path, per SIMD target: linear interpolation of images with many
// channels (float32, float16, bfloat16), from a float32 copy of the input with the channels
// innermost. Included by linear_pairs.cc once per target (foreach_target), after the pair path
// whose plan and element formats it shares.
//
// The pair path gathers each location's pairs once per channel: 2^r scalar loads per output
// element, from a plane that outgrows L1 when it is large. With the channels innermost, each
// tap of a location is a run of adjacent channels, loaded as whole vectors and weighed by the
// tap's weight broadcast: the same plan (PlanLinearPairs), the same sums in the same order, so
// the results equal the pair path's bit for bit. The price is a transposition of the input
// (ToChannelsLast) and of each block of sums back to one plane per channel.

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
#include "kernel.h"
#include "linear_pairs-inl.h"
#include "plan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Output locations whose sums are transposed together: 512 bytes of each channel's plane
// written at once (measured on W1 and W6: 128 beat 16, 32, 64 and 256).
inline constexpr size_t kLastBlock = 128;
// Channels summed per pass over a block, so that the block's sums stay in L1 however many
// channels there are. The rows of those sums are longer by a vector, as the last vector of a
// pass may run past its channels.
inline constexpr size_t kLastChunk = 32;
inline constexpr size_t kLastSumsStride = kLastChunk + kMaxFloatLanes;
// Locations per step of ToChannelsLast (measured: 256 beat 16, 64 and 512 to 2048).
inline constexpr size_t kToLastBlock = 256;

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
// dst[c * dst_stride + j] = src[j * src_stride + c] for j, c < 4, in 128-bit vectors.
HWY_INLINE void Transpose4x4(const float* HWY_RESTRICT src, size_t src_stride,
                             float* HWY_RESTRICT dst, size_t dst_stride) {
  const hn::Full128<float> d;
  const hn::Repartition<double, decltype(d)> dd;
  const auto r0 = hn::LoadU(d, src), r1 = hn::LoadU(d, src + src_stride);
  const auto r2 = hn::LoadU(d, src + 2 * src_stride), r3 = hn::LoadU(d, src + 3 * src_stride);
  const auto low01 = hn::BitCast(dd, hn::InterleaveLower(d, r0, r1));  // 00 10 01 11
  const auto high01 = hn::BitCast(dd, hn::InterleaveUpper(d, r0, r1));  // 02 12 03 13
  const auto low23 = hn::BitCast(dd, hn::InterleaveLower(d, r2, r3));
  const auto high23 = hn::BitCast(dd, hn::InterleaveUpper(d, r2, r3));
  hn::StoreU(hn::BitCast(d, hn::InterleaveLower(dd, low01, low23)), d, dst);
  hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(dd, low01, low23)), d, dst + dst_stride);
  hn::StoreU(hn::BitCast(d, hn::InterleaveLower(dd, high01, high23)), d, dst + 2 * dst_stride);
  hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(dd, high01, high23)), d, dst + 3 * dst_stride);
}
#endif

// dst[c * dst_stride + j] = src[j * src_stride + c] for j < rows, c < columns. Each row of dst
// is written whole before the next: dst's rows may be a power of two apart (the output's
// planes), and revisiting them would evict lines before they are complete.
HWY_INLINE void Transpose(const float* HWY_RESTRICT src, size_t src_stride, size_t rows,
                          size_t columns, float* HWY_RESTRICT dst, size_t dst_stride) {
  size_t c = 0;
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  const size_t whole_rows = rows / 4 * 4;
  for (; c + 4 <= columns; c += 4) {
    for (size_t j = 0; j < whole_rows; j += 4) {
      Transpose4x4(src + j * src_stride + c, src_stride, dst + c * dst_stride + j, dst_stride);
    }
    for (size_t k = c; k < c + 4; ++k) {
      for (size_t j = whole_rows; j < rows; ++j) dst[k * dst_stride + j] = src[j * src_stride + k];
    }
  }
#endif
  for (; c < columns; ++c) {
    for (size_t j = 0; j < rows; ++j) dst[c * dst_stride + j] = src[j * src_stride + c];
  }
}

template <PairKind K>
void ToChannelsLastT(const void* planes, size_t channels, size_t plane, size_t padded,
                     size_t begin, size_t end, float* pixels) {
  using Format = PairFormat<K>;
  using Element = typename Format::Element;
  const auto* elements = static_cast<const Element*>(planes);
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  alignas(64) float widened[4][kToLastBlock];
  for (size_t p0 = begin; p0 < end; p0 += kToLastBlock) {
    const size_t n = std::min(kToLastBlock, end - p0);
    // Four planes at a time: the planes may be a power of two apart, and reading more of them
    // at once would evict their lines before the next locations use them.
    for (size_t c = 0; c < channels; c += 4) {
      const size_t group = std::min<size_t>(4, channels - c);
      const Element* first = elements + c * plane + p0;
      if constexpr (K == PairKind::kF32) {
        Transpose(first, plane, group, n, pixels + p0 * padded + c, padded);
        continue;
      }
      for (size_t k = 0; k < group; ++k) {
        const Element* row = first + k * plane;
        size_t i = 0;
        for (; i + lanes <= n; i += lanes) hn::Store(Format::Widen(d, row + i), d, widened[k] + i);
        if (i < n) {  // the rest through a buffer: the plane may end here
          Element rest[kMaxFloatLanes] = {};
          std::copy(row + i, row + n, rest);
          alignas(64) float wide[kMaxFloatLanes];
          hn::Store(Format::Widen(d, rest), d, wide);
          std::copy(wide, wide + (n - i), widened[k] + i);
        }
      }
      Transpose(widened[0], kToLastBlock, group, n, pixels + p0 * padded + c, padded);
    }
    for (size_t p = p0; p < p0 + n; ++p) {
      std::fill(pixels + p * padded + channels, pixels + (p + 1) * padded, 0.0f);
    }
  }
}

// Calls f(std::integral_constant<PairKind, kind>) for the kinds this path takes (kernel.h).
template <class F>
HWY_INLINE auto VisitFloatKind(PairKind kind, F&& f) {
  switch (kind) {
    case PairKind::kF16:
      return f(std::integral_constant<PairKind, PairKind::kF16>());
    case PairKind::kBF16:
      return f(std::integral_constant<PairKind, PairKind::kBF16>());
    default:
      return f(std::integral_constant<PairKind, PairKind::kF32>());
  }
}

void ToChannelsLast(PairKind kind, const void* planes, size_t channels, size_t plane,
                    size_t padded, size_t begin, size_t end, float* pixels) {
  VisitFloatKind(kind, [&](auto k) {
    ToChannelsLastT<decltype(k)::value>(planes, channels, plane, padded, begin, end, pixels);
  });
}

// The sums of locations i0..i0+n-1 over channels c0..c0+width-1 (and on to the next whole
// vector), sums[j * kLastSumsStride + c] for location i0 + j and channel c0 + c; false if one
// may be NaN.
template <size_t kRows>
HWY_NOINLINE bool SumBlock(const float* pixels, size_t padded,
                           const int32_t* HWY_RESTRICT base_offsets, const int32_t* row_deltas,
                           const float* HWY_RESTRICT row_weights, size_t stride, size_t i0,
                           size_t n, size_t c0, size_t width, float* HWY_RESTRICT sums) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const size_t lanes = hn::Lanes(d);
  auto nan = hn::FirstN(d, 0);
  for (size_t j = 0; j < n; ++j) {
    const size_t i = i0 + j;
    const float* left[kRows];  // each row's left tap; its right tap is the next pixel
    V left_weight[kRows], right_weight[kRows];
    for (size_t row = 0; row < kRows; ++row) {
      const size_t pixel = static_cast<size_t>(base_offsets[i] + row_deltas[row]);
      left[row] = pixels + pixel * padded + c0;
      left_weight[row] = hn::Set(d, row_weights[2 * row * stride + i]);
      right_weight[row] = hn::Set(d, row_weights[(2 * row + 1) * stride + i]);
    }
    // Past `width` the loads read padding (or, for vectors wider than the padding, the next
    // pixel or the copy's slack): those sums are never stored.
    for (size_t c = 0; c < width; c += lanes) {
      auto acc = hn::Zero(d);
      for (size_t row = 0; row < kRows; ++row) {
        acc = hn::MulAdd(hn::LoadU(d, left[row] + c), left_weight[row], acc);
        acc = hn::MulAdd(hn::LoadU(d, left[row] + padded + c), right_weight[row], acc);
      }
      nan = hn::Or(nan, hn::IsNaN(acc));
      hn::StoreU(acc, d, sums + j * kLastSumsStride + c);
    }
  }
  return hn::AllFalse(d, nan);
}

// SumBlock's sums stored as elements of K, one plane per channel: the sum of channel c at
// location j goes to element at + c * out_stride + j of `out`.
template <PairKind K>
HWY_NOINLINE void StoreBlock(const float* HWY_RESTRICT sums, size_t n, size_t width, void* out,
                             size_t at, size_t out_stride) {
  auto* first = static_cast<typename PairFormat<K>::Element*>(out) + at;
  if constexpr (K == PairKind::kF32) {
    Transpose(sums, kLastSumsStride, n, width, first, out_stride);
  } else {  // one plane at a time through L1, converted in vectors
    const hn::ScalableTag<float> d;
    const size_t lanes = hn::Lanes(d);
    alignas(64) float planes[kLastChunk * kLastBlock];  // [channel][location]
    Transpose(sums, kLastSumsStride, n, width, planes, kLastBlock);
    auto ignored = hn::FirstN(d, 0);  // SumBlock found the NaN sums
    for (size_t c = 0; c < width; ++c) {
      for (size_t j = 0; j < n; j += lanes) {
        StoreSums<PairFormat<K>>(d, hn::Load(d, planes + c * kLastBlock + j),
                                 std::min(lanes, n - j), nullptr, first + c * out_stride + j,
                                 ignored);
      }
    }
  }
}

bool SampleLinearChannelsLast(PairKind kind, const float* pixels, size_t channels,
                              size_t padded, const int32_t* base_offsets,
                              const int32_t* row_deltas, const float* row_weights, size_t rows,
                              size_t stride, size_t count, void* out, size_t out_stride) {
  const auto sum = VisitPairRows(rows, [](auto r) { return &SumBlock<decltype(r)::value>; });
  const auto store =
      VisitFloatKind(kind, [](auto k) { return &StoreBlock<decltype(k)::value>; });
  bool finite = true;
  alignas(64) float sums[kLastBlock * kLastSumsStride];  // [location][channel]
  for (size_t i0 = 0; i0 < count; i0 += kLastBlock) {
    const size_t n = std::min(kLastBlock, count - i0);
    for (size_t c0 = 0; c0 < channels; c0 += kLastChunk) {
      const size_t width = std::min(kLastChunk, channels - c0);
      finite &= sum(pixels, padded, base_offsets, row_deltas, row_weights, stride, i0, n, c0,
                    width, sums);
      store(sums, n, width, out, c0 * out_stride + i0, out_stride);
    }
  }
  return !finite;
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#endif  // GRIDSAMPLE_SRC_CHANNELS_LAST_INL_H_
