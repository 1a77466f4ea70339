// Which parts of Y a call has finished while it still runs, for a caller that has work to do
// with them meanwhile: the npm package's WebAssembly wrapper copies each finished part out of
// the module's memory into the caller's output while the call samples the rest, so that the
// copy leaves the call's critical path. Internal: not in the public header, whose calls report
// nothing unless their thread has set a sink here.
#ifndef GRIDSAMPLE_SRC_OUTPUT_PROGRESS_H_
#define GRIDSAMPLE_SRC_OUTPUT_PROGRESS_H_

#include <cstddef>

namespace gridsample {

// Told of each finished part of Y, on the thread that finished it: on a call of several
// threads, concurrently and in no set order. A call reports either nothing or all of Y: its
// parts then cover Y's bytes once each. It reports only where each part is a few runs of many
// bytes (not a channel range of channels-last pixels, which would be a run per pixel).
class OutputProgress {
 public:
  virtual ~OutputProgress() = default;
  // `runs` runs of `bytes` bytes of Y, the first at `first` and each `stride` bytes after the
  // one before, hold their final values: the call writes them no more. May be called on any of
  // the call's threads at once.
  virtual void Finished(const void* first, size_t bytes, size_t runs, size_t stride) = 0;
  // Called on the calling thread, over and over, while it has run its share of the call and
  // spins until the other threads finish theirs: work of its own meanwhile (the package copies
  // the parts finished so far). Returns whether it found some; the thread sleeps without it.
  virtual bool Waiting() { return false; }
};

// The sink of the calling thread's later calls (nullptr: none, as a thread starts), until set
// again. The sink must outlive those calls.
void SetOutputProgress(OutputProgress* progress);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_OUTPUT_PROGRESS_H_
