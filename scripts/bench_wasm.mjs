// Times the npm package (dist/, as scripts/build_wasm.sh and scripts/build_addon.sh made it) on
// the benchmark workloads in Node, through its public API, for the comparison table of
// scripts/bench.sh: its WebAssembly build, or with --backend native its Node.js addon. Usage:
//
//   node scripts/bench_wasm.mjs --data DIR [--dist DIR] [--backend wasm|native] [--threads 1,2]
//       [--out FILE] [--min-time 0.5] [--min-runs 5] [--max-runs 10000] [--warmup 2]
//       [--warmup-time 1] [--filter REGEX]
//
// DIR is what `gridsample_workloads --write DIR` made (see scripts/bench_ort.mjs). The package is
// dist/index.node.js, initialised with the bytes of dist/gridsample.wasm (or with
// { backend: 'native' }) and as many threads as the largest of --threads (default: 1 and all
// hardware threads), each count then chosen per call (the numThreads option).
//
// Per workload and thread count, two timings of gridSample(x, grid, { mode, paddingMode,
// alignCorners, layout, numThreads }) on tensors read once: with a fresh output per call (ms,
// what the default call costs, and what onnxruntime-web's runs return), and with `out` reused
// (out_ms: the output allocated once, as the native benchmark does). Each call still copies X
// and the grid into the wasm heap and Y out of it, which is what users of the package pay. Each
// timing: --warmup runs and --warmup-time seconds of them (V8 optimises WebAssembly late), then
// timed samples (each the mean of a batch of runs lasting about 1 ms) until both --min-runs and
// --min-time are reached (at most --max-runs); median and fastest are reported. A workload the
// package rejects is reported as n/a with its message. The output is compared with
// gridsample's native one (max |difference|).
//
// Writes the report of scripts/bench_common.mjs to --out or stdout; progress goes to stderr.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  logResult, maxAbsDiff, methodText, parseRunnerArgs, readTensorData, readWorkloads, timeRuns,
  writeReport,
} from './bench_common.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = parseRunnerArgs({
  dist: { type: 'string', default: path.join(repo, 'dist') },
  backend: { type: 'string', default: 'wasm' },
  threads: { type: 'string' },
}, 'node scripts/bench_wasm.mjs --data DIR [--dist DIR] [--backend wasm|native] ' +
   '[--threads 1,2] [--out FILE]');
const native = args.backend === 'native';
const tag = `bench_wasm (${args.backend})`;

const file = native ? path.join(args.dist, 'native', `${process.platform}-${process.arch}`,
                                'gridsample.node') : path.join(args.dist, 'gridsample.wasm');
if (!fs.existsSync(file)) {
  console.error(`${tag}: no ${file}; run scripts/build_${native ? 'addon' : 'wasm'}.sh`);
  process.exit(1);
}
const table = readWorkloads(args.data, args.filter);
const threadCounts = args.threads ? args.threads.split(',').map(Number)
                                  : [...new Set([1, table.hardware_threads])];
const gridsample = await import(pathToFileURL(path.join(args.dist, 'index.node.js')).href);
const maxThreads = Math.max(...threadCounts);
await gridsample.init(native ? { backend: 'native', numThreads: maxThreads } :
    { wasmBinary: fs.readFileSync(file), numThreads: maxThreads });
if (gridsample.backend() !== args.backend) {
  console.error(`${tag}: init() loaded the ${gridsample.backend()} backend`);
  process.exit(1);
}
if (gridsample.numThreads() !== maxThreads) {
  console.error(`${tag}: init() started ${gridsample.numThreads()} threads, not ` +
                `${maxThreads}`);
  process.exit(1);
}
const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));

const loadAverage = os.loadavg();
const results = [];
for (const workload of table.workloads) {
  const tensor = (name) => ({
    data: readTensorData(args.data, workload.files[name], workload[name].dtype),
    dims: workload[name].shape,
    type: workload[name].dtype,
  });
  const x = tensor('x');
  const grid = tensor('grid');
  const expected = tensor('y').data;
  const out = new expected.constructor(expected.length);
  let diff;
  for (const numThreads of threadCounts) {
    const options = {
      mode: workload.mode, paddingMode: workload.padding_mode,
      alignCorners: Boolean(workload.align_corners), layout: workload.layout, numThreads,
    };
    let result;
    try {
      let y;
      result = await timeRuns(() => { y = gridsample.gridSample(x, grid, options); }, args.timing);
      diff ??= maxAbsDiff(y.data, expected, workload.y.dtype);
      const reusing = { ...options, out };
      const reused = await timeRuns(() => gridsample.gridSample(x, grid, reusing), args.timing);
      result.out_ms = reused.ms;
      result.out_min_ms = reused.min_ms;
    } catch (error) {
      result = { status: 'n/a', reason: String(error?.message ?? error).split('\n')[0] };
    }
    results.push({ id: workload.id, num_threads: numThreads, ...result, max_abs_diff: diff });
    logResult(tag, workload.id, numThreads, result);
  }
}

writeReport({
  runner: native ? 'gridsample-node' : 'gridsample-wasm',
  version,
  // The package's native backend is a build of ours of a platform of its own: bench_table.mjs
  // sets it beside the WebAssembly one.
  platform: native ? 'node-native' : 'wasm',
  setup: `${path.relative(repo, file)} (${fs.statSync(file).size} bytes, ` +
         `scripts/build_${native ? 'addon' : 'wasm'}.sh) in Node ${process.version}, ` +
         `init({ ${native ? "backend: 'native', " : ''}numThreads: ${maxThreads} }), ` +
         'gridSample() with { numThreads: T } and a fresh output per call (out_ms: with `out` ' +
         'reused)',
  thread_counts: threadCounts,
  load_avg: loadAverage,
  method: methodText(args.timing),
  results,
}, args.out);
