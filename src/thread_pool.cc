#include "thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "spin.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define GRIDSAMPLE_NO_THREADS 1
#endif

namespace gridsample {

#if defined(__EMSCRIPTEN_PTHREADS__)
namespace {
// What StartPool started; 1 until then.
std::atomic<size_t> started_threads{1};
}  // namespace
#endif

size_t HardwareThreads() {
#if defined(GRIDSAMPLE_NO_THREADS)
  return 1;
#elif defined(__EMSCRIPTEN_PTHREADS__)
  return started_threads.load(std::memory_order_acquire);
#else
  // Asked once: glibc reads /sys on every call, a measurable cost on tiny problems.
  static const size_t threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  return threads;
#endif
}

size_t ThreadsForCall(int requested) {
  const size_t hardware = HardwareThreads();
  return requested <= 0 || static_cast<size_t>(requested) > hardware
             ? hardware
             : static_cast<size_t>(requested);
}

namespace {

std::atomic<size_t> items_taken_by_pool{0};

// One ParallelFor call. Each worker first claims items one at a time from its own share, a
// contiguous range of them, then from the others' shares, so that threads that join late or
// run slower simply take fewer items. Contiguous shares keep a worker on the same part of the
// data in consecutive calls: a call's tiles read what its channels-last copy wrote, and each
// worker then finds its share in its own core's cache (docs/benchmarks.md).
struct Job {
  Job(const std::function<void(size_t, size_t)>* function, size_t count, size_t threads)
      : fn(function),
        items(count),
        max_workers(threads),
        cursors(new std::atomic<size_t>[threads]) {
    for (size_t w = 0; w < threads; ++w) cursors[w].store(ShareBegin(w));
  }
  const std::function<void(size_t, size_t)>* fn;
  size_t items;
  size_t max_workers;
  std::unique_ptr<std::atomic<size_t>[]> cursors;  // the next unclaimed item of each share
  std::atomic<size_t> workers{1};                  // the caller is worker 0
  std::atomic<size_t> done{0};
  std::mutex mutex;  // for `finished` only: `done` is read without it while the caller spins
  std::condition_variable finished;

  size_t ShareBegin(size_t w) const { return items * w / max_workers; }
  // Whether every item has been claimed.
  bool Claimed() const {
    for (size_t w = 0; w < max_workers; ++w) {
      if (cursors[w].load() < ShareBegin(w + 1)) return false;
    }
    return true;
  }
  // Runs items until none is left, its own share's first, counting each in `taken` (if given)
  // before it runs; returns how many this thread ran.
  size_t Drain(size_t worker, std::atomic<size_t>* taken = nullptr) {
    size_t ran = 0;
    for (size_t k = 0; k < max_workers; ++k) {
      const size_t share = (worker + k) % max_workers, end = ShareBegin(share + 1);
      for (size_t item; (item = cursors[share].fetch_add(1)) < end; ++ran) {
        if (taken) taken->fetch_add(1, std::memory_order_relaxed);
        (*fn)(item, worker);
      }
    }
    return ran;
  }
  void Finish(size_t ran) {
    if (ran == 0 || done.fetch_add(ran) + ran != items) return;
    std::lock_guard<std::mutex> lock(mutex);  // the caller checks `done` under it, then sleeps
    finished.notify_all();
  }
  // Returns once every item is done: spinning, then asleep. While it spins, the caller's
  // `waiting` work runs for as long as it finds some, at each turn (more may come meanwhile).
  void Await(const std::function<bool()>& waiting) {
    const auto all_done = [this] { return done.load() == items; };
    const auto ready = [&] {
      for (;;) {
        if (all_done()) return true;
        if (!waiting || !waiting()) return false;
      }
    };
    if (SpinUntil(ready)) return;
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, all_done);
  }
};

#ifndef GRIDSAMPLE_NO_THREADS
class Pool {
 public:
  explicit Pool(size_t helpers) {
    // The queue's memory is taken now, and kept: a call must leave the heap as it found it (the
    // WebAssembly package's tests check that). It holds a job per concurrent caller: a deque's
    // blocks came and went with the number of jobs queued so far, a vector's capacity only grows
    // with the most callers at once.
    queue_.reserve(kQueuedJobs);
    try {
      for (size_t i = 0; i < helpers; ++i) threads_.emplace_back([this] { Work(); });
    } catch (...) {
      Stop();  // a joinable std::thread must not be destroyed
      throw;
    }
    // Returns once every thread runs: what a thread does as it starts (the C++ runtime's
    // bookkeeping, on the heap) is then over before the first call, which in the WebAssembly
    // build starts its threads asynchronously, on Web Workers.
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return running_ == threads_.size(); });
  }
  ~Pool() { Stop(); }

  void Submit(const std::shared_ptr<Job>& job) {
    bool sleepers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(job);
      queued_.store(queue_.size(), std::memory_order_relaxed);
      sleepers = sleeping_ > 0;
    }
    if (sleepers) wake_.notify_all();  // spinning workers see queued_ without it
  }

  // Takes out a job whose items have all been claimed, if no worker has yet: on a busy
  // machine the workers may wake long after the caller ran every item itself, and finished
  // jobs must not pile up in the queue meanwhile.
  void Withdraw(const std::shared_ptr<Job>& job) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = std::find(queue_.begin(), queue_.end(), job);
    if (found != queue_.end()) queue_.erase(found);
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }

 private:
  void Work() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++running_;
    }
    wake_.notify_all();
    for (;;) {
      std::shared_ptr<Job> job;
      size_t worker = 0;
      SpinUntil([this] { return queued_.load(std::memory_order_relaxed) > 0; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ++sleeping_;
        wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        --sleeping_;
        if (stop_) return;
        job = queue_.front();
        worker = job->workers.fetch_add(1);
        // A job leaves the queue once it has all the workers it may use or no items left.
        if (worker + 1 >= job->max_workers || job->Claimed()) {
          queue_.erase(queue_.begin());
          queued_.store(queue_.size(), std::memory_order_relaxed);
        }
        if (worker >= job->max_workers) continue;
      }
      job->Finish(job->Drain(worker, &items_taken_by_pool));
    }
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  static constexpr size_t kQueuedJobs = 16;
  std::vector<std::shared_ptr<Job>> queue_;  // oldest first
  std::atomic<size_t> queued_{0};            // queue_.size(), for the spinning workers
  bool stop_ = false;
  size_t running_ = 0;   // threads that have started Work
  size_t sleeping_ = 0;  // threads waiting on wake_
};

Pool& SharedPool() {
  static Pool pool(HardwareThreads() - 1);
  return pool;
}

#endif

}  // namespace

size_t StartPool(size_t threads) {
#if defined(__EMSCRIPTEN_PTHREADS__)
  static std::mutex starting;
  std::lock_guard<std::mutex> lock(starting);
  if (started_threads.load() == 1 && threads > 1) {
    try {
      started_threads.store(threads);
      SharedPool();
    } catch (const std::exception&) {  // std::system_error, std::bad_alloc
      started_threads.store(1);
    }
  }
#else
  (void)threads;
#endif
  return HardwareThreads();
}

size_t ItemsTakenByPool() { return items_taken_by_pool.load(std::memory_order_relaxed); }

void ParallelFor(size_t items, size_t threads,
                 const std::function<void(size_t item, size_t worker)>& fn,
                 const std::function<bool()>& waiting) {
  threads = std::min({std::max<size_t>(threads, 1), items, HardwareThreads()});
  if (threads <= 1) {
    for (size_t item = 0; item < items; ++item) fn(item, 0);
    return;
  }
#ifndef GRIDSAMPLE_NO_THREADS
  auto job = std::make_shared<Job>(&fn, items, threads);
  SharedPool().Submit(job);
  job->Finish(job->Drain(0));
  SharedPool().Withdraw(job);
  job->Await(waiting);
#else
  (void)waiting;
#endif
}

}  // namespace gridsample
