// Runs golden cases (tests/golden_file.h) through every implementation under test and compares
// each output element with the expected value within a tolerance. Shared by the golden-file,
// spec-example and reference-vector suites.
#ifndef GRIDSAMPLE_TESTS_GOLDEN_CHECK_H_
#define GRIDSAMPLE_TESTS_GOLDEN_CHECK_H_

#include <cmath>
#include <cstdio>
#include <functional>
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

// Whether element i of an implementation's output passes against element i of the expected
// output (same dtype and size).
using ElementCheck =
    std::function<bool(const AnyTensor& actual, const AnyTensor& expected, size_t i)>;

namespace golden_internal {

// "" when every element of `actual` passes `check`; otherwise the first bad element and how
// many are bad.
inline std::string DescribeMismatch(const AnyTensor& actual, const AnyTensor& expected,
                                    const ElementCheck& check) {
  if (actual.size() != expected.size()) {
    return std::to_string(actual.size()) + " elements, expected " + std::to_string(expected.size());
  }
  size_t bad = 0;
  std::string first;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (check(actual, expected, i)) continue;
    if (bad++ == 0) {
      first = "element " + std::to_string(i) + " is " + actual.Describe(i) + ", expected " +
              expected.Describe(i);
    }
  }
  if (bad == 0) return "";
  return first + " (" + std::to_string(bad) + " of " + std::to_string(expected.size()) +
         " elements out of tolerance)";
}

// An output that starts at a value no case expects, so that an element left unwritten shows
// (as far as the dtype can hold such a value: narrow integers cannot).
inline AnyTensor UnwrittenOutput(DType dtype, const std::vector<int64_t>& shape) {
  AnyTensor y(dtype, shape);
  for (size_t i = 0; i < y.size(); ++i) y.Set(i, -987654.25);
  if (y.info().kind == Conversion::kBool) y.FillBytes(0xA5);  // Set would store a valid true
  return y;
}

}  // namespace golden_internal

// Runs `c` through every implementation under test; adds a line to *mismatches for each bad
// attribute, wrong output shape, failed call or output element that fails `check` (at most one
// line per implementation, naming the case, where it comes from, the implementation and the
// first bad element). Returns how many implementations' outputs were compared in full.
inline size_t RunGoldenCase(const GoldenCase& c, const ElementCheck& check,
                            Mismatches* mismatches) {
  const std::string what = c.name + " (" + c.where + ")";
  Options options;
  options.align_corners = c.align_corners;
  const Status mode_status = ParseMode(c.mode, &options.mode);
  const Status padding_status = ParsePadding(c.padding, &options.padding);
  if (!mode_status.ok() || !padding_status.ok()) {
    mismatches->Add(what + ": attributes: " + mode_status.message() + padding_status.message());
    return 0;
  }

  std::vector<int64_t> y_shape;
  const Status shape_status = OutputShape(c.x.shape().data(), c.x.shape().size(),
                                          c.grid.shape().data(), c.grid.shape().size(), &y_shape);
  if (!shape_status.ok() || y_shape != c.y.shape()) {
    mismatches->Add(what + ": OutputShape does not give y's shape: " + shape_status.message());
    return 0;
  }

  size_t compared = 0;
  for (const Implementation& impl : ImplementationsUnderTest()) {
    const std::string who = what + ", " + impl.name + ": ";
    AnyTensor y = golden_internal::UnwrittenOutput(c.y.dtype(), c.y.shape());
    options.num_threads = impl.num_threads;
    const Status status = impl.run(c.x.view(), c.grid.view(), y.mutable_view(), options);
    if (!status.ok()) {
      mismatches->Add(who + "failed: " + status.message());
      continue;
    }
    const std::string mismatch = golden_internal::DescribeMismatch(y, c.y, check);
    if (!mismatch.empty()) mismatches->Add(who + mismatch);
    ++compared;
  }
  return compared;
}

// RunGoldenCase with the real-valued tolerance `tol` (float outputs).
inline size_t RunGoldenCase(const GoldenCase& c, Tolerance tol, Mismatches* mismatches) {
  return RunGoldenCase(
      c,
      [tol](const AnyTensor& actual, const AnyTensor& expected, size_t i) {
        return WithinTolerance(actual.Get(i), expected.Get(i), tol);
      },
      mismatches);
}

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_GOLDEN_CHECK_H_
