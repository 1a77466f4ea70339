// AffineGrid (src/affine_grid.cc; docs/semantics.md, AffineGrid) against
//   * the golden file tests/data/affine_grid.txt (scripts/gen_affine_grid.py): its exact model
//     bit for bit, and onnx.reference's float64 values within their own drift;
//   * an exact model here, in integer arithmetic: dyadic thetas on large and 3-D grids (axes
//     beyond what onnx.reference can make), each value the rounding of a number within the
//     documented float64 error of the exact one;
//   * GridSample: the identity theta's grid samples X back;
// and every validation error, with X-style messages naming the argument and the value.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "convert.h"
#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"
#include "tests/golden_file.h"

namespace gridsample {
namespace test {
namespace {

constexpr double kU = 0x1p-53;  // float64's unit roundoff

// ---------------------------------------------------------------------------------------------
// Exact rational rounding, the model's arithmetic (independent of src/convert.h).

__extension__ typedef __int128 Int128;

struct Format {
  int bits;  // significant bits
  int emin;  // exponent of the smallest normal
  int emax;  // exponent of the largest finite
};
Format FormatOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat64:
      return {53, -1022, 1023};
    case DType::kFloat16:
      return {11, -14, 15};
    case DType::kBFloat16:
      return {8, -126, 127};
    default:
      return {24, -126, 127};
  }
}

int BitLength(Int128 v) {  // v >= 0
  const uint64_t high = static_cast<uint64_t>(v >> 64), low = static_cast<uint64_t>(v);
  if (high != 0) return 128 - __builtin_clzll(high);
  return low != 0 ? 64 - __builtin_clzll(low) : 0;
}

// num / den (den > 0) rounded to the format, half to even, with subnormals and overflow to inf.
double RoundRational(Int128 num, Int128 den, Format f) {
  if (num == 0) return 0.0;
  const bool negative = num < 0;
  const Int128 a = negative ? -num : num;
  // e = floor(log2(a / den)).
  int e = BitLength(a) - BitLength(den);
  const bool below = e >= 0 ? a < (den << e) : (a << -e) < den;
  if (below) --e;
  const int quantum = std::max(e, f.emin) - (f.bits - 1);
  // q = floor(a / (den * 2^quantum)) and its remainder, by long division for small quanta.
  Int128 divisor = den, q = 0, r = 0;
  if (quantum >= 0) {
    divisor = den << quantum;
    q = a / divisor;
    r = a % divisor;
  } else {
    q = a / den;
    r = a % den;
    for (int i = 0; i < -quantum; ++i) {
      r <<= 1;
      q <<= 1;
      if (r >= den) {
        r -= den;
        q |= 1;
      }
    }
  }
  if (2 * r > divisor || (2 * r == divisor && (q & 1) != 0)) ++q;
  double value = std::ldexp(static_cast<double>(q), quantum);
  const double largest = std::ldexp(2.0 - std::ldexp(1.0, 1 - f.bits), f.emax);
  if (value > largest) value = std::numeric_limits<double>::infinity();
  return negative ? -value : value;
}

// The roundings of the values within the documented float64 error, 8u * S, of num/den, whose
// terms' magnitudes add up to S (docs/semantics.md, AffineGrid): every result AffineGrid may
// give lies in [low, high]. With S = 0 nothing rounds: low = high = num/den.
void RoundRange(Int128 num, Int128 den, double magnitude, Format f, double* low, double* high) {
  if (magnitude == 0) {
    *low = *high = RoundRational(num, den, f);
    return;
  }
  int exponent = 0;
  std::frexp(8 * kU * magnitude, &exponent);  // 8uS < 2^exponent
  REQUIRE(exponent < 0);                      // the cases here have S < 2^50
  const Int128 scale = Int128{1} << -exponent;
  *low = RoundRational(num * scale - den, den * scale, f);
  *high = RoundRational(num * scale + den, den * scale, f);
}

// Base coordinate i of an axis of n, exactly: numerator / denominator.
void ExactBase(int64_t i, int64_t n, bool align_corners, int64_t* numerator, int64_t* denominator) {
  if (align_corners) {
    *numerator = n == 1 ? -1 : 2 * i - (n - 1);
    *denominator = n == 1 ? 1 : n - 1;
  } else {
    *numerator = 2 * i + 1 - n;
    *denominator = n;
  }
}

// ---------------------------------------------------------------------------------------------
// Running AffineGrid on test tensors.

// AffineGrid into a fresh tensor of AffineGridShape's shape, pre-filled with 0xA5 bytes.
Status Run(const AnyTensor& theta, const std::vector<int64_t>& size, bool align_corners,
           AnyTensor* grid) {
  std::vector<int64_t> shape;
  Status status =
      AffineGridShape(theta.shape().data(), theta.shape().size(), size.data(), size.size(), &shape);
  if (!status.ok()) return status;
  *grid = AnyTensor(theta.dtype(), shape);
  grid->FillBytes(0xA5);
  AffineGridOptions options;
  options.align_corners = align_corners;
  return AffineGrid(theta.view(), size.data(), size.size(), grid->mutable_view(), options);
}

std::string Show(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// Failures collected over many values, reported once with the first few.
class Failures {
 public:
  void Add(const std::string& what) {
    if (count_++ < 20) text_ += what + "\n";
  }
  size_t count() const { return count_; }
  std::string Report() const {
    return std::to_string(count_) + " failures" + (count_ ? ":\n" + text_ : std::string());
  }

 private:
  size_t count_ = 0;
  std::string text_;
};

// ---------------------------------------------------------------------------------------------
// The golden file.

struct AffineCase {
  std::string name, where;
  bool align_corners = false;
  AnyTensor theta{DType::kFloat32, {0}};
  std::vector<int64_t> size;
  AnyTensor grid{DType::kFloat32, {0}};       // the exact model, rounded to the dtype
  AnyTensor reference{DType::kFloat64, {0}};  // onnx.reference's float64 values
};

// Reads tests/data/affine_grid.txt (format: tests/data/README.md).
std::vector<AffineCase> LoadAffineCases(std::string* error) {
  const std::string path = GRIDSAMPLE_TEST_DATA_DIR "/affine_grid.txt";
  std::ifstream in(path);
  std::vector<AffineCase> cases;
  if (!in) {
    *error = path + ": cannot open";
    return cases;
  }
  golden_internal::Lines lines(in, path);
  auto fail = [&](const std::string& what) {
    *error = lines.Where() + ": " + what;
    return cases;
  };
  std::vector<std::string> tokens;
  std::string what;
  while (lines.Next(&tokens)) {
    AffineCase c;
    if (tokens.size() != 2 || tokens[0] != "case") return fail("expected `case <name>`");
    c.name = tokens[1];
    c.where = lines.Where();
    if (!lines.Expect(&tokens, "attrs", &what)) return fail(what);
    if (tokens.size() != 2 || (tokens[1] != "align_corners=0" && tokens[1] != "align_corners=1")) {
      return fail("expected `attrs align_corners=<0|1>`");
    }
    c.align_corners = tokens[1] == "align_corners=1";
    AnyTensor size{DType::kInt64, {0}};
    for (auto [keyword, tensor] :
         {std::make_pair("theta", &c.theta), std::make_pair("size", &size),
          std::make_pair("grid", &c.grid), std::make_pair("reference", &c.reference)}) {
      if (!lines.Expect(&tokens, keyword, &what)) return fail(what);
      if (!golden_internal::ParseTensorLine(tokens, tensor, &what)) return fail(what);
    }
    if (size.dtype() != DType::kInt64 || size.shape().size() != 1) return fail("size: int64[]");
    for (size_t i = 0; i < size.size(); ++i) c.size.push_back(size.Int(i));
    if (c.grid.dtype() != c.theta.dtype() || c.reference.shape() != c.grid.shape()) {
      return fail("grid: dtype or shape unlike theta's or reference's");
    }
    if (!lines.Expect(&tokens, "end", &what)) return fail(what);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<AffineCase> LoadGoldenOrFail() {
  std::string error;
  std::vector<AffineCase> cases = LoadAffineCases(&error);
  INFO(error);
  REQUIRE(error.empty());
  return cases;
}

// Half an ulp of the dtype at |v| (the error of rounding v into it).
double HalfUlp(double v, Format f) {
  int exponent = 0;
  std::frexp(v, &exponent);  // 2^(exponent-1) <= |v| < 2^exponent
  return std::ldexp(1.0, std::max(exponent - 1, f.emin) - f.bits);
}

TEST_CASE("AffineGrid gives the golden file's grids bit for bit, near onnx.reference's",
          "[affine_grid][golden]") {
  const std::vector<AffineCase> cases = LoadGoldenOrFail();
  REQUIRE(cases.size() >= 136);  // the generator writes 136
  Failures failures;
  size_t values = 0;
  for (const AffineCase& c : cases) {
    AnyTensor grid(DType::kFloat32, {0});
    const Status status = Run(c.theta, c.size, c.align_corners, &grid);
    if (!status.ok()) {
      failures.Add(c.where + " " + c.name + ": " + status.message());
      continue;
    }
    if (grid.shape() != c.grid.shape()) {
      failures.Add(c.where + " " + c.name + ": the grid's shape differs");
      continue;
    }
    const Format f = FormatOf(grid.dtype());
    const size_t r = grid.shape().back();
    const size_t per_item = grid.size() / static_cast<size_t>(c.size[0]);
    for (size_t i = 0; i < grid.size(); ++i, ++values) {
      const double actual = grid.Get(i), expected = c.grid.Get(i);
      const double reference = c.reference.Get(i);
      // |theta| of the value's row bounds its terms (every base coordinate is within [-1, 1]).
      double row = 0;
      for (size_t j = 0; j <= r; ++j) {
        row += std::fabs(c.theta.Get((i / per_item * r + i % r) * (r + 1) + j));
      }
      const bool ok = grid.Bits(i) == c.grid.Bits(i);
      // onnx.reference's values drift from the exact ones by a few float64 ulps of |theta|.
      const double half_ulp = HalfUlp(std::max(std::fabs(actual), std::fabs(reference)), f);
      const bool near_reference =
          std::isinf(actual)
              ? std::fabs(reference) > std::ldexp(1.0, f.emax) && (actual > 0) == (reference > 0)
              : std::fabs(actual - reference) <= half_ulp + 1e-15 * (1 + row);
      if (!ok || !near_reference) {
        failures.Add(c.where + " " + c.name + " value " + std::to_string(i) + ": got " +
                     Show(actual) + ", expected " + Show(expected) + ", onnx.reference " +
                     Show(reference));
      }
    }
  }
  INFO(failures.Report());
  CHECK(failures.count() == 0);
  CHECK(values >= 8000);
}

TEST_CASE(
    "The golden file covers every dtype, both alignments, 2-D and 3-D, several N and "
    "size-1 axes",
    "[affine_grid][golden]") {
  std::set<std::tuple<DType, bool, size_t>> seen;
  std::set<int64_t> batches;
  bool unit_2d = false, unit_3d = false, overflow = false;
  for (const AffineCase& c : LoadGoldenOrFail()) {
    const size_t r = c.size.size() - 2;
    seen.emplace(c.theta.dtype(), c.align_corners, r);
    batches.insert(c.size[0]);
    for (size_t a = 2; a < c.size.size(); ++a) (r == 2 ? unit_2d : unit_3d) |= c.size[a] == 1;
    for (size_t i = 0; i < c.grid.size(); ++i) overflow |= std::isinf(c.grid.Get(i));
  }
  for (DType dtype : GridDTypes()) {
    for (bool align_corners : {false, true}) {
      for (size_t r : {2, 3}) {
        INFO(DTypeName(dtype) << " align_corners " << align_corners << " " << r << "-D");
        CHECK(seen.count({dtype, align_corners, r}) == 1);
      }
    }
  }
  CHECK(batches == std::set<int64_t>{1, 2, 3});
  CHECK(unit_2d);
  CHECK(unit_3d);
  CHECK(overflow);
}

// ---------------------------------------------------------------------------------------------
// The exact model here: theta of dyadic values k / 2^shift, so that every value is a rational
// with an integer numerator and denominator.

struct ExactCase {
  DType dtype;
  bool align_corners;
  std::vector<int64_t> size;
  std::vector<int64_t> numerators;  // theta * 2^shift, row-major (N, r, r + 1)
  int shift;
};

// Runs the case and checks every value against the exact model; returns how many values the
// model pins to one result (the others lie within the float64 error of a rounding boundary).
size_t CheckExact(const ExactCase& e, Failures* failures) {
  const size_t r = e.size.size() - 2;
  const int64_t n = e.size[0];
  AnyTensor theta(e.dtype, {n, static_cast<int64_t>(r), static_cast<int64_t>(r + 1)});
  for (size_t i = 0; i < theta.size(); ++i) {
    theta.Set(i, std::ldexp(static_cast<double>(e.numerators[i]), -e.shift));
    REQUIRE(theta.Get(i) == std::ldexp(static_cast<double>(e.numerators[i]), -e.shift));
  }
  AnyTensor grid(DType::kFloat32, {0});
  const Status status = Run(theta, e.size, e.align_corners, &grid);
  INFO(status.message());
  REQUIRE(status.ok());
  const Format f = FormatOf(e.dtype);
  // The points, x innermost: axis extents in x, y, z order.
  std::vector<int64_t> extents(e.size.rbegin(), e.size.rend() - 2);
  size_t pinned = 0, at = 0;
  std::vector<int64_t> index(r, 0);
  for (int64_t b = 0; b < n; ++b) {
    const int64_t* t = &e.numerators[static_cast<size_t>(b) * r * (r + 1)];
    for (std::fill(index.begin(), index.end(), 0);;) {
      int64_t p[3], q[3];
      for (size_t a = 0; a < r; ++a) ExactBase(index[a], extents[a], e.align_corners, &p[a], &q[a]);
      Int128 common = 1;
      for (size_t a = 0; a < r; ++a) common *= q[a];
      for (size_t k = 0; k < r; ++k, ++at) {
        const int64_t* row = t + k * (r + 1);
        Int128 num = static_cast<Int128>(row[r]) * common;
        double magnitude = std::ldexp(std::fabs(static_cast<double>(row[r])), -e.shift);
        for (size_t a = 0; a < r; ++a) {
          num += static_cast<Int128>(row[a]) * p[a] * (common / q[a]);
          magnitude += std::ldexp(std::fabs(static_cast<double>(row[a])), -e.shift) *
                       std::fabs(static_cast<double>(p[a]) / static_cast<double>(q[a]));
        }
        const Int128 den = common << e.shift;
        double low = 0, high = 0;
        RoundRange(num, den, magnitude, f, &low, &high);
        const double actual = grid.Get(at);
        pinned += low == high;
        if (!(low <= actual && actual <= high)) {
          failures->Add(std::string(DTypeName(e.dtype)) + " size [" + std::to_string(e.size[2]) +
                        "...] align_corners " + std::to_string(e.align_corners) + " value " +
                        std::to_string(at) + ": got " + Show(actual) + ", exact model " +
                        Show(RoundRational(num, den, f)) + " (within the error: " + Show(low) +
                        " to " + Show(high) + ")");
        }
      }
      size_t a = 0;
      while (a < r && ++index[a] == extents[a]) index[a++] = 0;
      if (a == r) break;
    }
  }
  CHECK(at == grid.size());
  return pinned;
}

TEST_CASE("AffineGrid agrees with the exact model on large and 3-D grids", "[affine_grid]") {
  std::mt19937_64 random(20240520);
  const std::vector<std::vector<int64_t>> sizes = {
      {3, 2, 4, 9},       // several N
      {2, 1, 5, 6, 7},    // 3-D
      {1, 1, 1, 1, 1},    // every axis of size 1
      {1, 1, 2, 1, 300},  // a size-1 axis between others
      {1, 1, 1, 30001},   // align_corners only: beyond the 20001 elements of onnx.reference
  };
  Failures failures;
  size_t values = 0, pinned = 0;
  for (DType dtype : GridDTypes()) {
    // theta in [-4, 4], exact in the dtype: as many significant bits as it has, at most 20.
    const int bits = std::min(FormatOf(dtype).bits, 20);
    std::uniform_int_distribution<int64_t> numerator(-(int64_t{1} << bits) + 1,
                                                     (int64_t{1} << bits) - 1);
    for (bool align_corners : {false, true}) {
      for (const std::vector<int64_t>& size : sizes) {
        if (size.back() == 30001 && !align_corners) continue;  // the same but for its speed
        ExactCase e{dtype, align_corners, size, {}, bits - 2};
        const size_t r = size.size() - 2;
        for (size_t i = 0; i < static_cast<size_t>(size[0]) * r * (r + 1); ++i) {
          e.numerators.push_back(numerator(random));
        }
        const size_t case_pinned = CheckExact(e, &failures);
        // float64 results may lie anywhere in their error bound, a few ulps wide.
        if (dtype == DType::kFloat64) continue;
        pinned += case_pinned;
        int64_t count = 1;
        for (size_t a = 2; a < size.size(); ++a) count *= size[a];
        values += static_cast<size_t>(count * size[0]) * r;
      }
    }
  }
  INFO(failures.Report());
  CHECK(failures.count() == 0);
  // The exact model pins nearly every float32, float16 and bfloat16 value: the test has teeth.
  INFO(pinned << " of " << values << " values pinned to one result");
  CHECK(pinned >= values - values / 100);
}

// How many of the values would round differently through float32 (the double rounding that
// AffineGrid's float16 and bfloat16 outputs avoid): each exact value rounded to float64, then
// to float32, then to the dtype with the test's own converters, against its direct rounding.
size_t DoubleRoundingWitnesses(const ExactCase& e) {
  const size_t r = e.size.size() - 2;
  std::vector<int64_t> extents(e.size.rbegin(), e.size.rend() - 2);
  size_t witnesses = 0;
  std::vector<int64_t> index(r, 0);
  for (;;) {
    int64_t p[3], q[3];
    for (size_t a = 0; a < r; ++a) ExactBase(index[a], extents[a], e.align_corners, &p[a], &q[a]);
    Int128 common = 1;
    for (size_t a = 0; a < r; ++a) common *= q[a];
    for (size_t k = 0; k < r; ++k) {
      const int64_t* row = &e.numerators[k * (r + 1)];
      Int128 num = static_cast<Int128>(row[r]) * common;
      for (size_t a = 0; a < r; ++a) num += static_cast<Int128>(row[a]) * p[a] * (common / q[a]);
      const Int128 den = common << e.shift;
      const double direct = RoundRational(num, den, FormatOf(e.dtype));
      const float single = static_cast<float>(RoundRational(num, den, FormatOf(DType::kFloat64)));
      const double twice = e.dtype == DType::kFloat16
                               ? HalfBitsToFloat(FloatToHalfBits(single))
                               : BFloat16BitsToFloat(FloatToBFloat16Bits(single));
      witnesses += direct != twice;
    }
    size_t a = 0;
    while (a < r && ++index[a] == extents[a]) index[a++] = 0;
    if (a == r) break;
  }
  return witnesses;
}

TEST_CASE(
    "float16 and bfloat16 grids round once, from float64, where float32 would round "
    "twice",
    "[affine_grid]") {
  // Found by search: grids where rounding through float32 lands exactly on a float16 (identity
  // theta, 8231 columns) or bfloat16 (x + y, 259 x 257) tie that the exact value is not on.
  const std::vector<ExactCase> cases = {
      {DType::kFloat16, false, {1, 1, 1, 8231}, {1, 0, 0, 0, 1, 0}, 0},
      {DType::kBFloat16, false, {1, 1, 259, 257}, {1, 1, 0, 1, -1, 0}, 0},
  };
  for (const ExactCase& e : cases) {
    INFO(DTypeName(e.dtype));
    CHECK(DoubleRoundingWitnesses(e) > 0);
    Failures failures;
    CheckExact(e, &failures);
    INFO(failures.Report());
    CHECK(failures.count() == 0);
  }
}

TEST_CASE("F16BitsFromF64 and BF16BitsFromF64 round once, half to even", "[affine_grid]") {
  // Around each value: the value, a tie of the target format, and just off it either way.
  const double tie16 = 1 + 0x1p-11, tie_bf16 = 1 + 0x1p-8;
  struct Example {
    double value;
    uint16_t half, bfloat16;
  };
  const Example examples[] = {
      {1.0, 0x3C00, 0x3F80},
      {tie16, 0x3C00, 0x3F80},            // a half tie goes to the even 1
      {tie16 + 0x1p-40, 0x3C01, 0x3F80},  // float32 would round this to the tie
      {-(tie16 + 0x1p-40), 0xBC01, 0xBF80},
      {tie16 - 0x1p-40, 0x3C00, 0x3F80},
      {tie_bf16, 0x3C04, 0x3F80},  // a bfloat16 tie goes to the even 1
      {tie_bf16 + 0x1p-40, 0x3C04, 0x3F81},
      {1 + 3 * 0x1p-8, 0x3C0C, 0x3F82},  // a tie goes up to the even 0x3F82
      {65520.0, 0x7C00, 0x4780},         // the half overflow tie: inf
      {65519.99999999, 0x7BFF, 0x4780},
      {0x1p-25, 0x0000, 0x3300},  // half of float16's smallest subnormal: even 0
      {0x1p-25 + 0x1p-60, 0x0001, 0x3300},
      {1e300, 0x7C00, 0x7F80},
      {-1e-300, 0x8000, 0x8000},
      {std::numeric_limits<double>::infinity(), 0x7C00, 0x7F80},
  };
  for (const Example& e : examples) {
    INFO(Show(e.value));
    CHECK(F16BitsFromF64(e.value) == e.half);
    CHECK(BF16BitsFromF64(e.value) == e.bfloat16);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(HalfBitsAreNaN(F16BitsFromF64(nan)));
  CHECK(BFloat16BitsAreNaN(BF16BitsFromF64(nan)));
}

// ---------------------------------------------------------------------------------------------
// Properties.

TEST_CASE("GridSample with the identity theta's grid gives X back", "[affine_grid][properties]") {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> value(-10, 10);
  const std::vector<std::vector<int64_t>> shapes = {{2, 3, 5, 7}, {1, 1, 1, 6},    {1, 2, 4, 1},
                                                    {1, 1, 1, 1}, {2, 2, 3, 4, 5}, {1, 1, 1, 3, 1}};
  for (const std::vector<int64_t>& shape : shapes) {
    AnyTensor x(DType::kFloat32, shape);
    for (size_t i = 0; i < x.size(); ++i) x.Set(i, value(random));
    const size_t r = shape.size() - 2;
    for (DType dtype : GridDTypes()) {
      AnyTensor theta(dtype, {shape[0], static_cast<int64_t>(r), static_cast<int64_t>(r + 1)});
      // Ones where row == column in each matrix.
      for (size_t i = 0; i < theta.size(); ++i) {
        theta.Set(i, i % (r * (r + 1)) % (r + 2) == 0 ? 1.0 : 0.0);
      }
      for (bool align_corners : {false, true}) {
        AnyTensor grid(dtype, {0});
        REQUIRE(Run(theta, shape, align_corners, &grid).ok());
        for (Mode mode : {Mode::kNearest, Mode::kLinear}) {
          // Linear reads a neighbour with a weight of the grid's rounding: float32/64 only.
          if (mode == Mode::kLinear && dtype != DType::kFloat32 && dtype != DType::kFloat64) {
            continue;
          }
          for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
            INFO("x " << x.shape().size() << "-D, grid " << DTypeName(dtype) << ", "
                      << ModeName(mode) << ", " << PaddingName(padding) << ", align_corners "
                      << align_corners);
            AnyTensor y(DType::kFloat32, shape);
            Options options;
            options.mode = mode;
            options.padding = padding;
            options.align_corners = align_corners;
            REQUIRE(GridSample(x.view(), grid.view(), y.mutable_view(), options).ok());
            const double tolerance = mode == Mode::kNearest ? 0 : 1e-5;
            size_t differ = 0;
            for (size_t i = 0; i < x.size(); ++i) {
              differ += !(std::fabs(y.Get(i) - x.Get(i)) <= tolerance * (1 + std::fabs(x.Get(i))));
            }
            CHECK(differ == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("The typed AffineGrid gives the view API's grid and its shape", "[affine_grid]") {
  const std::vector<double> theta = {0.5, -0.25, 0.125, 2, 1, -1, 0.75, 0, 3, -2, 0.5, 1};
  std::vector<int64_t> shape;
  std::vector<double> grid;
  AffineGridOptions options;
  options.align_corners = true;
  REQUIRE(AffineGrid(theta.data(), {1, 3, 4}, {1, 2, 3, 2, 4}, &shape, &grid, options).ok());
  CHECK(shape == std::vector<int64_t>{1, 3, 2, 4, 3});
  AnyTensor theta_tensor(DType::kFloat64, {1, 3, 4}), expected(DType::kFloat32, {0});
  for (size_t i = 0; i < theta.size(); ++i) theta_tensor.Set(i, theta[i]);
  REQUIRE(Run(theta_tensor, {1, 2, 3, 2, 4}, true, &expected).ok());
  REQUIRE(grid.size() == expected.size());
  for (size_t i = 0; i < grid.size(); ++i) CHECK(grid[i] == expected.Get(i));

  const std::vector<float> theta32 = {1, 0, 0, 0, 1, 0};
  std::vector<float> grid32 = {42};
  shape = {7};
  CHECK(AffineGrid(theta32.data(), {1, 2, 3}, {1, 1, 2, 2}, &shape, &grid32).ok());
  CHECK(grid32 == std::vector<float>{-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f});
  // An error leaves both outputs untouched.
  grid32 = {42};
  shape = {7};
  CHECK(AffineGrid(theta32.data(), {1, 2, 3}, {2, 1, 2, 2}, &shape, &grid32).code() ==
        StatusCode::kInvalidArgument);
  CHECK(grid32 == std::vector<float>{42});
  CHECK(shape == std::vector<int64_t>{7});
}

TEST_CASE("Non-finite theta values propagate as IEEE arithmetic has them", "[affine_grid]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType dtype : GridDTypes()) {
    INFO(DTypeName(dtype));
    // Row 0: inf * x, x = -2/3, 0, 2/3 (inf * 0 is NaN); row 1: a NaN translation.
    AnyTensor theta(dtype, {1, 2, 3});
    const double values[] = {inf, 0, 0, 0, 1, nan};
    for (size_t i = 0; i < 6; ++i) theta.Set(i, values[i]);
    AnyTensor grid(dtype, {0});
    REQUIRE(Run(theta, {1, 1, 1, 3}, false, &grid).ok());
    CHECK(grid.Get(0) == -inf);
    CHECK(std::isnan(grid.Get(2)));
    CHECK(grid.Get(4) == inf);
    for (size_t i : {1, 3, 5}) CHECK(std::isnan(grid.Get(i)));
  }
}

TEST_CASE("Empty grids are fine, whatever their other extents", "[affine_grid]") {
  const std::vector<std::vector<int64_t>> sizes = {
      {0, 1, 2, 3}, {1, 1, 0, 3}, {1, 0, 2, 0}, {0, 1, 1, int64_t{1} << 62}, {1, 1, 0, 2, 3}};
  for (const std::vector<int64_t>& size : sizes) {
    const int64_t r = static_cast<int64_t>(size.size()) - 2;
    AnyTensor theta(DType::kFloat32, {size[0], r, r + 1});
    std::vector<int64_t> shape;
    REQUIRE(AffineGridShape(theta.shape().data(), 3, size.data(), size.size(), &shape).ok());
    std::vector<int64_t> expected = {size[0]};
    expected.insert(expected.end(), size.begin() + 2, size.end());
    expected.push_back(r);
    CHECK(shape == expected);
    // Null data is fine for an empty tensor.
    const TensorView theta_view{DType::kFloat32, size[0] ? theta.data() : nullptr,
                                theta.shape().data(), 3};
    CHECK(AffineGrid(theta_view, size.data(), size.size(),
                     MutableTensorView{DType::kFloat32, nullptr, shape.data(), shape.size()})
              .ok());
  }
}

// ---------------------------------------------------------------------------------------------
// Validation: the code, the argument and the value named, the grid left untouched.

struct Call {
  DType theta_dtype = DType::kFloat32;
  std::vector<int64_t> theta_shape = {1, 2, 3};
  bool theta_data = true;
  bool theta_shape_data = true;
  std::vector<int64_t> size = {1, 1, 2, 3};
  bool size_data = true;
  size_t size_length = 4;
  DType grid_dtype = DType::kFloat32;
  std::vector<int64_t> grid_shape = {1, 2, 3, 2};
  bool grid_data = true;
};

// Runs the call on buffers large enough for its valid counterpart; a refused call must leave the
// grid as it was.
Status Refused(const Call& call) {
  std::vector<double> theta(64, 0.5), grid(64, 42);
  const Status status =
      AffineGrid(TensorView{call.theta_dtype, call.theta_data ? theta.data() : nullptr,
                            call.theta_shape_data ? call.theta_shape.data() : nullptr,
                            call.theta_shape.size()},
                 call.size_data ? call.size.data() : nullptr, call.size_length,
                 MutableTensorView{call.grid_dtype, call.grid_data ? grid.data() : nullptr,
                                   call.grid_shape.data(), call.grid_shape.size()});
  if (!status.ok()) CHECK(grid == std::vector<double>(64, 42));
  return status;
}

void CheckRefused(const Call& call, StatusCode code, const std::string& message) {
  const Status status = Refused(call);
  INFO(status.message());
  CHECK(status.code() == code);
  CHECK_THAT(status.message(), Catch::Contains(message));
}

TEST_CASE("A valid call of the validation table succeeds", "[affine_grid][validate]") {
  CHECK(Refused(Call{}).ok());
  Call three;
  three.theta_shape = {2, 3, 4};
  three.size = {2, 5, 1, 2, 3};
  three.size_length = 5;
  three.grid_shape = {2, 1, 2, 3, 3};
  CHECK(Refused(three).ok());
}

TEST_CASE("Bad dtypes are type mismatches naming the argument and the dtype",
          "[affine_grid][validate]") {
  Call c;
  c.theta_dtype = c.grid_dtype = DType::kInt32;
  CheckRefused(c, StatusCode::kTypeMismatch,
               "theta: dtype int32 is not a floating-point type (float32, float64, float16 or "
               "bfloat16)");
  c.theta_dtype = c.grid_dtype = static_cast<DType>(99);
  CheckRefused(c, StatusCode::kTypeMismatch, "theta: dtype value 99 is not a gridsample::DType");
  c = Call{};
  c.grid_dtype = static_cast<DType>(-1);
  CheckRefused(c, StatusCode::kTypeMismatch, "grid: dtype value -1");
  c.grid_dtype = DType::kFloat64;
  CheckRefused(c, StatusCode::kTypeMismatch,
               "grid: dtype float64 must equal theta's dtype float32");
}

TEST_CASE("Bad sizes are errors naming size and the value", "[affine_grid][validate]") {
  Call c;
  c.size_length = 3;
  CheckRefused(c, StatusCode::kInvalidArgument,
               "size: 3 values; expected 4, (N, C, H, W), or 5, (N, C, D, H, W)");
  c.size_length = 6;
  CheckRefused(c, StatusCode::kInvalidArgument, "size: 6 values");
  c = Call{};
  c.size_data = false;
  CheckRefused(c, StatusCode::kInvalidArgument, "size: the values are null but their count is 4");
  c = Call{};
  c.size = {1, 1, 2, -3};
  CheckRefused(c, StatusCode::kInvalidArgument,
               "size: value -3 at index 3 of [1, 1, 2, -3] is negative");
  c.size = {1, -1, 2, 3};
  CheckRefused(c, StatusCode::kInvalidArgument, "size: value -1 at index 1");
}

TEST_CASE("theta's shape must fit size: errors name theta and both", "[affine_grid][validate]") {
  Call c;
  c.theta_shape = {2, 3};
  CheckRefused(c, StatusCode::kInvalidArgument,
               "theta: shape [2, 3] must be (N, 2, 3) for the 2-D size [1, 1, 2, 3]");
  c.theta_shape = {1, 3, 4};
  CheckRefused(c, StatusCode::kInvalidArgument, "theta: shape [1, 3, 4] must be (N, 2, 3)");
  c = Call{};
  c.size = {1, 1, 1, 2, 3};
  c.size_length = 5;
  CheckRefused(c, StatusCode::kInvalidArgument,
               "theta: shape [1, 2, 3] must be (N, 3, 4) for the 3-D size [1, 1, 1, 2, 3]");
  c = Call{};
  c.theta_shape = {2, 2, 3};
  CheckRefused(c, StatusCode::kInvalidArgument,
               "theta: batch 2 must equal N = 1 of size [1, 1, 2, 3]");
  c = Call{};
  c.theta_shape_data = false;
  CheckRefused(c, StatusCode::kInvalidArgument, "theta: shape is null but rank is 3");
  c = Call{};
  c.theta_shape = {-1, 2, 3};
  CheckRefused(c, StatusCode::kInvalidArgument, "theta: extent -1 of axis 0");
}

TEST_CASE("The grid view must be AffineGridShape's: errors name grid and both shapes",
          "[affine_grid][validate]") {
  Call c;
  c.grid_shape = {1, 3, 2, 2};
  CheckRefused(c, StatusCode::kInvalidArgument,
               "grid: shape [1, 3, 2, 2] must be [1, 2, 3, 2] (N, H, W, 2)");
  c.grid_shape = {1, 2, 3};
  CheckRefused(c, StatusCode::kInvalidArgument, "grid: shape [1, 2, 3] must be [1, 2, 3, 2]");
  c.grid_shape = {1, 2, -3, 2};
  CheckRefused(c, StatusCode::kInvalidArgument, "grid: extent -3 of axis 2");
  c = Call{};
  c.theta_shape = {1, 3, 4};
  c.size = {1, 1, 2, 2, 2};
  c.size_length = 5;
  c.grid_shape = {1, 2, 2, 2, 2};
  CheckRefused(c, StatusCode::kInvalidArgument,
               "grid: shape [1, 2, 2, 2, 2] must be [1, 2, 2, 2, 3] (N, D, H, W, 3)");
}

TEST_CASE("Null data is an error naming the tensor", "[affine_grid][validate]") {
  Call c;
  c.theta_data = false;
  CheckRefused(c, StatusCode::kInvalidArgument, "theta: data is null for a tensor of 6 elements");
  c = Call{};
  c.grid_data = false;
  CheckRefused(c, StatusCode::kInvalidArgument, "grid: data is null for a tensor of 12 elements");
}

TEST_CASE("Sizes whose grid overflows are out of range, never a wrapped count",
          "[affine_grid][validate]") {
  Call c;
  c.size = {1, 1, int64_t{1} << 40, int64_t{1} << 40};
  c.grid_shape = {1, int64_t{1} << 40, int64_t{1} << 40, 2};
  CheckRefused(c, StatusCode::kOutOfRange,
               "grid: the element count of shape [1, 1099511627776, 1099511627776, 2] overflows");
  // The count fits, its bytes do not.
  c.size = {1, 1, int64_t{1} << 30, int64_t{1} << 30};
  c.grid_shape = {1, int64_t{1} << 30, int64_t{1} << 30, 2};
  CheckRefused(c, StatusCode::kOutOfRange,
               "grid: 2305843009213693952 elements of float32 overflow the address space");
  std::vector<int64_t> shape;
  const int64_t theta_shape[] = {1, 2, 3};
  CHECK(AffineGridShape(theta_shape, 3, c.size.data(), 4, nullptr).code() ==
        StatusCode::kInvalidArgument);
  CHECK(AffineGridShape(theta_shape, 3, c.size.data(), 4, &shape).ok());
  CHECK(shape == c.grid_shape);
}

}  // namespace
}  // namespace test
}  // namespace gridsample
