// The coordinate math of coords.h against values worked out by hand from docs/semantics.md.
#include "coords.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

namespace gridsample {
namespace {

Options Make(Mode mode, Padding padding, bool align_corners) {
  Options o;
  o.mode = mode;
  o.padding = padding;
  o.align_corners = align_corners;
  return o;
}

TEST_CASE("Unnormalize maps -1 and 1 to corners or centres", "[coords]") {
  CHECK(Unnormalize(-1.0f, 4, false) == -0.5f);  // the outer edge of pixel 0
  CHECK(Unnormalize(1.0f, 4, false) == 3.5f);
  CHECK(Unnormalize(0.0f, 5, false) == 2.0f);
  CHECK(Unnormalize(-1.0f, 4, true) == 0.0f);  // the centre of pixel 0
  CHECK(Unnormalize(1.0f, 4, true) == 3.0f);
  CHECK(Unnormalize(123.0f, 1, true) == 0.0f);  // a size-1 axis has one pixel, at 0
  CHECK(Unnormalize(-0.2, 2, false) == Approx(0.3));
}

TEST_CASE("Reflect folds about the borders, in O(1)", "[coords]") {
  // align_corners=1: mirrors at 0 and s-1 = 3, period 6.
  CHECK(Reflect(-1.0, 4, true) == 1.0);
  CHECK(Reflect(4.0, 4, true) == 2.0);
  CHECK(Reflect(7.0, 4, true) == 1.0);
  CHECK(Reflect(-7.5, 4, true) == 1.5);
  // The spec's example, in pixels of a size-3 axis: -3.5 → 1.5 → 0.5 in grid units.
  CHECK(Reflect(Unnormalize(-3.5, 3, true), 3, true) == Unnormalize(0.5, 3, true));
  // align_corners=0: mirrors at -0.5 and 3.5, then a clamp into [0, 3].
  CHECK(Reflect(-1.0, 4, false) == 0.0);
  CHECK(Reflect(-0.75, 4, false) == 0.0);  // -0.25 after the mirror, clamped
  CHECK(Reflect(4.0, 4, false) == 3.0);
  CHECK(Reflect(5.0, 4, false) == 2.0);
  CHECK(Reflect(-4.5, 4, false) == 3.0);   // 3.5, clamped
  CHECK(Reflect(9.25, 4, false) == 1.25);  // 9.25 - 8
  // Size 1: the single pixel, whatever the coordinate.
  CHECK(Reflect(1e30f, 1, true) == 0.0f);
  CHECK(Reflect(-2.75f, 1, false) == 0.0f);
  // Huge values: 2^60 + 2^40 is a multiple of the period 8, so it reflects like 0.
  CHECK(Reflect(std::ldexp(1.0, 60) + std::ldexp(1.0, 40), 4, false) == 0.0);
  // 2^100 = 4 (mod 6), which the period-6 mirror sends to 2.
  CHECK(Reflect(std::ldexp(1.0f, 100), 4, true) == 2.0f);
}

TEST_CASE("CubicWeight keeps its digits and sign next to the zeros at 1 and 2", "[coords]") {
  // The expanded polynomials cancel there: at t = 2 - 2^-12 their float32 value was off by more
  // than the weight itself.
  auto exact = [](long double t) {
    const long double a = -0.75L;
    t = std::fabs(t);
    return t <= 1 ? (a + 2) * t * t * t - (a + 3) * t * t + 1
                  : a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
  };
  for (int k = 1; k <= 20; ++k) {
    const float e = std::ldexp(1.0f, -k);
    for (float t : {1.0f - e, 1.0f + e, 2.0f - e}) {
      INFO("t = " << t);
      const long double want = exact(t);
      CHECK(std::fabs(CubicWeight(t) - want) <= 1e-6L * std::fabs(want));
    }
  }
}

TEST_CASE("CubicWeight is the A = -0.75 kernel", "[coords]") {
  CHECK(CubicWeight(0.0) == 1.0);
  CHECK(CubicWeight(1.0) == 0.0);
  CHECK(CubicWeight(2.0) == 0.0);
  CHECK(CubicWeight(0.5) == Approx(0.59375));
  CHECK(CubicWeight(1.5) == Approx(-0.09375));
  CHECK(CubicWeight(-1.5) == Approx(-0.09375));
  CHECK(CubicWeight(3.0) == 0.0);
}

TEST_CASE("AxisTaps: linear, nearest and cubic taps with padding", "[coords]") {
  int64_t offsets[4];
  double weights[4];
  const int64_t stride = 10;

  AxisTaps(1.25, 4, stride, Make(Mode::kLinear, Padding::kZeros, false), offsets, weights);
  CHECK(offsets[0] == 10);
  CHECK(offsets[1] == 20);
  CHECK(weights[0] == 0.75);
  CHECK(weights[1] == 0.25);

  // Zeros: the tap left of pixel 0 contributes nothing.
  AxisTaps(-0.25, 4, stride, Make(Mode::kLinear, Padding::kZeros, false), offsets, weights);
  CHECK(offsets[0] == kZeroTap);
  CHECK(offsets[1] == 0);
  CHECK(weights[1] == 0.75);

  // Border clamps the coordinate for linear.
  AxisTaps(-5.0, 4, stride, Make(Mode::kLinear, Padding::kBorder, false), offsets, weights);
  CHECK(offsets[0] == 0);
  CHECK(weights[0] == 1.0);

  // Nearest rounds half to even, then pads: -2.5 → -2 → reflected about -0.5 → 1.
  AxisTaps(-2.5, 4, stride, Make(Mode::kNearest, Padding::kReflection, false), offsets, weights);
  CHECK(offsets[0] == 10);
  AxisTaps(2.5, 4, stride, Make(Mode::kNearest, Padding::kZeros, false), offsets, weights);
  CHECK(offsets[0] == 20);
  AxisTaps(3.5, 4, stride, Make(Mode::kNearest, Padding::kZeros, false), offsets, weights);
  CHECK(offsets[0] == kZeroTap);  // rounds to 4, outside

  // Cubic border clamps each tap: p = -0.5 → taps -2, -1, 0, 1 → 0, 0, 0, 1.
  AxisTaps(-0.5, 4, stride, Make(Mode::kCubic, Padding::kBorder, false), offsets, weights);
  CHECK(offsets[0] == 0);
  CHECK(offsets[1] == 0);
  CHECK(offsets[2] == 0);
  CHECK(offsets[3] == 10);
  CHECK(weights[0] == Approx(-0.09375));
  CHECK(weights[1] == Approx(0.59375));

  // Cubic reflection reflects each tap: p = -0.5, align_corners=1 → taps -2..1 → 2, 1, 0, 1.
  AxisTaps(-0.5, 4, stride, Make(Mode::kCubic, Padding::kReflection, true), offsets, weights);
  CHECK(offsets[0] == 20);
  CHECK(offsets[1] == 10);
  CHECK(offsets[2] == 0);
  CHECK(offsets[3] == 10);

  // Huge coordinates keep four distinct taps after reflection: 2^40 = 4 (mod 6), so the taps
  // 3, 4, 5, 6 (mod 6) reflect to 3, 2, 1, 0.
  AxisTaps(std::ldexp(1.0, 40), 4, 1, Make(Mode::kCubic, Padding::kReflection, true), offsets,
           weights);
  CHECK(offsets[0] == 3);
  CHECK(offsets[1] == 2);
  CHECK(offsets[2] == 1);
  CHECK(offsets[3] == 0);
}

TEST_CASE("GridValueTaps: non-finite values and overflowing unnormalisation", "[coords]") {
  int64_t offsets[4];
  float weights[4];
  const Options cubic = Make(Mode::kCubic, Padding::kZeros, false);
  GridValueTaps(std::numeric_limits<float>::quiet_NaN(), 4, 1, cubic, offsets, weights);
  for (int64_t offset : offsets) CHECK(offset == kNaNTap);
  GridValueTaps(-std::numeric_limits<float>::infinity(), 4, 1,
                Make(Mode::kLinear, Padding::kBorder, false), offsets, weights);
  CHECK(offsets[0] == kNaNTap);

  // 3e38 * 4 overflows float32: resolved in float64, it is far right of the image.
  const float huge = 3e38f;
  GridValueTaps(huge, 4, 1, Make(Mode::kLinear, Padding::kBorder, false), offsets, weights);
  CHECK(offsets[0] == 3);
  CHECK(weights[0] == 1.0f);
  GridValueTaps(huge, 4, 1, Make(Mode::kLinear, Padding::kZeros, false), offsets, weights);
  CHECK(offsets[0] == kZeroTap);
  CHECK(offsets[1] == kZeroTap);
  GridValueTaps(-huge, 4, 1, Make(Mode::kNearest, Padding::kReflection, true), offsets, weights);
  CHECK(offsets[0] >= 0);
  CHECK(offsets[0] <= 3);
}

}  // namespace
}  // namespace gridsample
