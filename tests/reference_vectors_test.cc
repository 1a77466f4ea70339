// The reference vectors of tests/data/reference_vectors.txt (every dtype, ranks 1-4, every mode x
// padding x align_corners; written by bindings/tools/gen_vectors.cc from the native scalar
// reference) through GridSample and ReferenceGridSample, with the tolerances the JS suite
// (tests/js/vectors.test.mjs) allows the WebAssembly build on the same file: both builds must
// agree with the one file.
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"
#include "tests/golden_check.h"
#include "tests/golden_file.h"

namespace gridsample {
namespace test {
namespace {

constexpr int kRanks[] = {1, 2, 3, 4};
constexpr const char* kModes[] = {"linear", "nearest", "cubic"};
constexpr const char* kPaddings[] = {"zeros", "border", "reflection"};

std::vector<GoldenCase> LoadVectors() {
  std::vector<GoldenCase> cases;
  std::string error;
  const bool loaded =
      LoadGoldenFile(GRIDSAMPLE_TEST_DATA_DIR "/reference_vectors.txt", &cases, &error);
  INFO(error);
  REQUIRE(loaded);
  return cases;
}

// Whether a configuration is in the file: every one, except that strings only have nearest
// (the generator's rule; no other mode accepts them).
bool Generated(const DTypeInfo& info, const std::string& mode) {
  return info.kind != Conversion::kString || mode == "nearest";
}

size_t ExpectedCaseCount() {
  size_t count = 0;
  for (const DTypeInfo& info : AllDTypes()) {
    for (const char* mode : kModes) {
      if (Generated(info, mode)) count += std::size(kRanks) * std::size(kPaddings) * 2;
    }
  }
  return count;
}

// Nearest copies elements, so its output must be identical to the reference's; the other modes
// may differ as a fast path may from the reference (AgreesWithReference), as in the JS suite.
ElementCheck CheckFor(const GoldenCase& c) {
  if (c.mode == "nearest") {
    return [](const AnyTensor& actual, const AnyTensor& expected, size_t i) {
      return actual.SameElement(i, expected, i);
    };
  }
  return [](const AnyTensor& actual, const AnyTensor& expected, size_t i) {
    return AgreesWithReference(actual, expected, i);
  };
}

TEST_CASE("Reference vectors cover every dtype, rank, mode, padding and alignment once",
          "[vectors]") {
  const std::vector<GoldenCase> cases = LoadVectors();
  using Key = std::tuple<DType, size_t, std::string, std::string, bool>;
  std::map<Key, int> seen;
  std::map<DType, int> grid_dtypes;
  for (const GoldenCase& c : cases) {
    ++seen[Key(c.x.dtype(), c.x.shape().size() - 2, c.mode, c.padding, c.align_corners)];
    ++grid_dtypes[c.grid.dtype()];
  }
  CHECK(cases.size() == ExpectedCaseCount());
  for (const DTypeInfo& info : AllDTypes()) {
    for (size_t rank : kRanks) {
      for (const char* mode : kModes) {
        if (!Generated(info, mode)) continue;
        for (const char* padding : kPaddings) {
          for (bool align_corners : {false, true}) {
            INFO(info.name << " rank " << rank << " " << mode << " " << padding << " align_corners "
                           << align_corners);
            CHECK(seen[Key(info.dtype, rank, mode, padding, align_corners)] == 1);
          }
        }
      }
    }
  }
  // The grid's dtype takes turns over every grid dtype.
  CHECK(grid_dtypes.size() == GridDTypes().size());
  for (DType dtype : GridDTypes()) {
    INFO("grid dtype " << DTypeName(dtype));
    CHECK(grid_dtypes[dtype] > 0);
  }
}

TEST_CASE("Reference vectors match GridSample and ReferenceGridSample", "[vectors]") {
  const std::vector<GoldenCase> cases = LoadVectors();
  REQUIRE(cases.size() == ExpectedCaseCount());
  Mismatches mismatches;
  size_t compared = 0;
  for (const GoldenCase& c : cases) compared += RunGoldenCase(c, CheckFor(c), &mismatches);
  INFO(mismatches.Report());
  // Every output of every case went through the comparison, element by element.
  CHECK(compared == cases.size() * ImplementationsUnderTest().size());
  CHECK(mismatches.count() == 0);
}

// The checks below make sure the suite above can fail: a wrong expected value of any dtype is
// reported, and the reader takes each dtype's spelling exactly and rejects malformed values.

// Moves element i of *t out of any tolerance of its dtype.
void Corrupt(AnyTensor* t, size_t i) {
  const auto moved = [](double v) {
    return std::isfinite(v) && std::fabs(v) < 1000 ? v + 100 : 0.5;
  };
  switch (t->info().kind) {
    case Conversion::kString:
      t->SetString(i, t->String(i) + "?");
      return;
    case Conversion::kBool:
      t->SetBits(i, t->Bits(i) == 0 ? 1 : 0);
      return;
    case Conversion::kInt:  // the second-highest bit: a change of a quarter of the range
      t->SetBits(i, t->Bits(i) ^ (uint64_t{1} << (t->info().size * 8 - 2)));
      return;
    case Conversion::kComplex:
      t->SetComplex(i, {moved(t->Complex(i).real()), t->Complex(i).imag()});
      return;
    default:
      t->Set(i, moved(t->Get(i)));
  }
}

TEST_CASE("Reference vectors: a wrong expected value fails its case, in every dtype and mode",
          "[vectors]") {
  const std::vector<GoldenCase> cases = LoadVectors();
  std::map<std::tuple<DType, std::string>, bool> tried;
  for (const GoldenCase& c : cases) {
    if (tried[{c.x.dtype(), c.mode}]) continue;
    tried[{c.x.dtype(), c.mode}] = true;
    GoldenCase wrong = c;
    const size_t last = wrong.y.size() - 1;
    Corrupt(&wrong.y, last);
    INFO(c.name << ": element " << last << " " << c.y.Describe(last) << " made "
                << wrong.y.Describe(last));
    Mismatches mismatches;
    CHECK(RunGoldenCase(wrong, CheckFor(wrong), &mismatches) == ImplementationsUnderTest().size());
    INFO(mismatches.Report());
    CHECK(mismatches.count() == ImplementationsUnderTest().size());
  }
  CHECK(tried.size() == ExpectedCaseCount() / (std::size(kRanks) * std::size(kPaddings) * 2));
}

// Element 0 of a one-element tensor of `dtype` read from `token`; false when the reader rejects it.
bool ReadElement(DType dtype, const std::string& token, AnyTensor* t) {
  *t = AnyTensor(dtype, {1});
  return golden_internal::ParseElement(token, t, 0);
}

TEST_CASE("Vector reader reads each dtype's spelling exactly", "[vectors]") {
  AnyTensor t(DType::kFloat32, {1});
  REQUIRE(ReadElement(DType::kInt64, "-9223372036854775808", &t));
  CHECK(t.Int(0) == std::numeric_limits<int64_t>::min());
  REQUIRE(ReadElement(DType::kInt64, "9007199254740993", &t));  // 2^53 + 1: not via double
  CHECK(t.Int(0) == 9007199254740993);
  REQUIRE(ReadElement(DType::kUInt64, "18446744073709551615", &t));
  CHECK(t.UInt(0) == std::numeric_limits<uint64_t>::max());
  REQUIRE(ReadElement(DType::kInt8, "-128", &t));
  CHECK(t.Int(0) == -128);
  REQUIRE(ReadElement(DType::kUInt16, "65535", &t));
  CHECK(t.UInt(0) == 65535);
  REQUIRE(ReadElement(DType::kFloat16, "0x3c00", &t));
  CHECK(t.Bits(0) == 0x3c00);
  CHECK(t.Get(0) == 1.0);
  REQUIRE(ReadElement(DType::kBFloat16, "0x7fc1", &t));  // a NaN's payload survives
  CHECK(t.Bits(0) == 0x7fc1);
  REQUIRE(ReadElement(DType::kBool, "2", &t));
  CHECK(t.Bits(0) == 2);
  REQUIRE(ReadElement(DType::kFloat32, "0.1", &t));
  CHECK(t.Get(0) == static_cast<double>(0.1f));
  REQUIRE(ReadElement(DType::kFloat64, "-inf", &t));
  CHECK(t.Get(0) == -std::numeric_limits<double>::infinity());
  REQUIRE(ReadElement(DType::kComplex64, "0.1,-2", &t));
  CHECK(t.Complex(0) == std::complex<double>(static_cast<double>(0.1f), -2.0));
  REQUIRE(ReadElement(DType::kComplex128, "0.1,1e+300", &t));
  CHECK(t.Complex(0) == std::complex<double>(0.1, 1e300));
  REQUIRE(ReadElement(DType::kComplex128, "nan,inf", &t));
  CHECK(std::isnan(t.Complex(0).real()));
  CHECK(t.Complex(0).imag() == std::numeric_limits<double>::infinity());

  const std::string strings[][2] = {
      {R"("")", ""},
      {R"("with\u0020space")", "with space"},
      {R"("quote\"")", "quote\""},
      {R"("back\\slash\/")", "back\\slash/"},
      {R"("tab\t\n\r\b\f")", "tab\t\n\r\b\f"},
      {R"("\u03b1\u03B2")", "\xce\xb1\xce\xb2"},
      {R"("\u20ac")", "\xe2\x82\xac"},
      {R"("\ud83d\ude00")", "\xf0\x9f\x98\x80"},
  };
  for (const auto& [token, text] : strings) {
    INFO(token);
    REQUIRE(ReadElement(DType::kString, token, &t));
    CHECK(t.String(0) == text);
  }
}

TEST_CASE("Vector reader rejects malformed values of each dtype", "[vectors]") {
  const std::pair<DType, const char*> malformed[] = {
      {DType::kInt8, "128"},
      {DType::kInt8, "-129"},
      {DType::kInt8, "1.5"},
      {DType::kInt32, "+1"},
      {DType::kInt32, "1e3"},
      {DType::kUInt8, "256"},
      {DType::kUInt8, "-1"},
      {DType::kUInt64, "-1"},
      {DType::kUInt64, "18446744073709551616"},
      {DType::kInt64, "9223372036854775808"},
      {DType::kBool, "256"},
      {DType::kBool, "true"},
      {DType::kFloat16, "0x3C00"},
      {DType::kFloat16, "0x3c0"},
      {DType::kFloat16, "1.0"},
      {DType::kBFloat16, "0x3f800"},
      {DType::kFloat32, "1x"},
      {DType::kFloat64, ""},
      {DType::kComplex64, "1.5"},
      {DType::kComplex64, "1,2,3"},
      {DType::kComplex128, ",1"},
      {DType::kString, "abc"},
      {DType::kString, "\""},
      {DType::kString, R"("a"b")"},
      {DType::kString, R"("\")"},
      {DType::kString, R"("\x41")"},
      {DType::kString, R"("\u12")"},
      {DType::kString, R"("\ud83d")"},
      {DType::kString, R"("\ude00")"},
      {DType::kString, R"("\ud83d\u0041")"},
      {DType::kString, "\"tab\there\""},
  };
  for (const auto& [dtype, token] : malformed) {
    INFO(DTypeName(dtype) << " " << token);
    AnyTensor t(dtype, {1});
    CHECK_FALSE(ReadElement(dtype, token, &t));
  }
}

TEST_CASE("Vector reader runs a string case with a float16 grid end to end", "[vectors]") {
  std::istringstream in(
      "case strings\n"
      "attrs mode=nearest padding=border align_corners=1\n"
      "x string 3 1 1 3 : \"a\\u0020b\" \"\" \"\\ud83d\\ude00\"\n"
      "grid float16 3 1 2 1 : 0x3c00 0xbc00\n"
      "y string 3 1 1 2 : \"\\ud83d\\ude00\" \"a\\u0020b\"\n"
      "end\n");
  std::vector<GoldenCase> cases;
  std::string error;
  REQUIRE(ParseGolden(in, "text", &cases, &error));
  REQUIRE(cases.size() == 1);
  Mismatches mismatches;
  CHECK(RunGoldenCase(cases[0], CheckFor(cases[0]), &mismatches) ==
        ImplementationsUnderTest().size());
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

}  // namespace
}  // namespace test
}  // namespace gridsample
