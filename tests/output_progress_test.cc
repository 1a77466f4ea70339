// The parts of Y a call reports finished (output_progress.h): they cover Y's bytes once each and
// hold their final values when reported, on every path and both layouts, on one thread and on
// several; Waiting runs on the calling thread only.
#include "output_progress.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/forced_path.h"
#include "thread_pool.h"

namespace gridsample {
namespace {

// Each part as reported, and a copy of its bytes then; whether Waiting ran elsewhere than on
// the thread that made the sink (the caller's).
class PartsSeen final : public OutputProgress {
 public:
  struct Run {
    const unsigned char* first;
    std::vector<unsigned char> bytes;
  };
  void Finished(const void* first, size_t bytes, size_t runs, size_t stride) override {
    std::lock_guard<std::mutex> lock(mutex);  // the call's threads report at once
    ++parts;
    for (size_t run = 0; run < runs; ++run) {
      const auto* at = static_cast<const unsigned char*>(first) + run * stride;
      seen.push_back({at, std::vector<unsigned char>(at, at + bytes)});
    }
  }
  bool Waiting() override {
    if (std::this_thread::get_id() != caller) waiting_elsewhere = true;
    return false;
  }
  std::mutex mutex;
  size_t parts = 0;
  std::vector<Run> seen;
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> waiting_elsewhere{false};
};

struct ProgressCase {
  const char* name;
  DType dtype;
  std::vector<int64_t> x_shape;     // N, C, spatial... (channels-first) or N, spatial..., C
  std::vector<int64_t> out_extent;  // Y's spatial extent
  Mode mode;
  Layout layout;
  int threads;
};

// Runs the case with a PartsSeen as the thread's sink, checks what it saw against Y, and
// returns the parts reported.
size_t CheckParts(const ProgressCase& c) {
  INFO(c.name);
  const size_t rank = c.out_extent.size();
  const bool last = c.layout == Layout::kChannelsLast;
  const int64_t channels = last ? c.x_shape.back() : c.x_shape[1];
  std::vector<int64_t> grid_shape = {c.x_shape[0]};
  std::vector<int64_t> y_shape = {c.x_shape[0]};
  if (!last) y_shape.push_back(channels);
  int64_t locations = 1;
  for (int64_t e : c.out_extent) {
    grid_shape.push_back(e);
    y_shape.push_back(e);
    locations *= e;
  }
  if (last) y_shape.push_back(channels);
  grid_shape.push_back(static_cast<int64_t>(rank));
  int64_t x_count = 1;
  for (int64_t e : c.x_shape) x_count *= e;
  const size_t size = c.dtype == DType::kUInt8 ? 1 : 4;
  std::mt19937 rng(7);
  std::vector<unsigned char> x(static_cast<size_t>(x_count) * size);
  if (size == 1) {
    for (auto& v : x) v = static_cast<unsigned char>(rng());
  } else {
    std::uniform_real_distribution<float> value(-4.0f, 4.0f);
    for (size_t i = 0; i < x.size(); i += 4) {
      const float v = value(rng);
      std::memcpy(&x[i], &v, 4);
    }
  }
  std::vector<float> grid(static_cast<size_t>(c.x_shape[0] * locations) * rank);
  std::uniform_real_distribution<float> coordinate(-1.1f, 1.1f);
  for (float& g : grid) g = coordinate(rng);
  std::vector<unsigned char> y(static_cast<size_t>(c.x_shape[0] * locations * channels) * size);

  Options options;
  options.mode = c.mode;
  options.padding = Padding::kZeros;
  options.layout = c.layout;
  options.num_threads = c.threads;
  PartsSeen parts;
  SetOutputProgress(&parts);
  const Status status =
      GridSample(TensorView{c.dtype, x.data(), c.x_shape.data(), c.x_shape.size()},
                 TensorView{DType::kFloat32, grid.data(), grid_shape.data(), grid_shape.size()},
                 MutableTensorView{c.dtype, y.data(), y_shape.data(), y_shape.size()}, options);
  SetOutputProgress(nullptr);
  REQUIRE(status.ok());
  CHECK_FALSE(parts.waiting_elsewhere);
  if (parts.parts == 0) return 0;
  std::vector<int> covered(y.size(), 0);
  for (const PartsSeen::Run& run : parts.seen) {
    REQUIRE(run.first >= y.data());
    const size_t offset = static_cast<size_t>(run.first - y.data());
    REQUIRE(offset + run.bytes.size() <= y.size());
    INFO("a part at byte " << offset << " of " << run.bytes.size());
    CHECK(std::memcmp(run.bytes.data(), y.data() + offset, run.bytes.size()) == 0);
    for (size_t i = 0; i < run.bytes.size(); ++i) ++covered[offset + i];
  }
  size_t once = 0;
  for (int count : covered) once += count == 1 ? 1 : 0;
  CHECK(once == y.size());
  return parts.parts;
}

TEST_CASE("A call on one thread or two reports every part of Y once, each final when reported",
          "[progress]") {
  // On two threads, each reports its own items' parts at once with the other's: the cases are
  // large enough to split.
  std::vector<ProgressCase> cases = {
      {"pairs, float32, 3 planes",
       DType::kFloat32,
       {1, 3, 200, 200},
       {256, 256},
       Mode::kLinear,
       Layout::kChannelsFirst,
       1},
      {"channels-last path, 32 planes, 2 items",
       DType::kFloat32,
       {2, 32, 40, 40},
       {64, 64},
       Mode::kLinear,
       Layout::kChannelsFirst,
       1},
      {"channel groups, 256 planes",
       DType::kFloat32,
       {1, 256, 32, 32},
       {64, 64},
       Mode::kLinear,
       Layout::kChannelsFirst,
       1},
      {"pixel pairs, RGBA bytes",
       DType::kUInt8,
       {1, 150, 160, 4},
       {190, 210},
       Mode::kLinear,
       Layout::kChannelsLast,
       1},
      {"channels-last float32, 8 channels",
       DType::kFloat32,
       {1, 30, 40, 8},
       {50, 60},
       Mode::kLinear,
       Layout::kChannelsLast,
       1},
      {"cubic, 2 items",
       DType::kFloat32,
       {2, 5, 30, 40},
       {70, 80},
       Mode::kCubic,
       Layout::kChannelsFirst,
       1},
      {"nearest, bytes, 3 items",
       DType::kUInt8,
       {3, 7, 30, 40},
       {60, 50},
       Mode::kNearest,
       Layout::kChannelsFirst,
       1},
      {"3-D linear",
       DType::kFloat32,
       {1, 4, 12, 20, 24},
       {16, 30, 30},
       Mode::kLinear,
       Layout::kChannelsFirst,
       1},
  };
  for (int threads : {1, 2}) {
    for (ProgressCase& c : cases) {
      c.threads = threads;
      INFO(threads << " thread(s)");
      CHECK(CheckParts(c) > 0);
    }
  }
}

TEST_CASE("Each path, forced, reports every part of Y once or nothing", "[progress]") {
  for (int path = 0; path < kSamplerPaths; ++path) {
    const test::ForcedPath forced(static_cast<SamplerPath>(path));
    INFO(SamplerPathName(static_cast<SamplerPath>(path)));
    for (Layout layout : {Layout::kChannelsFirst, Layout::kChannelsLast}) {
      for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
        const bool last = layout == Layout::kChannelsLast;
        CheckParts({"float32",
                    DType::kFloat32,
                    last ? std::vector<int64_t>{2, 20, 30, 4} : std::vector<int64_t>{2, 4, 20, 30},
                    {40, 50},
                    mode,
                    layout,
                    1});
        CheckParts({"uint8",
                    DType::kUInt8,
                    last ? std::vector<int64_t>{1, 20, 30, 3} : std::vector<int64_t>{1, 3, 20, 30},
                    {40, 50},
                    mode,
                    layout,
                    1});
      }
    }
  }
}

}  // namespace
}  // namespace gridsample
