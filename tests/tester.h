// A fluent tester: builds a case, draws seeded random data, runs the fast path and the
// reference, and compares them with a tolerance per dtype, printing the seed on failure. With
// .layout(Layout::kChannelsLast) it also runs both on X transposed to channels-last, which
// must give the channels-first outputs transposed, bit for bit.
//
//   GridSampleTester().input({1, 3, 5, 7}).output({4, 6}).mode(Mode::kCubic).seed(7).Test();
#ifndef GRIDSAMPLE_TESTS_TESTER_H_
#define GRIDSAMPLE_TESTS_TESTER_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"

namespace gridsample {
namespace test {

class GridSampleTester {
 public:
  // X's whole shape, channels-first: (N, C, D1..Dr).
  GridSampleTester& input(std::vector<int64_t> shape) {
    x_shape_ = std::move(shape);
    return *this;
  }
  // The output's spatial extents (D1_out..Dr_out).
  GridSampleTester& output(std::vector<int64_t> spatial) {
    out_spatial_ = std::move(spatial);
    return *this;
  }
  GridSampleTester& mode(Mode m) {
    options_.mode = m;
    return *this;
  }
  GridSampleTester& padding(Padding p) {
    options_.padding = p;
    return *this;
  }
  GridSampleTester& align_corners(bool a) {
    options_.align_corners = a;
    return *this;
  }
  // Channels-last also runs the call on X transposed to (N, D1..Dr, C) (see the top).
  GridSampleTester& layout(Layout l) {
    layout_ = l;
    return *this;
  }
  GridSampleTester& threads(int n) {
    options_.num_threads = n;
    return *this;
  }
  GridSampleTester& dtype(DType d) {
    x_dtype_ = d;
    return *this;
  }
  GridSampleTester& grid_dtype(DType d) {
    grid_dtype_ = d;
    return *this;
  }
  // Grid values are uniform in [-range, range].
  GridSampleTester& grid_range(double range) {
    grid_range_ = range;
    return *this;
  }
  // Mixes in NaN, ±inf, huge values, exact pixel centres and exact halves.
  GridSampleTester& special_values(bool on) {
    special_ = on;
    return *this;
  }
  // Mixes NaN and ±inf into X (floating-point dtypes): they must reach an output only
  // through a tap that weighs them, as in the reference.
  GridSampleTester& special_input(bool on) {
    special_input_ = on;
    return *this;
  }
  GridSampleTester& seed(uint64_t s) {
    seed_ = s;
    return *this;
  }

  // Runs both implementations and checks they agree (status, and every element within the
  // dtype's tolerance). Returns the fast path's status.
  Status Test() const {
    std::mt19937_64 rng(seed_);
    AnyTensor x = RandomInput(&rng);
    AnyTensor grid = RandomGrid(&rng);
    const Results r = RunBoth(x, grid, options_);
    INFO(Describe());
    CHECK(r.fast_status.code() == r.ref_status.code());
    CHECK(r.fast_status.message() == r.ref_status.message());
    if (!r.fast_status.ok() || !r.ref_status.ok()) return r.fast_status;
    Mismatches mismatches;
    for (size_t i = 0; i < r.fast.size(); ++i) {
      if (!AgreesWithReference(r.fast, r.ref, i) && !BothNonFinite(r.fast, r.ref, i)) {
        mismatches.Add("element " + std::to_string(i) + ": fast " + r.fast.Describe(i) +
                       ", reference " + r.ref.Describe(i));
      }
    }
    INFO(mismatches.Report());
    CHECK(mismatches.count() == 0);
    if (layout_ == Layout::kChannelsLast) return TestChannelsLast(x, grid, r);
    return r.fast_status;
  }

  std::string Describe() const {
    std::ostringstream out;
    out << "seed " << seed_ << ", " << LayoutName(layout_) << ", x " << DTypeName(x_dtype_)
        << Shape(x_shape_) << " (as channels-first), grid " << DTypeName(grid_dtype_) << " out"
        << Shape(out_spatial_) << " range " << grid_range_ << (special_ ? " +special" : "")
        << (special_input_ ? ", x +special" : "") << ", " << OptionsText(options_) << ", threads "
        << options_.num_threads;
    return out.str();
  }

 private:
  // The call on channels-last X: the same status codes as channels-first (the messages name the
  // layout), and the channels-first outputs transposed, bit for bit, from both implementations.
  Status TestChannelsLast(const AnyTensor& x, const AnyTensor& grid, const Results& first) const {
    Options options = options_;
    options.layout = Layout::kChannelsLast;
    const Results r = RunBoth(ToChannelsLast(x), grid, options);
    CHECK(r.fast_status.code() == first.fast_status.code());
    CHECK(r.fast_status.code() == r.ref_status.code());
    CHECK(r.fast_status.message() == r.ref_status.message());
    if (!r.fast_status.ok() || !r.ref_status.ok()) return r.fast_status;
    const AnyTensor fast = ToChannelsLast(first.fast), ref = ToChannelsLast(first.ref);
    REQUIRE(fast.size() == r.fast.size());
    Mismatches mismatches;
    for (size_t i = 0; i < fast.size(); ++i) {
      if (!r.fast.SameBits(i, fast, i)) {
        mismatches.Add("element " + std::to_string(i) + ": channels-last " + r.fast.Describe(i) +
                       ", channels-first " + fast.Describe(i));
      }
      if (!r.ref.SameBits(i, ref, i)) {
        mismatches.Add("element " + std::to_string(i) + ": channels-last reference " +
                       r.ref.Describe(i) + ", channels-first reference " + ref.Describe(i));
      }
    }
    INFO(mismatches.Report());
    CHECK(mismatches.count() == 0);
    return r.fast_status;
  }

  static std::string Shape(const std::vector<int64_t>& shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? "," : "") + std::to_string(shape[i]);
    return out + "]";
  }

  AnyTensor RandomInput(std::mt19937_64* rng) const {
    AnyTensor x(x_dtype_, x_shape_);
    const DTypeInfo& info = x.info();
    for (size_t i = 0; i < x.size(); ++i) {
      switch (info.kind) {
        case Conversion::kInt: {
          // The whole range for narrow types (saturation), a band for wide ones (the float64
          // compute type holds them exactly).
          const double lo = info.digits <= 16 ? static_cast<double>(IntMin(info)) : -1e6;
          const double hi = info.digits <= 16 ? static_cast<double>(IntMax(info)) : 1e6;
          x.Set(i, std::floor(
                       std::uniform_real_distribution<double>(info.is_signed ? lo : 0, hi)(*rng)));
          break;
        }
        case Conversion::kBool:
          x.SetBits(i, (*rng)() % 3);  // 2 is a nonzero byte that must read as true
          break;
        case Conversion::kString:
          x.SetString(i, "s" + std::to_string((*rng)() % 1000));
          break;
        case Conversion::kComplex:
          x.SetComplex(i, {Uniform(rng, 10), Uniform(rng, 10)});
          break;
        default: {
          const double specials[] = {std::nan(""), std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity()};
          x.Set(i, special_input_ && (*rng)() % 6 == 0 ? specials[(*rng)() % 3] : Uniform(rng, 10));
        }
      }
    }
    return x;
  }

  AnyTensor RandomGrid(std::mt19937_64* rng) const {
    std::vector<int64_t> shape = {x_shape_.empty() ? 0 : x_shape_[0]};
    shape.insert(shape.end(), out_spatial_.begin(), out_spatial_.end());
    shape.push_back(static_cast<int64_t>(out_spatial_.size()));
    AnyTensor grid(grid_dtype_, shape);
    const double inf = std::numeric_limits<double>::infinity();
    const double specials[] = {std::nan(""), inf,  -inf, 1e30, -1e30, 1e6, -1e6, 0.0,
                               1.0,          -1.0, 0.5,  -0.5, 0.25,  1.5, -1.5, 3.0};
    for (size_t i = 0; i < grid.size(); ++i) {
      double v = Uniform(rng, grid_range_);
      if (special_ && (*rng)() % 5 == 0) v = specials[(*rng)() % std::size(specials)];
      grid.Set(i, v);
    }
    return grid;
  }

  static double Uniform(std::mt19937_64* rng, double range) {
    return std::uniform_real_distribution<double>(-range, range)(*rng);
  }

  // With non-finite inputs, inf against NaN turns on whether a tiny weight rounds to 0 (0 *
  // inf is NaN), and the two compute cubic weights in different precisions. A non-finite
  // value against a finite one is still a mismatch.
  bool BothNonFinite(const AnyTensor& fast, const AnyTensor& ref, size_t i) const {
    const Conversion kind = fast.info().kind;
    return special_input_ &&
           (kind == Conversion::kFloat || kind == Conversion::kHalf ||
            kind == Conversion::kBFloat16) &&
           !std::isfinite(fast.Get(i)) && !std::isfinite(ref.Get(i));
  }

  std::vector<int64_t> x_shape_ = {1, 1, 4, 4};
  std::vector<int64_t> out_spatial_ = {3, 3};
  Options options_;
  Layout layout_ = Layout::kChannelsFirst;
  DType x_dtype_ = DType::kFloat32;
  DType grid_dtype_ = DType::kFloat32;
  double grid_range_ = 1.2;
  bool special_ = false;
  bool special_input_ = false;
  uint64_t seed_ = 1;
};

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_TESTER_H_
