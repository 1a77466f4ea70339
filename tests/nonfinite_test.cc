// Non-finite and huge grid values (docs/semantics.md, "Non-finite grid values"): NaN or ±inf in any
// component of a coordinate gives NaN (0 for integer/bool outputs, "" for strings) in every mode,
// padding and alignment, without touching the finite neighbours; huge finite values follow the
// padding rules exactly (zeros → 0, border → the edge, reflection → a defined in-range value).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "any_tensor.h"
#include "gridsample/gridsample.h"
#include "reference.h"
#include "targets.h"
#include "tester.h"

namespace gridsample {
namespace {

using test::AllDTypes;
using test::AnyTensor;
using test::DTypeInfo;
using test::GridDTypes;
using test::Mismatches;
using test::Results;
using test::RunBoth;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

const Mode kModes[] = {Mode::kLinear, Mode::kNearest, Mode::kCubic};
const Padding kPaddings[] = {Padding::kZeros, Padding::kBorder, Padding::kReflection};

std::string Describe(DType x, DType grid, const Options& o, const std::vector<int64_t>& shape) {
  std::string s = std::string("x ") + DTypeName(x) + " [";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "], grid " + DTypeName(grid) + ", " + test::OptionsText(o);
}

// X of (N, C, spatial...) with distinct nonzero elements: 1 + (i % 50) (true for bool,
// "s<i>" for strings); complex parts (v, -v).
AnyTensor MakeInput(DType dtype, const std::vector<int64_t>& spatial, int64_t n, int64_t c) {
  std::vector<int64_t> shape = {n, c};
  shape.insert(shape.end(), spatial.begin(), spatial.end());
  AnyTensor x(dtype, shape);
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = 1.0 + static_cast<double>(i % 50);
    switch (x.info().kind) {
      case Conversion::kString:
        x.SetString(i, "s" + std::to_string(i));
        break;
      case Conversion::kComplex:
        x.SetComplex(i, {v, -v});
        break;
      default:
        x.Set(i, v);
        break;
    }
  }
  return x;
}

// Checks that output element i is the non-finite result: NaN (both parts of a complex; a NaN
// encoding for half/bfloat16), 0 for integers and bool, "" for strings.
bool IsNonFiniteResult(const AnyTensor& y, size_t i) {
  switch (y.info().kind) {
    case Conversion::kFloat:
      return std::isnan(y.Get(i));
    case Conversion::kHalf:
      return test::HalfBitsAreNaN(static_cast<uint16_t>(y.Bits(i)));
    case Conversion::kBFloat16:
      return test::BFloat16BitsAreNaN(static_cast<uint16_t>(y.Bits(i)));
    case Conversion::kComplex:
      return std::isnan(y.Complex(i).real()) && std::isnan(y.Complex(i).imag());
    case Conversion::kInt:
    case Conversion::kBool:
      return y.Bits(i) == 0;
    case Conversion::kString:
      return y.String(i).empty();
  }
  return false;
}

// Fast and reference agree on a finite location: exactly for strings, bool and (within one
// unit, for a sum rounded differently before truncation) integers; within a relative
// tolerance for floating point.
bool Agree(const AnyTensor& a, const AnyTensor& b, size_t i) {
  const Conversion kind = a.info().kind;
  if (kind == Conversion::kString || kind == Conversion::kBool) return a.SameElement(i, b, i);
  if (kind == Conversion::kInt) return std::fabs(a.Get(i) - b.Get(i)) <= 1.0;
  const double tolerance = kind == Conversion::kHalf       ? 2e-3
                           : kind == Conversion::kBFloat16 ? 1.6e-2
                                                           : 1e-5;
  auto close = [&](double u, double v) {
    return std::fabs(u - v) <= tolerance * std::max({1.0, std::fabs(u), std::fabs(v)});
  };
  if (kind == Conversion::kComplex) {
    return close(a.Complex(i).real(), b.Complex(i).real()) &&
           close(a.Complex(i).imag(), b.Complex(i).imag());
  }
  return close(a.Get(i), b.Get(i));
}

// The grid points of rank r: each of NaN, +inf, -inf in each component (the others finite),
// all components NaN, and mixed ±inf; interleaved with finite points (so that SIMD lanes mix
// both kinds), then all non-finite points again back to back.
struct Points {
  std::vector<double> values;  // count * r
  std::vector<bool> nonfinite;
};

Points MakePoints(size_t r) {
  std::vector<std::vector<double>> bad;
  for (size_t k = 0; k < r; ++k) {
    for (double v : {kNaN, kInf, -kInf}) {
      std::vector<double> p(r, 0.25);
      p[k] = v;
      bad.push_back(p);
    }
  }
  bad.push_back(std::vector<double>(r, kNaN));
  std::vector<double> mixed(r);
  for (size_t k = 0; k < r; ++k) mixed[k] = k % 2 == 0 ? kInf : -kInf;
  bad.push_back(mixed);
  if (r > 1) {
    std::vector<double> nan_inf(r, kInf);
    nan_inf[0] = kNaN;
    bad.push_back(nan_inf);
  }
  const double finite[] = {0.25, -0.625, 0.875, -1.25, 1.5, 0.0};
  Points points;
  size_t f = 0;
  auto add = [&](const std::vector<double>& p, bool is_bad) {
    points.values.insert(points.values.end(), p.begin(), p.end());
    points.nonfinite.push_back(is_bad);
  };
  auto add_finite = [&]() {
    std::vector<double> p(r);
    for (size_t k = 0; k < r; ++k) p[k] = finite[(f + k) % 6];
    ++f;
    add(p, false);
  };
  add_finite();
  for (const std::vector<double>& p : bad) {
    add(p, true);
    add_finite();
  }
  for (const std::vector<double>& p : bad) add(p, true);
  add_finite();
  return points;
}

// Grid of (N, 1, ..., 1, count, r): batch 0 takes the points in order, batch 1 reversed.
AnyTensor MakeGrid(DType dtype, size_t r, const Points& points, int64_t n) {
  const size_t count = points.nonfinite.size();
  std::vector<int64_t> shape = {n};
  for (size_t a = 0; a + 1 < r; ++a) shape.push_back(1);
  shape.push_back(static_cast<int64_t>(count));
  shape.push_back(static_cast<int64_t>(r));
  AnyTensor grid(dtype, shape);
  for (int64_t b = 0; b < n; ++b) {
    for (size_t j = 0; j < count; ++j) {
      const size_t src = b % 2 == 0 ? j : count - 1 - j;
      for (size_t k = 0; k < r; ++k) {
        grid.Set((static_cast<size_t>(b) * count + j) * r + k, points.values[src * r + k]);
      }
    }
  }
  return grid;
}

TEST_CASE("NaN and inf in any grid component give NaN or 0 or an empty string everywhere",
          "[nonfinite][simd]") {
  const std::vector<std::vector<int64_t>> shapes = {{4}, {1}, {3, 4}, {1, 3}, {2, 3, 4}, {3, 1, 2}};
  const int64_t kN = 2, kC = 3;
  test::ForEachTarget([&](int64_t) {
    Mismatches mismatches;
    int runs = 0;
    for (const std::vector<int64_t>& spatial : shapes) {
      const size_t r = spatial.size();
      const Points points = MakePoints(r);
      const size_t count = points.nonfinite.size();
      for (const DTypeInfo& xi : AllDTypes()) {
        const AnyTensor x = MakeInput(xi.dtype, spatial, kN, kC);
        for (DType grid_dtype : GridDTypes()) {
          const AnyTensor grid = MakeGrid(grid_dtype, r, points, kN);
          for (Mode mode : kModes) {
            if (xi.kind == Conversion::kString && mode != Mode::kNearest) continue;
            for (Padding padding : kPaddings) {
              for (bool align : {false, true}) {
                Options o;
                o.mode = mode;
                o.padding = padding;
                o.align_corners = align;
                auto what = [&] { return Describe(xi.dtype, grid_dtype, o, x.shape()); };
                const Results res = RunBoth(x, grid, o);
                ++runs;
                if (!res.fast_status.ok() || !res.ref_status.ok()) {
                  mismatches.Add(what() + ": failed: \"" + res.fast_status.message() + "\", \"" +
                                 res.ref_status.message() + "\"");
                  continue;
                }
                for (int64_t b = 0; b < kN; ++b) {
                  for (int64_t ch = 0; ch < kC; ++ch) {
                    for (size_t j = 0; j < count; ++j) {
                      const size_t src = b % 2 == 0 ? j : count - 1 - j;
                      const size_t i = static_cast<size_t>(b * kC + ch) * count + j;
                      auto where = [&] {
                        return what() + ", n " + std::to_string(b) + ", c " + std::to_string(ch) +
                               ", point " + std::to_string(src);
                      };
                      if (points.nonfinite[src]) {
                        if (!IsNonFiniteResult(res.fast, i)) {
                          mismatches.Add(where() + ": GridSample gave " + res.fast.Describe(i));
                        }
                        if (!IsNonFiniteResult(res.ref, i)) {
                          mismatches.Add(where() + ": ReferenceGridSample gave " +
                                         res.ref.Describe(i));
                        }
                      } else if (!Agree(res.fast, res.ref, i)) {
                        mismatches.Add(where() + " (finite): GridSample gave " +
                                       res.fast.Describe(i) + ", ReferenceGridSample " +
                                       res.ref.Describe(i));
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    INFO(mismatches.Report());
    CHECK(mismatches.count() == 0);
    CHECK(runs == 6 * 4 * 3 * 2 * (3 * (static_cast<int>(AllDTypes().size()) - 1) + 1));
  });
}

TEST_CASE("a non-finite grid value gives NaN on a size-1 axis with align_corners too",
          "[nonfinite]") {
  // align_corners = 1 maps every finite value on a size-1 axis to 0, but (NaN or inf) * 0 is
  // NaN: the non-finite rule wins.
  const AnyTensor x = MakeInput(DType::kFloat32, {1, 1}, 1, 1);
  for (DType grid_dtype : GridDTypes()) {
    for (Mode mode : kModes) {
      for (Padding padding : kPaddings) {
        for (double v : {kNaN, kInf, -kInf}) {
          const AnyTensor grid = test::MakeTensor(grid_dtype, {1, 1, 1, 2}, {v, 0.0});
          Options o;
          o.mode = mode;
          o.padding = padding;
          o.align_corners = true;
          const Results r = RunBoth(x, grid, o);
          INFO(Describe(DType::kFloat32, grid_dtype, o, x.shape()) << ", value " << v);
          REQUIRE(r.fast_status.ok());
          REQUIRE(r.ref_status.ok());
          CHECK(std::isnan(r.fast.Get(0)));
          CHECK(std::isnan(r.ref.Get(0)));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Huge finite values.

// Huge values each grid dtype can hold: ±1e30, ±3.4e38, ±1e300, the largest finite values.
std::vector<double> HugeValues(DType grid_dtype) {
  switch (grid_dtype) {
    case DType::kFloat32:
      return {1e30, -1e30, 3.4e38, -3.4e38};
    case DType::kFloat64:
      return {1e300, -1e300, DBL_MAX, -DBL_MAX, 3.4e38, -3.4e38};
    case DType::kFloat16:
      return {65504, -65504, 2047, -2047};
    case DType::kBFloat16:
      return {test::BFloat16BitsToFloat(0x7F7F), test::BFloat16BitsToFloat(0xFF7F), 1e30, -1e30};
    default:
      return {};
  }
}

// More of them, for the cheap 1-D tests: values whose unnormalised coordinate keeps a
// fractional part, and the largest finite float32.
std::vector<double> MoreHugeValues(DType grid_dtype) {
  std::vector<double> values = HugeValues(grid_dtype);
  std::vector<double> more;
  switch (grid_dtype) {
    case DType::kFloat32:
      more = {FLT_MAX, -FLT_MAX, 1e20, -1e20, 16777215, -16777215, 4194303, -4194303};
      break;
    case DType::kFloat64:
      more = {1e30, -1e30, 1e17, -1e17, 9007199254740991.0, -9007199254740991.0, 1e15, -1e15};
      break;
    case DType::kFloat16:
      more = {65472, -65472, 32768, -32768, 1023, -1023};
      break;
    case DType::kBFloat16:
      more = {1e10, -1e10, 255, -255, 65280, -65280};
      break;
    default:
      break;
  }
  values.insert(values.end(), more.begin(), more.end());
  return values;
}

// Flat index into X (N = 1) of channel c at the spatial index `at`.
size_t FlatIndex(const std::vector<int64_t>& spatial, int64_t c, const std::vector<int64_t>& at) {
  size_t i = static_cast<size_t>(c);
  for (size_t a = 0; a < spatial.size(); ++a) {
    i = i * static_cast<size_t>(spatial[a]) + static_cast<size_t>(at[a]);
  }
  return i;
}

// Component k of a rank-r point holds a huge value and the others 0, which lands exactly on
// pixel 1 of the other (size-3) axes under both alignments. The huge component's axis has
// size 3 or 1; on a size-1 axis align_corners pins every finite value to pixel 0 (inside, even
// under zeros padding). Every tap that matters has weight 0 or 1, or the dyadic cubic weights
// at t = 0.5, so the expected values are exact.
TEST_CASE("huge finite grid values follow the padding rules exactly", "[nonfinite][simd]") {
  const int64_t kC = 2;
  test::ForEachTarget([&](int64_t) {
    Mismatches mismatches;
    for (size_t r = 1; r <= 3; ++r) {
      for (size_t k = 0; k < r; ++k) {
        // grid component k indexes spatial axis r - 1 - k.
        const size_t axis = r - 1 - k;
        for (int64_t huge_axis_size : {3, 1}) {
          std::vector<int64_t> spatial(r, 3);
          spatial[axis] = huge_axis_size;
          for (const DTypeInfo& xi : AllDTypes()) {
            const AnyTensor x = MakeInput(xi.dtype, spatial, 1, kC);
            double lowest = kInf, highest = -kInf;
            for (size_t i = 0; i < x.size() && xi.kind != Conversion::kString; ++i) {
              lowest = std::min(lowest, x.Get(i));
              highest = std::max(highest, x.Get(i));
            }
            for (DType grid_dtype : GridDTypes()) {
              for (double huge : HugeValues(grid_dtype)) {
                std::vector<double> point(r, 0.0);
                point[k] = huge;
                std::vector<int64_t> grid_shape(r + 1, 1);
                grid_shape.push_back(static_cast<int64_t>(r));
                const AnyTensor grid = test::MakeTensor(grid_dtype, grid_shape, point);
                for (Mode mode : kModes) {
                  if (xi.kind == Conversion::kString && mode != Mode::kNearest) continue;
                  for (Padding padding : kPaddings) {
                    for (bool align : {false, true}) {
                      Options o;
                      o.mode = mode;
                      o.padding = padding;
                      o.align_corners = align;
                      o.num_threads = 1;  // one location: spare the pool's wake-ups
                      auto what = [&] {
                        return Describe(xi.dtype, grid_dtype, o, x.shape()) + ", component " +
                               std::to_string(k) + " = " + std::to_string(huge);
                      };
                      const Results res = RunBoth(x, grid, o);
                      if (!res.fast_status.ok() || !res.ref_status.ok()) {
                        mismatches.Add(what() + ": failed: \"" + res.fast_status.message() + "\"");
                        continue;
                      }
                      // The pixel the finite components land on.
                      std::vector<int64_t> at(r, 1);
                      at[axis] = 0;
                      const bool single = huge_axis_size == 1;
                      bool zero = false;
                      if (padding == Padding::kZeros) {
                        zero = !(single && align);  // align_corners pins a size-1 axis to 0
                      } else if (padding == Padding::kBorder) {
                        at[axis] = huge > 0 ? huge_axis_size - 1 : 0;
                      }
                      for (int64_t ch = 0; ch < kC; ++ch) {
                        const size_t i = static_cast<size_t>(ch);
                        auto where = [&] { return what() + ", c " + std::to_string(ch); };
                        for (const AnyTensor* y : {&res.fast, &res.ref}) {
                          const char* impl = y == &res.fast ? "GridSample" : "Reference";
                          if (padding == Padding::kReflection && !single) {
                            // Defined (never NaN) and, for linear and nearest, inside X's
                            // range (cubic may overshoot); the exact value is the reference's.
                            const double v = y->Get(i);
                            const bool bad = xi.kind != Conversion::kString &&
                                             (std::isnan(v) || (mode != Mode::kCubic &&
                                                                (v < lowest || v > highest)));
                            if (bad) {
                              mismatches.Add(where() + ": " + impl + " gave " + y->Describe(i) +
                                             ", NaN or outside X's range");
                            }
                            continue;
                          }
                          AnyTensor expected(xi.dtype, {1});
                          if (zero) {
                            expected.Set(0, 0.0);  // "" for strings: see below
                            if (xi.kind == Conversion::kString) expected.SetString(0, "");
                            if (xi.kind == Conversion::kComplex) expected.SetComplex(0, {0, 0});
                          } else {
                            const size_t src = FlatIndex(spatial, ch, at);
                            if (xi.kind == Conversion::kString) {
                              expected.SetString(0, x.String(src));
                            } else if (xi.kind == Conversion::kComplex) {
                              expected.SetComplex(0, x.Complex(src));
                            } else {
                              expected.Set(0, x.Get(src));
                            }
                          }
                          if (!y->SameElement(i, expected, 0)) {
                            mismatches.Add(where() + ": " + impl + " gave " + y->Describe(i) +
                                           ", expected " + expected.Describe(0));
                          }
                        }
                        if (padding == Padding::kReflection &&
                            !res.fast.SameElement(i, res.ref, i)) {
                          mismatches.Add(where() + ": GridSample gave " + res.fast.Describe(i) +
                                         ", ReferenceGridSample " + res.ref.Describe(i));
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    INFO(mismatches.Report());
    CHECK(mismatches.count() == 0);
  });
}

// Reflection of the exact coordinate p (docs/semantics.md): about 0 and s-1 (align_corners) or -0.5
// and s-0.5, then clamped into [0, s-1]. fmod is exact, so removing whole periods first keeps
// this exact for huge p.
double ReflectExactly(double p, int64_t s, bool align_corners) {
  const double last = static_cast<double>(s - 1);
  if (align_corners) {
    if (s == 1) return 0;
    const double period = 2 * last;
    double q = std::fmod(std::fabs(p), period);
    if (q > last) q = period - q;
    return q;
  }
  const double width = static_cast<double>(s), period = 2 * width;
  double u = std::fabs(std::fmod(p, period) + 0.5);  // distance from the -0.5 mirror, exact
  u = std::fmod(u, period);
  if (u > width) u = period - u;
  return std::min(std::max(u - 0.5, 0.0), last);
}

// The unnormalised coordinate in the grid's compute type (float32 but for float64 grids).
template <typename T>
double Unnormalize(double g, int64_t s, bool align_corners) {
  const T gt = static_cast<T>(g), st = static_cast<T>(s);
  return align_corners ? (gt + T(1)) / T(2) * (st - T(1)) : ((gt + T(1)) * st - T(1)) / T(2);
}

TEST_CASE("reflection of huge 1-D coordinates is exact", "[nonfinite]") {
  // X = {2, 4, 6, 8}[:s], affine, so linear gives 2 + 2 q at the reflected coordinate q.
  Mismatches mismatches;
  int checked = 0;
  for (DType grid_dtype : GridDTypes()) {
    for (double huge : MoreHugeValues(grid_dtype)) {
      for (int64_t s : {2, 3, 4}) {
        AnyTensor x(DType::kFloat64, {1, 1, s});
        for (int64_t i = 0; i < s; ++i) x.Set(static_cast<size_t>(i), 2.0 + 2.0 * i);
        const AnyTensor grid = test::MakeTensor(grid_dtype, {1, 1, 1}, {huge});
        const double g = grid.Get(0);
        for (bool align : {false, true}) {
          const double p = grid_dtype == DType::kFloat64 ? Unnormalize<double>(g, s, align)
                                                         : Unnormalize<float>(g, s, align);
          if (!std::isfinite(p)) continue;  // overflows the compute type: see the next test
          for (Mode mode : {Mode::kLinear, Mode::kNearest}) {
            Options o;
            o.mode = mode;
            o.padding = Padding::kReflection;
            o.align_corners = align;
            double q;
            if (mode == Mode::kLinear) {
              q = ReflectExactly(p, s, align);
            } else {  // round half to even first (in the compute type: p is exact there)
              q = ReflectExactly(std::nearbyint(p), s, align);
            }
            const double expected = 2 + 2 * q;
            const Results r = RunBoth(x, grid, o);
            ++checked;
            const std::string what =
                Describe(DType::kFloat64, grid_dtype, o, x.shape()) + ", g " + std::to_string(g);
            if (!r.fast_status.ok() || !r.ref_status.ok()) {
              mismatches.Add(what + ": failed");
              continue;
            }
            if (r.fast.Get(0) != expected) {
              mismatches.Add(what + ": GridSample gave " + r.fast.Describe(0) + ", expected " +
                             std::to_string(expected));
            }
            if (r.ref.Get(0) != expected) {
              mismatches.Add(what + ": ReferenceGridSample gave " + r.ref.Describe(0) +
                             ", expected " + std::to_string(expected));
            }
          }
        }
      }
    }
  }
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
  CHECK(checked > 300);  // most coordinates fit their compute type
}

TEST_CASE("reflection of huge coordinates worked by hand", "[nonfinite]") {
  auto run = [](const AnyTensor& x, DType grid_dtype, double g, Mode mode, bool align) {
    Options o;
    o.mode = mode;
    o.padding = Padding::kReflection;
    o.align_corners = align;
    const Results r = RunBoth(x, test::MakeTensor(grid_dtype, {1, 1, 1}, {g}), o);
    REQUIRE(r.fast_status.ok());
    REQUIRE(r.ref_status.ok());
    CHECK(r.fast.Get(0) == r.ref.Get(0));
    return r.fast.Get(0);
  };
  const AnyTensor x3 = test::MakeTensor(DType::kFloat32, {1, 1, 3}, {2, 4, 6});
  for (Mode mode : kModes) {
    CAPTURE(static_cast<int>(mode));
    // float32 1e30, size 3, align_corners: p = (1e30 + 1) / 2 * 2 = 1e30 exactly, a multiple
    // of the period 4 → pixel 0 (cubic: t = 0, only that tap weighs).
    CHECK(run(x3, DType::kFloat32, 1e30, mode, true) == 2);
    CHECK(run(x3, DType::kFloat32, -1e30, mode, true) == 2);
  }
  const AnyTensor x4 = test::MakeTensor(DType::kFloat32, {1, 1, 4}, {2, 4, 6, 8});
  // float16 65504, size 4, align_corners = 0: p = (65505 * 4 - 1) / 2 = 131009.5; period 8
  // about -0.5: 131009.5 + 0.5 = 131010 ≡ 2 → p = 1.5. Linear: (4 + 6) / 2. Nearest rounds
  // first: 131010 (even), 131010.5 from the mirror ≡ 2.5 → pixel 2. Cubic: taps
  // 131008..131011 reflect to 0..3 with t = 0.5: -0.09375 * 2 + 0.59375 * (4 + 6) - 0.09375 * 8.
  CHECK(run(x4, DType::kFloat16, 65504, Mode::kLinear, false) == 5);
  CHECK(run(x4, DType::kFloat16, 65504, Mode::kNearest, false) == 6);
  CHECK(run(x4, DType::kFloat16, 65504, Mode::kCubic, false) == 5);
  // -65504: p = -131006.5 → -131006 from the mirror ≡ 6 → 2 → p = 1.5. Nearest: -131006
  // (even) → -131005.5 ≡ 5.5 → 2.5 → pixel 2. Cubic: taps -131008..-131005 reflect to 0..3.
  CHECK(run(x4, DType::kFloat16, -65504, Mode::kLinear, false) == 5);
  CHECK(run(x4, DType::kFloat16, -65504, Mode::kNearest, false) == 6);
  CHECK(run(x4, DType::kFloat16, -65504, Mode::kCubic, false) == 5);
}

TEST_CASE("huge coordinates whose unnormalisation overflows the grid type stay defined",
          "[nonfinite]") {
  // float32 3.4e38 * 4 overflows float32; docs/semantics.md only asks for the normal padding rules.
  const AnyTensor x = test::MakeTensor(DType::kFloat32, {1, 1, 4}, {2, 4, 6, 8});
  for (DType grid_dtype : {DType::kFloat32, DType::kBFloat16, DType::kFloat64}) {
    // (3.4e38 itself would round up to inf in bfloat16: take its largest finite value.)
    const double huge = grid_dtype == DType::kFloat64    ? DBL_MAX
                        : grid_dtype == DType::kBFloat16 ? test::BFloat16BitsToFloat(0x7F7F)
                                                         : 3.4e38;
    for (double g : {huge, -huge}) {
      for (Mode mode : kModes) {
        for (Padding padding : kPaddings) {
          for (bool align : {false, true}) {
            Options o;
            o.mode = mode;
            o.padding = padding;
            o.align_corners = align;
            const Results r = RunBoth(x, test::MakeTensor(grid_dtype, {1, 1, 1}, {g}), o);
            INFO(Describe(DType::kFloat32, grid_dtype, o, x.shape()) << ", g " << g);
            REQUIRE(r.fast_status.ok());
            REQUIRE(r.ref_status.ok());
            const double v = r.fast.Get(0);
            CHECK(v == r.ref.Get(0));
            if (padding == Padding::kZeros) CHECK(v == 0);
            if (padding == Padding::kBorder) CHECK(v == (g > 0 ? 8 : 2));
            if (padding == Padding::kReflection) {
              CHECK(v >= 2);
              CHECK(v <= 8);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("non-finite input elements reach an output only through a tap that weighs them",
          "[nonfinite][simd]") {
  // The linear pair path reads whole pairs and weighs a tap outside the input (or past a
  // clamped border) by 0, and 0 * inf is NaN: it must recompute such outputs exactly.
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 2, 9}, {2, 3, 5, 7}, {1, 2, 1, 6}, {1, 2, 4, 1, 5}, {1, 1, 3, 4, 2, 3}};
  const DType dtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64};
  uint64_t seed = 900;
  test::ForEachTarget([&](int64_t target) {
    INFO("target " << hwy::TargetName(target));
    for (const auto& shape : shapes) {
      const std::vector<int64_t> out(shape.size() - 2, 6);
      for (DType dtype : dtypes) {
        for (Mode mode : kModes) {
          for (Padding padding : kPaddings) {
            for (bool align : {false, true}) {
              test::GridSampleTester()
                  .input(shape)
                  .output(out)
                  .dtype(dtype)
                  .mode(mode)
                  .padding(padding)
                  .align_corners(align)
                  .grid_range(1.4)
                  .special_input(true)
                  .seed(++seed)
                  .Test();
            }
          }
        }
      }
    }
  });
}

}  // namespace
}  // namespace gridsample
