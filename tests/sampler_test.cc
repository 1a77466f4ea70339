// The fast path (sampler.cc) against the reference on seeded random problems: every rank up
// to 4, every mode × padding × align_corners, every X dtype × grid dtype, both layouts, axes of
// size 0, 1 and 2, thread counts, non-finite and huge grid values, on every compiled SIMD
// target.
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/any_tensor.h"
#include "tests/forced_path.h"
#include "tests/targets.h"
#include "tests/tester.h"
#include "window_plan.h"

namespace gridsample {
namespace {

using test::GridSampleTester;

template <typename T>
T Pick(std::mt19937_64* rng, const std::vector<T>& choices) {
  return choices[(*rng)() % choices.size()];
}
template <typename T>
T Pick(std::mt19937_64* rng, std::initializer_list<T> choices) {
  return Pick(rng, std::vector<T>(choices));
}

GridSampleTester RandomCase(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t rank = 1 + rng() % 4;
  const std::vector<int64_t> extents = {0, 1, 1, 2, 2, 3, 4, 5, 7};
  std::vector<int64_t> x_shape = {Pick<int64_t>(&rng, {0, 1, 1, 2}),
                                  Pick<int64_t>(&rng, {0, 1, 2, 3})};
  std::vector<int64_t> out;
  for (size_t a = 0; a < rank; ++a) {
    // Mostly non-empty input axes: an empty one with a non-empty output is an error.
    x_shape.push_back(rng() % 8 == 0 ? 0 : Pick<int64_t>(&rng, {1, 1, 2, 2, 3, 4, 5, 7}));
    out.push_back(Pick(&rng, extents));
  }
  std::vector<DType> x_dtypes;
  for (const test::DTypeInfo& info : test::AllDTypes()) x_dtypes.push_back(info.dtype);
  const Mode mode = Pick(&rng, {Mode::kLinear, Mode::kNearest, Mode::kCubic});
  DType x_dtype = Pick(&rng, x_dtypes);
  if (x_dtype == DType::kString && mode != Mode::kNearest && rng() % 4 != 0) {
    x_dtype = DType::kFloat32;  // keep most string cases valid; some check the error
  }
  return GridSampleTester()
      .input(x_shape)
      .output(out)
      .mode(mode)
      .padding(Pick(&rng, {Padding::kZeros, Padding::kBorder, Padding::kReflection}))
      .align_corners(rng() % 2 == 0)
      .dtype(x_dtype)
      .grid_dtype(Pick(&rng, test::GridDTypes()))
      .grid_range(Pick(&rng, {1.0, 1.3, 3.0, 50.0}))
      .special_values(rng() % 3 == 0)
      .threads(Pick(&rng, {1, 2, 0}))
      .layout(rng() % 2 == 0 ? Layout::kChannelsLast : Layout::kChannelsFirst)
      .seed(seed);
}

TEST_CASE("Fast path equals the reference on random problems, every target", "[sampler][simd]") {
  test::ForEachTarget([](int64_t target) {
    for (uint64_t seed = 0; seed < 400; ++seed) RandomCase(seed * 1000 + target % 997).Test();
  });
}

TEST_CASE("Fast path equals the reference across tiles and threads", "[sampler][simd]") {
  // Enough output locations for several tiles (and so several work items per thread), on every
  // target.
  test::ForEachTarget([](int64_t) {
    for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
      for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
        GridSampleTester()
            .input({2, 3, 19, 23})
            .output({45, 61})
            .mode(mode)
            .padding(padding)
            .threads(0)
            .seed(17)
            .Test();
        GridSampleTester()
            .input({1, 2, 6, 7, 9})
            .output({11, 9, 13})
            .mode(mode)
            .padding(padding)
            .align_corners(true)
            .dtype(DType::kFloat64)
            .threads(2)
            .seed(23)
            .Test();
      }
    }
  });
}

TEST_CASE("The linear pair path equals the reference on wide outputs", "[sampler][simd]") {
  // Tiles that end inside an output row (2-D tiles hold 2048 locations, 3-D ones 1024, so each
  // output spans several even on one thread), every dtype of the pair path, ranks 2 and 3,
  // non-finite inputs, 1 and 2 threads, every target.
  const DType dtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kUInt8,
                          DType::kInt8,    DType::kInt16,   DType::kUInt16,   DType::kBool};
  test::ForEachTarget([&](int64_t) {
    uint64_t seed = 300;
    for (DType dtype : dtypes) {
      for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
        for (int threads : {1, 2}) {
          GridSampleTester()
              .input({2, 2, 9, 150})
              .output({12, 200})
              .dtype(dtype)
              .padding(padding)
              .grid_range(1.3)
              .special_input(true)
              .threads(threads)
              .seed(++seed)
              .Test();
          GridSampleTester()
              .input({1, 2, 3, 4, 130})
              .output({2, 5, 131})
              .dtype(dtype)
              .padding(padding)
              .align_corners(true)
              .grid_range(1.3)
              .threads(threads)
              .seed(++seed)
              .Test();
        }
      }
    }
  });
}

TEST_CASE("Sparse samplings split over threads equal the reference", "[sampler][simd]") {
  // Fewer locations than input elements per channel, as keypoints sample: a tile per thread
  // (ChooseTiles), the last one partial; enough taps to run on the pool (nearest: 64 x 1100).
  test::ForEachTarget([&](int64_t) {
    uint64_t seed = 700;
    for (int64_t batch : {1, 3}) {
      for (int threads : {1, 2, 3}) {
        for (Mode mode : {Mode::kLinear, Mode::kNearest}) {
          GridSampleTester()
              .input({batch, 64, 48, 64})
              .output({1, 1100})
              .mode(mode)
              .align_corners(true)
              .threads(threads)
              .seed(++seed)
              .Test();
        }
      }
    }
  });
}

TEST_CASE("The channels-last path equals the reference", "[sampler][simd]") {
  // Linear float32/float16/bfloat16 with enough channels for the channels-last copy
  // (ChannelsLastPays in channels_last.cc): channel counts that are not a multiple of the
  // padding or that span several passes, an outer axis of size 1, 2-D to 4-D, a batch of two,
  // tiles that end inside a block, non-finite inputs and grid values, 1 and 2 threads, every
  // target.
  struct Shape {
    std::vector<int64_t> input, output;
  };
  const std::vector<Shape> shapes = {
      {{2, 17, 9, 13}, {10, 12}},       {{1, 16, 1, 20}, {1, 30}},
      {{1, 100, 8, 8}, {9, 7}},         {{1, 33, 50, 60}, {45, 67}},
      {{1, 9, 5, 30, 30}, {5, 30, 16}}, {{1, 8, 3, 4, 20, 20}, {3, 4, 20, 20}}};
  const DType dtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  uint64_t seed = 900;
  test::ForEachTarget([&](int64_t) {
    for (const Shape& shape : shapes) {
      for (DType dtype : dtypes) {
        for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
          ++seed;
          GridSampleTester()
              .input(shape.input)
              .output(shape.output)
              .dtype(dtype)
              .padding(padding)
              .align_corners(seed % 2 == 0)
              .grid_range(1.2)
              .special_input(seed % 3 == 0)
              .special_values(seed % 5 == 0)
              .threads(1 + static_cast<int>(seed % 2))
              .seed(seed)
              .Test();
        }
      }
    }
  });
}

TEST_CASE("The channels-last path equals the pair and quad paths bit for bit", "[sampler][simd]") {
  // One image sampled whole on the channels-last path and one channel at a time on the pair
  // (linear) or quad (cubic) path, which channels_last.h promises give the same bits; a NaN and
  // an infinite grid value and an infinite input element take the exact recompute on both.
  // Images of 20 channels (pixels of whole vectors) and volumes of 3, 4 and 12: pixels of
  // kSmallPixel floats, which 256- and 512-bit targets sum 2 or 4 taps a vector in 3-D cubic
  // (SumSmallPixelColumns), and of 16. Images of 70 and 130 channels and a volume of 64 are
  // sampled in groups (GroupChannels: of kChannelGroup, the last of 38, 34 and 32 channels) on
  // 1 thread, and the 130 on 2 threads too (2 groups a thread); an image of 40 channels whose
  // whole copy passes kGroupCopyBytes in groups of 16 and 24 (on 2 threads, one a thread: a
  // core's L2 is taken to be 2 MB); one of 100 in 3 groups, which 2 threads split 2 and 1.
  struct Geometry {
    int64_t channels;
    std::vector<int64_t> in, out;  // spatial sizes
  };
  const Geometry geometries[] = {
      {20, {24, 31}, {26, 29}},   {4, {6, 7, 9}, {5, 6, 11}}, {3, {5, 8, 6}, {4, 7, 5}},
      {12, {4, 5, 7}, {3, 5, 6}}, {70, {12, 13}, {11, 14}},   {130, {9, 10}, {16, 20}},
      {64, {4, 5, 6}, {3, 4, 5}}, {40, {128, 72}, {20, 30}},  {100, {12, 13}, {20, 24}}};
  struct Case {
    Mode mode;
    SamplerPath plane_path;
    std::vector<DType> dtypes;
  };
  const Case cases[] = {
      {Mode::kLinear, SamplerPath::kPairs, {DType::kFloat32, DType::kFloat16, DType::kBFloat16}},
      {Mode::kCubic, SamplerPath::kQuads, {DType::kFloat32}}};
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> value(-4.0, 4.0), coordinate(-1.2, 1.2);
  for (const Geometry& g : geometries) {
    const int64_t channels = g.channels;
    std::vector<int64_t> x_shape = {1, channels}, plane_shape = {1, 1}, y_shape = {1, channels},
                         y_plane_shape = {1, 1}, grid_shape = {1};
    size_t in_plane = 1, out_plane = 1;
    for (int64_t size : g.in) {
      x_shape.push_back(size);
      plane_shape.push_back(size);
      in_plane *= static_cast<size_t>(size);
    }
    for (int64_t size : g.out) {
      y_shape.push_back(size);
      y_plane_shape.push_back(size);
      grid_shape.push_back(size);
      out_plane *= static_cast<size_t>(size);
    }
    grid_shape.push_back(static_cast<int64_t>(g.in.size()));
    test::AnyTensor grid(DType::kFloat32, grid_shape);
    for (size_t i = 0; i < grid.size(); ++i) grid.Set(i, coordinate(rng));
    grid.Set(7, std::numeric_limits<double>::quiet_NaN());
    grid.Set(40, std::numeric_limits<double>::infinity());
    test::ForEachTarget([&](int64_t) {
      for (const Case& k : cases) {
        for (DType dtype : k.dtypes) {
          INFO("dtype " << test::InfoOf(dtype).name << ", mode " << ModeName(k.mode) << ", "
                        << channels << " channels, rank " << g.in.size());
          test::AnyTensor x(dtype, x_shape), y(dtype, y_shape);
          for (size_t i = 0; i < x.size(); ++i) x.Set(i, value(rng));
          x.Set(static_cast<size_t>(channels / 2) * in_plane + 5,
                std::numeric_limits<double>::infinity());
          for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
            Options options;
            options.mode = k.mode;
            options.padding = padding;
            options.num_threads = 1 + static_cast<int>(rng() % 2);
            {
              const test::ForcedPath whole(SamplerPath::kChannelsLast);
              const test::ForcedCoreL2Bytes l2(size_t{2} << 20);
              REQUIRE(GridSample(x.view(), grid.view(), y.mutable_view(), options).ok());
            }
            const test::ForcedPath planes(k.plane_path);
            for (int64_t c = 0; c < channels; ++c) {
              test::AnyTensor x_plane(dtype, plane_shape), y_plane(dtype, y_plane_shape);
              for (size_t i = 0; i < in_plane; ++i) {
                x_plane.SetBits(i, x.Bits(static_cast<size_t>(c) * in_plane + i));
              }
              REQUIRE(
                  GridSample(x_plane.view(), grid.view(), y_plane.mutable_view(), options).ok());
              size_t differing = 0;
              for (size_t i = 0; i < out_plane; ++i) {
                const uint64_t whole = y.Bits(static_cast<size_t>(c) * out_plane + i);
                differing += whole != y_plane.Bits(i) ? 1 : 0;
              }
              INFO("channel " << c << ", padding " << PaddingName(padding) << ", "
                              << options.num_threads << " threads");
              CHECK(differing == 0);
            }
          }
        }
      }
    });
  }
}

TEST_CASE("Channel groups of several batch items each sample their own item's plan",
          "[sampler][simd]") {
  // A worker's groups of one batch item share its plan where one tile holds the item
  // (SampleChannelGroups): items of 70 channels (groups of 32 and 38), each with its own grid,
  // sampled in one call on 1 and 2 threads and each alone, bit for bit; outputs of 11 x 14
  // locations (one tile an item) and of 130 x 133 (several: past kGroupPlanBudget).
  for (const int64_t side : {int64_t{11}, int64_t{130}}) {
    const int64_t batch = 3, channels = 70;
    const std::vector<int64_t> in = {12, 13}, out = {side, side + 3};
    test::AnyTensor x(DType::kFloat32, {batch, channels, in[0], in[1]});
    test::AnyTensor grid(DType::kFloat32, {batch, out[0], out[1], 2});
    test::AnyTensor y(DType::kFloat32, {batch, channels, out[0], out[1]});
    std::mt19937_64 rng(93);
    std::uniform_real_distribution<double> value(-4.0, 4.0), coordinate(-1.2, 1.2);
    for (size_t i = 0; i < x.size(); ++i) x.Set(i, value(rng));
    for (size_t i = 0; i < grid.size(); ++i) grid.Set(i, coordinate(rng));
    const size_t x_item = x.size() / batch, grid_item = grid.size() / batch,
                 y_item = y.size() / batch;
    const test::ForcedPath forced(SamplerPath::kChannelsLast);
    test::ForEachTarget([&](int64_t) {
      for (int threads : {1, 2}) {
        INFO(side << " x " << side + 3 << " locations, " << threads << " threads");
        Options options;
        options.num_threads = threads;
        REQUIRE(GridSample(x.view(), grid.view(), y.mutable_view(), options).ok());
        for (int64_t n = 0; n < batch; ++n) {
          test::AnyTensor x1(DType::kFloat32, {1, channels, in[0], in[1]});
          test::AnyTensor grid1(DType::kFloat32, {1, out[0], out[1], 2});
          test::AnyTensor y1(DType::kFloat32, {1, channels, out[0], out[1]});
          const size_t item = static_cast<size_t>(n);
          for (size_t i = 0; i < x_item; ++i) x1.SetBits(i, x.Bits(item * x_item + i));
          for (size_t i = 0; i < grid_item; ++i) grid1.SetBits(i, grid.Bits(item * grid_item + i));
          REQUIRE(GridSample(x1.view(), grid1.view(), y1.mutable_view(), options).ok());
          size_t differing = 0;
          for (size_t i = 0; i < y_item; ++i) {
            differing += y.Bits(item * y_item + i) != y1.Bits(i) ? 1 : 0;
          }
          INFO("batch item " << n);
          CHECK(differing == 0);
        }
      }
    });
  }
}

TEST_CASE("The channels-last path writes output planes at any alignment", "[sampler][simd]") {
  // StoreBlock writes whole vectors from where each plane's lines begin, and 16-byte pieces
  // before and after, when the planes are whole vectors apart: outputs at every float offset
  // in a 64-byte line, planes of whole vectors (32 x 48) and not (33 x 31), 13 channels (a
  // last group of 1 plane), tiles of 1 and 2 threads, against the pair path bit for bit, and
  // nothing written outside the output.
  const std::vector<int64_t> x_shape = {1, 13, 40, 36};
  std::mt19937_64 rng(91);
  std::uniform_real_distribution<double> value(-4.0, 4.0), coordinate(-1.2, 1.2);
  test::AnyTensor x(DType::kFloat32, x_shape);
  for (size_t i = 0; i < x.size(); ++i) x.Set(i, value(rng));
  for (const std::vector<int64_t>& out : {std::vector<int64_t>{32, 48}, {33, 31}}) {
    test::AnyTensor grid(DType::kFloat32, {1, out[0], out[1], 2});
    for (size_t i = 0; i < grid.size(); ++i) grid.Set(i, coordinate(rng));
    const std::vector<int64_t> y_shape = {1, x_shape[1], out[0], out[1]};
    test::AnyTensor expected(DType::kFloat32, y_shape);
    test::ForEachTarget([&](int64_t) {
      for (int threads : {1, 2}) {
        Options options;
        options.num_threads = threads;
        {
          const test::ForcedPath pairs(SamplerPath::kPairs);
          REQUIRE(GridSample(x.view(), grid.view(), expected.mutable_view(), options).ok());
        }
        const test::ForcedPath whole(SamplerPath::kChannelsLast);
        constexpr size_t kLineFloats = 16;
        const size_t count = expected.size();
        for (size_t offset = 0; offset < kLineFloats; ++offset) {
          INFO("output " << out[0] << " x " << out[1] << ", offset " << offset << " floats, "
                         << threads << " threads");
          const float kUntouched = -7.5f;
          std::vector<float> buffer(count + kLineFloats, kUntouched);
          const MutableTensorView y{DType::kFloat32, buffer.data() + offset, y_shape.data(),
                                    y_shape.size()};
          REQUIRE(GridSample(x.view(), grid.view(), y, options).ok());
          size_t differing = 0, outside = 0;
          for (size_t i = 0; i < count; ++i) {
            const float got = buffer[offset + i];
            uint32_t bits = 0;
            std::memcpy(&bits, &got, sizeof(bits));
            differing += bits != expected.Bits(i) ? 1 : 0;
          }
          for (size_t i = 0; i < buffer.size(); ++i) {
            const bool inside = i >= offset && i < offset + count;
            outside += !inside && buffer[i] != kUntouched ? 1 : 0;
          }
          CHECK(differing == 0);
          CHECK(outside == 0);
        }
      }
    });
  }
}

TEST_CASE("The channels-last path copies large batches an item at a time", "[sampler]") {
  // Each item's channels-last copy (16 channels of 520x512) takes more than half of the 32 MB
  // that sampler.cc keeps, so the two items are copied and sampled one after the other.
  for (int threads : {1, 2}) {
    GridSampleTester()
        .input({2, 16, 520, 512})
        .output({260, 512})
        .grid_range(1.1)
        .threads(threads)
        .seed(950 + static_cast<uint64_t>(threads))
        .Test();
  }
}

TEST_CASE("The pair path on large inputs equals the reference", "[sampler]") {
  // Three float32 planes of 1100x1100 (14 MB) and 3 uint16 planes of 1700x1700 (17 MB), in 2-D
  // and 3-D, the whole input reachable (the taps of the first and last planes at the input's
  // far corner), and tiles of more locations than the kernels prefetch ahead.
  GridSampleTester().input({1, 3, 1100, 1100}).output({61, 67}).grid_range(1.1).seed(960).Test();
  GridSampleTester()
      .input({2, 3, 1700, 1700})
      .output({37, 41})
      .dtype(DType::kUInt16)
      .padding(Padding::kBorder)
      .grid_range(1.2)
      .threads(2)
      .seed(961)
      .Test();
  GridSampleTester().input({1, 4, 9, 300, 400}).output({5, 7, 9}).grid_range(1.1).seed(962).Test();
}

TEST_CASE("ScatteredWindows tells a sparse tile from a smooth one", "[sampler]") {
  // Corners a row apart (a sparse sampling) against corners a pixel apart (a warp), in float32
  // planes of 512 x 512 (1 MB) and of 64 x 64 (16 KB, which the caches hold).
  std::vector<int32_t> sparse(256), smooth(256);
  for (size_t i = 0; i < sparse.size(); ++i) {
    sparse[i] = static_cast<int32_t>((i * 7919 % 509) * 512 + i % 509);
    smooth[i] = static_cast<int32_t>(i + i / 200 * 300);  // a new row after 200 locations
  }
  WindowPlanView plan{};
  plan.count = sparse.size();
  plan.base_offsets = sparse.data();
  CHECK(ScatteredWindows(plan, 512 * 512 * 4, 4));
  CHECK_FALSE(ScatteredWindows(plan, 64 * 64 * 4, 4));
  plan.count = 1;
  CHECK_FALSE(ScatteredWindows(plan, 512 * 512 * 4, 4));
  plan.count = smooth.size();
  plan.base_offsets = smooth.data();
  CHECK_FALSE(ScatteredWindows(plan, 512 * 512 * 4, 4));
}

TEST_CASE("The cubic quad path equals the reference in 1-D, 2-D and 3-D", "[sampler][simd]") {
  // float32 with every axis of at least 4 elements: windows of four, including axes of
  // exactly 4, every padding, non-finite inputs, every target.
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 2, 11}, {1, 3, 4, 9}, {2, 2, 6, 5}, {1, 2, 5, 4, 7}, {1, 1, 4, 4, 4}};
  uint64_t seed = 700;
  test::ForEachTarget([&](int64_t target) {
    INFO("target " << hwy::TargetName(target));
    for (const auto& shape : shapes) {
      const std::vector<int64_t> out(shape.size() - 2, 5);
      for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
        for (bool align : {false, true}) {
          ++seed;
          GridSampleTester()
              .input(shape)
              .output(out)
              .mode(Mode::kCubic)
              .padding(padding)
              .align_corners(align)
              .grid_range(1.6)
              .special_input(seed % 2 == 0)
              .seed(seed)
              .Test();
        }
      }
    }
  });
}

TEST_CASE("A cubic outer weight near 0 keeps its value and sign on every target",
          "[sampler][simd]") {
  // t = 1 - 2^-12 (found by the fuzzer): the outer tap's weight is A t^2 (1 - t) ≈ -4.47e-8, which
  // the expanded polynomial rounded to 0.
  const std::vector<float> x = {0, 0, 1, 0, 0, 0, 0};
  const std::vector<float> grid = {0.333251953125f};
  const int64_t x_shape[] = {1, 1, 7}, grid_shape[] = {1, 1, 1}, y_shape[] = {1, 1, 1};
  Options options;
  options.mode = Mode::kCubic;
  options.padding = Padding::kReflection;
  options.align_corners = true;
  test::ForEachTarget([&](int64_t target) {
    INFO("target " << hwy::TargetName(target));
    float y = 1;
    const Status status = GridSample(TensorView{DType::kFloat32, x.data(), x_shape, 3},
                                     TensorView{DType::kFloat32, grid.data(), grid_shape, 3},
                                     MutableTensorView{DType::kFloat32, &y, y_shape, 3}, options);
    REQUIRE(status.ok());
    CHECK(y == Approx(-4.46925696e-08).epsilon(1e-6));
  });
}

TEST_CASE("Results do not depend on the thread count", "[sampler]") {
  std::mt19937_64 rng(5);
  test::AnyTensor x(DType::kFloat32, {2, 4, 33, 35});
  for (size_t i = 0; i < x.size(); ++i) x.Set(i, std::uniform_real_distribution<>(-1, 1)(rng));
  test::AnyTensor grid(DType::kFloat32, {2, 57, 59, 2});
  for (size_t i = 0; i < grid.size(); ++i) {
    grid.Set(i, std::uniform_real_distribution<>(-1.3, 1.3)(rng));
  }
  for (Mode mode : {Mode::kLinear, Mode::kCubic}) {
    Options options;
    options.mode = mode;
    options.num_threads = 1;
    const test::Results one = test::RunBoth(x, grid, options);
    for (int threads : {2, 3, 0}) {
      options.num_threads = threads;
      const test::Results many = test::RunBoth(x, grid, options);
      REQUIRE(many.fast_status.ok());
      CHECK(many.fast.Identical(one.fast));
    }
  }
}

TEST_CASE("Threads splitting channels give the bits of one thread", "[sampler]") {
  // The generic path (cubic uint8) and the nearest plan split 13 channels into blocks of 6 and
  // 7 (or 4, 4, 5) when 2 or 3 threads run; linear uint8 takes the pair path, which splits
  // locations.
  std::mt19937_64 rng(6);
  test::AnyTensor x(DType::kUInt8, {2, 13, 30, 31});
  for (size_t i = 0; i < x.size(); ++i) x.Set(i, std::uniform_int_distribution<>(0, 255)(rng));
  test::AnyTensor grid(DType::kFloat32, {2, 40, 41, 2});
  for (size_t i = 0; i < grid.size(); ++i) {
    grid.Set(i, std::uniform_real_distribution<>(-1.2, 1.2)(rng));
  }
  for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
    Options options;
    options.mode = mode;
    options.num_threads = 1;
    const test::Results one = test::RunBoth(x, grid, options);
    for (int threads : {2, 3, 0}) {
      INFO(ModeName(mode) << ", " << threads << " threads");
      options.num_threads = threads;
      const test::Results many = test::RunBoth(x, grid, options);
      REQUIRE(many.fast_status.ok());
      CHECK(many.fast.Identical(one.fast));
      CHECK(many.fast.Identical(many.ref));
    }
  }
}

}  // namespace
}  // namespace gridsample
