#include "call_thread.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <thread>

#include "spin.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define GRIDSAMPLE_NO_THREADS 1
#endif

namespace gridsample {
namespace {

#ifndef GRIDSAMPLE_NO_THREADS
// StartCallThread's thread. Handing a call over and waiting for it spin before they sleep, as
// the pool's threads do (thread_pool.cc), since a call's own work may take less than a wake-up.
class CallThread {
 public:
  // How long Collect spins: its caller waits for the call and does nothing else, and waking
  // it would add tens of microseconds to every call.
  static constexpr std::chrono::microseconds kCollectSpin{20000};

  CallThread() {
    thread_ = std::thread([this] { Loop(); });
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return running_; });  // as Pool: returns once the thread runs
  }
  ~CallThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  void Submit(int (*call)(void*), void* context) {
    bool sleepers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      call_ = call;
      context_ = context;
      state_.store(kPending, std::memory_order_release);
      sleepers = sleeping_ > 0;
    }
    if (sleepers) wake_.notify_all();
  }

  int Collect() {
    if (!SpinUntil([this] { return state_.load(std::memory_order_acquire) == kDone; },
                   kCollectSpin)) {
      std::unique_lock<std::mutex> lock(mutex_);
      ++sleeping_;
      wake_.wait(lock, [this] { return state_.load(std::memory_order_relaxed) == kDone; });
      --sleeping_;
    }
    state_.store(kIdle, std::memory_order_relaxed);
    return result_;
  }

 private:
  enum State { kIdle, kPending, kDone };

  void Loop() {
    // The C++ runtime keeps each thread's exception state on the heap from the first exception
    // the thread throws (a call that runs out of memory throws std::bad_alloc): taken now, as
    // the thread starts, so that such a call later leaves the heap as it found it.
    try {
      throw std::bad_alloc();
    } catch (const std::bad_alloc&) {
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      running_ = true;
    }
    wake_.notify_all();
    for (;;) {
      SpinUntil([this] { return state_.load(std::memory_order_acquire) == kPending; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ++sleeping_;
        wake_.wait(lock,
                   [this] { return stop_ || state_.load(std::memory_order_relaxed) == kPending; });
        --sleeping_;
        if (stop_) return;
      }
      result_ = call_(context_);
      bool sleepers;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        state_.store(kDone, std::memory_order_release);
        sleepers = sleeping_ > 0;
      }
      if (sleepers) wake_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<int> state_{kIdle};
  int (*call_)(void*) = nullptr;
  void* context_ = nullptr;
  int result_ = 0;
  bool running_ = false;
  bool stop_ = false;
  size_t sleeping_ = 0;  // threads waiting on wake_
  std::thread thread_;
};

std::mutex call_thread_mutex;
std::unique_ptr<CallThread> call_thread_owner;
std::atomic<CallThread*> call_thread{nullptr};  // set once, by StartCallThread
#endif
int inline_result = 0;  // SubmitCall's result where no call thread runs

}  // namespace

bool StartCallThread() {
#ifndef GRIDSAMPLE_NO_THREADS
  std::lock_guard<std::mutex> lock(call_thread_mutex);
  if (call_thread_owner == nullptr) {
    try {
      call_thread_owner = std::make_unique<CallThread>();
    } catch (const std::exception&) {  // std::system_error, std::bad_alloc
      return false;
    }
    call_thread.store(call_thread_owner.get(), std::memory_order_release);
  }
  return true;
#else
  return false;
#endif
}

void SubmitCall(int (*call)(void* context), void* context) {
#ifndef GRIDSAMPLE_NO_THREADS
  if (CallThread* thread = call_thread.load(std::memory_order_acquire)) {
    thread->Submit(call, context);
    return;
  }
#endif
  inline_result = call(context);
}

int CollectCall() {
#ifndef GRIDSAMPLE_NO_THREADS
  if (CallThread* thread = call_thread.load(std::memory_order_acquire)) {
    return thread->Collect();
  }
#endif
  return inline_result;
}

}  // namespace gridsample
