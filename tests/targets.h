// Runs a test body once per SIMD target that Highway compiled and this CPU supports, so the
// SSE4 and AVX2 paths are tested on an AVX-512 machine too.
#ifndef GRIDSAMPLE_TESTS_TARGETS_H_
#define GRIDSAMPLE_TESTS_TARGETS_H_

#include <string>

#include <catch2/catch.hpp>

#include "hwy/targets.h"
#include "rows.h"

namespace gridsample {
namespace test {

template <typename F>
void ForEachTarget(F&& body) {
  const auto targets = hwy::SupportedAndGeneratedTargets();
  REQUIRE(!targets.empty());
  for (int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("target " << hwy::TargetName(target));
    // The dispatch really moved: the kernels report the target they were compiled for.
    CHECK(std::string(KernelTargetName()) == hwy::TargetName(target));
    body(target);
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_TARGETS_H_
