// Runs a test body once per SIMD target that Highway compiled and this CPU supports, so the
// SSE4 and AVX2 paths are tested on an AVX-512 machine too.
//
// GRIDSAMPLE_TEST_TARGETS (Highway's names, separated by spaces or commas, e.g. "SVE2 SVE")
// narrows that to the targets it names. scripts/test.sh's aarch64 stage uses it so that a target
// whose code does not change with the emulated CPU (NEON under every SVE width) runs once, not
// once per width. A name that is no compiled target fails the test, and so does a list that
// leaves none of the CPU's targets: a misspelt list never tests nothing.
//
// Every test case that calls ForEachTarget carries the tag [simd], which the aarch64 stage
// selects at the SVE widths where it runs only the suites that depend on the target; a case
// without it fails here, so none can drop out of that selection unnoticed.
#ifndef GRIDSAMPLE_TESTS_TARGETS_H_
#define GRIDSAMPLE_TESTS_TARGETS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "hwy/targets.h"
#include "rows.h"

namespace gridsample {
namespace test {

// Whether the running test case has `tag` (lower case, without its brackets).
inline bool CurrentTestHasTag(const std::string& tag) {
  const std::string name = Catch::getResultCapture().getCurrentTestName();
  for (const Catch::TestCase& test_case :
       Catch::getAllTestCasesSorted(*Catch::getCurrentContext().getConfig())) {
    if (test_case.name == name) {
      const auto& tags = test_case.lcaseTags;
      return std::find(tags.begin(), tags.end(), tag) != tags.end();
    }
  }
  return false;
}

// The targets ForEachTarget runs: the supported and compiled ones, narrowed by
// GRIDSAMPLE_TEST_TARGETS where it is set.
inline std::vector<int64_t> TargetsToTest() {
  std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  const char* names = std::getenv("GRIDSAMPLE_TEST_TARGETS");
  if (names == nullptr || *names == '\0') return targets;
  std::vector<int64_t> named;
  std::string list(names);
  std::replace(list.begin(), list.end(), ',', ' ');
  size_t start = 0;
  while ((start = list.find_first_not_of(' ', start)) != std::string::npos) {
    const size_t end = std::min(list.find(' ', start), list.size());
    const std::string name = list.substr(start, end - start);
    start = end;
    int64_t found = 0;
    for (int bit = 0; bit < 63; ++bit) {
      const int64_t target = int64_t{1} << bit;
      if ((HWY_TARGETS & target) != 0 && name == hwy::TargetName(target)) found = target;
    }
    INFO("GRIDSAMPLE_TEST_TARGETS names '" << name << "', which is no compiled target");
    REQUIRE(found != 0);
    named.push_back(found);
  }
  targets.erase(std::remove_if(targets.begin(), targets.end(),
                               [&](int64_t target) {
                                 return std::find(named.begin(), named.end(), target) ==
                                        named.end();
                               }),
                targets.end());
  INFO("GRIDSAMPLE_TEST_TARGETS='" << names << "' leaves none of this CPU's targets");
  REQUIRE(!targets.empty());
  return targets;
}

template <typename F>
void ForEachTarget(F&& body) {
  INFO("a test case that runs ForEachTarget is tagged [simd] (tests/targets.h)");
  REQUIRE(CurrentTestHasTag("simd"));
  const std::vector<int64_t> targets = TargetsToTest();
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

// Lanes enough for a whole number of vectors of every target, SVE's 2048 bits included: the
// count of the twin tests, which run a vector kernel and its scalar twin lane by lane.
constexpr size_t kTwinLanes = 256;

// Whether two floats are the same bits (a NaN its own, -0 not 0): what a twin must give.
inline bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_TARGETS_H_
