// Hand-computed GridSample cases: every mode x padding x align_corners in 1-D, 2-D, 3-D and 4-D.
//
// Every expected value below was derived by hand from docs/semantics.md (never by running an
// implementation); the derivation is in the comment beside it. Each case runs through both
// gridsample::GridSample and gridsample::ReferenceGridSample.
//
// How the cases are built
// - X is separable: X[i1..ir] = v1[i1] * ... * vr[ir], one small vector per spatial axis. Every
//   mode interpolates with per-axis weights and resolves padding per axis (a zeros tap on any
//   axis zeroes the whole product), so Y at a point is the product of the 1-D results of the
//   axes. The tables give those 1-D results: for the innermost (width) axis, of size 4 holding
//   (1, 2, 4, 8), the value itself; for the outer axes, of size 3, the effective weights of
//   (v0, v1, v2) after padding, which the test dots with that axis's vector; for size-1 axes,
//   holding (1), the value itself.
// - Point j of a case takes row j of the width table and row (j + k) mod n of the table of the
//   k-th axis outside it, so every row meets several rows of the other axes.
// - Each case runs with N = 2, C = 2: X of batch n, channel c is the image times
//   kBatchScale[n] * kChannelScale[c]; batch 1 gets the points in reverse order.
//
// Cubic weights (A = -0.75), W(t) = 1.25|t|^3 - 2.25|t|^2 + 1 for |t| <= 1 and
// -0.75|t|^3 + 3.75|t|^2 - 6|t| + 3 for 1 < |t| < 2, for the taps floor(p)-1 .. floor(p)+2 at
// fractional part f (t = 1+f, f, 1-f, 2-f):
//   f = 0    : (0, 1, 0, 0)                  since W(1) = W(2) = 0
//   f = 0.25 : (-0.10546875, 0.87890625, 0.26171875, -0.03515625)
//              W(1.25) = -1.46484375 + 5.859375 - 7.5 + 3, W(.25) = .01953125 - .140625 + 1,
//              W(.75) = .52734375 - 1.265625 + 1, W(1.75) = -4.01953125 + 11.484375 - 10.5 + 3
//   f = 0.5  : (-0.09375, 0.59375, 0.59375, -0.09375)
//              W(1.5) = -2.53125 + 8.4375 - 9 + 3, W(.5) = .15625 - .5625 + 1
//   f = 0.75 : (-0.03515625, 0.26171875, 0.87890625, -0.10546875)   (f = 0.25 reversed)
//
// Reflection of an integer tap i (cubic, nearest) or of the coordinate (linear):
//   align_corners=1: about 0 and s-1, period 2(s-1); s=4: -1->1 -2->2 -3->3 4->2 5->1 6->0;
//                    s=3: -1->1 -2->2 3->1 4->0.
//   align_corners=0: about -0.5 and s-0.5, period 2s; s=4: -1->0 -2->1 -3->2 -4->3 4->3 5->2
//                    6->1 7->0; s=3: -1->0 -2->1 -3->2 3->2 4->1 5->0; s=1: everything -> 0.
//   then clamp into [0, s-1].
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "gridsample/gridsample.h"
#include "reference.h"

namespace gridsample {
namespace {

constexpr double kTolerance = 1e-5;  // relative to max(1, |expected|)
constexpr double kBatchScale[2] = {1.0, 3.0};
constexpr double kChannelScale[2] = {1.0, -2.0};

using Impl = Status (*)(const TensorView&, const TensorView&, const MutableTensorView&,
                        const Options&);
Status Fast(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
            const Options& options) {
  return GridSample(x, grid, y, options);
}

// Runs X (one image of shape `spatial`, values `image`) with N = 2, C = 2 (see the top of the
// file) at `points` (each r coordinates, innermost axis first) through both implementations,
// with X of type T and the grid of type G, and checks Y against `expected` (one value per point
// for batch 0, channel 0).
template <typename T, typename G>
void CheckCase(const std::vector<int64_t>& spatial, const std::vector<double>& image,
               const std::vector<std::vector<double>>& points, const std::vector<double>& expected,
               const Options& options) {
  const size_t r = spatial.size();
  const size_t count = points.size();
  std::vector<int64_t> x_shape = {2, 2};
  x_shape.insert(x_shape.end(), spatial.begin(), spatial.end());
  std::vector<T> x;
  for (int n = 0; n < 2; ++n) {
    for (int c = 0; c < 2; ++c) {
      for (double v : image) x.push_back(static_cast<T>(v * kBatchScale[n] * kChannelScale[c]));
    }
  }
  // grid: (2, count, 1, ..., 1, r); batch 1 holds the points in reverse order.
  std::vector<int64_t> grid_shape = {2, static_cast<int64_t>(count)};
  for (size_t k = 1; k < r; ++k) grid_shape.push_back(1);
  grid_shape.push_back(static_cast<int64_t>(r));
  std::vector<G> grid;
  for (int n = 0; n < 2; ++n) {
    for (size_t j = 0; j < count; ++j) {
      const std::vector<double>& point = points[n == 0 ? j : count - 1 - j];
      for (double g : point) grid.push_back(static_cast<G>(g));
    }
  }
  std::vector<int64_t> y_shape;
  REQUIRE(
      OutputShape(x_shape.data(), x_shape.size(), grid_shape.data(), grid_shape.size(), &y_shape)
          .ok());
  const TensorView x_view{DTypeOf<T>::value, x.data(), x_shape.data(), x_shape.size()};
  const TensorView grid_view{DTypeOf<G>::value, grid.data(), grid_shape.data(), grid_shape.size()};
  for (Impl impl : {&Fast, &ReferenceGridSample}) {
    INFO((impl == &Fast ? "GridSample" : "ReferenceGridSample"));
    std::vector<T> y(4 * count, static_cast<T>(-12345));
    const Status status = impl(
        x_view, grid_view,
        MutableTensorView{DTypeOf<T>::value, y.data(), y_shape.data(), y_shape.size()}, options);
    INFO(status.message());
    REQUIRE(status.ok());
    for (int n = 0; n < 2; ++n) {
      for (int c = 0; c < 2; ++c) {
        for (size_t j = 0; j < count; ++j) {
          const size_t point = n == 0 ? j : count - 1 - j;
          const double want = expected[point] * kBatchScale[n] * kChannelScale[c];
          const double got = static_cast<double>(y[(n * 2 + c) * count + j]);
          std::ostringstream where;
          where << "point " << point << " = (";
          for (size_t k = 0; k < r; ++k) where << (k ? ", " : "") << points[point][k];
          where << ") innermost first, batch " << n << ", channel " << c;
          INFO(where.str());
          CAPTURE(got, want);
          CHECK(std::abs(got - want) <= kTolerance * std::max(1.0, std::abs(want)));
        }
      }
    }
  }
}

void CheckAllTypes(const std::vector<int64_t>& spatial, const std::vector<double>& image,
                   const std::vector<std::vector<double>>& points,
                   const std::vector<double>& expected, const Options& options) {
  {
    INFO("X float32, grid float32");
    CheckCase<float, float>(spatial, image, points, expected, options);
  }
  {
    INFO("X float64, grid float64");
    CheckCase<double, double>(spatial, image, points, expected, options);
  }
  {
    INFO("X float64, grid float32");
    CheckCase<double, float>(spatial, image, points, expected, options);
  }
  {
    INFO("X float32, grid float64");
    CheckCase<float, double>(spatial, image, points, expected, options);
  }
}

// ---------------------------------------------------------------------------------------------
// Tables of 1-D results.

// A row of a table whose axis holds known values: the coordinate and Y per padding.
struct Row {
  double g;
  double zeros, border, reflection;
};

// A row of a size-3 outer axis: the coordinate and the effective weights of (v0, v1, v2) per
// padding.
struct Weights3 {
  double w0, w1, w2;
};
struct Row3 {
  double g;
  Weights3 zeros, border, reflection;
};

template <typename R>
auto Pick(const R& row, Padding padding) {
  return padding == Padding::kZeros    ? row.zeros
         : padding == Padding::kBorder ? row.border
                                       : row.reflection;
}

// Width axis: size 4, values (1, 2, 4, 8).
const std::vector<double> kWidthValues = {1, 2, 4, 8};

// align_corners=0, s=4: p = ((g+1)*4-1)/2 = 2g+1.5.
// Linear: taps floor(p) (weight 1-f) and floor(p)+1 (weight f); border clamps p to [0,3];
// reflection reflects p about -0.5/3.5 then clamps to [0,3].
const std::vector<Row> kLinearAc0 = {
    {0, 3, 3, 3},           // p=1.5: taps 1,2 w .5/.5 -> (2+4)/2 = 3 everywhere
    {-0.25, 2, 2, 2},       // p=1: on pixel 1 -> 2
    {-0.875, 0.75, 1, 1},   // p=-.25: taps -1 (w .25), 0 (w .75): zeros .75*1; border p->0;
                            //   reflection stays -.25 (inside [-.5,3.5]), clamp -> 0
    {-1.125, 0.25, 1, 1},   // p=-.75: taps -1 (w .75), 0 (w .25): zeros .25; refl -> -.25 -> 0
    {-1.375, 0, 1, 1.25},   // p=-1.25: taps -2,-1 out; refl about -.5 -> .25 -> .75*1+.25*2
    {1.125, 2, 8, 8},       // p=3.75: taps 3 (w .25), 4 (w .75): zeros .25*8; refl -> 3.25 -> 3
    {1.375, 0, 8, 7},       // p=4.25: taps 4,5 out; refl about 3.5 -> 2.75 -> .25*4+.75*8
    {-4.5, 0, 1, 1.5},      // p=-7.5: refl -> 6.5 -> .5 (twice) -> (1+2)/2
    {4.375, 0, 8, 5},       // p=10.25: refl -> -3.25 -> 2.25 (twice) -> .75*4+.25*8
    {1.5, 0, 8, 6},         // p=4.5: refl -> 2.5 -> (4+8)/2
    {-2, 0, 1, 3},          // p=-2.5: refl -> 1.5 -> (2+4)/2
    {0.5, 6, 6, 6},         // p=2.5: (4+8)/2
    {-0.5, 1.5, 1.5, 1.5},  // p=.5: (1+2)/2
    {1, 4, 8, 8},           // p=3.5: taps 3 (w .5), 4 (w .5): zeros 8/2; border/refl -> 3
    {-1, 0.5, 1, 1},        // p=-.5: taps -1 (w .5), 0 (w .5): zeros .5; refl stays, clamp 0
};

// Nearest: round half to even FIRST, then pad the integer index.
const std::vector<Row> kNearestAc0 = {
    {0, 4, 4, 4},       // p=1.5: tie -> 2 (even) -> 4
    {-0.25, 2, 2, 2},   // p=1 -> 2
    {-0.875, 1, 1, 1},  // p=-.25 -> -0 = 0 -> 1
    {-1.125, 0, 1, 1},  // p=-.75 -> -1: zeros 0; border 0; reflection -1 -> 0
    {-1.375, 0, 1, 1},  // p=-1.25 -> -1: as above
    {1.125, 0, 8, 8},   // p=3.75 -> 4: zeros 0; border 3; reflection 4 -> 3
    {1.375, 0, 8, 8},   // p=4.25 -> 4: as above
    {-4.5, 0, 1, 1},    // p=-7.5: tie -> -8 (even); reflection -8 -> 0 (period 8)
    {4.375, 0, 8, 4},   // p=10.25 -> 10; reflection 10 -> -3 -> 2
    {1.5, 0, 8, 8},     // p=4.5: tie -> 4, THEN reflect -> 3 -> 8 (reflecting first: 2.5 -> 2)
    {-2, 0, 1, 2},      // p=-2.5: tie -> -2, THEN reflect -> 1 -> 2 (reflecting first: 1.5 -> 2)
    {0.5, 4, 4, 4},     // p=2.5: tie -> 2 -> 4
    {-0.5, 1, 1, 1},    // p=.5: tie -> 0 -> 1
    {1, 0, 8, 8},       // p=3.5: tie -> 4 (even): zeros 0 (!); border 3; reflection 4 -> 3
    {-1, 1, 1, 1},      // p=-.5: tie -> -0 = 0 -> 1
};

// Cubic: 4 taps, each padded on its own (border clamps each tap; reflection reflects each tap).
const std::vector<Row> kCubicAc0 = {
    // p=1.5, f=.5, taps 0..3 = 1,2,4,8: -.09375 + 1.1875 + 2.375 - .75
    {0, 2.71875, 2.71875, 2.71875},
    // p=1, f=0: pixel 1
    {-0.25, 2, 2, 2},
    // p=-.25, f=.75, taps -2,-1,0,1 w (-.03515625, .26171875, .87890625, -.10546875):
    //   zeros: .87890625*1 - .10546875*2
    //   border: taps -> 0,0,0,1: 1.10546875*1 - .2109375 (clamping p to 0 first would give 1)
    //   reflection: taps -> 1,0,0,1: -.0703125 + .26171875 + .87890625 - .2109375
    {-0.875, 0.66796875, 0.89453125, 0.859375},
    // p=-.75, f=.25, taps -2,-1,0,1 w (-.10546875, .87890625, .26171875, -.03515625):
    //   zeros: .26171875 - .0703125; border: 1.03515625 - .0703125;
    //   reflection: taps -> 1,0,0,1: -.2109375 + .87890625 + .26171875 - .0703125
    {-1.125, 0.19140625, 0.96484375, 0.859375},
    // p=-1.25, f=.75, taps -3,-2,-1,0: zeros: only tap 0, -.10546875*1; border: all 1;
    //   reflection: taps -> 2,1,0,0 = 4,2,1,1: -.140625 + .5234375 + .87890625 - .10546875
    {-1.375, -0.10546875, 1, 1.15625},
    // p=3.75, f=.75, taps 2,3,4,5 w (-.03515625, .26171875, .87890625, -.10546875):
    //   zeros: -.03515625*4 + .26171875*8; border: taps -> 2,3,3,3: -.140625 + 1.03515625*8
    //   (clamping p to 3 first would give 8); reflection: taps -> 2,3,3,2 = 4,8,8,4:
    //   -.140625 + 2.09375 + 7.03125 - .421875
    {1.125, 1.953125, 8.140625, 8.5625},
    // p=4.25, f=.25, taps 3,4,5,6: zeros: -.10546875*8; border: all 8;
    //   reflection: taps -> 3,3,2,1 = 8,8,4,2: -.84375 + 7.03125 + 1.046875 - .0703125
    {1.375, -0.84375, 8, 7.1640625},
    // p=-7.5, f=.5, taps -9..-6: reflection -> 0,0,1,2 = 1,1,2,4: -.09375 + .59375 + 1.1875 - .375
    {-4.5, 0, 1, 1.3125},
    // p=10.25, f=.25, taps 9..12: reflection -> 1,2,3,3 = 2,4,8,8:
    //   -.2109375 + 3.515625 + 2.09375 - .28125
    {4.375, 0, 8, 5.1171875},
    // p=4.5, f=.5, taps 3..6: zeros: -.09375*8; reflection -> 3,3,2,1 = 8,8,4,2:
    //   -.75 + 4.75 + 2.375 - .1875
    {1.5, -0.75, 8, 6.1875},
    // p=-2.5, f=.5, taps -4..-1: reflection -> 3,2,1,0 = 8,4,2,1: -.75 + 2.375 + 1.1875 - .09375
    {-2, 0, 1, 2.71875},
    // p=2.5, f=.5, taps 1..4: zeros: 2,4,8,0: -.1875 + 2.375 + 4.75; border/reflection: tap 4 -> 3:
    //   6.9375 - .75
    {0.5, 6.9375, 6.1875, 6.1875},
    // p=.5, f=.5, taps -1..2: zeros: 0,1,2,4: .59375 + 1.1875 - .375; border/reflection: -1 -> 0:
    //   1.40625 - .09375
    {-0.5, 1.40625, 1.3125, 1.3125},
    // p=3.5, f=.5, taps 2..5: zeros: 4,8,0,0: -.375 + 4.75; border: 4,8,8,8: -.375 + 4.75 + 4.75
    //   - .75; reflection: 4,8,8,4: -.375 + 4.75 + 4.75 - .375
    {1, 4.375, 8.375, 8.75},
    // p=-.5, f=.5, taps -2..1: zeros: 0,0,1,2: .59375 - .1875; border: 1,1,1,2: 1.09375 - .1875;
    //   reflection: 2,1,1,2: -.1875 + .59375 + .59375 - .1875
    {-1, 0.40625, 0.90625, 0.8125},
};

// align_corners=1, s=4: p = (g+1)/2*3 = 1.5(g+1); reflection about 0 and 3 (period 6).
const std::vector<Row> kLinearAc1 = {
    {0, 3, 3, 3},              // p=1.5: (2+4)/2
    {-1, 1, 1, 1},             // p=0: tap 0 (w 1), tap 1 (w 0)
    {1, 8, 8, 8},              // p=3: tap 3 (w 1), tap 4 (w 0, zeros)
    {-0.5, 1.75, 1.75, 1.75},  // p=.75: .25*1 + .75*2
    {0.5, 5, 5, 5},            // p=2.25: .75*4 + .25*8
    {-1.5, 0.25, 1, 1.75},     // p=-.75: taps -1 (w .75), 0 (w .25): zeros .25; refl -> .75
    {1.5, 2, 8, 5},            // p=3.75: taps 3 (w .25), 4 (w .75): zeros 2; refl -> 2.25
    {-2, 0, 1, 3},             // p=-1.5: refl -> 1.5
    {2, 0, 8, 3},              // p=4.5: refl -> 1.5
    {-5.5, 0, 1, 1.75},        // p=-6.75: refl -> 6.75 -> -.75 -> .75 (three times)
    {7.5, 0, 8, 1.75},         // p=12.75: 12.75 mod 6 = .75 (four reflections)
    {4, 0, 8, 3},              // p=7.5: mod 6 = 1.5
    {-1.0 / 3, 2, 2, 2},       // p=1 (up to rounding of -1/3): pixel 1
};

const std::vector<Row> kNearestAc1 = {
    {0, 4, 4, 4},         // p=1.5: tie -> 2 -> 4
    {-1, 1, 1, 1},        // p=0
    {1, 8, 8, 8},         // p=3
    {-0.5, 2, 2, 2},      // p=.75 -> 1
    {0.5, 4, 4, 4},       // p=2.25 -> 2
    {-1.5, 0, 1, 2},      // p=-.75 -> -1: reflection -> 1
    {1.5, 0, 8, 4},       // p=3.75 -> 4: reflection -> 2
    {-2, 0, 1, 4},        // p=-1.5: tie -> -2: reflection -> 2
    {2, 0, 8, 4},         // p=4.5: tie -> 4: reflection -> 2
    {-5.5, 0, 1, 2},      // p=-6.75 -> -7: mod 6 = 5 -> 1
    {7.5, 0, 8, 2},       // p=12.75 -> 13: mod 6 = 1
    {4, 0, 8, 4},         // p=7.5: tie -> 8: mod 6 = 2
    {-1.0 / 3, 2, 2, 2},  // p=1
};

const std::vector<Row> kCubicAc1 = {
    {0, 2.71875, 2.71875, 2.71875},  // p=1.5: taps 0..3, as for align_corners=0
    {-1, 1, 1, 1},                   // p=0, f=0: pixel 0 (tap -1 has weight W(1) = 0)
    {1, 8, 8, 8},                    // p=3, f=0: pixel 3
    // p=.75, f=.75, taps -1,0,1,2 w (-.03515625, .26171875, .87890625, -.10546875):
    //   zeros: .26171875 + 1.7578125 - .421875; border: tap -1 -> 0: 1.59765625 - .03515625;
    //   reflection: tap -1 -> 1: 1.59765625 - .0703125 (p itself is inside: only the tap reflects)
    {-0.5, 1.59765625, 1.5625, 1.52734375},
    // p=2.25, f=.25, taps 1..4 w (-.10546875, .87890625, .26171875, -.03515625):
    //   zeros: -.2109375 + 3.515625 + 2.09375; border: tap 4 -> 3: 5.3984375 - .28125;
    //   reflection: tap 4 -> 2: 5.3984375 - .140625
    {0.5, 5.3984375, 5.1171875, 5.2578125},
    // p=-.75, f=.25, taps -2..1: zeros: .26171875 - .0703125; border: 1.03515625 - .0703125;
    //   reflection: taps -> 2,1,0,1 = 4,2,1,2: -.421875 + 1.7578125 + .26171875 - .0703125
    {-1.5, 0.19140625, 0.96484375, 1.52734375},
    // p=3.75, f=.75, taps 2..5: zeros: -.140625 + 2.09375; border: -.140625 + 1.03515625*8;
    //   reflection: taps -> 2,3,2,1 = 4,8,4,2: -.140625 + 2.09375 + 3.515625 - .2109375
    {1.5, 1.953125, 8.140625, 5.2578125},
    // p=-1.5, f=.5, taps -3..0: zeros: tap 0, -.09375; reflection -> 3,2,1,0 = 8,4,2,1:
    //   -.75 + 2.375 + 1.1875 - .09375
    {-2, -0.09375, 1, 2.71875},
    // p=4.5, f=.5, taps 3..6: zeros: tap 3, -.09375*8; reflection -> 3,2,1,0: as above
    {2, -0.75, 8, 2.71875},
    // p=-6.75, f=.25, taps -8..-5: reflection -> 2,1,0,1 = 4,2,1,2 (as p=-.75)
    {-5.5, 0, 1, 1.52734375},
    // p=12.75, f=.75, taps 11..14: reflection -> 1,0,1,2 = 2,1,2,4:
    //   -.0703125 + .26171875 + 1.7578125 - .421875
    {7.5, 0, 8, 1.52734375},
    // p=7.5, f=.5, taps 6..9: reflection -> 0,1,2,3 (as p=1.5)
    {4, 0, 8, 2.71875},
    {-1.0 / 3, 2, 2, 2},  // p=1
};

// Size-1 axis holding (1). align_corners=1: p = 0 for every finite g, in every mode and padding.
const std::vector<Row> kSize1Ac1 = {
    {-1e30, 1, 1, 1}, {-3, 1, 1, 1}, {-1, 1, 1, 1},  {-0.3, 1, 1, 1}, {0, 1, 1, 1},
    {0.7, 1, 1, 1},   {1, 1, 1, 1},  {2.5, 1, 1, 1}, {1e6, 1, 1, 1},  {1e30, 1, 1, 1},
};

// Size-1 axis holding (1), align_corners=0: p = ((g+1)*1-1)/2 = g/2. Border clamps to 0;
// reflection about -0.5 and 0.5 (period 2) lands in [-0.5, 0.5] and clamps to 0: always 1.
const std::vector<Row> kSize1LinearAc0 = {
    {0, 1, 1, 1},        // p=0
    {0.5, 0.75, 1, 1},   // p=.25: tap 0 w .75, tap 1 out
    {-0.5, 0.75, 1, 1},  // p=-.25: tap -1 out, tap 0 w .75
    {1, 0.5, 1, 1},      // p=.5: tap 0 w .5
    {-1, 0.5, 1, 1},     // p=-.5: tap 0 w .5
    {1.5, 0.25, 1, 1},   // p=.75: tap 0 w .25
    {3, 0, 1, 1},        // p=1.5: taps 1,2 out
    {-4, 0, 1, 1},       // p=-2
    {1e30, 0, 1, 1},     // p=5e29
    {-1e30, 0, 1, 1},
};
const std::vector<Row> kSize1NearestAc0 = {
    {0, 1, 1, 1},     // p=0 -> 0
    {0.5, 1, 1, 1},   // p=.25 -> 0
    {-0.5, 1, 1, 1},  // p=-.25 -> -0 = 0
    {1, 1, 1, 1},     // p=.5: tie -> 0 (even)
    {-1, 1, 1, 1},    // p=-.5: tie -> -0 = 0
    {1.5, 0, 1, 1},   // p=.75 -> 1: zeros 0; reflection 1 -> 0
    {3, 0, 1, 1},     // p=1.5: tie -> 2
    {-4, 0, 1, 1},    // p=-2
    {1e30, 0, 1, 1}, {-1e30, 0, 1, 1},
};
const std::vector<Row> kSize1CubicAc0 = {
    {0, 1, 1, 1},              // p=0, f=0
    {0.5, 0.87890625, 1, 1},   // p=.25: tap 0 has weight W(.25)
    {-0.5, 0.87890625, 1, 1},  // p=-.25: floor -1, tap 0 has weight W(.25)
    {1, 0.59375, 1, 1},        // p=.5: tap 0 has W(.5)
    {-1, 0.59375, 1, 1},       // p=-.5: tap 0 has W(.5)
    {1.5, 0.26171875, 1, 1},   // p=.75: tap 0 has W(.75)
    {3, -0.09375, 1, 1},       // p=1.5: taps 0..3, tap 0 has W(1.5)
    {-4, 0, 1, 1},             // p=-2, f=0: taps -3..0, tap 0 has W(2) = 0
    {1e30, 0, 1, 1},
    {-1e30, 0, 1, 1},
};

// Outer axes: size 3. align_corners=1: p = (g+1)/2*2 = g+1; reflection about 0 and 2.
const std::vector<Row3> kOuterLinearAc1 = {
    {0, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},           // p=1: pixel 1
    {-2, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},          // p=-1: out; border 0; refl -> 1
    {-0.5, {.5, .5, 0}, {.5, .5, 0}, {.5, .5, 0}},  // p=.5
    {-1.5, {.5, 0, 0}, {1, 0, 0}, {.5, .5, 0}},     // p=-.5: taps -1,0; refl -> .5
    {9.5, {0, 0, 0}, {0, 0, 1}, {0, .5, .5}},       // p=10.5: mod 4 = 2.5 -> 1.5
};
const std::vector<Row3> kOuterNearestAc1 = {
    {0, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},     // p=1
    {-2, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},    // p=-1 -> -1: refl -> 1
    {-0.5, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}},  // p=.5: tie -> 0
    {-1.5, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}},  // p=-.5: tie -> -0 = 0
    {9.5, {0, 0, 0}, {0, 0, 1}, {0, 0, 1}},   // p=10.5: tie -> 10; refl: mod 4 = 2
};
const std::vector<Row3> kOuterCubicAc1 = {
    {0, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},   // p=1, f=0
    {-2, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},  // p=-1, f=0: only tap -1
    // p=.5, taps -1..2 w (-.09375, .59375, .59375, -.09375): zeros drop tap -1; border -1 -> 0;
    // reflection -1 -> 1
    {-0.5, {.59375, .59375, -.09375}, {.5, .59375, -.09375}, {.59375, .5, -.09375}},
    // p=-.5, taps -2..1 same w: zeros keep 0,1; border -2,-1 -> 0; reflection -2 -> 2, -1 -> 1
    {-1.5, {.59375, -.09375, 0}, {1.09375, -.09375, 0}, {.59375, .5, -.09375}},
    // p=10.5, taps 9..12: reflection -> 1,2,1,0
    {9.5, {0, 0, 0}, {0, 0, 1}, {-.09375, .5, .59375}},
};

// Outer axes: size 3, align_corners=0: p = ((g+1)*3-1)/2 = 1.5g+1; reflection about -.5, 2.5.
const std::vector<Row3> kOuterLinearAc0 = {
    {0, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},                 // p=1
    {-2, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},                // p=-2: refl about -.5 -> 1
    {-0.5, {.75, .25, 0}, {.75, .25, 0}, {.75, .25, 0}},  // p=.25
    {-1, {.5, 0, 0}, {1, 0, 0}, {1, 0, 0}},               // p=-.5: taps -1,0; refl stays, clamp 0
    {6.5, {0, 0, 0}, {0, 0, 1}, {.75, .25, 0}},           // p=10.75: mod 6 about -.5 -> .25
};
const std::vector<Row3> kOuterNearestAc0 = {
    {0, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},     // p=1
    {-2, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},    // p=-2: refl -> 1
    {-0.5, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}},  // p=.25 -> 0
    {-1, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}},    // p=-.5: tie -> -0 = 0
    {6.5, {0, 0, 0}, {0, 0, 1}, {1, 0, 0}},   // p=10.75 -> 11: refl -> 0
};
const std::vector<Row3> kOuterCubicAc0 = {
    {0, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},   // p=1
    {-2, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},  // p=-2, f=0: refl -> 1
    // p=.25, taps -1..2 w (-.10546875, .87890625, .26171875, -.03515625): border/refl -1 -> 0
    {-0.5,
     {.87890625, .26171875, -.03515625},
     {.7734375, .26171875, -.03515625},
     {.7734375, .26171875, -.03515625}},
    // p=-.5, taps -2..1 w (-.09375, .59375, .59375, -.09375): border -2,-1 -> 0;
    // reflection -2 -> 1, -1 -> 0
    {-1, {.59375, -.09375, 0}, {1.09375, -.09375, 0}, {1.1875, -.1875, 0}},
    // p=10.75, taps 9..12 w (-.03515625, .26171875, .87890625, -.10546875): refl -> 2,1,0,0
    {6.5, {0, 0, 0}, {0, 0, 1}, {.7734375, .26171875, -.03515625}},
};

// Values of the outer axes, outermost last: the axis next to the width axis holds
// (1, -2, 3), the next (0.5, 2, -1), the next (3, 1, -0.5).
const std::vector<std::vector<double>> kOuterValues = {{1, -2, 3}, {0.5, 2, -1}, {3, 1, -0.5}};

const std::vector<Row>& WidthTable(Mode mode, bool align_corners) {
  switch (mode) {
    case Mode::kLinear:
      return align_corners ? kLinearAc1 : kLinearAc0;
    case Mode::kNearest:
      return align_corners ? kNearestAc1 : kNearestAc0;
    default:
      return align_corners ? kCubicAc1 : kCubicAc0;
  }
}
const std::vector<Row>& Size1Table(Mode mode, bool align_corners) {
  if (align_corners) return kSize1Ac1;
  switch (mode) {
    case Mode::kLinear:
      return kSize1LinearAc0;
    case Mode::kNearest:
      return kSize1NearestAc0;
    default:
      return kSize1CubicAc0;
  }
}
const std::vector<Row3>& OuterTable(Mode mode, bool align_corners) {
  switch (mode) {
    case Mode::kLinear:
      return align_corners ? kOuterLinearAc1 : kOuterLinearAc0;
    case Mode::kNearest:
      return align_corners ? kOuterNearestAc1 : kOuterNearestAc0;
    default:
      return align_corners ? kOuterCubicAc1 : kOuterCubicAc0;
  }
}

// One spatial axis of a separable case: its values and, per row, the coordinate and the 1-D
// result on this axis.
struct Axis {
  std::vector<double> values;
  std::vector<double> g;
  std::vector<double> result;
};

Axis KnownAxis(const std::vector<double>& values, const std::vector<Row>& table, Padding padding) {
  Axis axis{values, {}, {}};
  for (const Row& row : table) {
    axis.g.push_back(row.g);
    axis.result.push_back(Pick(row, padding));
  }
  return axis;
}

Axis OuterAxis(const std::vector<double>& values, const std::vector<Row3>& table, Padding padding) {
  Axis axis{values, {}, {}};
  for (const Row3& row : table) {
    const Weights3 w = Pick(row, padding);
    axis.g.push_back(row.g);
    axis.result.push_back(w.w0 * values[0] + w.w1 * values[1] + w.w2 * values[2]);
  }
  return axis;
}

// Builds the separable case of `axes` (outermost first; the last is the width axis, whose rows
// set the number of points) and checks it for every X/grid type pair.
void CheckSeparable(const std::vector<Axis>& axes, const Options& options) {
  const size_t r = axes.size();
  std::vector<int64_t> spatial;
  std::vector<double> image = {1.0};
  for (const Axis& axis : axes) {
    spatial.push_back(static_cast<int64_t>(axis.values.size()));
    std::vector<double> next;
    for (double outer : image) {
      for (double v : axis.values) next.push_back(outer * v);
    }
    image = next;
  }
  const size_t count = axes.back().g.size();
  std::vector<std::vector<double>> points(count);
  std::vector<double> expected(count, 1.0);
  for (size_t j = 0; j < count; ++j) {
    // Coordinate k (innermost first) belongs to axis r-1-k and uses its row (j + k) mod rows.
    for (size_t k = 0; k < r; ++k) {
      const Axis& axis = axes[r - 1 - k];
      const size_t row = (j + k) % axis.g.size();
      points[j].push_back(axis.g[row]);
      expected[j] *= axis.result[row];
    }
  }
  CheckAllTypes(spatial, image, points, expected, options);
}

template <typename Fn>
void ForEachCombination(Fn fn) {
  for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
    for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
      for (bool align_corners : {false, true}) {
        INFO("mode " << ModeName(mode) << ", padding " << PaddingName(padding) << ", align_corners "
                     << align_corners);
        Options options;
        options.mode = mode;
        options.padding = padding;
        options.align_corners = align_corners;
        fn(options);
      }
    }
  }
}

// The separable case of spatial rank r: r-1 outer axes of size 3 around the width axis.
void CheckRank(size_t r, const Options& options) {
  std::vector<Axis> axes;
  for (size_t k = r - 1; k-- > 0;) {  // outermost first
    axes.push_back(OuterAxis(kOuterValues[k], OuterTable(options.mode, options.align_corners),
                             options.padding));
  }
  axes.push_back(
      KnownAxis(kWidthValues, WidthTable(options.mode, options.align_corners), options.padding));
  CheckSeparable(axes, options);
}

TEST_CASE("hand: 1-D, width 4 holding 1,2,4,8", "[hand]") {
  ForEachCombination([](const Options& options) { CheckRank(1, options); });
}

TEST_CASE("hand: 2-D, 3x4", "[hand]") {
  ForEachCombination([](const Options& options) { CheckRank(2, options); });
}

TEST_CASE("hand: 3-D, 3x3x4", "[hand]") {
  ForEachCombination([](const Options& options) { CheckRank(3, options); });
}

TEST_CASE("hand: 4-D (X of rank 6), 3x3x3x4", "[hand]") {
  ForEachCombination([](const Options& options) { CheckRank(4, options); });
}

TEST_CASE("hand: 1-D size-1 axis", "[hand]") {
  ForEachCombination([](const Options& options) {
    CheckSeparable(
        {KnownAxis({1}, Size1Table(options.mode, options.align_corners), options.padding)},
        options);
  });
}

TEST_CASE("hand: 2-D and 3-D with size-1 axes", "[hand]") {
  ForEachCombination([](const Options& options) {
    const Axis size1 =
        KnownAxis({1}, Size1Table(options.mode, options.align_corners), options.padding);
    const Axis width =
        KnownAxis(kWidthValues, WidthTable(options.mode, options.align_corners), options.padding);
    const Axis outer = OuterAxis(kOuterValues[0], OuterTable(options.mode, options.align_corners),
                                 options.padding);
    {
      INFO("1x4");
      CheckSeparable({size1, width}, options);
    }
    {
      INFO("3x1x4");
      CheckSeparable({outer, size1, width}, options);
    }
    {
      INFO("4x1 (size-1 width axis)");
      Axis outer_width =
          KnownAxis(kWidthValues, WidthTable(options.mode, options.align_corners), options.padding);
      // The size-1 axis is innermost here: it sets the number of points (its 10 rows).
      CheckSeparable({outer_width, size1}, options);
    }
  });
}

// Non-separable X, to pin the 2^r / 4^r tap sums and the axis order directly.
TEST_CASE("hand: 2-D non-separable", "[hand]") {
  // X (H=2, W=3) = [[0, 1, 5], [2, 7, 3]].
  const std::vector<int64_t> spatial = {2, 3};
  const std::vector<double> image = {0, 1, 5, 2, 7, 3};
  Options options;
  options.align_corners = true;  // W: p = (x+1)*1 = x+1; H: p = (y+1)/2
  SECTION("linear") {
    options.mode = Mode::kLinear;
    CheckAllTypes(spatial, image,
                  {
                      {-0.5, 0},    // pw=.5, ph=.5: (0 + 1 + 2 + 7)/4
                      {0.5, -0.5},  // pw=1.5, ph=.25: .75*(1+5)/2 + .25*(7+3)/2
                      {1, 1},       // pw=2, ph=1: X[1][2]
                      {-1, 0.5},    // pw=0, ph=.75: .25*0 + .75*2
                  },
                  {2.5, 3.5, 3, 1.5}, options);
  }
  SECTION("nearest") {
    options.mode = Mode::kNearest;
    CheckAllTypes(spatial, image,
                  {
                      {0.5, -0.5},  // pw=1.5 -> 2 (tie, even), ph=.25 -> 0: X[0][2]
                      {-0.5, 0},    // pw=.5 -> 0, ph=.5 -> 0 (ties): X[0][0]
                      {0, 0.5},     // pw=1, ph=.75 -> 1: X[1][1]
                  },
                  {5, 0, 7}, options);
  }
  SECTION("cubic, border") {
    options.mode = Mode::kCubic;
    options.padding = Padding::kBorder;
    // pw=.5: taps -1,0,1,2 -> 0,0,1,2 w (-.09375, .59375, .59375, -.09375);
    // ph=0 (y=-1), f=0: row 0 only. Row 0 = (0, 1, 5): -.09375*0 + .59375*0 + .59375*1 - .09375*5
    // = .125. ph=1 (y=1): row 1 = (2, 7, 3): -.1875 + 1.1875 + 4.15625 - .28125 = 4.875.
    // ph=.5 (y=0): taps -1,0,1,2 -> 0,0,1,1 w as above: rows 0 and 1 get .5 and .5 -> 2.5.
    CheckAllTypes(spatial, image, {{-0.5, -1}, {-0.5, 1}, {-0.5, 0}}, {0.125, 4.875, 2.5}, options);
  }
}

}  // namespace
}  // namespace gridsample
