// The vector twins of convert.h's float16 and bfloat16 conversions (convert-inl.h) against
// their scalar originals, bit for bit, on every compiled target: every binary16 value to
// float32, and float32 values of every kind (zeros, subnormals, normals near the rounding
// boundaries, overflow, inf, NaN payloads) to binary16 and bfloat16.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/convert_vector_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = the twin `which` of in[i] (bits), for i < n (a multiple of every target's lanes):
// 0 HalfToFloat (in: binary16 bits), 1 FloatToHalf, 2 FloatToBFloat16 (in: float32 bits).
void ConvertLanes(int which, const uint32_t* in, size_t n, uint32_t* out) {
  const hn::ScalableTag<float> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  for (size_t i = 0; i < n; i += hn::Lanes(d)) {
    const auto v = hn::LoadU(du, in + i);
    const auto f = hn::BitCast(d, v);
    const auto r = which == 0   ? hn::BitCast(du, HalfToFloat(d, v))
                   : which == 1 ? FloatToHalf(d, f)
                                : FloatToBFloat16(d, f);
    hn::StoreU(r, du, out + i);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "convert.h"
#include "tests/any_tensor.h"
#include "tests/targets.h"

namespace gridsample {
HWY_EXPORT(ConvertLanes);

namespace {

TEST_CASE("convert-inl.h's float16 and bfloat16 twins equal convert.h on every target",
          "[convert][simd]") {
  // Every binary16 value; float32 values: the neighbours of every binary16 and bfloat16
  // value's rounding boundaries, and random bit patterns.
  std::vector<uint32_t> halves(65536), floats;
  for (uint32_t h = 0; h < 65536; ++h) halves[h] = h;
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint32_t f = BitsOf(F32FromF16Bits(static_cast<uint16_t>(h)));
    for (uint32_t delta : {0u, 0xFFFu, 0x1000u, 0x1001u}) floats.push_back(f + delta);
    for (uint32_t delta : {0x7FFFu, 0x8000u, 0x8001u}) floats.push_back((h << 16) + delta);
  }
  std::mt19937 rng(1900);
  while (floats.size() % 256 != 0 || floats.size() < 600000) floats.push_back(rng());
  test::Mismatches mismatches;
  test::ForEachTarget([&](int64_t target) {
    for (int which = 0; which < 3; ++which) {
      const std::vector<uint32_t>& in = which == 0 ? halves : floats;
      std::vector<uint32_t> out(in.size());
      HWY_DYNAMIC_DISPATCH(ConvertLanes)(which, in.data(), in.size(), out.data());
      for (size_t i = 0; i < in.size(); ++i) {
        const uint32_t expected = which == 0 ? BitsOf(F32FromF16Bits(static_cast<uint16_t>(in[i])))
                                  : which == 1 ? F16BitsFromF32(FloatOf(in[i]))
                                               : BF16BitsFromF32(FloatOf(in[i]));
        if (out[i] != expected) {
          mismatches.Add(std::string(hwy::TargetName(target)) + ": twin " + std::to_string(which) +
                         " of bits " + std::to_string(in[i]) + ": vector " +
                         std::to_string(out[i]) + ", scalar " + std::to_string(expected));
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
