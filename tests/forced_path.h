// Forces a sampler path (sampler.h) for the scope of one test: every call takes it wherever it
// can sample, whatever the tuning thresholds say; and the pair path's flags likewise.
#ifndef GRIDSAMPLE_TESTS_FORCED_PATH_H_
#define GRIDSAMPLE_TESTS_FORCED_PATH_H_

#include <optional>

#include "sampler.h"

namespace gridsample {
namespace test {

class ForcedPath {
 public:
  explicit ForcedPath(SamplerPath path) { ForceSamplerPathForTest(path); }
  ~ForcedPath() { ForceSamplerPathForTest(std::nullopt); }
  ForcedPath(const ForcedPath&) = delete;
  ForcedPath& operator=(const ForcedPath&) = delete;
};

// Forces the pair path's flags (ForcePairFlagsForTest) for the scope of one test: its AVX-512
// gathers on or off whatever the CPU's vendor, its non-temporal stores whatever the output's
// size.
class ForcedPairFlags {
 public:
  explicit ForcedPairFlags(PairFlags flags) { ForcePairFlagsForTest(flags); }
  ~ForcedPairFlags() { ForcePairFlagsForTest(std::nullopt); }
  ForcedPairFlags(const ForcedPairFlags&) = delete;
  ForcedPairFlags& operator=(const ForcedPairFlags&) = delete;
};

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_FORCED_PATH_H_
