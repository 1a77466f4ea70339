// A persistent pool of worker threads shared by every GridSample call of the process.
#ifndef GRIDSAMPLE_SRC_THREAD_POOL_H_
#define GRIDSAMPLE_SRC_THREAD_POOL_H_

#include <cstddef>
#include <functional>

namespace gridsample {

// Threads a call may use (at least 1): natively those the hardware offers; in the WebAssembly
// build those StartPool started (1 before it, and in a build without threads).
size_t HardwareThreads();

// The threads a call asking for Options::num_threads = `requested` (0 or more) runs on:
// HardwareThreads() for 0 and for any count above it, else `requested`. The one place a call's
// count is capped: more threads than the hardware has finish no sooner, and the sampler sizes
// scratch for each, so a huge num_threads would only cost memory. (ParallelFor bounds its own
// threads by the pool's too.)
size_t ThreadsForCall(int requested);

// The WebAssembly build's pool, whose threads are Web Workers: starts it with `threads` - 1
// helper threads (the caller of ParallelFor is the other one) unless it has started already,
// and returns HardwareThreads() once they all run. The package's init() calls it once
// Emscripten has loaded a worker for each helper: a thread started later from a browser's main
// thread would wait for a worker that loads only after the caller returns to the event loop.
// If a helper cannot start (no memory for its stack), none runs and HardwareThreads() stays 1.
// Natively it only returns HardwareThreads(): the pool starts at its first use, with a thread
// per hardware thread.
size_t StartPool(size_t threads);

// Runs fn(item, worker) for every item in [0, items) on at most `threads` threads, the
// calling thread included, and returns when all items are done. `worker` is in
// [0, threads) and no two concurrent calls of fn share it, so it can index per-worker
// scratch. Several threads may call ParallelFor at once: their jobs share the workers.
// Builds without thread support run everything on the calling thread. Where `waiting` is
// given, the calling thread, once it has no item left to take, calls it as it spins until the
// other threads are done, as long as it finds work (OutputProgress::Waiting), before it sleeps.
void ParallelFor(size_t items, size_t threads,
                 const std::function<void(size_t item, size_t worker)>& fn,
                 const std::function<bool()>& waiting = nullptr);

// Items the pool's own threads have taken so far, over all ParallelFor calls (not those the
// callers ran): for tests that must know the threads did work.
size_t ItemsTakenByPool();

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_THREAD_POOL_H_
