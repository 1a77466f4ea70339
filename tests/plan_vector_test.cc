// The window plan's weights (plan-inl.h) against their scalar originals, lane by lane and bit
// for bit, on every compiled target: SplitFixedPairs against convert.h's SplitFixedWeights,
// StoreRowProducts against the products multiplied axis by axis, as the reference multiplies.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/plan_vector_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "plan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <size_t kRank, size_t kTaps>
void WeighBlocks(bool fixed, int fraction_bits, const float* weights, const int32_t* complete,
                 size_t n, float* out) {
  (void)fixed;  // the quads' weights are never fixed-point
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto whole = hn::Set(d, std::ldexp(1.0f, fraction_bits));
  const auto unit = hn::Set(d, std::ldexp(1.0f, -fraction_bits));
  WindowBlock<kTaps> block{};
  for (size_t i = 0; i < n; i += lanes) {
    for (size_t a = 0; a < kRank; ++a) {
      for (size_t k = 0; k < kTaps; ++k) {
        std::copy(weights + (a * kTaps + k) * n + i, weights + (a * kTaps + k) * n + i + lanes,
                  block.weights[a][k]);
      }
      std::copy(complete + a * n + i, complete + a * n + i + lanes, block.complete[a]);
    }
    if constexpr (kTaps == 2) {
      if (fixed) {
        StoreFixedPairWeights<kRank>(d, block, whole, unit, /*complete=*/false, n, out + i,
                                     std::make_index_sequence<kRank>());
        continue;
      }
    }
    StoreBlockProducts(d, block, n, out + i, std::make_index_sequence<kRank * kTaps>());
  }
}

// out[combination * n + i] = the row weights of lane i of a block whose axis a has the tap
// weights weights[(a * taps + k) * n + i] and, for fixed-point pairs, the completeness
// complete[a * n + i], for i < n (a multiple of every target's lane count): the fixed-point
// split of 2^fraction_bits in units of its inverse (StoreFixedPairWeights), or the products
// of one weight per axis (StoreBlockProducts).
void WeighBlock(size_t rank, size_t taps, bool fixed, int fraction_bits, const float* weights,
                const int32_t* complete, size_t n, float* out) {
  VisitRank<kMaxPairRank>(rank, [&](auto r) {
    constexpr size_t kRank = decltype(r)::value;
    if (taps == 2) return WeighBlocks<kRank, 2>(fixed, fraction_bits, weights, complete, n, out);
    WeighBlocks<kRank, 4>(fixed, fraction_bits, weights, complete, n, out);
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "convert.h"
#include "tests/any_tensor.h"
#include "tests/targets.h"

namespace gridsample {
HWY_EXPORT(WeighBlock);

namespace {

constexpr size_t kCount = test::kTwinLanes;

TEST_CASE("plan-inl.h's row weights equal their scalar originals lane by lane on every target",
          "[plan][simd]") {
  std::mt19937_64 rng(2929);
  test::Mismatches mismatches;
  test::ForEachTarget([&](int64_t target) {
    for (size_t taps : {2, 4}) {
      for (bool fixed : {false, true}) {
        if (fixed && taps == 4) continue;  // integer outputs never take the quads
        for (size_t rank = 1; rank <= (taps == 2 ? kMaxPairRank : kMaxQuadRank); ++rank) {
          for (int bits : {16, 24}) {
            if (!fixed && bits == 24) continue;  // the float products have no fraction bits
            // Pairs: 1 - t and t, as the plans weigh an axis; quads: any weights. A fixed-point
            // lane is complete 7 times in 8; one that is not has a tap outside weighing
            // something (zeros padding).
            std::vector<float> weights(rank * taps * kCount);
            std::vector<int32_t> complete(rank * kCount);
            std::uniform_real_distribution<float> unit_interval(0.0f, 1.0f);
            for (size_t a = 0; a < rank; ++a) {
              for (size_t i = 0; i < kCount; ++i) {
                const float t = i % 16 == 0 ? 0.5f : unit_interval(rng);
                for (size_t k = 0; k < taps; ++k) {
                  weights[(a * taps + k) * kCount + i] =
                      taps == 2 ? (k == 0 ? 1.0f - t : t) : unit_interval(rng) - 0.25f;
                }
                complete[a * kCount + i] = rng() % 8 != 0 ? -1 : 0;
              }
            }
            const size_t outer = taps == 4 ? rank - 1 : rank;  // quads: the inner axis apart
            size_t combinations = 1;
            for (size_t a = 0; a < outer; ++a) combinations *= taps;
            std::vector<float> out(combinations * kCount, -1.0f);
            if (outer == 0) continue;
            HWY_DYNAMIC_DISPATCH(WeighBlock)
            (outer, taps, fixed, bits, weights.data(), complete.data(), kCount, out.data());
            for (size_t i = 0; i < kCount; ++i) {
              std::vector<float> expected(combinations);
              if (fixed) {
                std::vector<float> lane_weights(rank * taps);
                std::vector<int64_t> offsets(rank * taps), leaves(combinations);
                for (size_t j = 0; j < rank * taps; ++j) {
                  lane_weights[j] = weights[j * kCount + i];
                  // A lane that is not complete has its left tap outside.
                  offsets[j] = complete[j / taps * kCount + i] == 0 && j % taps == 0 ? kZeroTap : 0;
                }
                SplitFixedWeights(rank, taps, bits, lane_weights.data(), offsets.data(),
                                  leaves.data());
                for (size_t k = 0; k < combinations; ++k) {
                  expected[k] = std::ldexp(static_cast<float>(leaves[k]), -bits);
                }
              } else {
                for (size_t k = 0; k < combinations; ++k) {
                  size_t digits = k, place = combinations;
                  float product = 1.0f;
                  for (size_t a = 0; a < outer; ++a) {
                    place /= taps;
                    const float w = weights[(a * taps + digits / place) * kCount + i];
                    product = a == 0 ? w : product * w;
                    digits %= place;
                  }
                  expected[k] = product;
                }
              }
              for (size_t k = 0; k < combinations; ++k) {
                if (!test::SameBits(out[k * kCount + i], expected[k])) {
                  mismatches.Add(std::string(hwy::TargetName(target)) + ": taps " +
                                 std::to_string(taps) + (fixed ? " fixed " : " ") + "rank " +
                                 std::to_string(rank) + " lane " + std::to_string(i) +
                                 " combination " + std::to_string(k) + ": vector " +
                                 std::to_string(out[k * kCount + i]) + ", scalar " +
                                 std::to_string(expected[k]));
                }
              }
            }
          }
        }
      }
    }
  });
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

}  // namespace
}  // namespace gridsample
#endif  // HWY_ONCE
