// How a call runs, chosen by timing the call itself: its threads (1, or all of them or as many as
// it names), and, where the WebAssembly backend could hand it to the call thread while the
// calling thread makes a fresh output and copies Y into it (grid_sample.js), whether it does.
// On one machine a second thread halves a call; on another it makes the same call slower: the
// copies in and out of the heap and a fresh output's pages stay on the calling thread, and a
// second core may share no cache with the first. Making the pages beside the sampling saved
// time on one virtual machine and cost time on another, where the system maps new memory slowly
// while another thread of the process runs (docs/benchmarks.md, "The call thread, timed per
// call").
// No rule from one CPU's figures holds on every machine, so each kind of call (its signature:
// types, shapes, attributes, the numThreads it names, and whether it writes into `out`) is timed
// every way it may run, in turns, and then runs the fastest: a call's numThreads is the most it
// may take, never a cost. Results do not depend on the way, so the choice can only move the
// time.

import { elementCount } from './arguments.js';

// Timed calls per way before the choice. The fastest of each decides: what slows single
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

// Whether a call of output dims yDims lasts long enough for the way its threads run to matter
// (CHOSEN_THREADS_OUTPUTS): shorter calls are not timed here, nor do they copy Y out during
// the call (grid_sample.js, sampleWhole), whose bookkeeping cost them a tenth or more.
export function threadsMatter(yDims) {
  return elementCount(yDims) >= CHOSEN_THREADS_OUTPUTS;
}

export class ThreadChooser {
  // `now`: the clock, in milliseconds.
  constructor(now = () => performance.now()) {
    this.now = now;
    // signature → { samples: [[], ...] (one list per way), next, chosen, calls, choices, since
    // (the choice's time) }
    this.entries = new Map();
  }

  // The way to run the next call of `signature`, one of `ways` (two or more, the same for every
  // call of a signature): { way, entry, index, start } where a trial is to be timed (index ≥ 0;
  // pass the object to finish() once the call returned), or { way } once the choice is made.
  start(signature, ways) {
    let entry = this.entries.get(signature);
    if (entry === undefined) {
      if (this.entries.size >= MAX_SIGNATURES) {
        this.entries.delete(this.entries.keys().next().value);
      }
      entry = { samples: ways.map(() => []), next: 0, chosen: -1, calls: 0, choices: 0, since: 0 };
      this.entries.set(signature, entry);
    }
    if (entry.chosen >= 0) {
      const first = entry.choices === 1;
      const due = ++entry.calls >= (first ? FIRST_RECHECK_CALLS : RECHECK_CALLS) ||
                  (first && this.now() - entry.since >= FIRST_RECHECK_MS);
      if (!due) return { way: ways[entry.chosen] };
      entry.samples = ways.map(() => []);
      entry.chosen = -1;
      entry.calls = 0;
    }
    const index = entry.next;
    entry.next = (index + 1) % ways.length;
    return { way: ways[index], entry, index, start: this.now() };
  }

  // Records the time of a trial that start() returned, and chooses once every way has TRIALS
  // times: the way whose fastest call was fastest, the later of the ways on a tie (all threads
  // rather than 1, the call sampled where it is called rather than handed over).
  finish(trial) {
    if (trial.entry === undefined) return;
    const { entry, index } = trial;
    entry.samples[index].push(this.now() - trial.start);
    if (entry.samples.every((times) => times.length >= TRIALS)) {
      const fastest = entry.samples.map((times) => Math.min(...times));
      entry.chosen = fastest.reduce((best, time, i) => (time <= fastest[best] ? i : best), 0);
      entry.since = this.now();
      ++entry.choices;
    }
  }
}

// sample(way) for a call of either backend, where a way is { threads, handOver }: `threads` 1 or
// the call's own numThreads where it names one (`threads`, else 0; the most it may take, so
// that a call a second thread slows runs on one), else 1 or `allThreads` (init's), and
// `handOver` whether the call goes to the call thread while the calling thread makes the fresh
// output and copies Y into it, where handsOver(threads) says it may (the WebAssembly backend's
// large fresh outputs on fewer threads than cores). A count of threads that leaves no core for
// that is also timed as one thread fewer handed over: the same cores, one of them making the
// output. The ways of a call are timed by `chooser` (null on one thread) for calls like it,
// which share its signature: its tensors' types and dims, its attributes' values, its
// numThreads, and whether it writes into `out`. Small calls run untimed, where they are called,
// on their own numThreads or all threads.
export function sampleOnChosenThreads(chooser, call, allThreads, sample, handsOver = () => false) {
  const { xt, gt, yDims, modeValue, paddingValue, alignCorners, layoutValue, out, threads } = call;
  if (chooser === null || !threadsMatter(yDims)) {
    return sample({ threads, handOver: false });
  }
  const ways = [];
  const add = (way) => {
    const known = ways.some((w) => w.threads === way.threads && w.handOver === way.handOver);
    if (!known) ways.push(way);
  };
  for (const count of threads === 1 ? [1] : [1, threads || allThreads]) {
    // `count` cores: all sampling, or where that leaves no core for the calling thread's work,
    // one fewer sampling on the call thread beside it.
    if (handsOver(count)) add({ threads: count, handOver: true });
    else if (count > 1 && handsOver(count - 1)) add({ threads: count - 1, handOver: true });
    add({ threads: count, handOver: false });
  }
  if (ways.length === 1) return sample(ways[0]);
  const signature = `${xt.info.name} ${xt.dims} ${gt.info.name} ${gt.dims} ${modeValue} ` +
                    `${paddingValue} ${alignCorners} ${layoutValue} ${threads} ` +
                    `${out === undefined}`;
  const trial = chooser.start(signature, ways);
  const result = sample(trial.way);
  chooser.finish(trial);
  return result;
}
