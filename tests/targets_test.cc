// The SIMD targets the suite runs on (tests/targets.h), and the paths that other suites test on
// the best target only, here on every compiled target this CPU supports: output tiles that end
// inside an output row, several tiles per thread, every element format of the pair path.
// scripts/test.sh's aarch64 stage prints what the first case prints under each emulated CPU
// (NEON alone, SVE at 128 to 2048 bits) and checks that every compiled target ran under one.
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
#include "tests/tester.h"

namespace gridsample {
HWY_EXPORT(TestVectorBits);

namespace {

using test::GridSampleTester;

TEST_CASE("The targets this CPU runs", "[targets]") {
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

TEST_CASE("The pair path's tiles inside output rows, every format, every target", "[targets]") {
  // A smaller "linear pair path equals the reference on wide outputs" (sampler_test.cc): 2-D
  // tiles hold 2048 locations and 3-D ones 1024, so tiles start and end inside output rows.
  const DType dtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kUInt8,
                          DType::kInt8,    DType::kInt16,   DType::kUInt16,   DType::kBool};
  const Padding paddings[] = {Padding::kZeros, Padding::kBorder, Padding::kReflection};
  test::ForEachTarget([&](int64_t target) {
    uint64_t seed = 1300 + static_cast<uint64_t>(target % 997);
    for (DType dtype : dtypes) {
      ++seed;
      GridSampleTester()
          .input({1, 2, 9, 150})
          .output({12, 200})
          .dtype(dtype)
          .padding(paddings[seed % 3])
          .grid_range(1.3)
          .special_input(true)
          .threads(1 + static_cast<int>(seed % 2))
          .seed(seed)
          .Test();
      GridSampleTester()
          .input({1, 1, 3, 4, 130})
          .output({2, 5, 131})
          .dtype(dtype)
          .padding(paddings[(seed + 1) % 3])
          .align_corners(true)
          .grid_range(1.3)
          .threads(1)
          .seed(seed + 500)
          .Test();
    }
  });
}

TEST_CASE("Several tiles per thread in every mode, every target", "[targets]") {
  // "Fast path equals the reference across tiles and threads" (sampler_test.cc), per target.
  test::ForEachTarget([](int64_t) {
    for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
      for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
        GridSampleTester()
            .input({2, 3, 19, 23})
            .output({45, 61})
            .mode(mode)
            .padding(padding)
            .threads(0)
            .seed(1700)
            .Test();
        GridSampleTester()
            .input({1, 2, 6, 7, 9})
            .output({11, 9, 13})
            .mode(mode)
            .padding(padding)
            .align_corners(true)
            .dtype(DType::kFloat64)
            .threads(2)
            .seed(1723)
            .Test();
      }
    }
  });
}

}  // namespace
}  // namespace gridsample
#endif  // HWY_ONCE
