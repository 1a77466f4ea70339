// The pixel-pair path (pixel_pairs.h): channels-last RGB and RGBA, uint8 and float32, against
// the reference and against the pair path on the planes, bit for bit (tester.h), on every
// compiled target; flat images stay exactly flat; infinite input elements and non-finite grid
// values take the exact recompute. paths_test.cc forces the path on random problems of every
// rank and padding too.
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "sampler.h"
#include "tests/any_tensor.h"
#include "tests/forced_path.h"
#include "tests/targets.h"
#include "tests/tester.h"

namespace gridsample {
namespace {

using test::AnyTensor;
using test::GridSampleTester;

TEST_CASE("Pixel pairs equal the reference and the planes' pair path, every target",
          "[pixel_pairs][simd]") {
  const test::ForcedPath forced(SamplerPath::kPixelPairs);
  test::ForEachTarget([](int64_t target) {
    uint64_t seed = 3000 + static_cast<uint64_t>(target % 997) * 100;
    for (DType dtype : {DType::kUInt8, DType::kFloat32}) {
      for (int64_t channels : {3, 4}) {
        for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
          for (bool align : {false, true}) {
            GridSampleTester()
                .input({2, channels, 23, 29})
                .output({11, 67})  // several blocks of locations and a partial vector
                .dtype(dtype)
                .padding(padding)
                .align_corners(align)
                .grid_range(1.2)
                .special_values(dtype == DType::kFloat32)
                .special_input(dtype == DType::kFloat32)
                .layout(Layout::kChannelsLast)
                .seed(++seed)
                .Test();
          }
        }
      }
    }
  });
}

TEST_CASE("Flat RGBA and RGB bytes stay flat through pixel pairs", "[pixel_pairs][simd]") {
  // Exact sums (convert.h): every output whose taps are all inside is the flat pixel itself.
  std::mt19937_64 rng(3100);
  AnyTensor grid(DType::kFloat32, {1, 40, 50, 2});
  for (size_t i = 0; i < grid.size(); ++i) {
    grid.Set(i, std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
  }
  const uint64_t pixel[4] = {200, 1, 255, 77};
  test::ForEachTarget([&](int64_t) {
    for (int64_t channels : {3, 4}) {
      AnyTensor x(DType::kUInt8, {1, 24, 30, channels});
      for (size_t i = 0; i < x.size(); ++i) x.SetBits(i, pixel[i % channels]);
      Options options;
      options.padding = Padding::kBorder;
      options.layout = Layout::kChannelsLast;
      AnyTensor y(DType::kUInt8, {1, 40, 50, channels});
      const test::ForcedPath forced(SamplerPath::kPixelPairs);
      REQUIRE(GridSample(x.view(), grid.view(), y.mutable_view(), options).ok());
      size_t off = 0;
      for (size_t i = 0; i < y.size(); ++i) off += y.Bits(i) != pixel[i % channels] ? 1 : 0;
      CAPTURE(channels);
      CHECK(off == 0);
    }
  });
}

TEST_CASE("Pixel pairs sample a 1024 x 1024 RGBA warp as the reference does", "[pixel_pairs]") {
  // The benchmark's image workload, smaller in the output: a warp of noise.
  const test::ForcedPath forced(SamplerPath::kPixelPairs);
  GridSampleTester()
      .input({1, 4, 1024, 1024})
      .output({96, 160})
      .dtype(DType::kUInt8)
      .padding(Padding::kBorder)
      .grid_range(1.0)
      .threads(2)
      .layout(Layout::kChannelsLast)
      .seed(3200)
      .Test();
}

TEST_CASE("Pixel pairs prefetching inputs past 8 MB sample as the reference does",
          "[pixel_pairs]") {
  // 8.4 MB of RGBA bytes: the plan prefetches their windows.
  const test::ForcedPath forced(SamplerPath::kPixelPairs);
  GridSampleTester()
      .input({1, 4, 1450, 1450})
      .output({50, 70})
      .dtype(DType::kUInt8)
      .grid_range(1.1)
      .layout(Layout::kChannelsLast)
      .seed(3300)
      .Test();
}

}  // namespace
}  // namespace gridsample
