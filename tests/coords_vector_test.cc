// The vector twins of coords.h (coords-inl.h) against their scalar originals, lane by lane and
// bit for bit, on every compiled target: the plans take either form for the same numbers.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/coords_vector_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "coords-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = the twin `which` of in[i], for i < n (a multiple of every target's lane count):
// 0 UnnormalizeVector, 1 ReflectVector (out untouched and false returned if it declines),
// 2 ClampFarVector, 3 + j tap j's weight of CubicTapWeightsVector (coords.h's CubicWeight of
// the tap's distance), 7 + k PadCoordinateVector with the k-th padding of paddings.inc (zeros,
// border, reflection; false returned if it declines).
bool TwinLanes(int which, const float* in, size_t n, int64_t size, bool align_corners, float* out) {
  const hn::ScalableTag<float> d;
  for (size_t i = 0; i < n; i += hn::Lanes(d)) {
    auto v = hn::LoadU(d, in + i);
    switch (which) {
      case 0:
        v = UnnormalizeVector(d, v, size, align_corners);
        break;
      case 1:
        if (!ReflectVector(d, v, size, align_corners)) return false;
        break;
      case 2:
        v = ClampFarVector(d, v, size);
        break;
      case 7:
      case 8:
      case 9: {
        Options options;
        options.padding = which == 7   ? Padding::kZeros
                          : which == 8 ? Padding::kBorder
                                       : Padding::kReflection;
        options.align_corners = align_corners;
        if (!PadCoordinateVector(d, v, size, options)) return false;
        break;
      }
      default: {  // no arrays of vectors: sizeless on SVE
        hn::Vec<decltype(d)> w0, w1, w2, w3;
        CubicTapWeightsVector(d, v, w0, w1, w2, w3);
        v = which == 3 ? w0 : which == 4 ? w1 : which == 5 ? w2 : w3;
      }
    }
    hn::StoreU(v, d, out + i);
  }
  return true;
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "coords.h"
#include "tests/any_tensor.h"
#include "tests/targets.h"

namespace gridsample {
HWY_EXPORT(TwinLanes);

namespace {

constexpr size_t kCount = test::kTwinLanes;

TEST_CASE("coords-inl.h's vector twins equal coords.h lane by lane on every target",
          "[coords][simd]") {
  std::mt19937_64 rng(1818);
  std::mt19937_64 padding_rng(1819);  // the padding twins' own: the others keep their inputs
  test::Mismatches mismatches;
  size_t reflected = 0;
  test::ForEachTarget([&](int64_t target) {
    for (int64_t size : {1, 2, 3, 5, 17, 1000, 65537}) {
      for (bool align_corners : {false, true}) {
        const float last = static_cast<float>(size - 1);
        const float period = ReflectionPeriod<float>(size, align_corners);
        for (int which = 0; which < 10; ++which) {
          std::vector<float> in(kCount), out(kCount, 0.0f);
          for (size_t i = 0; i < kCount; ++i) {
            // Grid values near [-1, 1], reflected coordinates inside one period, clamps around
            // both ends, fractions in [0, 1) (with 0, and the largest below 1, whose t + 1
            // rounds to 2 and 2 - t to 1); padded coordinates as reflected (reflection) or
            // clamped ones (zeros, border).
            const double u =
                std::uniform_real_distribution<double>(-1, 1)(which >= 7 ? padding_rng : rng);
            const float fractions[] = {0.0f, 0.99999994f, 0.5f, 1e-8f};
            in[i] = which == 0                 ? static_cast<float>(1.2 * u)
                    : which == 1 || which == 9 ? static_cast<float>(u) * period
                    : which == 2 || which >= 7 ? static_cast<float>(u * (last + 20.0f))
                    : i % 8 == 0               ? fractions[i / 8 % 4]
                                 : std::min(static_cast<float>(std::fabs(u)), 0.99999994f);
          }
          const bool done = HWY_DYNAMIC_DISPATCH(TwinLanes)(which, in.data(), kCount, size,
                                                            align_corners, out.data());
          if ((which == 1 || which == 9) && !done) {  // declines only where the period is 0
            if (period != 0.0f) mismatches.Add("reflection declined lanes inside a period");
            continue;
          }
          reflected += which == 1 || which == 9;
          for (size_t i = 0; i < kCount; ++i) {
            const float v = in[i];
            const float tap_distance[] = {v + 1.0f, v, 1.0f - v, 2.0f - v};
            Options options;
            options.padding = which == 7   ? Padding::kZeros
                              : which == 8 ? Padding::kBorder
                                           : Padding::kReflection;
            options.align_corners = align_corners;
            const float expected = which == 0   ? Unnormalize<float>(v, size, align_corners)
                                   : which == 1 ? Reflect<float>(v, size, align_corners)
                                   : which == 2 ? ClampFar<float>(v, last)
                                   : which >= 7 ? PadCoordinate<float>(v, size, options)
                                                : CubicWeight<float>(tap_distance[which - 3]);
            if (!test::SameBits(out[i], expected)) {
              mismatches.Add(std::string(hwy::TargetName(target)) + ": twin " +
                             std::to_string(which) + " of " + std::to_string(v) + ", size " +
                             std::to_string(size) + (align_corners ? " ac" : "") + ": vector " +
                             std::to_string(out[i]) + ", scalar " + std::to_string(expected));
            }
          }
        }
      }
    }
  });
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
  CHECK(reflected > 0);
}

}  // namespace
}  // namespace gridsample
#endif  // HWY_ONCE
