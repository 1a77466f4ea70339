// Every path of the fast path (sampler.h's SamplerPath) against the reference, each forced
// through ForceSamplerPathForTest wherever it can sample, in the layouts it reads, on every
// compiled target: so each kernel stays tested however the tuning thresholds that choose among
// them move. Channels-last cases also check that they give the channels-first outputs
// transposed, bit for bit (tester.h).
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "channels_last.h"
#include "path_choice.h"
#include "sampler.h"
#include "tests/any_tensor.h"
#include "tests/forced_path.h"
#include "tests/targets.h"
#include "tests/tester.h"
#include "thread_pool.h"
#include "timed_choice.h"
#include "validate.h"

namespace gridsample {
namespace {

using test::ForcedPath;
using test::GridSampleTester;

struct PathCase {
  SamplerPath path;
  Mode mode;
  std::vector<DType> dtypes;
  std::vector<DType> grid_dtypes;
  size_t min_extent;  // of every input axis: the path's windows must fit
  size_t max_rank;
  Layout layout = Layout::kChannelsFirst;
  std::vector<int64_t> channels = {};  // to draw from; empty: 1 to 20
};

// Random problems each path can sample, with few channels, small planes and outputs, where the
// thresholds would choose another path.
void TestForced(const PathCase& c, uint64_t seed) {
  const ForcedPath forced(c.path);
  std::mt19937_64 rng(seed);
  test::ForEachTarget([&](int64_t) {
    for (size_t rank = 1; rank <= c.max_rank; ++rank) {
      for (DType dtype : c.dtypes) {
        for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
          const int64_t channels = c.channels.empty() ? 1 + static_cast<int64_t>(rng() % 20)
                                                      : c.channels[rng() % c.channels.size()];
          std::vector<int64_t> input = {1 + static_cast<int64_t>(rng() % 2), channels};
          std::vector<int64_t> output;
          for (size_t a = 0; a < rank; ++a) {
            input.push_back(static_cast<int64_t>(c.min_extent + rng() % 5));
            output.push_back(1 + static_cast<int64_t>(rng() % 9));
          }
          GridSampleTester()
              .input(input)
              .output(output)
              .mode(c.mode)
              .padding(padding)
              .align_corners(rng() % 2 == 0)
              .dtype(dtype)
              .grid_dtype(c.grid_dtypes[rng() % c.grid_dtypes.size()])
              .grid_range(1.3)
              .special_values(rng() % 2 == 0)
              .threads(1 + static_cast<int>(rng() % 2))
              .layout(c.layout)
              .seed(rng())
              .Test();
        }
      }
    }
  });
}

const std::vector<DType> kPairTypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16,
                                       DType::kUInt8,   DType::kInt8,    DType::kUInt16,
                                       DType::kInt16,   DType::kBool};
const std::vector<DType> kFloatGrids = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
constexpr Layout kLast = Layout::kChannelsLast;

TEST_CASE("Every path, forced, equals the reference on every target", "[paths][simd]") {
  const PathCase cases[] = {
      {SamplerPath::kGeneric, Mode::kLinear, kPairTypes, {DType::kFloat32, DType::kFloat64}, 1, 4},
      {SamplerPath::kGeneric,
       Mode::kCubic,
       {DType::kFloat32, DType::kUInt8, DType::kInt16},
       {DType::kFloat32},
       1,
       3},
      {SamplerPath::kGeneric, Mode::kNearest, {DType::kFloat32, DType::kString}, kFloatGrids, 1, 4},
      {SamplerPath::kNearestPlan,
       Mode::kNearest,
       {DType::kFloat32, DType::kInt64},
       {DType::kFloat32},
       1,
       4},
      {SamplerPath::kPairs, Mode::kLinear, kPairTypes, kFloatGrids, 2, 4},
      {SamplerPath::kChannelsLast,
       Mode::kLinear,
       {DType::kFloat32, DType::kFloat16, DType::kBFloat16},
       kFloatGrids,
       2,
       4},
      {SamplerPath::kQuads, Mode::kCubic, {DType::kFloat32}, kFloatGrids, 4, 3},
      {SamplerPath::kChannelsLast, Mode::kCubic, {DType::kFloat32}, kFloatGrids, 4, 3},
      // Channels-last X: read as it is (8 and 16 channels of float32) or through a copy.
      {SamplerPath::kGeneric, Mode::kLinear, kPairTypes, kFloatGrids, 1, 4, kLast, {2, 3, 5}},
      {SamplerPath::kGeneric,
       Mode::kCubic,
       {DType::kFloat32, DType::kUInt8},
       kFloatGrids,
       1,
       3,
       kLast,
       {2, 3, 5}},
      {SamplerPath::kNearestPlan,
       Mode::kNearest,
       {DType::kFloat32, DType::kInt64},
       {DType::kFloat32},
       1,
       4,
       kLast,
       {2, 3, 5}},
      {SamplerPath::kChannelsLast,
       Mode::kLinear,
       {DType::kFloat32, DType::kFloat16, DType::kBFloat16},
       kFloatGrids,
       2,
       4,
       kLast,
       {3, 8, 9, 16}},
      {SamplerPath::kChannelsLast,
       Mode::kCubic,
       {DType::kFloat32},
       kFloatGrids,
       4,
       3,
       kLast,
       {3, 8, 11}},
      {SamplerPath::kPixelPairs,
       Mode::kLinear,
       {DType::kUInt8, DType::kFloat32},
       kFloatGrids,
       2,
       4,
       kLast,
       {3, 4}},
  };
  uint64_t seed = 1800;
  for (const PathCase& c : cases) {
    INFO("path " << SamplerPathName(c.path) << ", mode " << ModeName(c.mode) << ", "
                 << LayoutName(c.layout));
    TestForced(c, ++seed);
  }
}

TEST_CASE(
    "The pair path, with and without AVX-512's gathers and streaming stores, equals the "
    "reference",
    "[paths][simd]") {
  // A timing on the CPU chooses the gathers (HardwareGathersPay) and the output's size the
  // non-temporal stores: each way is forced here, so that all are tested on every AVX-512
  // machine (other targets have only the loads one by one, and plain stores off x86). The
  // random outputs' planes start at every alignment, so that streaming takes each of its
  // widths, and its plain stores where a plane is not 16-byte aligned.
  uint64_t seed = 1900;
  for (bool gathers : {false, true}) {
    for (bool stream : {false, true}) {
      INFO("hardware gathers " << gathers << ", streaming stores " << stream);
      const test::ForcedPairFlags forced(PairFlags{gathers, stream});
      TestForced({SamplerPath::kPairs, Mode::kLinear, {DType::kFloat32}, kFloatGrids, 2, 4},
                 ++seed);
    }
  }
}

TEST_CASE("Streamed pair outputs give the same bits at every alignment of Y", "[paths][simd]") {
  // Where the pair path streams its sums, the first tile of each batch item is cut short by
  // Y's offset into a cache line (CallSetup::tile_shift), so that the later tiles' stores are
  // whole lines: each offset of a float into a line is tried, Y filled beforehand with a
  // value no output takes and guarded on both sides, against the same call with plain stores
  // into an aligned Y. Planes of 2 x 2400 locations (a multiple of a line) span two tiles.
  constexpr size_t kLineFloats = 16, kGuard = 32;
  const std::vector<int64_t> x_shape = {2, 3, 41, 37}, grid_shape = {2, 48, 50, 2},
                             y_shape = {2, 3, 48, 50};
  std::mt19937_64 rng(2100);
  std::uniform_real_distribution<float> uniform(-1.2f, 1.2f);
  std::vector<float> x(2 * 3 * 41 * 37), grid(2 * 48 * 50 * 2);
  for (float& v : x) v = uniform(rng) * 10;
  for (float& v : grid) v = uniform(rng);
  const size_t count = 2 * 3 * 48 * 50;
  const ForcedPath forced(SamplerPath::kPairs);
  test::ForEachTarget([&](int64_t) {
    for (int threads : {1, 2}) {
      Options options;
      options.padding = Padding::kZeros;
      options.num_threads = threads;
      std::vector<float> plain(count + kLineFloats);
      float* aligned = plain.data();
      while (reinterpret_cast<uintptr_t>(aligned) % (kLineFloats * sizeof(float)) != 0) ++aligned;
      {
        const test::ForcedPairFlags stores(PairFlags{false, false});
        REQUIRE(GridSample(TensorView{DType::kFloat32, x.data(), x_shape.data(), 4},
                           TensorView{DType::kFloat32, grid.data(), grid_shape.data(), 4},
                           MutableTensorView{DType::kFloat32, aligned, y_shape.data(), 4}, options)
                    .ok());
      }
      const test::ForcedPairFlags streamed(PairFlags{false, true});
      for (size_t offset = 0; offset < kLineFloats; ++offset) {
        INFO("threads " << threads << ", Y " << offset << " floats into a line");
        const float kUnwritten = -12345.0f;  // outside the inputs' range
        std::vector<float> buffer(count + 2 * kGuard + kLineFloats, kUnwritten);
        float* y = buffer.data() + kGuard;
        while (reinterpret_cast<uintptr_t>(y) % (kLineFloats * sizeof(float)) !=
               offset * sizeof(float)) {
          ++y;
        }
        REQUIRE(GridSample(TensorView{DType::kFloat32, x.data(), x_shape.data(), 4},
                           TensorView{DType::kFloat32, grid.data(), grid_shape.data(), 4},
                           MutableTensorView{DType::kFloat32, y, y_shape.data(), 4}, options)
                    .ok());
        size_t differ = 0;
        for (size_t i = 0; i < count; ++i) {
          differ += std::memcmp(&y[i], &aligned[i], sizeof(float)) != 0;
        }
        CHECK(differ == 0);
        for (const float* at = buffer.data(); at < y; ++at) CHECK(*at == kUnwritten);
        for (const float* at = y + count; at < buffer.data() + buffer.size(); ++at) {
          CHECK(*at == kUnwritten);
        }
      }
    }
  });
}

TEST_CASE("The channels-last path, with pair weights permuted and broadcast, equals the reference",
          "[paths][simd]") {
  // A timing on the CPU chooses how pair plans over pixels of one vector are weighed
  // (PermutedWeightsPay): each way is forced here, on pixels of 4, 8 and 16 floats (one vector
  // of some target each) and 24 (never one), planar and channels-last.
  uint64_t seed = 2000;
  for (bool permuted : {false, true}) {
    for (Layout layout : {Layout::kChannelsFirst, kLast}) {
      INFO("permuted weights " << permuted << ", " << LayoutName(layout));
      const test::ForcedPermutedWeights forced(permuted);
      TestForced({SamplerPath::kChannelsLast,
                  Mode::kLinear,
                  {DType::kFloat32, DType::kFloat16},
                  kFloatGrids,
                  2,
                  4,
                  layout,
                  {3, 4, 8, 16, 20}},
                 ++seed);
    }
  }
}

TEST_CASE("The pair weights of small pixels are timed once per target", "[paths][simd]") {
  // PermutedWeightsPay keeps each answer, as HardwareGathersPay does (below); it times pixels
  // of kSmallPixel floats on x86 only, and wider pixels permute.
  test::ForEachTarget([](int64_t) {
    for (size_t padded : {size_t{4}, size_t{8}, size_t{16}, size_t{24}}) {
      const bool first = PermutedWeightsPay(padded);
      for (int k = 0; k < 3; ++k) CHECK(PermutedWeightsPay(padded) == first);
      if (padded != kSmallPixel || !HWY_ARCH_X86) CHECK(first);
    }
  });
}

TEST_CASE("The gathers are timed once per target, and only on AVX-512 targets", "[paths][simd]") {
  // HardwareGathersPay times the pair kernel both ways at its first call on a 512-bit target and
  // keeps the answer: asked again, it must not time again (a second timing could answer
  // otherwise, and a call's path would then depend on when it ran). Narrower targets have no
  // gathers to choose, whatever the CPU.
  test::ForEachTarget([](int64_t target) {
    const bool first = HardwareGathersPay();
    for (int k = 0; k < 3; ++k) CHECK(HardwareGathersPay() == first);
    if (std::string(hwy::TargetName(target)).rfind("AVX3", 0) != 0) CHECK_FALSE(first);
  });
}

TEST_CASE("A call contest alternates its ways, keeps the faster one, then times again", "[paths]") {
  // Way 1 faster by more than the margin: it wins; within the margin, way 0 keeps the calls.
  for (const double way1 : {0.5, 1.0 / (kTimedMargin * 1.001), 0.995}) {
    CallContest contest;
    for (int call = 0; call < 2 * CallContest::kTrials; ++call) {
      CHECK_FALSE(contest.decided());
      bool timed = false;
      const int way = contest.Enter(&timed);
      CHECK(timed);
      CHECK(way == call % 2);
      // Each way's first call is slow (page faults), and the others vary: the fastest counts.
      const double seconds = (way == 0 ? 1.0 : way1) * (call < 2 ? 3.0 : 1.0 + 0.1 * (call / 2));
      contest.Record(way, seconds);
    }
    INFO("way 1 at " << way1);
    REQUIRE(contest.decided());
    const int winner = way1 * kTimedMargin < 1.0 ? 1 : 0;
    CHECK(contest.winner() == winner);
    contest.Record(1 - winner, 1e-9);  // late times change nothing
    for (int call = 0; call < CallContest::kRetimeAfter; ++call) {
      bool timed = true;
      CHECK(contest.Enter(&timed) == winner);
      CHECK_FALSE(timed);
    }
    // Then timed again from the start: both ways, the slower one now winning.
    for (int call = 0; call < 2 * CallContest::kTrials; ++call) {
      bool timed = false;
      const int way = contest.Enter(&timed);
      CHECK(timed);
      CHECK(way == call % 2);
      contest.Record(way, way == winner ? 2.0 : 1.0);
    }
    REQUIRE(contest.decided());
    CHECK(contest.winner() == 1 - winner);
  }
}

TEST_CASE("A call contest decides only on times of both ways", "[paths]") {
  // Calls entered but never timed (a call that failed) leave the contest open.
  CallContest contest;
  bool timed = false;
  for (int call = 0; call < 4 * CallContest::kTrials; ++call) contest.Enter(&timed);
  for (int call = 0; call < 4 * CallContest::kTrials; ++call) contest.Record(0, 1.0);
  CHECK_FALSE(contest.decided());
  for (int call = 0; call < CallContest::kTrials; ++call) contest.Record(1, 2.0);
  CHECK(contest.decided());
  CHECK(contest.winner() == 0);
}

TEST_CASE("Contested calls give the same bits while they are timed and after", "[paths][simd]") {
  // 2-D linear images of 16 channels on planes of 24 x 20, and volumes of 8 channels on planes
  // of 10 x 12 x 14: the channels-last path takes them by its rule, and the pair path contests
  // them; images of 8 channels (too few for the rule) and an output under half the input: the
  // pair path takes them, and the channels-last path contests them (path_choice.cc). Each
  // target's and thread count's calls of each kind are a contest of their own, decided after
  // 2 * kTrials calls; every call gives the first call's bits, whichever path it took. One
  // channel, or planes past 4096 elements where the channels-last path takes them, stay out of
  // the contests.
  ResetPathContestsForTest();
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> value(-4.0, 4.0), coordinate(-1.1, 1.1);
  const auto random = [&](std::vector<int64_t> shape, std::uniform_real_distribution<double>& d) {
    test::AnyTensor t(DType::kFloat32, shape);
    for (size_t i = 0; i < t.size(); ++i) t.Set(i, d(rng));
    return t;
  };
  const test::AnyTensor x = random({1, 16, 24, 20}, value),
                        grid = random({1, 40, 36, 2}, coordinate);
  const test::AnyTensor one = random({1, 1, 24, 20}, value), large = random({1, 16, 64, 70}, value);
  const test::AnyTensor large_grid = random({1, 50, 50, 2}, coordinate);
  const test::AnyTensor volume = random({1, 8, 10, 12, 14}, value),
                        volume_grid = random({1, 9, 12, 16, 3}, coordinate);
  const test::AnyTensor eight = random({1, 8, 30, 32}, value),
                        eight_grid = random({1, 48, 44, 2}, coordinate);
  const test::AnyTensor wide = random({1, 32, 40, 40}, value),
                        small_grid = random({1, 22, 30, 2}, coordinate);
  struct Contested {
    const test::AnyTensor& x;
    const test::AnyTensor& grid;
    std::vector<int64_t> y_shape;
  };
  const Contested contested[] = {{x, grid, {1, 16, 40, 36}},
                                 {volume, volume_grid, {1, 8, 9, 12, 16}},
                                 {eight, eight_grid, {1, 8, 48, 44}},
                                 {wide, small_grid, {1, 32, 22, 30}}};
  test::AnyTensor one_y(DType::kFloat32, {1, 1, 40, 36}), large_y(DType::kFloat32, {1, 16, 50, 50});
  std::vector<int> thread_counts = {1};
  if (ThreadsForCall(2) == 2) thread_counts.push_back(2);
  size_t contests = 0;
  test::ForEachTarget([&](int64_t) {
    for (int threads : thread_counts) {
      Options options;
      options.num_threads = threads;
      std::vector<test::AnyTensor> first;
      for (const Contested& c : contested) {
        first.emplace_back(DType::kFloat32, c.y_shape);
        REQUIRE(GridSample(c.x.view(), c.grid.view(), first.back().mutable_view(), options).ok());
      }
      for (int call = 1; call < 2 * CallContest::kTrials + 3; ++call) {
        INFO("call " << call << ", " << threads << " threads");
        CHECK(DecidedPathContestsForTest() ==
              contests + std::size(contested) * (call >= 2 * CallContest::kTrials));
        for (size_t k = 0; k < std::size(contested); ++k) {
          INFO("contested call " << k);
          test::AnyTensor y(DType::kFloat32, contested[k].y_shape);
          REQUIRE(
              GridSample(contested[k].x.view(), contested[k].grid.view(), y.mutable_view(), options)
                  .ok());
          CHECK(y.Identical(first[k]));
        }
        REQUIRE(GridSample(one.view(), grid.view(), one_y.mutable_view(), options).ok());
        REQUIRE(GridSample(large.view(), large_grid.view(), large_y.mutable_view(), options).ok());
      }
      contests += std::size(contested);
      CHECK(DecidedPathContestsForTest() == contests);
    }
  });
  ResetPathContestsForTest();
  CHECK(DecidedPathContestsForTest() == 0);
}

TEST_CASE("The channels-last path samples planar X of many channels in groups", "[paths]") {
  // Groups of kChannelGroup channels from twice that many, of half as many where such a
  // group's copy would pass kGroupCopyBytes (which also splits fewer channels), the last group
  // with the rest; on more threads only where every thread gets two groups or more, or one or
  // more with each group's copy in L2; channels-last X is read whole.
  const size_t small = kGroupCopyBytes / sizeof(float) / kChannelGroup;  // a plane that fits
  CHECK(GroupChannels(2 * kChannelGroup - 1, small / 2) == 0);
  CHECK(GroupChannels(2 * kChannelGroup - 1, small) == kChannelGroup / 2);
  CHECK(GroupChannels(2 * kChannelGroup, small) == kChannelGroup);
  CHECK(GroupChannels(130, small) == kChannelGroup);
  CHECK(GroupChannels(kChannelGroup, small) == 0);
  CHECK(GroupChannels(kChannelGroup, small + 1) == kChannelGroup / 2);
  CHECK(GroupChannels(130, small + 1) == kChannelGroup / 2);
  CHECK(GroupChannels(kChannelGroup - 1, 4 * small) == 0);
  CHECK(ChannelGroup(130, kChannelGroup, 2).first == 2 * kChannelGroup);
  CHECK(ChannelGroup(130, kChannelGroup, 2).count == kChannelGroup);
  CHECK(ChannelGroup(130, kChannelGroup, 3).count == 130 - 3 * kChannelGroup);
  const ForcedPath forced(SamplerPath::kChannelsLast);
  // Outputs of side × side locations: 40 gives 32 channels work enough for two threads.
  const auto width = [](std::vector<int64_t> x_shape, Layout layout, int threads,
                        int64_t side = 20) {
    const std::vector<int64_t> grid_shape = {x_shape[0], side, side, 2};
    std::vector<int64_t> y_shape = {x_shape[0], x_shape[1], side, side};
    if (layout == kLast) y_shape = {x_shape[0], side, side, x_shape[3]};
    const test::AnyTensor x(DType::kFloat32, x_shape), grid(DType::kFloat32, grid_shape);
    test::AnyTensor y(DType::kFloat32, y_shape);
    Options options;
    options.num_threads = threads;
    options.layout = layout;
    Problem problem;
    REQUIRE(Validate(x.view(), grid.view(), y.mutable_view(), options, &problem).ok());
    const PathChoice choice =
        ChoosePath(problem, options, PathTypesOf<DType::kFloat32, DType::kFloat32>());
    REQUIRE(choice.path == SamplerPath::kChannelsLast);
    return choice.group_channels;
  };
  constexpr Layout kFirst = Layout::kChannelsFirst;
  CHECK(width({1, 63, 20, 20}, kFirst, 1) == 0);
  CHECK(width({1, 64, 20, 20}, kFirst, 1) == kChannelGroup);
  CHECK(width({1, 130, 20, 20}, kFirst, 1) == kChannelGroup);
  CHECK(width({1, 32, 128, 128}, kFirst, 1) == kChannelGroup / 2);
  CHECK(width({1, 20, 20, 130}, kLast, 1) == 0);
  if (ThreadsForCall(2) == 2) {
    CHECK(width({1, 64, 20, 20}, kFirst, 2) == kChannelGroup);
    CHECK(width({1, 96, 20, 20}, kFirst, 2) == kChannelGroup);
    CHECK(width({2, 64, 20, 20}, kFirst, 2) == kChannelGroup);
    CHECK(width({1, 130, 20, 20}, kFirst, 2) == kChannelGroup);
    CHECK(width({1, 32, 256, 256}, kFirst, 1, 40) == kChannelGroup / 2);
    CHECK(width({1, 32, 256, 256}, kFirst, 2, 40) == 0);
    // One group a thread where a core's L2 holds its copy, up to kGroupCopyBytes: W1's copies
    // of 1 MB, and of 512 KB; copies of 51 KB on every L2 here.
    for (const size_t l2 : {size_t{2} << 20, size_t{512} << 10, size_t{256} << 10}) {
      INFO("L2 " << l2 << " bytes");
      const test::ForcedCoreL2Bytes forced_l2(l2);
      CHECK(width({1, 32, 128, 128}, kFirst, 2, 40) ==
            (l2 >= kGroupCopyBytes ? kChannelGroup / 2 : 0));
      CHECK(width({1, 64, 64, 64}, kFirst, 2, 64) ==
            (l2 >= (size_t{512} << 10) ? kChannelGroup : 0));
      CHECK(width({1, 64, 20, 20}, kFirst, 2) == kChannelGroup);
    }
  }
}

TEST_CASE("A forced path that cannot sample a call leaves the call to one that can", "[paths]") {
  // Quads for uint8 and for a 2-element axis, channels-last for int16: the normal choice runs.
  const ForcedPath quads(SamplerPath::kQuads);
  GridSampleTester().input({1, 2, 2, 6}).mode(Mode::kCubic).seed(1).Test();
  GridSampleTester().input({1, 2, 5, 6}).mode(Mode::kCubic).dtype(DType::kUInt8).seed(2).Test();
  const ForcedPath channels_last(SamplerPath::kChannelsLast);
  GridSampleTester().input({1, 20, 5, 6}).dtype(DType::kInt16).seed(3).Test();
  // Pixel pairs for 2 or 5 channels, and for channels-first X.
  const ForcedPath pixel_pairs(SamplerPath::kPixelPairs);
  GridSampleTester().input({1, 2, 5, 6}).dtype(DType::kUInt8).layout(kLast).seed(4).Test();
  GridSampleTester().input({1, 5, 5, 6}).layout(kLast).seed(5).Test();
  GridSampleTester().input({1, 4, 5, 6}).dtype(DType::kUInt8).seed(6).Test();
}

}  // namespace
}  // namespace gridsample
