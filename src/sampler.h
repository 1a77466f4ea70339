// The fast path behind GridSample, after validation.
#ifndef GRIDSAMPLE_SRC_SAMPLER_H_
#define GRIDSAMPLE_SRC_SAMPLER_H_

#include <optional>

#include "gridsample/gridsample.h"
#include "linear_pairs.h"
#include "validate.h"

namespace gridsample {

// The ways the fast path samples a call (docs/architecture.md has the rule that chooses).
enum class SamplerPath {
  kGeneric,       // per-axis taps, a row of offsets and weights per tap combination
  kNearestPlan,   // nearest: one planned offset per location, then a copy
  kPairs,         // linear: each axis's two taps as a pair of adjacent elements
  kChannelsLast,  // many channels, or channels-last X: whole vectors of a pixel's channels
  kQuads,         // cubic float32: each axis's four taps as one 128-bit load
  kPixelPairs,    // linear, channels-last RGB/RGBA: each row's two pixels loaded whole
};
inline constexpr int kSamplerPaths = static_cast<int>(SamplerPath::kPixelPairs) + 1;

// "generic", "nearest_plan", "pairs", "channels_last", "quads", "pixel_pairs"; nullptr past the
// last path.
const char* SamplerPathName(SamplerPath path);

// Test hook: from now on every call takes `path` wherever that path can sample it, whatever
// the tuning thresholds say, so that each kernel is tested however they move; std::nullopt
// lifts it. Not for concurrent use with calls that must not see it.
void ForceSamplerPathForTest(std::optional<SamplerPath> path);

// Test hook: from now on the pair path takes `flags` (linear_pairs.h): AVX-512's gathers or
// loads one by one on the targets that have both, whatever was timed (HardwareGathersPay), and
// non-temporal stores or plain ones, whatever the output's size; std::nullopt lifts it. Not for
// concurrent use, as ForceSamplerPathForTest.
void ForcePairFlagsForTest(std::optional<PairFlags> flags);

// Test hook: from now on the channels-last path weighs pair plans over pixels of one vector
// with permuted weights (true) or broadcast ones (false), whatever was timed
// (PermutedWeightsPay, channels_last.h); std::nullopt lifts it. Not for concurrent use, as
// ForceSamplerPathForTest.
void ForcePermutedWeightsForTest(std::optional<bool> permuted);

// Test hook: from now on the choice of threads for channel groups takes a core's L2 to hold
// `bytes`, whatever the OS reports (path_choice.cc, GroupCopyBound); std::nullopt lifts it. Not
// for concurrent use, as ForceSamplerPathForTest.
void ForceCoreL2BytesForTest(std::optional<size_t> bytes);

// Test hooks of the contests between the channels-last and pair paths (path_choice.cc): forget
// every contest, so that the next calls of each kind are timed again; and how many kinds of call
// have a decided contest. Not for concurrent use, as ForceSamplerPathForTest.
void ResetPathContestsForTest();
size_t DecidedPathContestsForTest();

// Computes y for a validated problem. Fails only when memory or threads cannot be had.
Status RunSampler(const Problem& problem, const TensorView& x, const TensorView& grid,
                  const MutableTensorView& y, const Options& options);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_SAMPLER_H_
