// Forces a sampler path (sampler.h) for the scope of one test: every call takes it wherever it
// can sample, whatever the tuning thresholds say.
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

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_FORCED_PATH_H_
