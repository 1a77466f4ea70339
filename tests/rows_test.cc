// The SIMD kernels of rows.cc on every compiled target, against plain loops.
#include "rows.h"

#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "aligned_row.h"
#include "tests/targets.h"

namespace gridsample {
namespace {

template <typename T>
void CheckRows() {
  std::mt19937 rng(3);
  std::uniform_real_distribution<T> dist(-4, 4);
  for (size_t count : {kRowBlock, 3 * kRowBlock}) {
    AlignedRow<T> a = AllocateRow<T>(count), b = AllocateRow<T>(count), acc = AllocateRow<T>(count);
    std::vector<T> expected_acc(count), expected_product(count);
    for (size_t i = 0; i < count; ++i) {
      a[i] = dist(rng);
      b[i] = dist(rng);
      acc[i] = dist(rng);
      expected_acc[i] = acc[i] + a[i] * b[i];
      expected_product[i] = a[i] * b[i];
    }
    MulAddRow(a.get(), b.get(), acc.get(), count);
    for (size_t i = 0; i < count; ++i) {
      CHECK(acc[i] == Approx(expected_acc[i]).epsilon(1e-6));
    }
    MulRow(a.get(), b.get(), a.get(), count);  // in place, as the planner uses it
    for (size_t i = 0; i < count; ++i) CHECK(a[i] == expected_product[i]);
  }
}

TEST_CASE("MulAddRow and MulRow on every target", "[kernel][simd]") {
  test::ForEachTarget([](int64_t) {
    CheckRows<float>();
    CheckRows<double>();
  });
}

}  // namespace
}  // namespace gridsample
