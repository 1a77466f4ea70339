// The linear pair plan (PlanLinearPairs, linear_pairs-inl.h) against its scalar form, lane by
// lane and bit for bit, on every compiled target: each axis's taps from coords.h's
// GridValueTaps, encoded as a pair by EncodePairTaps, the row weights multiplied axis by axis
// as the reference multiplies them. The vector plans take shortcuts (inside pairs where every
// lane of a vector lies inside, registers instead of blocks), which must give the same numbers.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "aligned_row.h"
#include "coords.h"
#include "linear_pairs.h"
#include "window_plan.h"
#include "tests/targets.h"

namespace gridsample {
namespace {

// Grid values of `count` locations of rank `rank`: runs of a smooth warp inside the input (whose
// vectors lie wholly inside), then of random values past the edges, exact edges and non-finite
// values.
std::vector<float> MixedGrid(size_t rank, size_t count, std::mt19937_64* rng) {
  std::uniform_real_distribution<float> near(-0.95f, 0.95f), wide(-1.3f, 1.3f);
  const float specials[] = {-1.0f, 1.0f, 0.0f, NAN, INFINITY, -1e30f, 1.0f - 1e-7f};
  std::vector<float> grid(rank * count);
  for (size_t i = 0; i < count; ++i) {
    const size_t run = i / 64 % 4;  // smooth, smooth, wide, special
    for (size_t a = 0; a < rank; ++a) {
      float& g = grid[i * rank + a];
      if (run < 2) {
        g = std::sin(0.01f * static_cast<float>(i) + static_cast<float>(a)) * 0.9f;
      } else if (run == 2) {
        g = wide(*rng);
      } else {
        g = (*rng)() % 3 == 0 ? specials[(*rng)() % 7] : near(*rng);
      }
    }
  }
  return grid;
}

bool SameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof(float)) == 0;
}

TEST_CASE("The linear pair plan equals its scalar form bit for bit on every target",
          "[plan][simd]") {
  std::mt19937_64 rng(2200);
  const std::vector<std::vector<int64_t>> shapes = {{7, 9}, {2, 2}, {33, 20}, {5, 6, 7}, {2, 3, 2}};
  test::ForEachTarget([&](int64_t) {
    for (const std::vector<int64_t>& sizes : shapes) {
      const size_t rank = sizes.size(), rows = size_t{1} << (rank - 1);
      std::vector<int64_t> strides(rank, 1);
      for (size_t a = rank - 1; a-- > 0;) strides[a] = strides[a + 1] * sizes[a + 1];
      const int64_t plane = strides[0] * sizes[0];
      int32_t row_deltas[kMaxWindowRows];
      WindowRowDeltas(rank, 2, sizes.data(), strides.data(), row_deltas);
      for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
        for (bool align_corners : {false, true}) {
          Options options;
          options.padding = padding;
          options.align_corners = align_corners;
          const size_t count = 1000, pitch = RoundUp(count, kRowBlock);
          const std::vector<float> grid = MixedGrid(rank, count, &rng);
          std::vector<int32_t> base(pitch);
          std::vector<float> weights(2 * rows * pitch);
          PlanLinearPairs(grid.data(), rank, sizes.data(), strides.data(), options, 0, count, pitch,
                          base.data(), weights.data());
          size_t differ = 0;
          for (size_t i = 0; i < count; ++i) {
            int64_t expected_base = 0;
            float axis_weights[kMaxPairRank][2];
            for (size_t a = 0; a < rank; ++a) {
              int64_t taps[2];
              float tap_weights[2];
              GridValueTaps(grid[i * rank + rank - 1 - a], sizes[a], 1, options, taps, tap_weights);
              int32_t left;
              EncodePairTaps(taps, tap_weights, sizes[a], &left, &axis_weights[a][0],
                             &axis_weights[a][1]);
              expected_base += left * strides[a];
            }
            bool weighed = false;
            for (size_t row = 0; row < rows; ++row) {
              for (size_t e = 0; e < 2; ++e) {
                float expected = 1.0f;  // the outer axes' taps are the row's digits
                for (size_t a = 0; a + 1 < rank; ++a) {
                  expected *= axis_weights[a][row >> (rank - 2 - a) & 1];
                }
                expected *= axis_weights[rank - 1][e];
                differ += !SameFloat(weights[(2 * row + e) * pitch + i], expected);
                weighed = weighed || expected != 0.0f;  // NaN too
              }
            }
            // A location that weighs nothing may start anywhere its pairs lie inside.
            if (weighed) {
              differ += base[i] != expected_base;
            } else {
              differ += base[i] < 0 || base[i] + row_deltas[rows - 1] + 1 >= plane;
            }
          }
          INFO("sizes " << sizes.size() << "-D " << sizes[0] << "..., padding "
                        << static_cast<int>(padding) << ", align_corners " << align_corners);
          CHECK(differ == 0);
        }
      }
    }
  });
}

}  // namespace
}  // namespace gridsample
