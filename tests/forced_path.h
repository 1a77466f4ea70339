// Forces a sampler path (sampler.h) for the scope of one test: every call takes it wherever it
// can sample, whatever the tuning thresholds say; and the pair path's flags likewise.
#ifndef GRIDSAMPLE_TESTS_FORCED_PATH_H_
#define GRIDSAMPLE_TESTS_FORCED_PATH_H_

#include <optional>

#include "sampler.h"

namespace gridsample {
namespace test {

// Calls the test hook kForce with `value` for the scope of one test, then lifts it
// (std::nullopt), also when an assertion fails first.
template <class T, void (*kForce)(std::optional<T>)>
class Forced {
 public:
  explicit Forced(T value) { kForce(value); }
  ~Forced() { kForce(std::nullopt); }
  Forced(const Forced&) = delete;
  Forced& operator=(const Forced&) = delete;
};

// ForceSamplerPathForTest: every call takes the path wherever it can sample.
using ForcedPath = Forced<SamplerPath, ForceSamplerPathForTest>;
// ForcePairFlagsForTest: the pair path's AVX-512 gathers on or off whatever was timed, its
// non-temporal stores whatever the output's size.
using ForcedPairFlags = Forced<PairFlags, ForcePairFlagsForTest>;
// ForcePermutedWeightsForTest: the channels-last path's pair weights permuted or broadcast.
using ForcedPermutedWeights = Forced<bool, ForcePermutedWeightsForTest>;
// ForceCoreL2BytesForTest: the L2 a core has, for the threads of channel groups.
using ForcedCoreL2Bytes = Forced<size_t, ForceCoreL2BytesForTest>;

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_FORCED_PATH_H_
