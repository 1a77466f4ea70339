// The SIMD targets the suite runs on (tests/targets.h): scripts/test.sh's aarch64 stage prints
// what this case prints under each emulated CPU (NEON alone, SVE at 128 to 2048 bits) and checks
// that every compiled target ran under one.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/targets_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The width of this target's vectors on this CPU (SVE's is known only at run time).
size_t TestVectorBits() { return hn::Lanes(hn::ScalableTag<uint8_t>()) * 8; }

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cstdint>
#include <iostream>
#include <string>

#include <catch2/catch.hpp>

#include "hwy/targets.h"
#include "tests/targets.h"

namespace gridsample {
HWY_EXPORT(TestVectorBits);

namespace {

TEST_CASE("The targets this CPU runs", "[targets][simd]") {
  std::string compiled;
  for (int bit = 0; bit < 63; ++bit) {
    const int64_t target = int64_t{1} << bit;
    if ((HWY_TARGETS & target) != 0) compiled += std::string(" ") + hwy::TargetName(target);
  }
  std::string supported;
  test::ForEachTarget([&](int64_t target) {
    CHECK((HWY_TARGETS & target) != 0);
    supported += std::string(" ") + hwy::TargetName(target) + " (" +
                 std::to_string(HWY_DYNAMIC_DISPATCH(TestVectorBits)()) + " bits)";
  });
  std::cout << "compiled targets:" << compiled << "\nsupported targets:" << supported << "\n";
}

}  // namespace
}  // namespace gridsample
#endif  // HWY_ONCE
