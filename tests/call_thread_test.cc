// The npm package's call thread (bindings/call_thread.h): every call handed over runs on it and
// returns its result to the caller, whether the thread was spinning or asleep.
#include "bindings/call_thread.h"

#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

namespace gridsample {
namespace {

TEST_CASE("The call thread runs each call handed to it, awake or asleep", "[call_thread]") {
  REQUIRE(StartCallThread());
  REQUIRE(StartCallThread());  // once: a second start keeps the thread
  struct Context {
    int value;
    std::thread::id ran_on;
  } context{0, {}};
  for (int i = 0; i < 200; ++i) {
    // Every tenth call comes after the thread has given up spinning and sleeps.
    if (i % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    context.value = i;
    SubmitCall(
        [](void* p) {
          auto* c = static_cast<Context*>(p);
          c->ran_on = std::this_thread::get_id();
          return 2 * c->value + 1;
        },
        &context);
    CHECK(CollectCall() == 2 * i + 1);
    CHECK(context.ran_on != std::this_thread::get_id());
  }
}

}  // namespace
}  // namespace gridsample
