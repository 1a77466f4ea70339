// The threads of a call that does not name its numThreads, chosen by timing the call itself.
// On one machine a second thread halves a call; on another it makes the same call slower: the
// copies in and out of the heap and a fresh output's pages stay on the calling thread, a
// second core may share no cache with the first, and at 1 thread the call thread (grid_sample.js)
// already overlaps the fresh output with the sampling. No rule from one CPU's figures holds on
// every machine, so each kind of call (its signature: types, shapes, attributes, and whether it
// writes into `out`) is timed on 1 thread and on all of them, alternately, and then runs on the
// faster. Results do not depend on the thread count, so the choice can only move the time.

import { elementCount } from './arguments.js';

// Timed calls per candidate before the choice. The fastest of each decides: what slows single
// calls (a fresh output's garbage collection and page faults, the host taking the core away)
// only ever adds time, and several times a call's own on a shared machine, so that a median of
// a few calls picked the slower side where the fastest did not.
export const TRIALS = 5;
// A choice is timed again after this many calls: the machine's load and the placement of its
// cores change while a page or server runs. The first choice is timed again sooner, as its
// trials ran while V8 was still optimising the module's code (it does so as the code runs) and
// the first outputs' memory was new: after FIRST_RECHECK_CALLS calls, or FIRST_RECHECK_MS after
// it was made where calls are long, so that a first choice of the slower side does not stay for
// minutes of long calls (docs/benchmarks.md, "The default thread count").
export const RECHECK_CALLS = 2000;
export const FIRST_RECHECK_CALLS = 200;
export const FIRST_RECHECK_MS = 1000;
// Signatures remembered at once; the oldest is forgotten first.
const MAX_SIGNATURES = 64;
// Calls with fewer outputs than this take all threads without timing: they last microseconds,
// as long as the timing itself, and the core keeps most of them on one thread anyway.
const CHOSEN_THREADS_OUTPUTS = 4096;

export class ThreadChooser {
  // `threads`: what init() started (more than 1); `now`: the clock, in milliseconds.
  constructor(threads, now = () => performance.now()) {
    this.candidates = [1, threads];
    this.now = now;
    // signature → { samples: [[], []], next, chosen, calls, choices, since (the choice's time) }
    this.entries = new Map();
  }

  // The threads for the next call of `signature`: { threads, entry, index, start } where a
  // trial is to be timed (index ≥ 0; pass the object to finish() once the call returned), or
  // { threads } once the choice is made.
  start(signature) {
    let entry = this.entries.get(signature);
    if (entry === undefined) {
      if (this.entries.size >= MAX_SIGNATURES) {
        this.entries.delete(this.entries.keys().next().value);
      }
      entry = { samples: [[], []], next: 0, chosen: -1, calls: 0, choices: 0, since: 0 };
      this.entries.set(signature, entry);
    }
    if (entry.chosen >= 0) {
      const first = entry.choices === 1;
      const due = ++entry.calls >= (first ? FIRST_RECHECK_CALLS : RECHECK_CALLS) ||
                  (first && this.now() - entry.since >= FIRST_RECHECK_MS);
      if (!due) return { threads: this.candidates[entry.chosen] };
      entry.samples = [[], []];
      entry.chosen = -1;
      entry.calls = 0;
    }
    const index = entry.next;
    entry.next = 1 - index;
    return { threads: this.candidates[index], entry, index, start: this.now() };
  }

  // Records the time of a trial that start() returned, and chooses once both candidates have
  // TRIALS times: all threads unless 1 thread was faster.
  finish(trial) {
    if (trial.entry === undefined) return;
    const { entry, index } = trial;
    entry.samples[index].push(this.now() - trial.start);
    if (entry.samples.every((times) => times.length >= TRIALS)) {
      entry.chosen = Math.min(...entry.samples[0]) < Math.min(...entry.samples[1]) ? 0 : 1;
      entry.since = this.now();
      ++entry.choices;
    }
  }
}

// sample(threads) for a call of either backend: its own numThreads where it names one
// (`threads`, else 0), else the threads `chooser` (null on one thread) found faster for calls
// like it, which share its signature: its tensors' types and dims, its attributes' values, and
// whether it writes into `out`.
export function sampleOnChosenThreads(chooser, call, sample) {
  const { xt, gt, yDims, modeValue, paddingValue, alignCorners, layoutValue, out, threads } = call;
  if (threads !== 0 || chooser === null || elementCount(yDims) < CHOSEN_THREADS_OUTPUTS) {
    return sample(threads);
  }
  const signature = `${xt.info.name} ${xt.dims} ${gt.info.name} ${gt.dims} ${modeValue} ` +
                    `${paddingValue} ${alignCorners} ${layoutValue} ${out === undefined}`;
  const trial = chooser.start(signature);
  const result = sample(trial.threads);
  chooser.finish(trial);
  return result;
}
