// Every tensor type of the registry through GridSample and ReferenceGridSample (docs/semantics.md,
// "Types"): values in (half and bfloat16 bits, integers, bool bytes), interpolation in float32
// or float64, and back like ONNX Cast (truncate toward zero, saturate, round half to even);
// complex parts, strings, low-precision grids, the typed overload and the dtype names.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "any_tensor.h"
#include "gridsample/gridsample.h"
#include "reference.h"

namespace gridsample {
namespace {

using test::AllDTypes;
using test::AnyTensor;
using test::CompareResults;
using test::DTypeInfo;
using test::GridDTypes;
using test::MakeTensor;
using test::Mismatches;
using test::Results;
using test::RunBoth;

std::string Describe(DType x, DType grid, const Options& o) {
  return std::string("x ") + DTypeName(x) + ", grid " + DTypeName(grid) + ", " +
         test::OptionsText(o);
}

Options Make(Mode mode, Padding padding = Padding::kZeros, bool align_corners = false) {
  Options o;
  o.mode = mode;
  o.padding = padding;
  o.align_corners = align_corners;
  return o;
}

// Sets element i of an expected output from the exact real result v of the interpolation:
// ONNX Cast for integers and bool, round to nearest even for half/bfloat16, (v, -v/2) for
// complex (the inputs' imaginary parts are -1/2 of their real parts, and sampling is linear).
void SetExpected(AnyTensor* expected, size_t i, double v) {
  if (expected->info().kind == Conversion::kComplex) {
    expected->SetComplex(i, {v, -v / 2});
  } else {
    expected->SetCast(i, v);
  }
}

// Sets input element i to v (exactly representable in every numeric dtype used here).
void SetInput(AnyTensor* x, size_t i, double v) {
  if (x->info().kind == Conversion::kComplex) {
    x->SetComplex(i, {v, -v / 2});
  } else {
    x->Set(i, v);
  }
}

// ---------------------------------------------------------------------------------------------
// A known case for every X dtype with every grid dtype.

// X = (1, 1, 4), align_corners = 0, zeros padding: p = ((g + 1) * 4 - 1) / 2.
struct KnownCase {
  Mode mode;
  std::vector<double> grid;
  std::vector<double> numeric;  // from X = {2, 4, 6, 8}
  std::vector<double> boolean;  // from X = {true, false, true, false}
  std::vector<int> index;       // nearest: the element copied, -1 for zeros padding
};

const std::vector<KnownCase>& KnownCases() {
  static const std::vector<KnownCase> cases = {
      // p = 0, 3, 2, 0.5 (ties to 0), 1.5 (ties to 2), 2.5 (ties to 2), 5.5 (outside).
      {Mode::kNearest,
       {-0.75, 0.75, 0.25, -0.5, 0.0, 0.5, 2.0},
       {2, 8, 6, 2, 6, 6, 0},
       {1, 0, 1, 1, 1, 1, 0},
       {0, 3, 2, 0, 2, 2, -1}},
      // p = 0, 3, 0.5, 1.5, 2.5, 3.5 (half outside), -0.5 (half outside).
      {Mode::kLinear,
       {-0.75, 0.75, -0.5, 0.0, 0.5, 1.0, -1.0},
       {2, 8, 3, 5, 7, 4, 1},
       {1, 0, 1, 1, 1, 0, 1},
       {}},
      // p = 1, 1.5, 2, 0.5, 2.5; weights at t = 0: (0, 1, 0, 0), at t = 0.5:
      // (-0.09375, 0.59375, 0.59375, -0.09375). 7.9375 truncates to 7 for integers; at p = 1
      // the true neighbours of a false element have weight exactly 0.
      {Mode::kCubic, {-0.25, 0.0, 0.25, -0.5, 0.5}, {4, 5, 6, 3, 7.9375}, {0, 1, 1, 1, 1}, {}},
  };
  return cases;
}

const char* const kStrings[4] = {"zero", "",
                                 "a string long enough to live outside the small buffer", "3"};

TEST_CASE("every X dtype with every grid dtype samples a known 1-D case", "[dtype]") {
  Mismatches mismatches;
  int configurations = 0;
  for (const DTypeInfo& xi : AllDTypes()) {
    for (DType grid_dtype : GridDTypes()) {
      for (const KnownCase& c : KnownCases()) {
        if (xi.kind == Conversion::kString && c.mode != Mode::kNearest) continue;
        AnyTensor x(xi.dtype, {1, 1, 4});
        for (size_t i = 0; i < 4; ++i) {
          if (xi.kind == Conversion::kString) {
            x.SetString(i, kStrings[i]);
          } else if (xi.kind == Conversion::kBool) {
            x.Set(i, i % 2 == 0 ? 1 : 0);
          } else {
            SetInput(&x, i, 2.0 * (i + 1));
          }
        }
        const int64_t n = static_cast<int64_t>(c.grid.size());
        const AnyTensor grid = MakeTensor(grid_dtype, {1, n, 1}, c.grid);
        AnyTensor expected(xi.dtype, {1, 1, n});
        for (size_t i = 0; i < c.grid.size(); ++i) {
          if (xi.kind == Conversion::kString) {
            expected.SetString(i, c.index[i] < 0 ? "" : kStrings[c.index[i]]);
          } else if (xi.kind == Conversion::kBool) {
            expected.Set(i, c.boolean[i]);
          } else {
            SetExpected(&expected, i, c.numeric[i]);
          }
        }
        const Options o = Make(c.mode);
        CompareResults(RunBoth(x, grid, o), expected, Describe(xi.dtype, grid_dtype, o),
                       &mismatches);
        ++configurations;
      }
    }
  }
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
  // Three modes per pair, but strings only with nearest.
  const size_t pairs = AllDTypes().size() * GridDTypes().size();
  CHECK(configurations == static_cast<int>(3 * pairs - 2 * GridDTypes().size()));
}

TEST_CASE("the grid dtypes are float32 float64 float16 and bfloat16", "[dtype]") {
  CHECK(GridDTypes() ==
        std::vector<DType>{DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kBFloat16});
}

// X = (2, 2, 2, 3) holding code = 1 + w + 3h + 6c + 12n; align_corners = 1, so
// p_w = g_x + 1 and p_h = (g_y + 1) / 2. Bilinear sampling reproduces the affine code.
TEST_CASE("every X dtype with every grid dtype samples a 2-D batch with channels", "[dtype]") {
  const std::vector<double> grid_values = {0.0, 0.0,  -0.5, 1.0,   // n = 0
                                           1.0, -1.0, 0.5,  0.0};  // n = 1
  // (p_w, p_h) of the four points, per n.
  const double pw[2][2] = {{1.0, 0.5}, {2.0, 1.5}};
  const double ph[2][2] = {{0.5, 1.0}, {0.0, 0.5}};
  Mismatches mismatches;
  for (const DTypeInfo& xi : AllDTypes()) {
    AnyTensor x(xi.dtype, {2, 2, 2, 3});
    for (int n = 0; n < 2; ++n) {
      for (int c = 0; c < 2; ++c) {
        for (int h = 0; h < 2; ++h) {
          for (int w = 0; w < 3; ++w) {
            const size_t i = static_cast<size_t>(((n * 2 + c) * 2 + h) * 3 + w);
            const int code = 1 + w + 3 * h + 6 * c + 12 * n;
            if (xi.kind == Conversion::kString) {
              x.SetString(i, "s" + std::to_string(code));
            } else if (xi.kind == Conversion::kBool) {
              x.Set(i, code % 2);
            } else {
              SetInput(&x, i, code);
            }
          }
        }
      }
    }
    for (DType grid_dtype : GridDTypes()) {
      const AnyTensor grid = MakeTensor(grid_dtype, {2, 1, 2, 2}, grid_values);
      for (Mode mode : {Mode::kNearest, Mode::kLinear}) {
        if (mode == Mode::kLinear &&
            (xi.kind == Conversion::kString || xi.kind == Conversion::kBool)) {
          continue;
        }
        AnyTensor expected(xi.dtype, {2, 2, 1, 2});
        for (int n = 0; n < 2; ++n) {
          for (int c = 0; c < 2; ++c) {
            for (int k = 0; k < 2; ++k) {
              const size_t i = static_cast<size_t>((n * 2 + c) * 2 + k);
              double w = pw[n][k], h = ph[n][k];
              if (mode == Mode::kNearest) {
                w = std::nearbyint(w);
                h = std::nearbyint(h);
              }
              const double code = 1 + w + 3 * h + 6 * c + 12 * n;
              if (xi.kind == Conversion::kString) {
                expected.SetString(i, "s" + std::to_string(static_cast<int>(code)));
              } else if (xi.kind == Conversion::kBool) {
                expected.Set(i, static_cast<int>(code) % 2);
              } else {
                SetExpected(&expected, i, code);
              }
            }
          }
        }
        const Options o = Make(mode, Padding::kZeros, true);
        CompareResults(RunBoth(x, grid, o), expected, Describe(xi.dtype, grid_dtype, o),
                       &mismatches);
      }
    }
  }
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

// ---------------------------------------------------------------------------------------------
// Integers: ONNX Cast on the way back.

// X = (1, 1, 2) = {a, b}, linear, align_corners = 1: p = (g + 1) / 2, the result a + p (b - a).
Results TwoTaps(const AnyTensor& x, double g, DType grid_dtype = DType::kFloat32,
                Mode mode = Mode::kLinear) {
  return RunBoth(x, MakeTensor(grid_dtype, {1, 1, 1}, {g}), Make(mode, Padding::kZeros, true));
}

bool IsInt(const DTypeInfo& info) { return info.kind == Conversion::kInt; }

TEST_CASE("integer X truncates the interpolated value toward zero", "[dtype]") {
  struct Case {
    double a, b, g;  // result a + (g + 1) / 2 * (b - a)
    double exact;
    bool needs_sign;
  };
  const Case cases[] = {
      {2, 3, 0.5, 2.75, false},    {2, 3, -0.5, 2.25, false}, {3, 2, 0.5, 2.25, false},
      {3, 2, -0.5, 2.75, false},   {0, 1, 0.0, 0.5, false},   {-2, -3, 0.5, -2.75, true},
      {-2, -3, -0.5, -2.25, true}, {0, -1, 0.0, -0.5, true},  {-3, 2, 0.5, 0.75, true},
      {-3, 2, -0.5, -1.75, true},
  };
  Mismatches mismatches;
  for (const DTypeInfo& xi : AllDTypes()) {
    if (!IsInt(xi)) continue;
    for (DType grid_dtype : GridDTypes()) {
      for (const Case& c : cases) {
        if (c.needs_sign && !xi.is_signed) continue;
        const AnyTensor x = MakeTensor(xi.dtype, {1, 1, 2}, {c.a, c.b});
        AnyTensor expected(xi.dtype, {1, 1, 1});
        expected.Set(0, std::trunc(c.exact));
        CompareResults(TwoTaps(x, c.g, grid_dtype), expected,
                       Describe(xi.dtype, grid_dtype, Make(Mode::kLinear)) + ", " +
                           std::to_string(c.a) + " to " + std::to_string(c.b) + " at " +
                           std::to_string(c.exact),
                       &mismatches);
      }
    }
  }
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

// X = (1, 1, 4) = {lo, lo, hi, hi} with the type's extremes; cubic, border, align_corners = 0.
// p = 2.5: 1.09375 hi - 0.09375 lo overshoots hi → hi. p = 0.5: 1.09375 lo - 0.09375 hi
// undershoots lo → lo. p = 1.5: (lo + hi) / 2 (computed in the compute type, where the 64-bit
// extremes round to ±2^63 and 2^64), truncated.
TEST_CASE("integer X saturates a cubic overshoot at the type's range", "[dtype]") {
  Mismatches mismatches;
  for (const DTypeInfo& xi : AllDTypes()) {
    if (!IsInt(xi)) continue;
    const int64_t lo = test::IntMin(xi);
    const uint64_t hi = test::IntMax(xi);
    AnyTensor x(xi.dtype, {1, 1, 4});
    x.SetInt(0, lo);
    x.SetInt(1, lo);
    x.SetBits(2, hi);
    x.SetBits(3, hi);
    // The midpoint, exactly (integer division truncates toward zero, as the cast does): the
    // weights of lo and hi at p = 1.5 sum to exactly one half each. For uint64 it is
    // 2^63 - 1/2, below the 2^63 a float64 sum would round to.
    const __int128 mid = (static_cast<__int128>(lo) + static_cast<__int128>(hi)) / 2;
    for (DType grid_dtype : GridDTypes()) {
      const AnyTensor grid = MakeTensor(grid_dtype, {1, 3, 1}, {0.5, -0.5, 0.0});
      AnyTensor expected(xi.dtype, {1, 1, 3});
      expected.SetBits(0, hi);
      expected.SetInt(1, lo);
      if (mid < 0) {
        expected.SetInt(2, static_cast<int64_t>(mid));
      } else {
        expected.SetBits(2, static_cast<uint64_t>(mid));
      }
      const Options o = Make(Mode::kCubic, Padding::kBorder);
      CompareResults(RunBoth(x, grid, o), expected, Describe(xi.dtype, grid_dtype, o), &mismatches);

      // Linear and nearest at the extremes themselves: hi of a 64-bit type is not a double
      // (it rounds up to 2^63 or 2^64) and must saturate back to hi, not wrap.
      for (Mode mode : {Mode::kLinear, Mode::kNearest}) {
        const AnyTensor grid2 = MakeTensor(grid_dtype, {1, 3, 1}, {-0.75, 0.75, 0.5});
        AnyTensor expected2(xi.dtype, {1, 1, 3});
        expected2.SetInt(0, lo);
        expected2.SetBits(1, hi);
        expected2.SetBits(2, hi);  // p = 2.5: linear between hi and hi; nearest ties to 2
        const Options o2 = Make(mode);
        CompareResults(RunBoth(x, grid2, o2), expected2, Describe(xi.dtype, grid_dtype, o2),
                       &mismatches);
      }
    }
  }
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

TEST_CASE("uint8 cubic overshoot of 250s next to 0s saturates to 255 and 0", "[dtype]") {
  // Cubic, border: p = 2.5 gives 1.09375 * 250 = 273.4375 → 255; p = 0.5 gives
  // -0.09375 * 250 = -23.4375 → 0 (not 233: no wrap-around); p = 1.5 gives 125.
  // int8 {-120, -120, 120, 120}: ±(1.09375 * 120 + 0.09375 * 120) = ±142.5 → 127 / -128.
  for (DType grid_dtype : GridDTypes()) {
    const AnyTensor grid = MakeTensor(grid_dtype, {1, 3, 1}, {0.5, -0.5, 0.0});
    const Options o = Make(Mode::kCubic, Padding::kBorder);
    {
      const AnyTensor x = MakeTensor(DType::kUInt8, {1, 1, 4}, {0, 0, 250, 250});
      const Results r = RunBoth(x, grid, o);
      REQUIRE(r.fast_status.ok());
      REQUIRE(r.ref_status.ok());
      for (const AnyTensor* y : {&r.fast, &r.ref}) {
        CHECK(y->UInt(0) == 255);
        CHECK(y->UInt(1) == 0);
        CHECK(y->UInt(2) == 125);
      }
    }
    {
      const AnyTensor x = MakeTensor(DType::kInt8, {1, 1, 4}, {-120, -120, 120, 120});
      const Results r = RunBoth(x, grid, o);
      REQUIRE(r.fast_status.ok());
      REQUIRE(r.ref_status.ok());
      for (const AnyTensor* y : {&r.fast, &r.ref}) {
        CHECK(y->Int(0) == 127);
        CHECK(y->Int(1) == -128);
        CHECK(y->Int(2) == 0);
      }
    }
  }
}

TEST_CASE("int64 and uint64 X keep big values exact where float64 holds them", "[dtype]") {
  const int64_t p62 = int64_t{1} << 62;
  const int64_t min64 = std::numeric_limits<int64_t>::min();
  const uint64_t p63 = uint64_t{1} << 63;
  const uint64_t max64 = std::numeric_limits<uint64_t>::max();
  // Linear at p = 0.5 (g = 0) and p = 0.75 (g = 0.5); every input and result is a double.
  SECTION("int64") {
    struct Case {
      int64_t a, b;
      double g;
      int64_t expected;
    };
    const Case cases[] = {
        {p62, p62 + 2048, 0.0, p62 + 1024},
        {min64, min64 + 2048, 0.0, min64 + 1024},
        {-p62, p62, 0.5, p62 / 2},
        {min64, min64, 0.0, min64},
        {(int64_t{1} << 53) + 2, (int64_t{1} << 53) + 6, 0.0, (int64_t{1} << 53) + 4},
        {-(int64_t{1} << 53) - 2, -(int64_t{1} << 53) - 6, 0.0, -(int64_t{1} << 53) - 4},
    };
    for (const Case& c : cases) {
      AnyTensor x(DType::kInt64, {1, 1, 2});
      x.SetInt(0, c.a);
      x.SetInt(1, c.b);
      for (DType grid_dtype : {DType::kFloat32, DType::kFloat64}) {
        const Results r = TwoTaps(x, c.g, grid_dtype);
        REQUIRE(r.fast_status.ok());
        REQUIRE(r.ref_status.ok());
        CAPTURE(c.a, c.b, c.g);
        CHECK(r.fast.Int(0) == c.expected);
        CHECK(r.ref.Int(0) == c.expected);
      }
    }
  }
  SECTION("uint64") {
    struct Case {
      uint64_t a, b;
      double g;
      uint64_t expected;
    };
    const Case cases[] = {
        // (2^63 + 2^64 - 2^12) / 2 = 3 * 2^62 - 2^11, a multiple of the spacing 2^11.
        {p63, max64 - 4095, 0.0, 3 * (uint64_t{1} << 62) - 2048},
        // The largest double below 2^64 converts back exactly (above INT64_MAX).
        {max64 - 2047, max64 - 2047, 0.0, max64 - 2047},
        {0, p63, 0.5, 3 * (uint64_t{1} << 61)},
        {0, p63, 0.0, p63 / 2},
    };
    for (const Case& c : cases) {
      AnyTensor x(DType::kUInt64, {1, 1, 2});
      x.SetBits(0, c.a);
      x.SetBits(1, c.b);
      for (DType grid_dtype : {DType::kFloat32, DType::kFloat64}) {
        const Results r = TwoTaps(x, c.g, grid_dtype);
        REQUIRE(r.fast_status.ok());
        REQUIRE(r.ref_status.ok());
        CAPTURE(c.a, c.b, c.g);
        CHECK(r.fast.UInt(0) == c.expected);
        CHECK(r.ref.UInt(0) == c.expected);
      }
    }
  }
  SECTION("nearest copies the extremes of int64 and uint64") {
    const int64_t max_i = std::numeric_limits<int64_t>::max();
    AnyTensor xi(DType::kInt64, {1, 1, 2});
    xi.SetInt(0, min64);
    xi.SetInt(1, max_i);
    AnyTensor xu(DType::kUInt64, {1, 1, 2});
    xu.SetBits(0, max64);
    xu.SetBits(1, 1);
    const AnyTensor grid = MakeTensor(DType::kFloat32, {1, 2, 1}, {-1.0, 1.0});
    const Options o = Make(Mode::kNearest, Padding::kZeros, true);
    const Results ri = RunBoth(xi, grid, o);
    const Results ru = RunBoth(xu, grid, o);
    REQUIRE(ri.fast_status.ok());
    REQUIRE(ru.fast_status.ok());
    for (const AnyTensor* y : {&ri.fast, &ri.ref}) {
      CHECK(y->Int(0) == min64);
      CHECK(y->Int(1) == max_i);
    }
    for (const AnyTensor* y : {&ru.fast, &ru.ref}) {
      CHECK(y->UInt(0) == max64);
      CHECK(y->UInt(1) == 1);
    }
  }
}

TEST_CASE("32- and 64-bit integer X interpolates in float64 rather than float32", "[dtype]") {
  // 2^24 + 1 is not a float32: a float32 interpolation would give 2^24.
  const int64_t v = (int64_t{1} << 24) + 1;
  for (const DTypeInfo& xi : AllDTypes()) {
    if (!IsInt(xi) || xi.digits < 31) continue;
    CAPTURE(xi.name);
    CHECK(xi.compute_double);
    AnyTensor x(xi.dtype, {1, 1, 2});
    x.SetInt(0, v);
    x.SetInt(1, v + 2);
    for (DType grid_dtype : GridDTypes()) {
      const Results r = TwoTaps(x, 0.0, grid_dtype);  // p = 0.5
      REQUIRE(r.fast_status.ok());
      REQUIRE(r.ref_status.ok());
      CHECK(r.fast.Int(0) == v + 1);
      CHECK(r.ref.Int(0) == v + 1);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// bool.

TEST_CASE("bool X: nonzero is true and exactly zero is false", "[dtype]") {
  // Linear between false and true (align_corners = 1): p = 0.25 → 0.25 → true; p = 0 → the
  // true neighbour has weight 0 → false; p = 1 → true.
  for (DType grid_dtype : GridDTypes()) {
    AnyTensor x(DType::kBool, {1, 1, 2});
    x.SetBits(0, 0);
    x.SetBits(1, 1);
    const AnyTensor grid = MakeTensor(grid_dtype, {1, 4, 1}, {-0.5, -1.0, 1.0, 0.0});
    const Results r = RunBoth(x, grid, Make(Mode::kLinear, Padding::kZeros, true));
    REQUIRE(r.fast_status.ok());
    REQUIRE(r.ref_status.ok());
    for (const AnyTensor* y : {&r.fast, &r.ref}) {
      CAPTURE(DTypeName(grid_dtype));
      CHECK(y->Bits(0) == 1);
      CHECK(y->Bits(1) == 0);
      CHECK(y->Bits(2) == 1);
      CHECK(y->Bits(3) == 1);
    }
  }
}

TEST_CASE("bool X reads any nonzero byte as true and writes 0 or 1", "[dtype]") {
  SECTION("nearest normalises the copied byte") {
    AnyTensor x(DType::kBool, {1, 1, 4});
    const uint64_t bytes[4] = {0x80, 0xFF, 0x02, 0x00};
    for (size_t i = 0; i < 4; ++i) x.SetBits(i, bytes[i]);
    // align_corners = 1: p = (g + 1) * 1.5 → 0, 1, 2, 3.
    const AnyTensor grid = MakeTensor(DType::kFloat32, {1, 4, 1}, {-1.0, -1.0 / 3, 1.0 / 3, 1.0});
    const Results r = RunBoth(x, grid, Make(Mode::kNearest, Padding::kZeros, true));
    REQUIRE(r.fast_status.ok());
    REQUIRE(r.ref_status.ok());
    for (const AnyTensor* y : {&r.fast, &r.ref}) {
      CHECK(y->Bits(0) == 1);
      CHECK(y->Bits(1) == 1);
      CHECK(y->Bits(2) == 1);
      CHECK(y->Bits(3) == 0);
    }
  }
  SECTION("cubic weighs a true byte as 1, whatever its value") {
    // Bytes {19, 3, 0, 0}, cubic at p = 1.5 (g = 0, align_corners = 0): as 1s the taps give
    // -0.09375 + 0.59375 = 0.5 → true; read as raw bytes they would cancel to exactly 0.
    AnyTensor x(DType::kBool, {1, 1, 4});
    x.SetBits(0, 19);
    x.SetBits(1, 3);
    for (DType grid_dtype : GridDTypes()) {
      const Results r = RunBoth(x, MakeTensor(grid_dtype, {1, 1, 1}, {0.0}), Make(Mode::kCubic));
      REQUIRE(r.fast_status.ok());
      REQUIRE(r.ref_status.ok());
      CHECK(r.fast.Bits(0) == 1);
      CHECK(r.ref.Bits(0) == 1);
    }
  }
  SECTION("linear between a false and a 0xFF byte") {
    AnyTensor x(DType::kBool, {1, 1, 2});
    x.SetBits(1, 0xFF);
    const Results r = TwoTaps(x, -0.5);
    REQUIRE(r.fast_status.ok());
    CHECK(r.fast.Bits(0) == 1);
    CHECK(r.ref.Bits(0) == 1);
  }
}

// ---------------------------------------------------------------------------------------------
// float16 and bfloat16 X: float32 inside, round to nearest even on the way back.

struct BitsCase {
  uint16_t a, b;  // X = {a, b} as bits
  double g;       // linear, align_corners = 1: p = (g + 1) / 2
  uint16_t expected;
  bool nan;  // the result must be a NaN (expected is then ignored)
  const char* what;
};

void CheckBitsCases(DType dtype, const std::vector<BitsCase>& cases) {
  const auto is_nan = dtype == DType::kFloat16 ? test::HalfBitsAreNaN : test::BFloat16BitsAreNaN;
  for (const BitsCase& c : cases) {
    AnyTensor x(dtype, {1, 1, 2});
    x.SetBits(0, c.a);
    x.SetBits(1, c.b);
    for (DType grid_dtype : GridDTypes()) {
      const Results r = TwoTaps(x, c.g, grid_dtype);
      INFO(DTypeName(dtype) << " " << c.what << ", grid " << DTypeName(grid_dtype));
      REQUIRE(r.fast_status.ok());
      REQUIRE(r.ref_status.ok());
      for (const AnyTensor* y : {&r.fast, &r.ref}) {
        const uint16_t bits = static_cast<uint16_t>(y->Bits(0));
        INFO("got " << y->Describe(0));
        if (c.nan) {
          CHECK(is_nan(bits));
        } else {
          CHECK(bits == c.expected);
        }
      }
    }
  }
}

TEST_CASE("float16 X rounds the float32 result to nearest even", "[dtype]") {
  CheckBitsCases(
      DType::kFloat16,
      {
          {0x3C00, 0x3C01, 0.0, 0x3C00, false, "1 + 2^-11, a tie: to the even 1"},
          {0x3C01, 0x3C02, 0.0, 0x3C02, false, "1 + 3 * 2^-11, a tie: to the even 1 + 2^-9"},
          {0xBC01, 0xBC02, 0.0, 0xBC02, false, "negative tie: to the even"},
          {0x3C00, 0x3C01, 0.5, 0x3C01, false, "1 + 0.75 * 2^-10: to nearest, up"},
          {0x3C00, 0x3C01, -0.5, 0x3C00, false, "1 + 0.25 * 2^-10: to nearest, down"},
          {0x0001, 0x0003, 0.0, 0x0002, false, "subnormal, exact"},
          {0x0000, 0x0001, 0.0, 0x0000, false, "2^-25, a subnormal tie: to 0"},
          {0x0001, 0x0002, 0.0, 0x0002, false, "1.5 * 2^-24, a subnormal tie: to the even"},
          {0x0002, 0x0003, 0.0, 0x0002, false, "2.5 * 2^-24, a subnormal tie: to the even"},
          {0x8001, 0x8002, 0.0, 0x8002, false, "negative subnormal tie"},
          {0x03FF, 0x0400, 0.0, 0x0400, false, "tie between the largest subnormal and 2^-14"},
          {0x03FF, 0x03FF, 0.5, 0x03FF, false, "largest subnormal"},
          {0x7BFF, 0x7BFF, 0.0, 0x7BFF, false, "largest finite"},
          {0x7C00, 0x3C00, 0.0, 0x7C00, false, "inf stays inf"},
          {0xFC00, 0x3C00, 0.5, 0xFC00, false, "-inf stays -inf"},
          {0x7E00, 0x3C00, 0.0, 0, true, "a quiet NaN stays NaN"},
          {0x7C01, 0x3C00, 0.0, 0, true, "a signalling NaN stays NaN"},
          {0xFE00, 0x3C00, -0.5, 0, true, "a negative NaN stays NaN"},
          {0x7C00, 0xFC00, 0.0, 0, true, "inf - inf is NaN"},
      });
}

TEST_CASE("bfloat16 X rounds the float32 result to nearest even", "[dtype]") {
  CheckBitsCases(
      DType::kBFloat16,
      {
          {0x3F80, 0x3F81, 0.0, 0x3F80, false, "1 + 2^-8, a tie: to the even 1"},
          {0x3F81, 0x3F82, 0.0, 0x3F82, false, "1 + 3 * 2^-8, a tie: to the even 1 + 2^-6"},
          {0xBF81, 0xBF82, 0.0, 0xBF82, false, "negative tie: to the even"},
          {0x3F80, 0x3F81, 0.5, 0x3F81, false, "1 + 0.75 * 2^-7: to nearest, up"},
          {0x3F80, 0x3F81, -0.5, 0x3F80, false, "1 + 0.25 * 2^-7: to nearest, down"},
          {0x0001, 0x0003, 0.0, 0x0002, false, "subnormal, exact"},
          {0x0000, 0x0001, 0.0, 0x0000, false, "a subnormal tie: to 0"},
          {0x0001, 0x0002, 0.0, 0x0002, false, "a subnormal tie: to the even"},
          {0x007F, 0x0080, 0.0, 0x0080, false, "tie between the largest subnormal and 2^-126"},
          {0x7F7F, 0x7F7F, 0.0, 0x7F7F, false, "largest finite"},
          {0x7F80, 0x3F80, 0.0, 0x7F80, false, "inf stays inf"},
          {0xFF80, 0x3F80, 0.5, 0xFF80, false, "-inf stays -inf"},
          {0x7FC0, 0x3F80, 0.0, 0, true, "a quiet NaN stays NaN"},
          {0x7F81, 0x3F80, 0.0, 0, true, "a signalling NaN stays NaN"},
          {0xFFC0, 0x3F80, -0.5, 0, true, "a negative NaN stays NaN"},
          {0x7F80, 0xFF80, 0.0, 0, true, "inf - inf is NaN"},
      });
}

// Cubic, border, align_corners = 0 on X = {0, 0, a, a}: p = 2.5 gives exactly 1.09375 a
// (every product and sum exact in float32).
uint16_t CubicOvershootBits(DType dtype, uint16_t a_bits, bool fast) {
  AnyTensor x(dtype, {1, 1, 4});
  x.SetBits(2, a_bits);
  x.SetBits(3, a_bits);
  const AnyTensor grid = MakeTensor(DType::kFloat32, {1, 1, 1}, {0.5});
  const Results r = RunBoth(x, grid, Make(Mode::kCubic, Padding::kBorder));
  REQUIRE(r.fast_status.ok());
  REQUIRE(r.ref_status.ok());
  return static_cast<uint16_t>((fast ? r.fast : r.ref).Bits(0));
}

TEST_CASE("float16 X overflows to inf from 65520 up (the tie above the largest half)", "[dtype]") {
  for (bool fast : {true, false}) {
    CAPTURE(fast);
    // 1.09375 * 65504 = 71645 → inf.
    CHECK(CubicOvershootBits(DType::kFloat16, 0x7BFF, fast) == 0x7C00);
    CHECK(CubicOvershootBits(DType::kFloat16, 0xFBFF, fast) == 0xFC00);
    // 1.09375 * 59904 = 65520 exactly: the tie between 65504 (odd) and 65536 → inf.
    REQUIRE(test::HalfBitsToFloat(0x7B50) == 59904.0f);
    CHECK(CubicOvershootBits(DType::kFloat16, 0x7B50, fast) == 0x7C00);
    CHECK(CubicOvershootBits(DType::kFloat16, 0xFB50, fast) == 0xFC00);
    // 1.09375 * 59872 = 65485 → 65472 (0x7BFE), finite.
    REQUIRE(test::HalfBitsToFloat(0x7B4F) == 59872.0f);
    CHECK(CubicOvershootBits(DType::kFloat16, 0x7B4F, fast) == 0x7BFE);
  }
}

TEST_CASE("bfloat16 X overflows to inf beyond the float32 range", "[dtype]") {
  for (bool fast : {true, false}) {
    CAPTURE(fast);
    CHECK(CubicOvershootBits(DType::kBFloat16, 0x7F7F, fast) == 0x7F80);
    CHECK(CubicOvershootBits(DType::kBFloat16, 0xFF7F, fast) == 0xFF80);
    // 1.09375 * 2^120 is exact in bfloat16: mantissa 1.0001100b, bits 0x7B80 | 0x0C.
    CHECK(CubicOvershootBits(DType::kBFloat16, 0x7B80, fast) == 0x7B8C);
  }
}

// ---------------------------------------------------------------------------------------------
// complex.

TEST_CASE("complex X interpolates real and imaginary parts independently", "[dtype]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (DType dtype : {DType::kComplex64, DType::kComplex128}) {
    for (DType grid_dtype : GridDTypes()) {
      CAPTURE(DTypeName(dtype), DTypeName(grid_dtype));
      {  // Known values, every mode.
        // X = (1, 2), (3, -4), (5, 6), (-7, 8); align_corners = 0: p = ((g + 1) * 4 - 1) / 2.
        AnyTensor x(dtype, {1, 1, 4});
        const std::complex<double> values[4] = {{1, 2}, {3, -4}, {5, 6}, {-7, 8}};
        for (size_t i = 0; i < 4; ++i) x.SetComplex(i, values[i]);
        struct Case {
          Mode mode;
          double g;
          std::complex<double> expected;
        };
        const Case cases[] = {
            {Mode::kLinear, -0.625, {1.5, 0.5}},  // p = 0.25
            {Mode::kNearest, 0.5, {5, 6}},        // p = 2.5 ties to 2
            // p = 1.5: -0.09375 x0 + 0.59375 x1 + 0.59375 x2 - 0.09375 x3.
            {Mode::kCubic, 0.0, {5.3125, 0.25}},
        };
        for (const Case& c : cases) {
          const Results r = RunBoth(x, MakeTensor(grid_dtype, {1, 1, 1}, {c.g}), Make(c.mode));
          REQUIRE(r.fast_status.ok());
          REQUIRE(r.ref_status.ok());
          CHECK(r.fast.Complex(0) == c.expected);
          CHECK(r.ref.Complex(0) == c.expected);
        }
      }
      {  // A NaN or inf part does not leak into the other part.
        // Linear at p = 0.5 (align_corners = 1, g = 0). Multiplying by a complex weight
        // (w, 0) instead of scaling each part would turn (NaN * 0) into the real part.
        struct Case {
          std::complex<double> a, b;
          double re;
          double im;
        };
        const Case cases[] = {
            {{1, nan}, {3, 5}, 2, nan},
            {{nan, 1}, {3, 5}, nan, 3},
            {{inf, 1}, {1, 3}, inf, 2},
            {{1, -inf}, {1, 3}, 1, -inf},
        };
        for (const Case& c : cases) {
          AnyTensor x(dtype, {1, 1, 2});
          x.SetComplex(0, c.a);
          x.SetComplex(1, c.b);
          const Results r = TwoTaps(x, 0.0, grid_dtype);
          REQUIRE(r.fast_status.ok());
          REQUIRE(r.ref_status.ok());
          for (const AnyTensor* y : {&r.fast, &r.ref}) {
            const std::complex<double> v = y->Complex(0);
            INFO("got " << y->Describe(0));
            if (std::isnan(c.re)) {
              CHECK(std::isnan(v.real()));
            } else {
              CHECK(v.real() == c.re);
            }
            if (std::isnan(c.im)) {
              CHECK(std::isnan(v.imag()));
            } else {
              CHECK(v.imag() == c.im);
            }
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// string.

TEST_CASE("string X with nearest copies the strings", "[dtype]") {
  // X = (1, 1, 2, 3), align_corners = 1: p_w = g_x + 1, p_h = (g_y + 1) / 2.
  const std::vector<std::string> values = {
      "a",
      "",
      "a string long enough to live outside the small buffer, 0123456789",
      "d",
      "\xC3\xA9t\xC3\xA9",
      std::string("nul\0inside", 10)};
  AnyTensor x(DType::kString, {1, 1, 2, 3});
  for (size_t i = 0; i < values.size(); ++i) x.SetString(i, values[i]);
  // (g_x, g_y) → (w, h) with nearest: (1, 1) → (2, 1); (0, -1) → (1, 0); (0.5, -1) → p_w 1.5
  // ties to 2; (-1, 1) → (0, 1); (2, 1) → w 3 outside; (-1, -2) → h -0.5 ties to 0 (inside).
  const std::vector<double> points = {1, 1, 0, -1, 0.5, -1, -1, 1, 2, 1, -1, -2};
  for (DType grid_dtype : GridDTypes()) {
    CAPTURE(DTypeName(grid_dtype));
    const AnyTensor grid = MakeTensor(grid_dtype, {1, 1, 6, 2}, points);
    {  // Zeros padding gives "" outside.
      const Results r = RunBoth(x, grid, Make(Mode::kNearest, Padding::kZeros, true));
      REQUIRE(r.fast_status.ok());
      REQUIRE(r.ref_status.ok());
      const std::vector<std::string> expected = {values[5], values[1], values[2],
                                                 values[3], "",        values[0]};
      for (const AnyTensor* y : {&r.fast, &r.ref}) {
        for (size_t i = 0; i < expected.size(); ++i) CHECK(y->String(i) == expected[i]);
      }
    }
    {  // Border and reflection resolve like for any dtype.
      // (2, 1) → w 3: border clamps to 2, reflection (about 0 and 2) maps to 1.
      for (Padding padding : {Padding::kBorder, Padding::kReflection}) {
        const Results r = RunBoth(x, grid, Make(Mode::kNearest, padding, true));
        REQUIRE(r.fast_status.ok());
        REQUIRE(r.ref_status.ok());
        const std::string& outside = padding == Padding::kBorder ? values[5] : values[4];
        const std::vector<std::string> expected = {values[5], values[1], values[2],
                                                   values[3], outside,   values[0]};
        for (const AnyTensor* y : {&r.fast, &r.ref}) {
          for (size_t i = 0; i < expected.size(); ++i) CHECK(y->String(i) == expected[i]);
        }
      }
    }
  }
}

TEST_CASE("string X overwrites every output string including sentinels", "[dtype]") {
  AnyTensor x(DType::kString, {1, 1, 3});
  x.SetString(0, "first");
  const AnyTensor grid = MakeTensor(DType::kFloat32, {1, 2, 1}, {-1.0, 5.0});
  AnyTensor y(DType::kString, {1, 1, 2});
  y.SetString(0, "sentinel");
  y.SetString(1, "a sentinel long enough to live outside the small buffer, 0123456789");
  const Options o = Make(Mode::kNearest, Padding::kZeros, true);
  REQUIRE(GridSample(x.view(), grid.view(), y.mutable_view(), o).ok());
  CHECK(y.String(0) == "first");
  CHECK(y.String(1).empty());
  AnyTensor y_ref = y;
  y_ref.SetString(1, "sentinel");
  y_ref.SetString(0, "sentinel");
  REQUIRE(ReferenceGridSample(x.view(), grid.view(), y_ref.mutable_view(), o).ok());
  CHECK(y_ref.String(0) == "first");
  CHECK(y_ref.String(1).empty());
}

TEST_CASE("string X with linear or cubic is a kUnsupported error", "[dtype]") {
  AnyTensor x(DType::kString, {1, 1, 2});
  x.SetString(0, "a");
  x.SetString(1, "b");
  const AnyTensor grid = MakeTensor(DType::kFloat32, {1, 1, 1}, {0.0});
  for (Mode mode : {Mode::kLinear, Mode::kCubic}) {
    const char* name = mode == Mode::kLinear ? "linear" : "cubic";
    CAPTURE(name);
    AnyTensor y(DType::kString, {1, 1, 1});
    y.SetString(0, "untouched");
    const Status fast = GridSample(x.view(), grid.view(), y.mutable_view(), Make(mode));
    CHECK(fast.code() == StatusCode::kUnsupported);
    CHECK_THAT(fast.message(), Catch::Contains("mode") && Catch::Contains(name) &&
                                   Catch::Contains("string") && Catch::Contains("nearest"));
    CHECK(y.String(0) == "untouched");
    const Status ref = ReferenceGridSample(x.view(), grid.view(), y.mutable_view(), Make(mode));
    CHECK(ref.code() == StatusCode::kUnsupported);
    CHECK(ref.message() == fast.message());
    CHECK(y.String(0) == "untouched");
  }
}

// ---------------------------------------------------------------------------------------------
// Grids.

// X = float64 ramp {0, 1, 2}, linear, align_corners = 1: p = g + 1 and the output is p itself,
// so it shows the coordinate with the precision the grid value carried.
TEST_CASE("low-precision grids carry their full precision into the coordinate", "[dtype]") {
  const AnyTensor x = MakeTensor(DType::kFloat64, {1, 1, 3}, {0, 1, 2});
  const Options o = Make(Mode::kLinear, Padding::kZeros, true);
  struct Case {
    DType dtype;
    uint64_t bits;  // half/bfloat16 bits; 0 for float32/float64 (value below)
    double value;
    double expected;
  };
  const Case cases[] = {
      {DType::kFloat16, 0xB7FF, 0, 0.5 + std::ldexp(1.0, -12)},  // -(0.5 - 2^-12)
      {DType::kFloat16, 0x3801, 0, 1.5 + std::ldexp(1.0, -11)},  // 0.5 + 2^-11
      {DType::kBFloat16, 0xBEFF, 0, 0.5 + std::ldexp(1.0, -9)},  // -(0.5 - 2^-9)
      {DType::kBFloat16, 0x3F01, 0, 1.5 + std::ldexp(1.0, -8)},  // 0.5 + 2^-8
      {DType::kFloat32, 0, -0.5 + std::ldexp(1.0, -20), 0.5 + std::ldexp(1.0, -20)},
      // float64 grids compute the coordinate in float64: 2^-40 would vanish in float32.
      {DType::kFloat64, 0, -0.5 + std::ldexp(1.0, -40), 0.5 + std::ldexp(1.0, -40)},
  };
  for (const Case& c : cases) {
    AnyTensor grid(c.dtype, {1, 1, 1});
    if (c.bits != 0) {
      grid.SetBits(0, c.bits);
    } else {
      grid.Set(0, c.value);
    }
    const Results r = RunBoth(x, grid, o);
    CAPTURE(DTypeName(c.dtype), c.bits, c.value);
    REQUIRE(r.fast_status.ok());
    REQUIRE(r.ref_status.ok());
    CHECK(r.fast.Get(0) == c.expected);
    CHECK(r.ref.Get(0) == c.expected);
  }
}

TEST_CASE("a 3-D half grid indexes (x y z) as (W H D)", "[dtype]") {
  // X = (1, 1, 2, 3, 4) holding 100 d + 10 h + w; corners with align_corners = 1.
  AnyTensor x(DType::kFloat32, {1, 1, 2, 3, 4});
  for (int d = 0; d < 2; ++d) {
    for (int h = 0; h < 3; ++h) {
      for (int w = 0; w < 4; ++w) {
        x.Set(static_cast<size_t>((d * 3 + h) * 4 + w), 100 * d + 10 * h + w);
      }
    }
  }
  for (DType grid_dtype : GridDTypes()) {
    // (1, -1, -1) → w 3; (-1, 1, -1) → h 2; (-1, -1, 1) → d 1; (0, 0, 0) → (1.5, 1, 0.5).
    const AnyTensor grid =
        MakeTensor(grid_dtype, {1, 1, 1, 4, 3}, {1, -1, -1, -1, 1, -1, -1, -1, 1, 0, 0, 0});
    const Results r = RunBoth(x, grid, Make(Mode::kLinear, Padding::kZeros, true));
    REQUIRE(r.fast_status.ok());
    REQUIRE(r.ref_status.ok());
    for (const AnyTensor* y : {&r.fast, &r.ref}) {
      CAPTURE(DTypeName(grid_dtype));
      CHECK(y->Get(0) == 3);
      CHECK(y->Get(1) == 20);
      CHECK(y->Get(2) == 100);
      CHECK(y->Get(3) == 61.5);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The typed overload of the header.

template <typename T>
T Value(int v) {
  if constexpr (std::is_same<T, std::string>::value) {
    return v == 0 ? std::string() : "v" + std::to_string(v);
  } else if constexpr (std::is_same<T, std::complex<float>>::value ||
                       std::is_same<T, std::complex<double>>::value) {
    return T(static_cast<typename T::value_type>(v), static_cast<typename T::value_type>(-v));
  } else {
    return static_cast<T>(v);
  }
}

TEMPLATE_TEST_CASE("the typed GridSample<T G> overload", "[dtype]", float, double, int8_t, int16_t,
                   int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, std::complex<float>,
                   std::complex<double>, std::string) {
  using T = TestType;
  constexpr bool kIsString = std::is_same<T, std::string>::value;
  STATIC_REQUIRE(DTypeOf<T>::value != DType::kFloat16);
  CHECK(DTypeSize(DTypeOf<T>::value) == sizeof(T));
  const std::vector<T> x = {Value<T>(2), Value<T>(4), Value<T>(6), Value<T>(8)};
  const std::vector<int64_t> x_shape = {1, 1, 4};
  const std::vector<int64_t> grid_shape = {1, 3, 1};
  auto run = [&](auto grid_tag) {
    using G = decltype(grid_tag);
    CAPTURE(DTypeName(DTypeOf<G>::value));
    // Nearest (align_corners = 0): p = 0, 3, 5.5 (outside: zero / "").
    {
      const std::vector<G> grid = {G(-0.75), G(0.75), G(2)};
      std::vector<int64_t> y_shape;
      std::vector<T> y;
      Options o;
      o.mode = Mode::kNearest;
      const Status s = GridSample(x.data(), x_shape, grid.data(), grid_shape, &y_shape, &y, o);
      REQUIRE(s.ok());
      CHECK(y_shape == std::vector<int64_t>{1, 1, 3});
      CHECK(y == std::vector<T>{Value<T>(2), Value<T>(8), Value<T>(0)});
    }
    if constexpr (!kIsString) {
      // Linear: p = 0.5, 1.5, 3.5 → 3, 5, 4.
      const std::vector<G> grid = {G(-0.5), G(0), G(1)};
      std::vector<int64_t> y_shape;
      std::vector<T> y;
      const Status s = GridSample(x.data(), x_shape, grid.data(), grid_shape, &y_shape, &y);
      REQUIRE(s.ok());
      CHECK(y_shape == std::vector<int64_t>{1, 1, 3});
      CHECK(y == std::vector<T>{Value<T>(3), Value<T>(5), Value<T>(4)});
    }
    // Errors leave y and y_shape as they were.
    {
      const std::vector<G> grid = {G(0), G(0), G(0)};
      std::vector<int64_t> y_shape = {7};
      std::vector<T> y = {Value<T>(7)};
      const std::vector<int64_t> bad_shape = {1, 4};
      Options o;
      o.mode = Mode::kNearest;
      Status s = GridSample(x.data(), bad_shape, grid.data(), grid_shape, &y_shape, &y, o);
      CHECK(s.code() == StatusCode::kInvalidArgument);
      CHECK(y_shape == std::vector<int64_t>{7});
      CHECK(y == std::vector<T>{Value<T>(7)});
      if constexpr (kIsString) {
        s = GridSample(x.data(), x_shape, grid.data(), grid_shape, &y_shape, &y);  // linear
        CHECK(s.code() == StatusCode::kUnsupported);
        CHECK(y_shape == std::vector<int64_t>{7});
        CHECK(y == std::vector<T>{Value<T>(7)});
      }
      // 2^62 output elements are a valid count but, wider than a byte, too many bytes for a
      // std::vector: refused before anything is allocated (and the grid is never read).
      if constexpr (sizeof(T) > 1) {
        const int64_t k2e62 = int64_t{1} << 62;
        const std::vector<int64_t> huge_grid_shape = {1, k2e62, 1};
        Options o;
        o.mode = Mode::kNearest;
        CHECK_NOTHROW(
            s = GridSample(x.data(), x_shape, grid.data(), huge_grid_shape, &y_shape, &y, o));
        CHECK(s.code() == StatusCode::kOutOfRange);
        CHECK_THAT(s.message(), Catch::StartsWith("y: ") &&
                                    Catch::Contains(std::to_string(k2e62)) &&
                                    Catch::Contains(DTypeName(DTypeOf<T>::value)));
        CHECK(y_shape == std::vector<int64_t>{7});
        CHECK(y == std::vector<T>{Value<T>(7)});
      }
    }
  };
  run(float{});
  run(double{});
}

// ---------------------------------------------------------------------------------------------
// Names.

TEST_CASE("DTypeName DTypeSize and ParseDType agree with the registry", "[dtype]") {
  std::vector<std::string> names;
  for (const DTypeInfo& info : AllDTypes()) {
    CAPTURE(info.name);
    CHECK(std::string(DTypeName(info.dtype)) == info.name);
    CHECK(DTypeSize(info.dtype) == info.size);
    DType parsed = static_cast<DType>(99);
    const Status s = ParseDType(info.name, &parsed);
    CHECK(s.ok());
    CHECK(s.message().empty());
    CHECK(parsed == info.dtype);
    names.push_back(info.name);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = i + 1; j < names.size(); ++j) CHECK(names[i] != names[j]);
  }
  // The storage sizes of docs/semantics.md / the header.
  CHECK(DTypeSize(DType::kFloat16) == 2);
  CHECK(DTypeSize(DType::kBFloat16) == 2);
  CHECK(DTypeSize(DType::kBool) == 1);
  CHECK(DTypeSize(DType::kComplex64) == 8);
  CHECK(DTypeSize(DType::kComplex128) == 16);
  CHECK(DTypeSize(DType::kString) == sizeof(std::string));
}

TEST_CASE("unknown dtype values and names", "[dtype]") {
  const int n = static_cast<int>(AllDTypes().size());
  REQUIRE(n < 99);
  for (int v : {-1, n, n + 1, 99, 255}) {
    CAPTURE(v);
    const DType d = static_cast<DType>(v);
    CHECK(std::string(DTypeName(d)) == "unknown");
    CHECK(DTypeSize(d) == 0);
  }
  for (const char* name : {"", "Float32", "FLOAT32", "float32 ", " float32", "float8", "int128",
                           "complex", "unknown", "str", "boolean", "uint"}) {
    CAPTURE(name);
    DType parsed = DType::kInt8;
    const Status s = ParseDType(name, &parsed);
    CHECK_FALSE(s.ok());
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(s.message(),
               Catch::Contains("dtype") && Catch::Contains("\"" + std::string(name) + "\""));
    CHECK(parsed == DType::kInt8);
  }
}

}  // namespace
}  // namespace gridsample
