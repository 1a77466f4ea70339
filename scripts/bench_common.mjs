// What the JavaScript benchmark runners (scripts/bench_ort.mjs, scripts/bench_wasm.mjs) share:
// their common command-line options, the workload table and tensors that
// `gridsample_workloads --write DIR` wrote, the timing loop, the comparison with gridsample's
// native output and the report they write for scripts/bench_table.mjs. A report is JSON:
//
//   { runner, version, platform: "native" | "wasm", setup (one line: how the runner was set
//     up), thread_counts, load_avg (at the start), method, results: [{ id, num_threads,
//     status: "ok" | "n/a", ms (median), min_ms, runs, reason, max_abs_diff, and where the
//     runner also timed calls that reuse their output, out_ms and out_min_ms }] }
//
// max_abs_diff is the largest |difference| between the runner's output and gridsample's native
// output (DIR/ID.y.bin), over the first thread count that ran.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { ARRAY_OF, halfToNumber } from '../tests/js/helpers.mjs';
import { maxAbsDifference, median } from '../web/tensors.mjs';

// The options every runner takes (usage: the header of each runner).
const COMMON_OPTIONS = {
  data: { type: 'string' },
  out: { type: 'string' },
  'min-time': { type: 'string', default: '0.5' },
  'min-runs': { type: 'string', default: '5' },
  'max-runs': { type: 'string', default: '10000' },
  warmup: { type: 'string', default: '2' },
  'warmup-time': { type: 'string', default: '1' },
  filter: { type: 'string' },
};

// Parses the common options plus `extra` (parseArgs' format); prints `usage` and exits without
// --data. Returns the options, with the timing ones as numbers in `timing`.
export function parseRunnerArgs(extra, usage) {
  const { values } = parseArgs({ options: { ...COMMON_OPTIONS, ...extra } });
  if (!values.data) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  values.timing = {
    minTimeMs: Number(values['min-time']) * 1000,
    minRuns: Number(values['min-runs']),
    maxRuns: Number(values['max-runs']),
    warmupRuns: Number(values.warmup),
    warmupMs: Number(values['warmup-time']) * 1000,
  };
  return values;
}

// The workload table of DIR, keeping the workloads whose id matches `filter` (a RegExp source).
export function readWorkloads(dataDir, filter) {
  const table = JSON.parse(fs.readFileSync(path.join(dataDir, 'workloads.json'), 'utf8'));
  if (filter) {
    const re = new RegExp(filter);
    table.workloads = table.workloads.filter((w) => re.test(w.id));
  }
  return table;
}

// A raw little-endian tensor file of DIR as the typed array of its dtype (float16: its bits),
// in a buffer of its own (aligned, and not shared with other reads).
export function readTensorData(dataDir, file, dtype) {
  const Array_ = ARRAY_OF[dtype];
  if (!Array_ || Array_ === Array) throw new Error(`no typed array for dtype ${dtype}`);
  const bytes = fs.readFileSync(path.join(dataDir, file));
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Array_(copy.buffer, 0, bytes.byteLength / Array_.BYTES_PER_ELEMENT);
}

// A workload's tensors as the API takes them ({ data, dims, type }: x, grid, and y, gridsample's
// native output), and `out`, an array for Y.
export function workloadTensors(dataDir, w) {
  const tensor = (name) => ({ data: readTensorData(dataDir, w.files[name], w[name].dtype),
                              dims: w[name].shape, type: w[name].dtype });
  const y = tensor('y');
  return { x: tensor('x'), grid: tensor('grid'), y, out: new y.data.constructor(y.data.length) };
}

// One round of alternating-round timings: `run` called until `ms` milliseconds have passed;
// the mean time of its calls.
export function timeRound(run, ms) {
  let calls = 0;
  const start = performance.now();
  let elapsed;
  do {
    run();
    ++calls;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return elapsed / calls;
}

// Largest |a[i] - b[i]| as numbers (float16 bits decoded), as the demo page measures it.
export function maxAbsDiff(a, b, dtype) {
  const toNumber = dtype === 'float16' ? halfToNumber : Number;
  return maxAbsDifference(Array.from(a, toNumber), Array.from(b, toNumber));
}

// Times `run` (sync or async): `warmupRuns` untimed runs (at least one, which the caller may
// check) and more until warmupMs have passed (V8 compiles WebAssembly's hot functions again,
// optimised, only after they have run a while), then timed samples until both minRuns and
// minTimeMs are reached (at most maxRuns).
// A sample times a batch of consecutive runs, enough for about a millisecond, and counts
// their mean: a timer read (and, for a synchronous run, an await) per run of a few
// microseconds would otherwise be part of what is measured. A synchronous run is never
// awaited. Returns { status: 'ok', ms (median of the samples), min_ms, runs }.
export async function timeRuns(run,
                               { minTimeMs, minRuns, maxRuns, warmupRuns, warmupMs = 0 }) {
  let sync = true;
  const warm = async () => {
    const pending = run();
    if (pending && typeof pending.then === 'function') {
      sync = false;
      await pending;
    }
  };
  const warmRuns = Math.max(1, warmupRuns);
  const warmStart = performance.now();
  for (let i = 0; i < warmRuns || performance.now() - warmStart < warmupMs; ++i) await warm();
  const time = sync
    ? (batch) => {
        const t0 = performance.now();
        for (let i = 0; i < batch; ++i) run();
        return (performance.now() - t0) / batch;
      }
    : async (batch) => {
        const t0 = performance.now();
        for (let i = 0; i < batch; ++i) await run();
        return (performance.now() - t0) / batch;
      };
  // The batch: doubled until it lasts about 1 ms. Sized from the warm-up runs alone (the
  // slowest: compilation, first allocations), a call of microseconds got a batch of one, and
  // its samples were mostly the timer's own cost.
  let batch = 1;
  while (batch < 10000 && batch * (await time(batch)) < 1) batch *= 2;
  const sample = () => time(batch);
  const times = [];
  const start = performance.now();
  while (times.length < maxRuns &&
         (times.length < minRuns || performance.now() - start < minTimeMs)) {
    times.push(await sample());
  }
  return { status: 'ok', ms: median(times), min_ms: Math.min(...times),
           runs: times.length * batch };
}

// The method line of a report.
export function methodText({ minTimeMs, minRuns, warmupRuns, warmupMs }) {
  return `>= ${warmupRuns} warm-up runs and >= ${warmupMs / 1000} s of them, then >= ` +
         `${minRuns} timed samples and >= ${minTimeMs / 1000} s, each sample the mean of a ` +
         'batch of runs lasting about 1 ms';
}

// One progress line on stderr per result.
export function logResult(tag, id, numThreads, result) {
  console.error(`${tag}: ${id} ${numThreads}T: ` +
                (result.status === 'ok' ? `${result.ms.toFixed(3)} ms (median of ${result.runs})`
                                        : `n/a: ${result.reason}`));
}

// Writes the report to `out`, or stdout without it.
export function writeReport(report, out) {
  const json = JSON.stringify(report, null, 1) + '\n';
  if (out) fs.writeFileSync(out, json);
  else process.stdout.write(json);
}
