// Kernel choices that no vendor, model or target rule makes: where two ways of a kernel trade
// places from one CPU to the next (docs/benchmarks.md), the first call that needs the choice
// times both on this CPU, on a small problem of its own, and the answer is kept for the process
// (SecondWayFaster); or where the answer depends on the call as well, the calls themselves are
// timed (CallContest, which both use).
#ifndef GRIDSAMPLE_SRC_TIMED_CHOICE_H_
#define GRIDSAMPLE_SRC_TIMED_CHOICE_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

namespace gridsample {

// How much faster the second of two timed ways must be to be taken: a tie keeps the first.
inline constexpr double kTimedMargin = 1.02;

// Two ways of doing one thing, which give the same results, timed against each other: timings
// alternate between them until each has `trials`, then the fastest of each decides, way 1 by
// kTimedMargin. The fastest, as the host's interruptions only ever add time, and a kind of
// call's first run its page faults. Where the ways are timed on a program's own calls
// (path_choice.cc), the decision holds for kRetimeAfter calls, then the two are timed again, as
// the machine's load changes (a second thread pays less beside a busy neighbour). Not thread
// safe: its owner serialises the calls.
class CallContest {
 public:
  static constexpr int kTrials = 4;
  static constexpr int kRetimeAfter = 2000;

  CallContest() = default;
  explicit CallContest(int trials) : trials_(trials) {}

  // The way (0 or 1) the next call takes; *timed says whether its time goes to Record.
  int Enter(bool* timed) {
    if (decided() && ++decided_calls_ > kRetimeAfter) *this = CallContest(trials_);
    *timed = !decided();
    if (!*timed) return winner_;
    const int way = entered_[1] < entered_[0] ? 1 : 0;
    ++entered_[way];
    return way;
  }
  // A timed call's duration, in seconds.
  void Record(int way, double seconds) {
    if (decided()) return;
    fastest_[way] = std::min(fastest_[way], seconds);
    if (++timed_[way] >= trials_ && timed_[1 - way] >= trials_) {
      winner_ = fastest_[1] * kTimedMargin < fastest_[0] ? 1 : 0;
    }
  }
  bool decided() const { return winner_ >= 0; }
  int winner() const { return winner_; }  // -1 until decided

 private:
  int trials_ = kTrials;
  int entered_[2] = {0, 0};
  int timed_[2] = {0, 0};
  double fastest_[2] = {HUGE_VAL, HUGE_VAL};
  int winner_ = -1;
  int decided_calls_ = 0;  // calls entered since the decision
};

// Whether run(true), called `calls` times, takes less time than run(false) called as often: a
// CallContest of 9 rounds of `calls` calls a way.
template <class Run>
bool SecondWayFaster(const Run& run, int calls) {
  CallContest contest(/*trials=*/9);
  while (!contest.decided()) {
    bool timed = false;
    const int way = contest.Enter(&timed);
    const auto start = std::chrono::steady_clock::now();
    for (int call = 0; call < calls; ++call) run(way != 0);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    contest.Record(way, took.count());
  }
  return contest.winner() == 1;
}

// Numbers in [0, 1) for the timed problems' data (xorshift32): the same on every run, so that
// every process times the same work.
class ProbeNumbers {
 public:
  float Next() {
    state_ ^= state_ << 13, state_ ^= state_ >> 17, state_ ^= state_ << 5;
    return static_cast<float>(state_ >> 8) * 0x1p-24f;
  }

 private:
  uint32_t state_ = 2463534242u;
};

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_TIMED_CHOICE_H_
