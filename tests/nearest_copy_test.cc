// The nearest-plan path's copy kernel (nearest-inl.h's CopyElementsOfSize) both ways, loads one
// by one and AVX-512's gathers (which the CPU's timing picks, so that a suite through the API
// tests only one), against a plain copy, bit for bit, on every compiled target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/nearest_copy_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "nearest-inl.h"  // CopyElementsOfSize, per target

#if HWY_ONCE
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/targets.h"

namespace gridsample {
HWY_EXPORT(CopyElementsOfSize);

namespace {

TEST_CASE("Nearest copies, gathered or loaded one by one, copy every element's bits",
          "[nearest][simd]") {
  std::mt19937_64 rng(2300);
  test::ForEachTarget([&](int64_t) {
    for (size_t bytes : {1, 2, 4, 8}) {
      // A plane of 100,000 elements (past 2^16 bytes, so that offsets need more than 16 bits),
      // every byte random; counts with and without a partial last vector.
      const size_t plane_count = 100000;
      std::vector<unsigned char> plane(plane_count * bytes);
      for (unsigned char& b : plane) b = static_cast<unsigned char>(rng());
      for (size_t count : {size_t{0}, size_t{5}, size_t{64}, size_t{1000}}) {
        std::vector<int64_t> offsets(count);
        for (int64_t& offset : offsets) offset = static_cast<int64_t>(rng() % plane_count);
        if (count > 1) offsets[count - 1] = plane_count - 1;  // the plane's last element
        for (bool gathers : {false, true}) {
          INFO(bytes << "-byte elements, " << count << " locations, gathers " << gathers);
          std::vector<unsigned char> out(count * bytes, 0xAB);
          HWY_DYNAMIC_DISPATCH(CopyElementsOfSize)
          (bytes, plane.data(), offsets.data(), count, out.data(), gathers);
          size_t differ = 0;
          for (size_t i = 0; i < count; ++i) {
            differ += std::memcmp(&out[i * bytes], &plane[offsets[i] * bytes], bytes) != 0;
          }
          CHECK(differ == 0);
        }
      }
    }
  });
}

}  // namespace
}  // namespace gridsample
#endif  // HWY_ONCE
