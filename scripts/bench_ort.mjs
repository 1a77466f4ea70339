// Times onnxruntime on the benchmark workloads, for the comparison table of scripts/bench.sh:
// onnxruntime-node (CPU execution provider) or onnxruntime-web (its WebAssembly backend, run in
// Node), both the package.json devDependencies. Usage:
//
//   node scripts/bench_ort.mjs --data DIR [--runtime node|web] [--models DIR] [--threads 1,2]
//       [--out FILE] [--min-time 0.5] [--min-runs 5] [--max-runs 10000] [--warmup 2]
//       [--warmup-time 1] [--filter REGEX]
//
// DIR is what `gridsample_workloads --write DIR` made: workloads.json (the table; nothing here
// restates it) and every workload's X, grid and gridsample's own Y as raw little-endian files.
// The models are tests/bench/models/ID.onnx (scripts/gen_bench_models.py); manifest.json there
// must describe the same shapes, types and attributes as the table, or this stops. --filter
// keeps the workloads whose id matches.
//
// --runtime node (default): one session per workload and thread count T (--threads, default 1
// and all hardware threads): intraOpNumThreads T, interOpNumThreads 1, sequential execution,
// graphOptimizationLevel 'all'.
// --runtime web: onnxruntime-web's wasm execution provider with ort.env.wasm.numThreads = T
// (--threads: one count, default 1, as it is fixed for the process; T - 1 worker threads) and
// SIMD on (ort.env.wasm.simd = true; its only build is the SIMD one), the same session options
// otherwise.
//
// Per session: --warmup runs and --warmup-time seconds of them, then timed samples (each the
// mean of a batch of runs lasting about 1 ms) until both --min-runs and --min-time are reached
// (at most --max-runs); the median is reported, and the fastest sample too
// (scripts/bench_common.mjs times and writes the report). Inputs are allocated once, as the
// native benchmark does; so is the output tensor for onnxruntime-node (it still hands back each
// run's output in a new JS buffer, a cost its users pay too). onnxruntime-web allocates each
// run's output itself: given a preallocated CPU output, 1.30 returns it unwritten. A workload
// that onnxruntime cannot load or run is reported as n/a with onnxruntime's own message. Its
// output (the last run's) is compared with gridsample's (max |difference|).
//
// Writes the report of scripts/bench_common.mjs to --out or stdout; progress goes to stderr.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  logResult, maxAbsDiff, methodText, parseRunnerArgs, readTensorData, readWorkloads, timeRuns,
  writeReport,
} from './bench_common.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = parseRunnerArgs({
  runtime: { type: 'string', default: 'node' },
  models: { type: 'string', default: path.join(repo, 'tests', 'bench', 'models') },
  threads: { type: 'string' },
}, 'node scripts/bench_ort.mjs --data DIR [--runtime node|web] [--models DIR] [--threads 1,2] ' +
   '[--out FILE]');
const RUNTIMES = {
  node: { module: 'onnxruntime-node', platform: 'native', provider: 'cpu' },
  web: { module: 'onnxruntime-web', platform: 'wasm', provider: 'wasm' },
};
const runtime = RUNTIMES[args.runtime];
if (!runtime) {
  console.error(`bench_ort: --runtime must be node or web, not ${args.runtime}`);
  process.exit(2);
}
const ort = await import(runtime.module);
const tag = `bench_ort (${runtime.module})`;

const table = readWorkloads(args.data, args.filter);
const manifest = JSON.parse(fs.readFileSync(path.join(args.models, 'manifest.json'), 'utf8'));
let threadCounts = args.threads
  ? args.threads.split(',').map(Number)
  : [...new Set([1, table.hardware_threads])];
if (args.runtime === 'web') {
  threadCounts = args.threads ? threadCounts : [1];
  if (threadCounts.length !== 1 || !(threadCounts[0] >= 1)) {
    console.error(`${tag}: the web runtime takes one thread count per process, not --threads ` +
                  args.threads);
    process.exit(2);
  }
  ort.env.wasm.numThreads = threadCounts[0];
  ort.env.wasm.simd = true;
  ort.env.wasm.proxy = false;
}

// ONNX's GridSample takes NCHW tensors: a channels-last workload has no model, and is n/a.
const NCHW_ONLY = "ONNX GridSample takes channels-first (NCHW) tensors, not this workload's " +
                  'channels-last ones';

// The model must have been made from this workload's current shapes, types and attributes;
// null for a channels-last workload.
function checkModel(workload) {
  if (workload.layout === 'channels-last') return null;
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

// onnxruntime's first line, without its source paths, function signatures and error codes.
function reasonOf(error) {
  const line = String(error?.message ?? error).split('\n')[0];
  const message = line.match(/(?:Status Message|ERROR_MESSAGE): (.*)$/);
  const text = message ? message[1] : line;
  return text.replace(/^\S*\.(cc|h):\d+ .*? (was false\.|failed\.)\s*/, '').trim();
}

// Times one session; `output` receives the last run's Y.
async function timeWorkload(modelPath, numThreads, feeds, fetches, output) {
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      executionProviders: [runtime.provider],
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
    return await timeRuns(async () => {
      output.Y = (await session.run(feeds, fetches)).Y;
    }, args.timing);
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
  console.error(`${tag}: ${error.message}`);
  process.exit(1);
}

const loadAverage = os.loadavg();
const results = [];
for (const [index, workload] of table.workloads.entries()) {
  const tensor = (name) => new ort.Tensor(
      workload[name].dtype, readTensorData(args.data, workload.files[name], workload[name].dtype),
      workload[name].shape);
  const x = tensor('x');
  const grid = tensor('grid');
  const expected = tensor('y');  // gridsample's output
  const fetches = args.runtime === 'web'
    ? undefined
    : { Y: new ort.Tensor(workload.y.dtype, new expected.data.constructor(expected.data.length),
                          workload.y.shape) };
  let diff;
  for (const numThreads of threadCounts) {
    const output = {};
    const result = modelPaths[index] === null
      ? { status: 'n/a', reason: NCHW_ONLY }
      : await timeWorkload(modelPaths[index], numThreads, { X: x, grid }, fetches, output);
    if (result.status === 'ok' && diff === undefined) {
      diff = maxAbsDiff(output.Y.data, expected.data, workload.y.dtype);
    }
    results.push({ id: workload.id, num_threads: numThreads, ...result, max_abs_diff: diff });
    logResult(tag, workload.id, numThreads, result);
  }
}

const version = ort.env.versions?.[args.runtime] ?? 'unknown';
const setup = args.runtime === 'web'
  ? `wasm execution provider in Node ${process.version}, ort.env.wasm.numThreads = T (one ` +
    "process per T), SIMD on, sequential, graphOptimizationLevel 'all'; a fresh output per run"
  : 'cpu execution provider, intraOpNumThreads = T, interOpNumThreads 1, sequential, ' +
    "graphOptimizationLevel 'all'";
writeReport({
  runner: runtime.module,
  version,
  platform: runtime.platform,
  execution_provider: runtime.provider,
  setup,
  thread_counts: threadCounts,
  load_avg: loadAverage,
  method: methodText(args.timing),
  results,
}, args.out);
