// Times the npm package's WebAssembly build (dist/, as scripts/build_wasm.sh made it) on the
// benchmark workloads in Node, through its public API, for the comparison table of
// scripts/bench.sh. Usage:
//
//   node scripts/bench_wasm.mjs --data DIR [--dist DIR] [--out FILE] [--min-time 0.5]
//       [--min-runs 5] [--max-runs 10000] [--warmup 2] [--filter REGEX]
//
// DIR is what `gridsample_workloads --write DIR` made (see scripts/bench_ort.mjs). The package is
// dist/index.node.js, initialised with the bytes of dist/gridsample.wasm (init({ wasmBinary })).
// The build has no threads, so every workload runs on 1 thread.
//
// Per workload: gridSample(x, grid, { mode, paddingMode, alignCorners, layout, out }) on tensors
// read once, with `out` reused (the output is allocated once, as the native benchmark and the
// onnxruntime runners do); each call still copies X and the grid into the wasm heap and Y out of
// it, which is what users of the package pay. --warmup runs, then timed samples (each the mean
// of a batch of runs lasting about 1 ms) until both --min-runs and --min-time are reached (at
// most --max-runs); median and fastest are reported. A workload the package rejects is reported
// as n/a with its message. The output is compared with
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
}, 'node scripts/bench_wasm.mjs --data DIR [--dist DIR] [--out FILE]');
const tag = 'bench_wasm';

const wasmFile = path.join(args.dist, 'gridsample.wasm');
if (!fs.existsSync(wasmFile)) {
  console.error(`${tag}: no ${wasmFile}; run scripts/build_wasm.sh`);
  process.exit(1);
}
const gridsample = await import(pathToFileURL(path.join(args.dist, 'index.node.js')).href);
await gridsample.init({ wasmBinary: fs.readFileSync(wasmFile) });
const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));

const table = readWorkloads(args.data, args.filter);
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
  const options = {
    mode: workload.mode, paddingMode: workload.padding_mode,
    alignCorners: Boolean(workload.align_corners), layout: workload.layout, out,
  };
  let result;
  try {
    result = await timeRuns(() => gridsample.gridSample(x, grid, options), args.timing);
    result.max_abs_diff = maxAbsDiff(out, expected, workload.y.dtype);
  } catch (error) {
    result = { status: 'n/a', reason: String(error?.message ?? error).split('\n')[0] };
  }
  results.push({ id: workload.id, num_threads: 1, ...result });
  logResult(tag, workload.id, 1, result);
}

writeReport({
  runner: 'gridsample-wasm',
  version,
  platform: 'wasm',
  setup: `${path.relative(repo, wasmFile)} (${fs.statSync(wasmFile).size} bytes, ` +
         `scripts/build_wasm.sh) in Node ${process.version}, gridSample() with \`out\` reused`,
  thread_counts: [1],
  load_avg: loadAverage,
  method: methodText(args.timing),
  results,
}, args.out);
