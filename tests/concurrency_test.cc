// Concurrent calls (the header's contract: calls from several threads at once are safe and
// share the worker pool; results do not depend on the thread count). Several std::threads run
// GridSample at the same time on shared read-only inputs, each with its own dtypes, mode,
// padding and num_threads (the pool included), and every result must equal bit for bit the one
// computed serially on one thread before they started. The tsan stage of `npm test` builds this
// suite (and thread_pool_test.cc) alone with -fsanitize=thread, which reports any data race.
#include <catch2/catch.hpp>

#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "any_tensor.h"
#include "gridsample/gridsample.h"

namespace gridsample {
namespace {

using test::AnyTensor;

// X of `shape` with values that fit every dtype (0..100; "s<i>" for strings).
AnyTensor MakeInput(DType dtype, std::vector<int64_t> shape) {
  AnyTensor x(dtype, std::move(shape));
  for (size_t i = 0; i < x.size(); ++i) {
    if (x.info().kind == Conversion::kString) {
      x.SetString(i, "s" + std::to_string(i));
    } else {
      x.Set(i, static_cast<double>(i * 37 % 101));
    }
  }
  return x;
}

// A grid of `shape` with coordinates in [-1.1, 1.1] and an occasional NaN.
AnyTensor MakeGrid(DType dtype, std::vector<int64_t> shape, uint64_t seed) {
  AnyTensor grid(dtype, std::move(shape));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coordinate(-1.1, 1.1);
  for (size_t i = 0; i < grid.size(); ++i) {
    grid.Set(i, rng() % 97 == 0 ? std::nan("") : coordinate(rng));
  }
  return grid;
}

// One caller's work: inputs shared with other callers, its own options and output.
struct Call {
  const AnyTensor* x;
  const AnyTensor* grid;
  Options options;

  std::string Describe() const {
    return std::string("x ") + DTypeName(x->dtype()) + ", grid " + DTypeName(grid->dtype()) + ", " +
           test::OptionsText(options) + ", num_threads " + std::to_string(options.num_threads);
  }
};

Options MakeOptions(Mode mode, Padding padding, bool align_corners, int num_threads) {
  Options options;
  options.mode = mode;
  options.padding = padding;
  options.align_corners = align_corners;
  options.num_threads = num_threads;
  return options;
}

TEST_CASE("concurrent GridSample calls on shared inputs match their serial results",
          "[concurrency]") {
  // Big enough (over 65536 weighted taps) that multi-threaded calls really use the pool.
  const AnyTensor x_f32 = MakeInput(DType::kFloat32, {2, 16, 20, 20});
  const AnyTensor x_u8 = MakeInput(DType::kUInt8, {2, 16, 20, 20});
  const AnyTensor x_c64 = MakeInput(DType::kComplex64, {2, 16, 20, 20});
  const AnyTensor x_bool = MakeInput(DType::kBool, {2, 16, 20, 20});
  const AnyTensor x_f64 = MakeInput(DType::kFloat64, {1, 4, 8, 10, 12});
  const AnyTensor x_str = MakeInput(DType::kString, {1, 4, 20, 20});
  const AnyTensor grid_f32 = MakeGrid(DType::kFloat32, {2, 24, 24, 2}, 1);
  const AnyTensor grid_f16 = MakeGrid(DType::kFloat16, {2, 24, 24, 2}, 2);
  const AnyTensor grid_bf16 = MakeGrid(DType::kBFloat16, {2, 24, 24, 2}, 3);
  const AnyTensor grid_f64 = MakeGrid(DType::kFloat64, {1, 10, 10, 10, 3}, 4);
  const AnyTensor grid_str = MakeGrid(DType::kFloat32, {1, 24, 24, 2}, 5);

  std::vector<Call> calls = {
      {&x_f32, &grid_f32, MakeOptions(Mode::kLinear, Padding::kZeros, false, 0)},
      {&x_f32, &grid_f32, MakeOptions(Mode::kCubic, Padding::kBorder, true, 2)},
      {&x_f32, &grid_f32, MakeOptions(Mode::kNearest, Padding::kReflection, false, 4)},
      {&x_u8, &grid_f16, MakeOptions(Mode::kCubic, Padding::kReflection, true, 3)},
      {&x_u8, &grid_f32, MakeOptions(Mode::kLinear, Padding::kBorder, false, 1)},
      {&x_c64, &grid_bf16, MakeOptions(Mode::kLinear, Padding::kBorder, false, 2)},
      {&x_bool, &grid_f32, MakeOptions(Mode::kLinear, Padding::kZeros, true, 8)},
      {&x_f64, &grid_f64, MakeOptions(Mode::kCubic, Padding::kZeros, false, 0)},
      {&x_str, &grid_str, MakeOptions(Mode::kNearest, Padding::kZeros, false, 2)},
  };
  // Each call's result computed serially, on one thread.
  std::vector<AnyTensor> expected;
  for (const Call& call : calls) {
    std::vector<int64_t> y_shape;
    REQUIRE(OutputShape(call.x->shape().data(), call.x->shape().size(), call.grid->shape().data(),
                        call.grid->shape().size(), &y_shape)
                .ok());
    expected.emplace_back(call.x->dtype(), y_shape);
    Options serial = call.options;
    serial.num_threads = 1;
    const Status status =
        GridSample(call.x->view(), call.grid->view(), expected.back().mutable_view(), serial);
    INFO(call.Describe() << ": " << status.message());
    REQUIRE(status.ok());
  }

  // Catch2's assertions are not thread-safe: the callers collect what went wrong.
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> callers;
  constexpr int kRounds = 10;
  for (size_t i = 0; i < calls.size(); ++i) {
    callers.emplace_back([&call = calls[i], &want = expected[i], &mutex, &failures] {
      for (int round = 0; round < kRounds; ++round) {
        AnyTensor y(call.x->dtype(), want.shape());
        const Status status =
            GridSample(call.x->view(), call.grid->view(), y.mutable_view(), call.options);
        if (!status.ok() || !y.Identical(want)) {
          std::lock_guard<std::mutex> lock(mutex);
          failures.push_back(call.Describe() + ", round " + std::to_string(round) + ": " +
                             (status.ok() ? "another result" : status.message()));
        }
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  std::string report;
  for (const std::string& failure : failures) report += "\n  " + failure;
  INFO(failures.size() << " calls went wrong:" << report);
  CHECK(failures.empty());
}

}  // namespace
}  // namespace gridsample
