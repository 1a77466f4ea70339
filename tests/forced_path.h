// Forces a sampler path (sampler.h) for the scope of one test: every call takes it wherever it
// can sample, whatever the tuning thresholds say; and the pair path's gathers likewise.
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

// Forces the pair path's AVX-512 gathers on or off (ForceHardwareGathersForTest) for the scope
// of one test, whatever the CPU's vendor.
class ForcedGathers {
 public:
  explicit ForcedGathers(bool gathers) { ForceHardwareGathersForTest(gathers); }
  ~ForcedGathers() { ForceHardwareGathersForTest(std::nullopt); }
  ForcedGathers(const ForcedGathers&) = delete;
  ForcedGathers& operator=(const ForcedGathers&) = delete;
};

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_FORCED_PATH_H_
