// Times onnxruntime-node (CPU execution provider) on the benchmark workloads, for the comparison
// table of scripts/bench.sh. Usage:
//
//   node scripts/bench_ort.mjs --data DIR [--models DIR] [--threads 1,2] [--out FILE]
//       [--min-time 0.5] [--min-runs 5] [--max-runs 10000] [--warmup 2] [--filter REGEX]
//
// DIR is what `gridsample_workloads --write DIR` made: workloads.json (the table; nothing here
// restates it) and every workload's X, grid and gridsample's own Y as raw little-endian files.
// The models are tests/bench/models/ID.onnx (scripts/gen_bench_models.py); manifest.json there
// must describe the same shapes, types and attributes as the table, or this stops. --filter
// keeps the workloads whose id matches.
//
// Per workload and thread count: one session (intraOpNumThreads T, interOpNumThreads 1,
// sequential execution, graphOptimizationLevel 'all'), --warmup runs, then timed runs until
// both --min-runs and --min-time are reached (at most --max-runs); the median is reported, and
// the fastest run too.
// Inputs and the output tensor are allocated once, as the native benchmark does (the binding
// still hands back each run's output in a new JS buffer, a cost users of it pay too). A workload
// that onnxruntime cannot load or run is reported as n/a with onnxruntime's own message. Its
// output is compared with gridsample's (max |difference|).
//
// Writes JSON: { runner, version, thread_counts, load_avg (at the start), method, results: [{ id,
// num_threads, status: "ok" | "n/a", ms (median), min_ms, runs, reason, max_abs_diff }] }, to
// --out or stdout; progress goes to stderr.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as ort from 'onnxruntime-node';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    models: { type: 'string', default: path.join(repo, 'tests', 'bench', 'models') },
    threads: { type: 'string' },
    out: { type: 'string' },
    'min-time': { type: 'string', default: '0.5' },
    'min-runs': { type: 'string', default: '5' },
    'max-runs': { type: 'string', default: '10000' },
    warmup: { type: 'string', default: '2' },
    filter: { type: 'string' },
  },
});
if (!args.data) {
  console.error('usage: node scripts/bench_ort.mjs --data DIR [--models DIR] [--threads 1,2] ' +
                '[--out FILE]');
  process.exit(2);
}
const minTimeMs = Number(args['min-time']) * 1000;
const minRuns = Number(args['min-runs']);
const maxRuns = Number(args['max-runs']);
const warmupRuns = Number(args.warmup);

const table = JSON.parse(fs.readFileSync(path.join(args.data, 'workloads.json'), 'utf8'));
if (args.filter) {
  const filter = new RegExp(args.filter);
  table.workloads = table.workloads.filter((w) => filter.test(w.id));
}
const manifest = JSON.parse(fs.readFileSync(path.join(args.models, 'manifest.json'), 'utf8'));
const threadCounts = args.threads
  ? args.threads.split(',').map(Number)
  : [...new Set([1, table.hardware_threads])];

// Typed arrays by dtype; float16 travels as its bits (onnxruntime-node takes a Uint16Array).
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array,
  int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
  uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array, bool: Uint8Array,
};

function readTensorData(file, dtype) {
  const Array = ARRAYS[dtype];
  if (!Array) throw new Error(`no typed array for dtype ${dtype}`);
  const bytes = fs.readFileSync(path.join(args.data, file));
  const copy = new Uint8Array(bytes.byteLength);  // own, aligned buffer
  copy.set(bytes);
  return new Array(copy.buffer, 0, bytes.byteLength / Array.BYTES_PER_ELEMENT);
}

function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function maxAbsDiff(a, b, dtype) {
  const value = dtype === 'float16' ? halfToFloat : Number;
  let max = 0;
  for (let i = 0; i < a.length; ++i) {
    const x = value(a[i]);
    const y = value(b[i]);
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    const d = Math.abs(x - y);
    max = Number.isNaN(d) ? Infinity : Math.max(max, d);
  }
  return max;
}

// The model must have been made from this workload's current shapes, types and attributes.
function checkModel(workload) {
  const entry = manifest.models[workload.id];
  if (!entry) {
    throw new Error(`${workload.id}: no model in ${args.models}; run scripts/gen_bench_models.py`);
  }
  for (const key of ['x', 'grid', 'y', 'mode', 'padding_mode', 'align_corners']) {
    const want = key in workload && typeof workload[key] === 'object'
      ? { dtype: workload[key].dtype, shape: workload[key].shape }
      : workload[key];
    if (JSON.stringify(entry[key]) !== JSON.stringify(want)) {
      throw new Error(`${workload.id}: model ${entry.file} has ${key} ` +
                      `${JSON.stringify(entry[key])} but the table says ${JSON.stringify(want)}; ` +
                      'run scripts/gen_bench_models.py');
    }
  }
  return path.join(args.models, entry.file);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// onnxruntime's first line, without its source paths and function signatures.
function reasonOf(error) {
  const line = String(error?.message ?? error).split('\n')[0];
  const status = line.match(/Status Message: (.*)$/);
  const text = status ? status[1] : line;
  return text.replace(/^\S*\.(cc|h):\d+ .*? (was false\.|failed\.)\s*/, '').trim();
}

async function timeWorkload(workload, modelPath, numThreads, feeds, fetches) {
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      executionProviders: ['cpu'],
      intraOpNumThreads: numThreads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      logSeverityLevel: 4,  // failures are reported below, not logged
    });
  } catch (error) {
    return { status: 'n/a', reason: reasonOf(error) };
  }
  try {
    await session.run(feeds, fetches);  // the first run: checked, and part of the warm-up
    for (let i = 1; i < warmupRuns; ++i) await session.run(feeds, fetches);
    const times = [];
    const start = performance.now();
    while (times.length < maxRuns &&
           (times.length < minRuns || performance.now() - start < minTimeMs)) {
      const t0 = performance.now();
      await session.run(feeds, fetches);
      times.push(performance.now() - t0);
    }
    return { status: 'ok', ms: median(times), min_ms: Math.min(...times), runs: times.length };
  } catch (error) {
    return { status: 'n/a', reason: reasonOf(error) };
  } finally {
    await session.release();
  }
}

// Every model is checked before any timing starts.
let modelPaths;
try {
  modelPaths = table.workloads.map(checkModel);
} catch (error) {
  console.error(`bench_ort: ${error.message}`);
  process.exit(1);
}

const loadAverage = os.loadavg();
const results = [];
for (const [index, workload] of table.workloads.entries()) {
  const modelPath = modelPaths[index];
  const x = new ort.Tensor(workload.x.dtype, readTensorData(workload.files.x, workload.x.dtype),
                           workload.x.shape);
  const grid = new ort.Tensor(workload.grid.dtype,
                              readTensorData(workload.files.grid, workload.grid.dtype),
                              workload.grid.shape);
  const expected = readTensorData(workload.files.y, workload.y.dtype);
  const y = new ort.Tensor(workload.y.dtype, new ARRAYS[workload.y.dtype](expected.length),
                           workload.y.shape);
  let diff;
  for (const numThreads of threadCounts) {
    const result = await timeWorkload(workload, modelPath, numThreads, { X: x, grid }, { Y: y });
    if (result.status === 'ok' && diff === undefined) {
      diff = maxAbsDiff(y.data, expected, workload.y.dtype);
    }
    results.push({ id: workload.id, num_threads: numThreads, ...result, max_abs_diff: diff });
    console.error(`bench_ort: ${workload.id} ${numThreads}T: ` +
                  (result.status === 'ok' ? `${result.ms.toFixed(3)} ms (median of ${result.runs})`
                                          : `n/a: ${result.reason}`));
  }
}

const report = {
  runner: 'onnxruntime-node',
  version: ort.env.versions?.node ?? 'unknown',
  execution_provider: 'cpu',
  thread_counts: threadCounts,
  load_avg: loadAverage,
  method: `${warmupRuns} warm-up runs, then >= ${minRuns} timed runs and >= ` +
          `${minTimeMs / 1000} s`,
  results,
};
const json = JSON.stringify(report, null, 1) + '\n';
if (args.out) fs.writeFileSync(args.out, json);
else process.stdout.write(json);
