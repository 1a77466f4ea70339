// Runs golden cases (tests/golden_file.h) through every implementation under test and compares
// each output element with the expected value within a tolerance. Shared by the golden-file and
// the spec-example suites.
#ifndef GRIDSAMPLE_TESTS_GOLDEN_CHECK_H_
#define GRIDSAMPLE_TESTS_GOLDEN_CHECK_H_

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gridsample/gridsample.h"
#include "reference.h"
#include "tests/any_tensor.h"
#include "tests/golden_file.h"

namespace gridsample {
namespace test {

// An element passes when |actual - expected| <= abs + rel * |expected|.
struct Tolerance {
  double abs;
  double rel;
};

// The golden file's tolerance for an output dtype: float32 outputs may differ from the exactly
// computed expectation by float32 rounding in the interpolation, float64 ones barely at all.
inline Tolerance GoldenTolerance(DType dtype) {
  return dtype == DType::kFloat64 ? Tolerance{1e-12, 1e-12} : Tolerance{1e-5, 1e-5};
}

// NaN passes only for an expected NaN, an infinity only for the same infinity.
inline bool WithinTolerance(double actual, double expected, Tolerance tol) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual)) return actual == expected;
  return std::fabs(actual - expected) <= tol.abs + tol.rel * std::fabs(expected);
}

// One implementation under test. The fast path runs single-threaded and with every hardware
// thread, since its results must not depend on the thread count.
struct Implementation {
  const char* name;
  Status (*run)(const TensorView&, const TensorView&, const MutableTensorView&, const Options&);
  int num_threads;
};

inline const std::vector<Implementation>& ImplementationsUnderTest() {
  static const std::vector<Implementation> all = {
      {"GridSample(num_threads=1)", &GridSample, 1},
      {"GridSample(num_threads=0)", &GridSample, 0},
      {"ReferenceGridSample", &ReferenceGridSample, 1},
  };
  return all;
}

namespace golden_internal {

inline std::string Number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", v);
  return buffer;
}

// "" when every element of `actual` is within `tol` of `expected`; otherwise the first bad
// element and how many are bad.
inline std::string DescribeMismatch(const AnyTensor& actual, const std::vector<double>& expected,
                                    Tolerance tol) {
  if (actual.size() != expected.size()) {
    return std::to_string(actual.size()) + " elements, expected " +
           std::to_string(expected.size());
  }
  size_t bad = 0;
  std::string first;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (WithinTolerance(actual.Get(i), expected[i], tol)) continue;
    if (bad++ == 0) {
      first = "element " + std::to_string(i) + " is " + Number(actual.Get(i)) + ", expected " +
              Number(expected[i]);
    }
  }
  if (bad == 0) return "";
  return first + " (" + std::to_string(bad) + " of " + std::to_string(expected.size()) +
         " elements out of tolerance)";
}

}  // namespace golden_internal

// Runs `c` through every implementation under test; adds a line to *mismatches for each bad
// attribute, wrong output shape, failed call or output out of tolerance (at most one line per
// implementation, naming the case, where it comes from, the implementation and the first bad
// element).
inline void RunGoldenCase(const GoldenCase& c, Tolerance tol, Mismatches* mismatches) {
  const std::string what = c.name + " (" + c.where + ")";
  Options options;
  options.align_corners = c.align_corners;
  const Status mode_status = ParseMode(c.mode, &options.mode);
  const Status padding_status = ParsePadding(c.padding, &options.padding);
  if (!mode_status.ok() || !padding_status.ok()) {
    mismatches->Add(what + ": attributes: " + mode_status.message() + padding_status.message());
    return;
  }

  const AnyTensor x = MakeTensor(c.x.dtype, c.x.shape, c.x.values);
  const AnyTensor grid = MakeTensor(c.grid.dtype, c.grid.shape, c.grid.values);
  std::vector<int64_t> y_shape;
  const Status shape_status = OutputShape(x.shape().data(), x.shape().size(),
                                          grid.shape().data(), grid.shape().size(), &y_shape);
  if (!shape_status.ok() || y_shape != c.y.shape) {
    mismatches->Add(what + ": OutputShape does not give y's shape: " + shape_status.message());
    return;
  }

  // Outputs start at a value no case expects, so that an element left unwritten shows.
  const std::vector<double> unwritten(c.y.values.size(), -987654.25);
  for (const Implementation& impl : ImplementationsUnderTest()) {
    const std::string who = what + ", " + impl.name + ": ";
    AnyTensor y = MakeTensor(c.y.dtype, c.y.shape, unwritten);
    options.num_threads = impl.num_threads;
    const Status status = impl.run(x.view(), grid.view(), y.mutable_view(), options);
    if (!status.ok()) {
      mismatches->Add(who + "failed: " + status.message());
      continue;
    }
    const std::string mismatch = golden_internal::DescribeMismatch(y, c.y.values, tol);
    if (!mismatch.empty()) mismatches->Add(who + mismatch);
  }
}

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_GOLDEN_CHECK_H_
