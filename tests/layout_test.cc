// Channels-last X and Y (gridsample.h's Layout): for every rank 1-4 × mode × padding × dtype,
// channels-last X gives the channels-first Y transposed, bit for bit, from the fast path and from
// the reference, and agrees with the reference (tester.h), on every compiled target. The
// properties, the forced paths and the random problems of the other suites run in both layouts
// too (properties_test.cc, paths_test.cc, sampler_test.cc).
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"
#include "tests/targets.h"
#include "tests/tester.h"

namespace gridsample {
namespace {

using test::GridSampleTester;

TEST_CASE("Channels-last is channels-first transposed: every rank, mode, padding, dtype, target",
          "[layout][simd]") {
  const std::vector<int64_t> channels = {1, 2, 3, 4, 5, 8, 9, 16};
  test::ForEachTarget([&](int64_t target) {
    std::mt19937_64 rng(2000 + static_cast<uint64_t>(target % 997));
    for (size_t rank = 1; rank <= 4; ++rank) {
      for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
        for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
          for (const test::DTypeInfo& info : test::AllDTypes()) {
            // Rank 4 stays small: cubic reads 256 taps per location.
            const int64_t most = rank == 4 ? 3 : 6;
            std::vector<int64_t> input = {1 + static_cast<int64_t>(rng() % 2),
                                          channels[rng() % channels.size()]};
            std::vector<int64_t> output;
            for (size_t a = 0; a < rank; ++a) {
              input.push_back(1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(most)));
              output.push_back(1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(most)));
            }
            const std::vector<DType> grids = test::GridDTypes();
            GridSampleTester()
                .input(input)
                .output(output)
                .mode(mode)
                .padding(padding)
                .align_corners(rng() % 2 == 0)
                .dtype(info.dtype)
                .grid_dtype(grids[rng() % grids.size()])
                .grid_range(1.3)
                .special_values(rng() % 3 == 0)
                .threads(1 + static_cast<int>(rng() % 2))
                .layout(Layout::kChannelsLast)
                .seed(rng())
                .Test();
          }
        }
      }
    }
  });
}

TEST_CASE("Channels-last images of many tiles and threads", "[layout]") {
  // Several tiles per thread; the channels-last path reads float32 X of 8 and 16 channels as it
  // is and copies 12, the pixel pairs take 3 and 4; float16 goes through a copy.
  struct Case {
    DType dtype;
    int64_t channels;
    Mode mode;
  };
  const Case cases[] = {{DType::kFloat32, 8, Mode::kLinear},  {DType::kFloat32, 16, Mode::kCubic},
                        {DType::kFloat32, 12, Mode::kLinear}, {DType::kFloat32, 3, Mode::kLinear},
                        {DType::kUInt8, 4, Mode::kLinear},    {DType::kUInt8, 3, Mode::kCubic},
                        {DType::kFloat16, 6, Mode::kLinear},  {DType::kInt16, 2, Mode::kNearest}};
  uint64_t seed = 2100;
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      GridSampleTester()
          .input({2, c.channels, 47, 51})
          .output({53, 49})
          .dtype(c.dtype)
          .mode(c.mode)
          .padding(Padding::kBorder)
          .grid_range(1.1)
          .threads(threads)
          .layout(Layout::kChannelsLast)
          .seed(++seed)
          .Test();
    }
  }
}

}  // namespace
}  // namespace gridsample
