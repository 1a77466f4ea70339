// A persistent pool of worker threads shared by every GridSample call of the process.
#ifndef GRIDSAMPLE_SRC_THREAD_POOL_H_
#define GRIDSAMPLE_SRC_THREAD_POOL_H_

#include <cstddef>
#include <functional>

namespace gridsample {

// Threads the hardware offers (at least 1).
size_t HardwareThreads();

// Runs fn(item, worker) for every item in [0, items) on at most `threads` threads, the
// calling thread included, and returns when all items are done. `worker` is in
// [0, threads) and no two concurrent calls of fn share it, so it can index per-worker
// scratch. Several threads may call ParallelFor at once: their jobs share the workers.
// Builds without thread support run everything on the calling thread.
void ParallelFor(size_t items, size_t threads,
                 const std::function<void(size_t item, size_t worker)>& fn);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_THREAD_POOL_H_
