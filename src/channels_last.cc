// The channels-last path's per-target entry points (channels_last.h): the copy to
// channels-last and the driver over blocks of locations and chunks of channels, on the kernels
// of channels_last-inl.h. Compiled once per target by foreach_target.h; the HWY_ONCE block at
// the end owns the dispatch.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "channels_last.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "channels_last.h"
#include "channels_last-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

void ToChannelsLast(PairKind kind, const void* planes, size_t channels, size_t plane, size_t padded,
                    size_t begin, size_t end, float* pixels) {
  VisitFloatKind(kind, [&](auto k) {
    ToChannelsLastT<decltype(k)::value>(planes, channels, plane, padded, begin, end, pixels);
  });
}

void PadChannelsLast(PairKind kind, const void* in, size_t channels, size_t padded, size_t begin,
                     size_t end, float* pixels) {
  VisitFloatKind(kind, [&](auto k) {
    PadChannelsLastT<decltype(k)::value>(in, channels, padded, begin, end, pixels);
  });
}

// SumBlock for pixels of kVectors vectors of D, or of a count left to `width` (0) where D's
// vectors cannot make such a pixel (between kChannelPad and kLastChunk floats): those
// instantiations would never run, and each costs code (in WebAssembly, the module's size).
template <class D, size_t kTaps, size_t kRows, size_t kVectors>
constexpr auto SumBlockFor() {
  constexpr size_t kFloats = kVectors * hn::MaxLanes(D());
  if constexpr (kFloats >= kChannelPad && kFloats <= kLastChunk) {
    return &SumBlock<D, kTaps, kRows, kVectors>;
  } else {
    return &SumBlock<D, kTaps, kRows, 0>;
  }
}

// SampleChannelsLast in vectors of D.
template <class D>
bool SampleChannelsLastD(PairKind kind, const float* pixels, size_t channels, size_t padded,
                         const int32_t* base_offsets, const int32_t* row_deltas,
                         const float* row_weights, size_t taps, size_t rows, size_t pitch,
                         size_t count, void* out, size_t channel_step, size_t location_step,
                         bool prefetch_output) {
  // Pixels of 1, 2, 4 or 8 whole vectors (SumBlock's kVectors) where vectors have a fixed size.
  const size_t lanes = hn::Lanes(D());
  const size_t vectors =
      HWY_HAVE_SCALABLE || padded > kLastChunk || padded % lanes != 0 ? 0 : padded / lanes;
  const auto sum = VisitWindowPlan(taps, rows, [vectors](auto t, auto r) {
    constexpr size_t kTaps = decltype(t)::value, kRows = decltype(r)::value;
    return vectors == 1   ? SumBlockFor<D, kTaps, kRows, 1>()
           : vectors == 2 ? SumBlockFor<D, kTaps, kRows, 2>()
           : vectors == 4 ? SumBlockFor<D, kTaps, kRows, 4>()
           : vectors == 8 ? SumBlockFor<D, kTaps, kRows, 8>()
                          : &SumBlock<D, kTaps, kRows, 0>;
  });
  const bool planes = location_step == 1;
  const auto store = VisitFloatKind(kind, [planes](auto k) {
    return planes ? &StoreBlock<decltype(k)::value> : &StorePixelsBlock<decltype(k)::value>;
  });
  const size_t out_pitch = planes ? channel_step : location_step;
  bool finite = true;
  alignas(64) float sums[kLastBlock * kLastSumsPitch];  // [location][channel]
  for (size_t i0 = 0; i0 < count; i0 += kLastBlock) {
    const size_t n = std::min(kLastBlock, count - i0);
    for (size_t c0 = 0; c0 < channels; c0 += kLastChunk) {
      const size_t width = std::min(kLastChunk, channels - c0);
      finite &=
          sum(pixels, padded, base_offsets, row_deltas, row_weights, pitch, i0, n, c0, width, sums);
      store(sums, n, width, out, c0 * channel_step + i0 * location_step, out_pitch,
            prefetch_output);
    }
  }
  return !finite;
}

bool SampleChannelsLast(PairKind kind, const float* pixels, size_t channels, size_t padded,
                        const int32_t* base_offsets, const int32_t* row_deltas,
                        const float* row_weights, size_t taps, size_t rows, size_t pitch,
                        size_t count, void* out, size_t channel_step, size_t location_step,
                        bool prefetch_output) {
  // Whole vectors of the target where they divide the pixels' padding and SumBlock's chunks,
  // else vectors of at most kChannelPad lanes, which always do.
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  if (padded % lanes == 0 && kLastChunk % lanes == 0) {
    return SampleChannelsLastD<hn::ScalableTag<float>>(
        kind, pixels, channels, padded, base_offsets, row_deltas, row_weights, taps, rows, pitch,
        count, out, channel_step, location_step, prefetch_output);
  }
  return SampleChannelsLastD<hn::CappedTag<float, kChannelPad>>(
      kind, pixels, channels, padded, base_offsets, row_deltas, row_weights, taps, rows, pitch,
      count, out, channel_step, location_step, prefetch_output);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

HWY_EXPORT(ToChannelsLast);
HWY_EXPORT(PadChannelsLast);
HWY_EXPORT(SampleChannelsLast);

void ToChannelsLast(PairKind kind, const void* planes, size_t channels, size_t plane, size_t padded,
                    size_t begin, size_t end, float* pixels) {
  HWY_DYNAMIC_DISPATCH(ToChannelsLast)(kind, planes, channels, plane, padded, begin, end, pixels);
}
void PadChannelsLast(PairKind kind, const void* in, size_t channels, size_t padded, size_t begin,
                     size_t end, float* pixels) {
  HWY_DYNAMIC_DISPATCH(PadChannelsLast)(kind, in, channels, padded, begin, end, pixels);
}
bool SampleChannelsLast(PairKind kind, const float* pixels, size_t channels, size_t padded,
                        const int32_t* base_offsets, const int32_t* row_deltas,
                        const float* row_weights, size_t taps, size_t rows, size_t pitch,
                        size_t count, void* out, size_t channel_step, size_t location_step,
                        bool prefetch_output) {
  return HWY_DYNAMIC_DISPATCH(SampleChannelsLast)(
      kind, pixels, channels, padded, base_offsets, row_deltas, row_weights, taps, rows, pitch,
      count, out, channel_step, location_step, prefetch_output);
}

}  // namespace gridsample
#endif  // HWY_ONCE
