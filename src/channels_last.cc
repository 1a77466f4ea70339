// The channels-last path's per-target entry points (channels_last.h): the copy to
// channels-last and the driver over blocks of locations and chunks of channels, on the kernels
// of channels_last-inl.h. Compiled once per target by foreach_target.h; the HWY_ONCE block at
// the end owns the dispatch and the path's conditions (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "channels_last.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "aligned_row.h"
#include "channels_last.h"
#include "channels_last-inl.h"
#include "cubic_quads.h"
#include "path_choice.h"
#include "timed_choice.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

void ToChannelsLast(ElementKind kind, const void* planes, size_t channels, size_t plane,
                    size_t padded, size_t begin, size_t end, float* pixels) {
  VisitFloatKind(kind, [&](auto k) {
    ToChannelsLastForKind<decltype(k)::value>(planes, channels, plane, padded, begin, end, pixels);
  });
}

void PadChannelsLast(ElementKind kind, const void* in, size_t channels, size_t padded, size_t begin,
                     size_t end, float* pixels) {
  VisitFloatKind(kind, [&](auto k) {
    PadChannelsLastForKind<decltype(k)::value>(in, channels, padded, begin, end, pixels);
  });
}

// SumBlock for pixels of kVectors vectors of D (SumSmallPixelColumns for kSmallPixel floats
// where it takes the plan), or of a count left to `width` (0) where D's vectors cannot make
// such a pixel (kSmallPixel floats, or between kChannelPad and kLastChunk): those
// instantiations would never run, and each costs code (in WebAssembly, the module's size).
template <class D, size_t kTaps, size_t kRows, size_t kVectors, bool kPermuted>
constexpr auto SumBlockFor() {
  constexpr size_t kFloats = kVectors * hn::MaxLanes(D());
  if constexpr (kFloats == kSmallPixel && kTaps == 4 && ColumnsFirst<kRows>() &&
                GRIDSAMPLE_X86_BITS >= 256) {
#if GRIDSAMPLE_X86_BITS >= 256
    return &SumSmallPixelColumns<kRows>;
#endif
  } else if constexpr (kFloats == kSmallPixel ||
                       (kFloats >= kChannelPad && kFloats <= kLastChunk)) {
    return &SumBlock<D, kTaps, kRows, kVectors, kPermuted>;
  } else {
    return &SumBlock<D, kTaps, kRows, 0>;
  }
}

// SampleChannelsLast in vectors of D.
template <class D>
bool SampleChannelsLastWithVectors(ElementKind kind, const float* pixels, size_t channels,
                                   size_t padded, const WindowPlanView& plan, void* out,
                                   size_t channel_step, size_t location_step,
                                   ChannelsLastFlags flags) {
  // Pixels of 1, 2, 4 or 8 whole vectors (SumBlock's kVectors) where vectors have a fixed size.
  const size_t lanes = hn::Lanes(D());
  const size_t vectors =
      HWY_HAVE_SCALABLE || padded > kLastChunk || padded % lanes != 0 ? 0 : padded / lanes;
  const bool permuted = flags.permuted_weights;
  const auto sum = VisitWindowPlan(plan.taps, plan.rows, [vectors, permuted](auto t, auto r) {
    constexpr size_t kTaps = decltype(t)::value, kRows = decltype(r)::value;
    if constexpr (kTaps == 2 && kPermutesWeights) {
      if (vectors == 1 && !permuted) return SumBlockFor<D, kTaps, kRows, 1, false>();
    }
    return vectors == 1   ? SumBlockFor<D, kTaps, kRows, 1, true>()
           : vectors == 2 ? SumBlockFor<D, kTaps, kRows, 2, true>()
           : vectors == 4 ? SumBlockFor<D, kTaps, kRows, 4, true>()
           : vectors == 8 ? SumBlockFor<D, kTaps, kRows, 8, true>()
                          : &SumBlock<D, kTaps, kRows, 0>;
  });
  const bool planes = location_step == 1;
  const auto store = VisitFloatKind(kind, [planes](auto k) {
    return planes ? &StoreBlock<decltype(k)::value> : &StorePixelsBlock<decltype(k)::value>;
  });
  const size_t out_pitch = planes ? channel_step : location_step;
  bool finite = true;
  alignas(64) float sums[kLastBlock * kLastSumsPitch];  // [location][channel]
  for (size_t i0 = 0; i0 < plan.count; i0 += kLastBlock) {
    const size_t n = std::min(kLastBlock, plan.count - i0);
    for (size_t c0 = 0; c0 < channels; c0 += kLastChunk) {
      const size_t width = std::min(kLastChunk, channels - c0);
      finite &= sum(pixels, padded, plan.base_offsets, plan.row_deltas, plan.row_weights,
                    plan.pitch, i0, n, c0, width, sums);
      store(sums, n, width, out, c0 * channel_step + i0 * location_step, out_pitch,
            flags.prefetch_output);
    }
  }
  return !finite;
}

// Calls f(D()) for the vectors SampleChannelsLast sums pixels of `padded` floats in: whole
// vectors of the target where they divide the pixels' padding and SumBlock's chunks, else
// vectors of at most kChannelPad lanes, which divide every padding but kSmallPixel's, else of
// kSmallPixel lanes.
template <class F>
auto VisitPixelVectors(size_t padded, F&& f) {
  const size_t lanes = hn::Lanes(hn::ScalableTag<float>());
  if (padded % lanes == 0 && kLastChunk % lanes == 0) return f(hn::ScalableTag<float>());
  if (padded == kSmallPixel) return f(hn::CappedTag<float, kSmallPixel>());
  return f(hn::CappedTag<float, kChannelPad>());
}

bool SampleChannelsLast(ElementKind kind, const float* pixels, size_t channels, size_t padded,
                        const WindowPlanView& plan, void* out, size_t channel_step,
                        size_t location_step, ChannelsLastFlags flags) {
  return VisitPixelVectors(padded, [&](auto d) {
    return SampleChannelsLastWithVectors<decltype(d)>(kind, pixels, channels, padded, plan, out,
                                                      channel_step, location_step, flags);
  });
}

// Whether SumBlock weighs a 3-D pair plan over pixels of one vector of D faster with its
// weights permuted than broadcast (SecondWayFaster): 128 locations scattered over a volume of
// 8 x 8 x 8 pixels (8 KiB: in L1). Where the two tie, the permutation stays, as before the
// timing.
template <class D>
bool TimePermutedWeights() {
  constexpr size_t kLanes = hn::MaxLanes(D());  // floats a pixel
  constexpr size_t kSide = 8, kCount = kLastBlock, kRank = 3;
  constexpr size_t kRows = 4, kWeights = WindowWeights(2, kRows);
  alignas(64) float pixels[kSide * kSide * kSide * kLanes];
  alignas(64) float grid[kRank * kCount];
  alignas(64) float weights[kWeights * kCount];
  alignas(64) float sums[kLastBlock * kLastSumsPitch];
  alignas(64) int32_t offsets[kCount];
  ProbeNumbers numbers;
  for (float& value : pixels) value = numbers.Next();
  for (float& value : grid) value = 2.0f * numbers.Next() - 1.0f;
  const int64_t sizes[kRank] = {kSide, kSide, kSide}, strides[kRank] = {kSide * kSide, kSide, 1};
  int32_t row_deltas[kRows];
  WindowRowDeltas(kRank, 2, sizes, strides, row_deltas);
  PlanLinearPairs(grid, kRank, sizes, strides, Options{}, 0, kCount, kCount, offsets, weights);
  return !SecondWayFaster(
      [&](bool broadcast) {
        (broadcast ? &SumBlock<D, 2, kRows, 1, false>
                   : &SumBlock<D, 2, kRows, 1, true>)(pixels, kLanes, offsets, row_deltas, weights,
                                                      kCount, 0, kCount, 0, kLanes, sums);
      },
      16);
}

template <class D>
bool PermutedWeightsPayFor() {
  static const bool pays = TimePermutedWeights<D>();
  return pays;
}

// PermutedWeightsPay (channels_last.h) for pixels of kSmallPixel floats, the only ones timed.
bool SmallPixelWeightsPermutedPay() {
  return VisitPixelVectors(kSmallPixel, [](auto d) {
    if constexpr (kPermutesWeights) return PermutedWeightsPayFor<decltype(d)>();
    return true;
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

namespace {

// When the path pays against the pair and quad paths on planar X (docs/benchmarks.md).
struct Tuning {
  // It needs 2 to 4 axes (1-D gathers are too cheap to beat), an output at least half the
  // input (the copy reads all of it) and, but for volumes, this many channels (fewer leave its
  // per-location work, a broadcast weight per tap, shared by too few: in 2-D the pair and quad
  // paths stay as fast or faster, up to 6 times, with 3 to 8 channels). Then linear sampling pays
  // with at least kWidth channels times rows per location (the pair path's scalar loads are cheap
  // below), whatever the input plane: volumes of small planes, which the pair path samples from
  // L1, ran faster here on an AMD Zen 3 on every target and in WebAssembly (docs/benchmarks.md),
  // and natively, where another CPU may differ, small planes are timed on the calls
  // (path_choice.cc, Challenger). Below kWidth, and with outputs under half the input, the
  // grid decides (uniform grids ran faster here, smooth ones slower), so natively those calls
  // are timed too (ChannelsLastMayPay). Cubic sampling pays in 2-D.
  static constexpr size_t kChannels = 8;
  static constexpr size_t kWidth = 32;
  // Volumes pay from this many channels where cubic (the quad path's 16 rows of 4 taps a
  // location and channel cost more: 1.6-2.6 times as slow with 4 to 8 channels) or linear with
  // kSmallPixel pixels (a 128-bit vector a tap: R4); linear volumes of 5 to 7 channels stay on
  // the pair path (0.6-0.95 times as fast on this one). Fewer channels were not measured.
  static constexpr size_t kVolumeChannels = 3;
  // The path prefetches each block's output lines before it transposes its sums into them
  // when one batch item's output passes this many bytes: the lines of a larger output are
  // mostly not in L2, and each store would wait for its own; a smaller one stays in L2 between
  // calls, where the prefetches only cost.
  static constexpr size_t kPrefetchOutput = size_t{1} << 20;
};

// Float32 channels-last X whose pixels are already padded is read as it is.
bool ReadsXDirectly(const PathQuery& q) {
  return q.channels_last && q.types.float32_x && PaddedChannels(q.channels) == q.channels;
}

}  // namespace

size_t PaddedChannels(size_t channels) {
  return channels <= kSmallPixel ? kSmallPixel : RoundUp(channels, kChannelPad);
}

size_t GroupChannels(size_t channels, size_t plane) {
  size_t width = channels >= 2 * kChannelGroup ? kChannelGroup : channels;
  if (width >= kChannelGroup &&
      static_cast<double>(plane) * static_cast<double>(width * sizeof(float)) >
          static_cast<double>(kGroupCopyBytes)) {
    width = kChannelGroup / 2;
  }
  return channels >= 2 * width ? width : 0;
}

size_t GroupCopyFloats(size_t channels, size_t width, size_t plane) {
  return plane * PaddedChannels(ChannelGroup(channels, width, channels / width - 1).count);
}

bool ChannelsLastFits(const PathQuery& q) {
  return q.types.channels_last && (LinearPairsFit(q) || CubicQuadsFit(q)) &&
         (ReadsXDirectly(q) ||
          static_cast<size_t>(q.problem.in_plane) <= kMaxChannelsLast / PaddedChannels(q.channels));
}

bool ChannelsLastPays(const PathQuery& q) {
  const Problem& p = q.problem;
  if (q.channels_last) return true;  // the kernels that read pixels beat the generic path
  if (p.rank < 2 || 2 * p.out_plane < p.in_plane) return false;
  if (p.rank == 3 && (q.taps == 4 || q.channels <= kSmallPixel)) {
    return q.channels >= Tuning::kVolumeChannels;
  }
  if (q.channels < Tuning::kChannels) return false;
  if (q.taps == 4) return true;  // 2-D: the quad path samples 1 to 3 axes
  return q.channels * q.rows >= Tuning::kWidth;
}

bool ChannelsLastMayPay(const PathQuery& q) {
  const Problem& p = q.problem;
  return !q.channels_last && q.taps == 2 && p.rank >= 2 && q.channels >= Tuning::kChannels &&
         4 * p.out_plane >= p.in_plane && !ChannelsLastPays(q);
}

void SetUpChannelsLast(const PathQuery& q, PathChoice* choice) {
  choice->padded_channels = PaddedChannels(q.channels);
  choice->copy_pixels = !ReadsXDirectly(q);
  if (!q.channels_last) {
    choice->group_channels = GroupChannels(q.channels, static_cast<size_t>(q.problem.in_plane));
  }
  choice->last_flags.prefetch_output = static_cast<double>(q.channels) *
                                           static_cast<double>(q.problem.out_plane) *
                                           static_cast<double>(q.types.x_bytes) >
                                       static_cast<double>(Tuning::kPrefetchOutput);
  // Only linear calls weigh pair plans (and only they may time the two ways).
  if (q.taps == 2)
    choice->last_flags.permuted_weights = PermutedWeightsPay(choice->padded_channels);
}

HWY_EXPORT(ToChannelsLast);
HWY_EXPORT(PadChannelsLast);
HWY_EXPORT(SampleChannelsLast);
HWY_EXPORT(SmallPixelWeightsPermutedPay);

void ToChannelsLast(ElementKind kind, const void* planes, size_t channels, size_t plane,
                    size_t padded, size_t begin, size_t end, float* pixels) {
  HWY_DYNAMIC_DISPATCH(ToChannelsLast)(kind, planes, channels, plane, padded, begin, end, pixels);
}
void PadChannelsLast(ElementKind kind, const void* in, size_t channels, size_t padded, size_t begin,
                     size_t end, float* pixels) {
  HWY_DYNAMIC_DISPATCH(PadChannelsLast)(kind, in, channels, padded, begin, end, pixels);
}
bool SampleChannelsLast(ElementKind kind, const float* pixels, size_t channels, size_t padded,
                        const WindowPlanView& plan, void* out, size_t channel_step,
                        size_t location_step, ChannelsLastFlags flags) {
  return HWY_DYNAMIC_DISPATCH(SampleChannelsLast)(kind, pixels, channels, padded, plan, out,
                                                  channel_step, location_step, flags);
}

bool PermutedWeightsPay(size_t padded) {
  return padded != kSmallPixel || HWY_DYNAMIC_DISPATCH(SmallPixelWeightsPermutedPay)();
}

}  // namespace gridsample
#endif  // HWY_ONCE
