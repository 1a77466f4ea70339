// The npm package's call thread: one more thread, which runs one call at a time for a caller
// that meanwhile does work of its own (the wrapper allocates a fresh output and touches its
// pages while the call samples). It lives with the bindings because only they have a caller
// with such work; the core's own threads are thread_pool.h's.
#ifndef GRIDSAMPLE_BINDINGS_CALL_THREAD_H_
#define GRIDSAMPLE_BINDINGS_CALL_THREAD_H_

namespace gridsample {

// Starts the call thread once and says whether it runs (false in builds without threads, or if
// it cannot start). Later calls keep the thread that runs.
bool StartCallThread();

// Hands call(context) to the call thread and returns at once, or runs it itself where the call
// thread does not run. One call at a time: each SubmitCall is followed by its CollectCall
// before the next.
void SubmitCall(int (*call)(void* context), void* context);

// Waits until the call SubmitCall handed over has run and returns its result.
int CollectCall();

}  // namespace gridsample

#endif  // GRIDSAMPLE_BINDINGS_CALL_THREAD_H_
