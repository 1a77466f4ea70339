// The persistent pool: every item runs once, worker ids stay in range, concurrent callers
// share the pool safely.
#include "thread_pool.h"

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace gridsample {
namespace {

void CheckParallelFor(size_t items, size_t threads) {
  std::vector<std::atomic<int>> runs(items);
  std::atomic<bool> worker_in_range{true};
  ParallelFor(items, threads, [&](size_t item, size_t worker) {
    runs[item].fetch_add(1);
    if (worker >= std::max<size_t>(threads, 1)) worker_in_range = false;
  });
  for (size_t i = 0; i < items; ++i) CHECK(runs[i].load() == 1);
  CHECK(worker_in_range);
}

TEST_CASE("A call runs on the threads it asks for, at most the hardware's", "[thread_pool]") {
  const size_t hardware = HardwareThreads();
  CHECK(ThreadsForCall(0) == hardware);
  CHECK(ThreadsForCall(1) == 1);
  CHECK(ThreadsForCall(static_cast<int>(hardware)) == hardware);
  CHECK(ThreadsForCall(static_cast<int>(hardware) + 1) == hardware);
  CHECK(ThreadsForCall(std::numeric_limits<int>::max()) == hardware);
}

TEST_CASE("ParallelFor runs every item exactly once", "[thread_pool]") {
  CHECK(HardwareThreads() >= 1);
  for (size_t items : {0, 1, 2, 7, 1000}) {
    for (size_t threads : {0, 1, 2, 3, 64}) CheckParallelFor(items, threads);
  }
}

TEST_CASE("The pool's threads take items of a long job", "[thread_pool]") {
  if (HardwareThreads() < 2) return;
  // Items that last until a pool thread has taken one (or ten seconds have passed), so that
  // the caller cannot run them all before the pool wakes up.
  const size_t before = ItemsTakenByPool();
  const auto start = std::chrono::steady_clock::now();
  ParallelFor(64, 2, [&](size_t, size_t) {
    while (ItemsTakenByPool() == before &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
      std::this_thread::yield();
    }
  });
  CHECK(ItemsTakenByPool() > before);
}

TEST_CASE("The caller's waiting work runs on the caller while a pool thread holds an item",
          "[thread_pool]") {
  if (HardwareThreads() < 2) return;
  // The caller's items last until a pool thread has taken one, and that item until the
  // caller's waiting work has run 100 times (either for at most ten seconds): the work must run
  // on the caller, after its own items, while the pool's is out.
  const std::thread::id caller = std::this_thread::get_id();
  const size_t before = ItemsTakenByPool();
  const auto start = std::chrono::steady_clock::now();
  const auto too_long = [&] {
    return std::chrono::steady_clock::now() - start > std::chrono::seconds(10);
  };
  std::atomic<int> waited{0};
  std::atomic<bool> elsewhere{false};
  std::vector<std::atomic<int>> runs(8);
  ParallelFor(
      runs.size(), 2,
      [&](size_t item, size_t) {
        runs[item].fetch_add(1);
        if (std::this_thread::get_id() == caller) {
          while (ItemsTakenByPool() == before && !too_long()) std::this_thread::yield();
        } else {
          while (waited.load() < 100 && !too_long()) std::this_thread::yield();
        }
      },
      [&] {
        if (std::this_thread::get_id() != caller) elsewhere = true;
        waited.fetch_add(1);
        return true;  // work found: called again until the items are done
      });
  for (std::atomic<int>& r : runs) CHECK(r.load() == 1);
  CHECK_FALSE(elsewhere);
  CHECK(ItemsTakenByPool() > before);
  CHECK(waited.load() >= 100);
}

TEST_CASE("ParallelFor is safe from several threads at once", "[thread_pool]") {
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        std::atomic<size_t> sum{0};
        ParallelFor(100, 2, [&](size_t item, size_t) { sum.fetch_add(item); });
        if (sum.load() != 4950) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  CHECK(failures.load() == 0);
}

}  // namespace
}  // namespace gridsample
