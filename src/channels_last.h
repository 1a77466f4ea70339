// The channels-last path (channels_last.cc, channels_last-inl.h): the window kernels for images
// with many channels, and for channels-last X, reading float32 pixels that hold their channels
// side by side, `padded` floats apart (kSmallPixel, or a multiple of kChannelPad): a copy of X
// (ToChannelsLast, PadChannelsLast), or float32 channels-last X itself where its channels are
// already so padded. It samples the pair path's plans of the float kinds (kF32, kF16, kBF16) and
// the quad path's plans (kF32), and writes one plane per channel or pixels of channels side by
// side.
#ifndef GRIDSAMPLE_SRC_CHANNELS_LAST_H_
#define GRIDSAMPLE_SRC_CHANNELS_LAST_H_

#include <cstddef>
#include <cstdint>

#include "linear_pairs.h"

namespace gridsample {

struct PathQuery;   // path_choice.h
struct PathChoice;  // path_choice.h
struct Problem;     // validate.h

inline constexpr size_t kChannelPad = 8;
// Pixels of at most this many channels are padded to it rather than to kChannelPad: one
// 128-bit vector a tap, half the memory of a padded copy (3-D volumes of 4 channels, RGB).
inline constexpr size_t kSmallPixel = 4;

// The copy of X holds at most this many floats, 32 MB: one batch item's copy must fit
// (ChannelsLastFits).
inline constexpr size_t kMaxChannelsLast = size_t{8} << 20;
// Input elements per work item of the copy (whole kRowBlocks of locations): enough work items
// for every thread even when the planes are small.
inline constexpr size_t kToChannelsLastItem = size_t{1} << 16;

// Planar X of many channels is copied and sampled a group of channels at a time, each group a
// work item of its own (PathChoice::group_channels): a group's copy stays in L2 while its
// locations are sampled, where a whole copy would spill to L3 as its taps are read
// (docs/benchmarks.md, "Channel groups"). Groups are kChannelGroup channels (one
// pass of the kernel's sums) from 2 * kChannelGroup channels, and half that where such a
// group's copy would pass kGroupCopyBytes (which also splits images of kChannelGroup to
// 2 * kChannelGroup - 1 channels whose whole copy passes it): half of an Intel Xeon's L2,
// where the widths were measured; 512 KB on a Zen 3 (L2 512 KB) gained nothing. Threads take
// one group each only where it also fits the core's L2 (path_choice.cc, GroupCopyBound).
inline constexpr size_t kChannelGroup = 32;
inline constexpr size_t kGroupCopyBytes = size_t{1} << 20;

// The channels of each group for planar X of `channels` channels on planes of `plane`
// elements; 0 where it is copied whole.
size_t GroupChannels(size_t channels, size_t plane);

// Channels first .. first + count - 1.
struct ChannelRange {
  size_t first;
  size_t count;
};

// Group g of the channels / width groups: `width` channels each, the last one with the rest.
inline ChannelRange ChannelGroup(size_t channels, size_t width, size_t g) {
  const size_t first = g * width;
  return {first, first + 2 * width > channels ? channels - first : width};
}

// The floats a pixel of `channels` channels takes in a copy: kSmallPixel for at most that
// many, else whole blocks of kChannelPad.
size_t PaddedChannels(size_t channels);

// The floats of one group's copy on planes of `plane` elements, room for the widest group
// (the last).
size_t GroupCopyFloats(size_t channels, size_t width, size_t plane);

// The path's row (path_choice.cc). It fits where PlanLinearPairs or PlanCubicQuads plans the
// call for a float kind and one batch item's copy fits kMaxChannelsLast (or X is read as it
// is); it pays for channels-last X always, and for planar X where enough channels share each
// location's work (ChannelsLastPays in channels_last.cc says how many). SetUpChannelsLast
// sets the padding, the copy and the output prefetch.
bool ChannelsLastFits(const PathQuery& query);
bool ChannelsLastPays(const PathQuery& query);
void SetUpChannelsLast(const PathQuery& query, PathChoice* choice);
// Whether a linear call on planar X that ChannelsLastPays leaves to the pair path may still run
// faster on this path, depending on its grid (path_choice.cc times such calls): 8 channels or more
// on 2 to 4 axes, an output of at least a quarter of the input, and too few channels times rows or
// an output under half the input.
bool ChannelsLastMayPay(const PathQuery& query);

// pixels[p * padded + c] = planes[c * plane + p] (elements of `kind`, as float32) for
// c < channels and locations p in [begin, end) of one batch item's planes; 0 for the padding
// c in [channels, padded).
void ToChannelsLast(ElementKind kind, const void* planes, size_t channels, size_t plane,
                    size_t padded, size_t begin, size_t end, float* pixels);

// pixels[p * padded + c] = in[p * channels + c] (elements of `kind`, as float32) for
// c < channels and pixels p in [begin, end) of one batch item's channels-last X `in`; 0 for
// the padding c in [channels, padded).
void PadChannelsLast(ElementKind kind, const void* in, size_t channels, size_t padded, size_t begin,
                     size_t end, float* pixels);

// How SampleChannelsLast stores and weighs (PathChoice::last_flags); the sums are the same
// either way.
struct ChannelsLastFlags {
  // The planes' lines are prefetched before each block is stored (for outputs beyond L2).
  bool prefetch_output = false;
  // A pair plan's weights, for pixels of one vector on x86, are loaded a vector of locations at
  // a time and permuted out, else broadcast from memory at each location
  // (PermutedWeightsPay).
  bool permuted_weights = true;
};

// SampleLinearPairs(kind, ...) (plan.taps = 2, a plan of PlanLinearPairs) or SampleCubicQuads
// (plan.taps = 4, a plan of PlanCubicQuads, kind kF32) for every channel c < channels of one
// batch item at once, from its pixels: the outputs (elements of `kind`) go to
// out[c * channel_step + i * location_step] for i < plan.count (planes: location_step 1; pixels:
// channel_step 1), equal bit for bit to the pair or quad path's. Loads stay within the pixels'
// `padded` floats. Returns whether some sum may be NaN: the caller finds those (NaN outputs)
// and recomputes them, as for the pair and quad paths.
bool SampleChannelsLast(ElementKind kind, const float* pixels, size_t channels, size_t padded,
                        const WindowPlanView& plan, void* out, size_t channel_step,
                        size_t location_step, ChannelsLastFlags flags);

// Whether a pair plan over pixels of `padded` floats runs faster with its weights permuted out
// of vectors of locations than broadcast from memory (ChannelsLastFlags::permuted_weights) on
// this CPU, for the target the calls dispatch to. For pixels of kSmallPixel floats on x86, where
// CPUs differ (an AMD Zen 3 permuted faster, an Intel Xeon broadcast faster:
// docs/benchmarks.md), the first call times SumBlock both ways on a small volume of its own
// (about 0.15 ms, once per process and target) and keeps the answer. Elsewhere true: wider
// pixels permute, as the measured CPUs agree there (a Zen 5 1.12 times as fast on W4, the Xeon
// the same), and targets off x86 read neither.
bool PermutedWeightsPay(size_t padded);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_CHANNELS_LAST_H_
