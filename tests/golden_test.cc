// The golden vectors of tests/data/golden.txt (written by scripts/gen_golden.py from onnx.reference
// and an exact model of docs/semantics.md) through GridSample and ReferenceGridSample.
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"
#include "tests/golden_check.h"
#include "tests/golden_file.h"

namespace gridsample {
namespace test {
namespace {

// The generator writes 756 cases; fewer means a truncated or stale file.
constexpr size_t kMinimumCases = 750;

std::vector<GoldenCase> LoadGolden() {
  std::vector<GoldenCase> cases;
  std::string error;
  const bool loaded = LoadGoldenFile(GRIDSAMPLE_TEST_DATA_DIR "/golden.txt", &cases, &error);
  INFO(error);
  REQUIRE(loaded);
  return cases;
}

TEST_CASE("Golden vectors match GridSample and ReferenceGridSample", "[golden]") {
  const std::vector<GoldenCase> cases = LoadGolden();
  REQUIRE(cases.size() >= kMinimumCases);
  Mismatches mismatches;
  for (const GoldenCase& c : cases) RunGoldenCase(c, GoldenTolerance(c.y.dtype()), &mismatches);
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

TEST_CASE("Golden vectors cover every rank, mode, padding, alignment and float type pair",
          "[golden]") {
  using Key = std::tuple<size_t, std::string, std::string, bool, DType, DType>;
  std::set<Key> present;
  for (const GoldenCase& c : LoadGolden()) {
    present.emplace(c.x.shape().size() - 2, c.mode, c.padding, c.align_corners, c.x.dtype(),
                    c.grid.dtype());
  }
  for (size_t rank : {1, 2, 3, 4}) {
    for (const char* mode : {"linear", "nearest", "cubic"}) {
      for (const char* padding : {"zeros", "border", "reflection"}) {
        for (bool align_corners : {false, true}) {
          for (DType x_dtype : {DType::kFloat32, DType::kFloat64}) {
            for (DType grid_dtype : {DType::kFloat32, DType::kFloat64}) {
              INFO("rank " << rank << " " << mode << " " << padding << " align_corners "
                           << align_corners << " x " << DTypeName(x_dtype) << " grid "
                           << DTypeName(grid_dtype));
              CHECK(present.count(Key(rank, mode, padding, align_corners, x_dtype, grid_dtype)) ==
                    1);
            }
          }
        }
      }
    }
  }
}

// The checks below make sure the suite above can fail: the reader rejects malformed text, and
// the comparison rejects values out of tolerance.

constexpr char kOneCase[] =
    "# a comment\n"
    "case tiny\n"
    "attrs mode=bilinear padding=border align_corners=1\n"
    "x float32 4 1 1 1 2 : 0.1 -inf\n"
    "\n"
    "grid float64 4 1 1 1 2 : 0.30000000000000004 nan\n"
    "y float32 4 1 1 1 1 : 1e+30\n"
    "end\n";

bool Parse(const std::string& text, std::vector<GoldenCase>* cases, std::string* error) {
  std::istringstream in(text);
  return ParseGolden(in, "text", cases, error);
}

TEST_CASE("Golden reader parses every field", "[golden]") {
  std::vector<GoldenCase> cases;
  std::string error;
  REQUIRE(Parse(kOneCase, &cases, &error));
  CHECK(error.empty());
  REQUIRE(cases.size() == 1);
  const GoldenCase& c = cases[0];
  CHECK(c.name == "tiny");
  CHECK(c.where == "text:2");
  CHECK(c.mode == "bilinear");
  CHECK(c.padding == "border");
  CHECK(c.align_corners);
  CHECK(c.x.dtype() == DType::kFloat32);
  CHECK(c.x.shape() == std::vector<int64_t>{1, 1, 1, 2});
  // float32 values are parsed as float32, not rounded from double.
  CHECK(c.x.Get(0) == static_cast<double>(0.1f));
  CHECK(c.x.Get(1) == -std::numeric_limits<double>::infinity());
  CHECK(c.grid.dtype() == DType::kFloat64);
  CHECK(c.grid.Get(0) == 0.1 + 0.2);
  CHECK(std::isnan(c.grid.Get(1)));
  REQUIRE(c.y.size() == 1);
  CHECK(c.y.Get(0) == static_cast<double>(1e30f));
}

TEST_CASE("Golden reader rejects malformed text with the line", "[golden]") {
  const std::string malformed[][2] = {
      {"case a\nattrs mode=linear padding=zeros align_corners=0\n", "text:2: file ends"},
      {"case a\nattrs mode=linear padding=zeros align_corners=2\n", "text:2: align_corners"},
      {"case a\nattrs mode=linear\n", "text:2: expected `attrs"},
      {"cases a\n", "text:1: expected `case"},
      {std::string(kOneCase) + kOneCase, "text:10: duplicate case name tiny"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx float32 1 2 : 1\n",
       "text:3: x: 1 values for a shape of 2"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx float32 1 1 : 1x\n",
       "text:3: x: bad value 1x"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx float32 2 1 : 1\n",
       "text:3: x: expected `:`"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx float32 1 -1 : \n",
       "text:3: x: bad dimension -1"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx int8 1 1 : 128\n",
       "text:3: x: bad value 128 for int8"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx floaty 1 1 : 1\n",
       "text:3: x: unknown dtype floaty"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx float32 1 1 : 1\n"
       "grid float32 1 1 : 1\ny float64 1 1 : 1\n",
       "text:5: y's dtype differs"},
      {"case a\nattrs mode=linear padding=zeros align_corners=0\nx float32 1 1 : 1\n"
       "grid float32 1 1 : 1\ny float32 1 1 : 1\nend now\n",
       "text:6: expected `end`"},
  };
  for (const auto& [text, message] : malformed) {
    std::vector<GoldenCase> cases;
    std::string error;
    INFO(text);
    CHECK_FALSE(Parse(text, &cases, &error));
    INFO(error);
    CHECK(error.rfind(message, 0) == 0);
  }
  std::vector<GoldenCase> cases;
  std::string error;
  CHECK_FALSE(LoadGoldenFile(GRIDSAMPLE_TEST_DATA_DIR "/no_such_file.txt", &cases, &error));
  CHECK(error.find("cannot open") != std::string::npos);
}

TEST_CASE("Golden comparison rejects values out of tolerance", "[golden]") {
  const Tolerance tol = GoldenTolerance(DType::kFloat32);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(WithinTolerance(1.0 + 1.9e-5, 1.0, tol));
  CHECK_FALSE(WithinTolerance(1.0 + 2.1e-5, 1.0, tol));
  CHECK(WithinTolerance(0.9e-5, 0.0, tol));
  CHECK_FALSE(WithinTolerance(1.1e-5, 0.0, tol));
  CHECK(WithinTolerance(nan, nan, tol));
  CHECK_FALSE(WithinTolerance(nan, 0.0, tol));
  CHECK_FALSE(WithinTolerance(0.0, nan, tol));
  CHECK(WithinTolerance(-inf, -inf, tol));
  CHECK_FALSE(WithinTolerance(inf, 1e300, tol));
  CHECK_FALSE(WithinTolerance(1.0 + 3e-12, 1.0, GoldenTolerance(DType::kFloat64)));

  // A case whose expected value is wrong is reported, once per implementation.
  std::vector<GoldenCase> cases;
  std::string error;
  REQUIRE(
      Parse("case wrong\nattrs mode=linear padding=zeros align_corners=1\n"
            "x float32 3 1 1 2 : 1 3\ngrid float32 3 1 1 1 : 0\ny float32 3 1 1 1 : 2.5\n"
            "end\n",
            &cases, &error));
  Mismatches mismatches;
  RunGoldenCase(cases[0], tol, &mismatches);
  INFO(mismatches.Report());
  CHECK(mismatches.count() == ImplementationsUnderTest().size());
  CHECK(mismatches.Report().find("wrong (text:1), GridSample(num_threads=1): element 0 is 2,") !=
        std::string::npos);
}

}  // namespace
}  // namespace test
}  // namespace gridsample
