// Integer and bool outputs truncate an EXACT sum (docs/semantics.md, Types; convert.h): a flat
// neighbourhood returns its value, in every mode, padding, rank and dtype, on every compiled
// target, and the fast path equals the reference bit for bit. The exact-arithmetic grids (with
// expected integers from an exact rational model) are tests/data/exact_integers.txt.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"
#include "tests/golden_check.h"
#include "tests/golden_file.h"
#include "tests/targets.h"
#include "tests/tester.h"

namespace gridsample {
namespace test {
namespace {

bool IsExactKind(const DTypeInfo& info) {
  return info.kind == Conversion::kInt || info.kind == Conversion::kBool;
}

// The values a flat image of `info` is tried with: both ends of the range, 0, the middles,
// and 200 (the uint8 image) where it fits; as SetBits takes them.
std::vector<uint64_t> FlatValues(const DTypeInfo& info) {
  if (info.kind == Conversion::kBool) return {0, 1};
  const int64_t lo = IntMin(info);
  const uint64_t hi = IntMax(info);
  std::vector<uint64_t> values = {static_cast<uint64_t>(lo), hi, 0, hi / 2,
                                  info.is_signed ? static_cast<uint64_t>(lo / 2) : 1};
  if (hi >= 200) values.push_back(200);
  return values;
}

// Input shapes per rank: one the window (pair) paths take and one whose innermost axis of size 1
// sends linear to the generic path; every axis is >= 4 where cubic needs it for the quad
// windows of float data, which integers do not use, so both paths of integers are reached.
std::vector<std::vector<int64_t>> Shapes(size_t rank) {
  switch (rank) {
    case 1:
      return {{1, 2, 7}, {2, 1, 1}};
    case 2:
      return {{1, 2, 6, 5}, {1, 2, 5, 1}};
    case 3:
      return {{1, 1, 5, 4, 6}, {1, 1, 4, 3, 1}};
    default:
      return {{1, 1, 4, 5, 4, 4}, {1, 1, 3, 4, 2, 1}};
  }
}
std::vector<int64_t> OutputExtents(size_t rank) {
  switch (rank) {
    case 1:
      return {37};
    case 2:
      return {6, 7};
    case 3:
      return {3, 4, 3};
    default:
      return {2, 3, 2, 3};
  }
}

// Calls f(info, x_shape, options) for every integer and bool dtype, rank 1-4 (Shapes), linear
// and cubic, every padding and alignment.
template <class F>
void ForEachIntegerCase(F&& f) {
  for (const DTypeInfo& info : AllDTypes()) {
    if (!IsExactKind(info)) continue;
    for (size_t rank = 1; rank <= 4; ++rank) {
      for (const std::vector<int64_t>& x_shape : Shapes(rank)) {
        for (Mode mode : {Mode::kLinear, Mode::kCubic}) {
          for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
            for (bool align_corners : {false, true}) {
              Options o;
              o.mode = mode;
              o.padding = padding;
              o.align_corners = align_corners;
              f(info, x_shape, o);
            }
          }
        }
      }
    }
  }
}

// Whether every tap of the location with grid values `g` (grid order) is inside the input,
// with a margin far above the float rounding of the coordinates.
bool AllTapsInside(const double* g, const std::vector<int64_t>& x_shape, const Options& o) {
  const size_t rank = x_shape.size() - 2;
  for (size_t a = 0; a < rank; ++a) {
    const double size = static_cast<double>(x_shape[2 + a]);
    const double v = g[rank - 1 - a];
    const double p = o.align_corners ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
    const double reach = o.mode == Mode::kCubic ? 1.0 : 0.0;
    if (!(p >= reach + 1e-3 && p <= size - 1 - reach - 1e-3)) return false;
  }
  return true;
}

TEST_CASE("Flat integer images come back exactly in every mode, padding, rank and target",
          "[exact][simd]") {
  std::mt19937_64 rng(16);
  Mismatches mismatches;
  size_t flat_checked = 0;
  ForEachIntegerCase([&](const DTypeInfo& info, const std::vector<int64_t>& x_shape,
                         const Options& o) {
    const size_t rank = x_shape.size() - 2;
    for (double range : {0.9, 1.6}) {  // inside only, and reaching outside
      std::vector<int64_t> grid_shape = {x_shape[0]};
      for (int64_t e : OutputExtents(rank)) grid_shape.push_back(e);
      grid_shape.push_back(static_cast<int64_t>(rank));
      AnyTensor grid(DType::kFloat32, grid_shape);
      std::vector<double> g(grid.size());
      for (size_t i = 0; i < grid.size(); ++i) {
        grid.Set(i, std::uniform_real_distribution<double>(-range, range)(rng));
        g[i] = grid.Get(i);  // as float32 holds it
      }
      for (uint64_t value : FlatValues(info)) {
        AnyTensor x(info.dtype, x_shape);
        for (size_t i = 0; i < x.size(); ++i) x.SetBits(i, value);
        const std::string what =
            std::string(info.name) + " " + std::to_string(static_cast<int64_t>(value)) + " rank " +
            std::to_string(rank) + " " + OptionsText(o) + " range " + std::to_string(range);
        // The reference once (it does not depend on the target), the fast path on every target.
        const Results r = RunBoth(x, grid, o);
        REQUIRE(r.ref_status.ok());
        const size_t locations = r.ref.size() / static_cast<size_t>(x_shape[1]);
        for (size_t i = 0; i < r.ref.size(); ++i) {
          const size_t l = i % locations;
          if (o.padding != Padding::kZeros || AllTapsInside(&g[l * rank], x_shape, o)) {
            ++flat_checked;
            if (r.ref.Bits(i) != x.Bits(0)) {
              mismatches.Add(what + ": reference element " + std::to_string(i) + " is " +
                             r.ref.Describe(i) + ", not the flat value");
            }
          }
        }
        ForEachTarget([&](int64_t target) {
          AnyTensor y(info.dtype, r.ref.shape());
          const Status status = GridSample(x.view(), grid.view(), y.mutable_view(), o);
          for (size_t i = 0; status.ok() && i < y.size(); ++i) {
            if (!y.SameElement(i, r.ref, i)) {
              mismatches.Add(what + ", " + hwy::TargetName(target) + ": element " +
                             std::to_string(i) + " is " + y.Describe(i) + ", reference " +
                             r.ref.Describe(i));
            }
          }
          if (!status.ok()) mismatches.Add(what + ": " + status.message());
        });
      }
    }
  });
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
  CHECK(flat_checked > 350000);  // locations whose every tap is inside, each dtype and value
}

TEST_CASE("A flat uint8 image of 200 stays 200 under a random border grid", "[exact]") {
  // The example: 3 x 64 x 64 of 200, a 128 x 128 grid uniform in +-0.9.
  AnyTensor x(DType::kUInt8, {1, 3, 64, 64});
  for (size_t i = 0; i < x.size(); ++i) x.SetBits(i, 200);
  AnyTensor grid(DType::kFloat32, {1, 128, 128, 2});
  std::mt19937_64 rng(200);
  for (size_t i = 0; i < grid.size(); ++i) {
    grid.Set(i, std::uniform_real_distribution<double>(-0.9, 0.9)(rng));
  }
  for (Mode mode : {Mode::kLinear, Mode::kCubic, Mode::kNearest}) {
    Options o;
    o.mode = mode;
    o.padding = Padding::kBorder;
    const Results r = RunBoth(x, grid, o);
    REQUIRE(r.fast_status.ok());
    size_t not_200 = 0;
    for (size_t i = 0; i < r.fast.size(); ++i) not_200 += r.fast.Bits(i) != 200;
    CAPTURE(ModeName(mode));
    CHECK(not_200 == 0);
  }
}

TEST_CASE("Random integer images: the fast path equals the reference bit for bit",
          "[exact][simd]") {
  ForEachTarget([&](int64_t) {
    uint64_t seed = 1600;
    ForEachIntegerCase(
        [&](const DTypeInfo& info, const std::vector<int64_t>& x_shape, const Options& o) {
          GridSampleTester()
              .input(x_shape)
              .output(OutputExtents(x_shape.size() - 2))
              .dtype(info.dtype)
              .mode(o.mode)
              .padding(o.padding)
              .align_corners(o.align_corners)
              .grid_range(1.3)
              .special_values(true)
              .seed(++seed)
              .Test();
        });
  });
}

TEST_CASE("Exact-arithmetic grids give the exact model's integers", "[exact][simd]") {
  std::vector<GoldenCase> cases;
  std::string error;
  const bool loaded =
      LoadGoldenFile(GRIDSAMPLE_TEST_DATA_DIR "/exact_integers.txt", &cases, &error);
  INFO(error);
  REQUIRE(loaded);
  REQUIRE(cases.size() >= 612);  // the generator writes 612; fewer means a truncated file
  Mismatches mismatches;
  ForEachTarget([&](int64_t) {
    for (const GoldenCase& c : cases) {
      RunGoldenCase(
          c,
          [](const AnyTensor& actual, const AnyTensor& expected, size_t i) {
            return actual.SameElement(i, expected, i);
          },
          &mismatches);
    }
  });
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

}  // namespace
}  // namespace test
}  // namespace gridsample
