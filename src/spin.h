// Spinning before sleeping, for the threads that hand work to each other (thread_pool.cc, and
// the npm package's call thread in bindings/).
#ifndef GRIDSAMPLE_SRC_SPIN_H_
#define GRIDSAMPLE_SRC_SPIN_H_

#include <chrono>

namespace gridsample {

// How long a thread spins on an atomic before it sleeps on a condition variable, both a worker
// awaiting the next job and a caller awaiting its job's last items. Waking a sleeping thread
// costs tens of microseconds (more in a virtual machine, where the wake-up interrupts the
// hypervisor), as much as a call's whole share of work on mid-sized images: W1 gained nothing
// from a second thread while its two calls into the pool slept and woke (docs/benchmarks.md).
inline constexpr std::chrono::microseconds kSpin{200};

// A hint that this thread spins: the core's other hyperthread, if any, runs meanwhile.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins until ready() or `spin` has passed; returns ready().
template <class Ready>
bool SpinUntil(Ready ready, std::chrono::microseconds spin = kSpin) {
  const auto deadline = std::chrono::steady_clock::now() + spin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      CpuRelax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return ready();
  }
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_SPIN_H_
