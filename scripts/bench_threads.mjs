// The npm package's threads, measured in alternating rounds: per workload, calls on 1 thread,
// on all of init()'s threads and with no numThreads (the package's own choice,
// bindings/js/thread_choice.js), each with a fresh output and with `out` reused, take turns in
// rounds of about --round-ms each, so that a machine whose speed drifts (a shared host, cores
// that move) moves every side alike. Usage:
//
//   node scripts/bench_threads.mjs --data DIR [--dist DIR] [--filter REGEX] [--rounds 8]
//       [--round-ms 30] [--warmup-time 1]
//
// DIR is what `gridsample_workloads --write DIR` made (scripts/bench.sh makes it in
// build/bench/data). Prints a Markdown table: the median (and fastest) of each side's rounds
// in ms, a round being the mean of its calls, and the ratios of 1 thread to the others.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { readWorkloads, timeRound, workloadTensors } from './bench_common.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    dist: { type: 'string', default: path.join(repo, 'dist') },
    filter: { type: 'string' },
    rounds: { type: 'string', default: '8' },
    'round-ms': { type: 'string', default: '30' },
    'warmup-time': { type: 'string', default: '1' },
  },
});
if (!args.data) {
  console.error('usage: node scripts/bench_threads.mjs --data DIR [--dist DIR] [--filter REGEX] ' +
                '[--rounds 8] [--round-ms 30] [--warmup-time 1]');
  process.exit(2);
}
const rounds = Number(args.rounds);
const roundMs = Number(args['round-ms']);

const gridsample = await import(pathToFileURL(path.join(args.dist, 'index.node.js')).href);
await gridsample.init({ wasmBinary: fs.readFileSync(path.join(args.dist, 'gridsample.wasm')) });
const all = gridsample.numThreads();

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const ms = (values) => `${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)})`;

console.log(`${os.cpus()[0].model}, ${all} threads, Node ${process.version}; medians (fastest) ` +
            `of ${rounds} alternating rounds of ${roundMs} ms, ms per call\n`);
console.log('| workload | output | 1 thread | all threads | no numThreads | 1 / all | 1 / none |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const w of readWorkloads(args.data, args.filter).workloads) {
  const { x, grid, out } = workloadTensors(args.data, w);
  const base = { mode: w.mode, paddingMode: w.padding_mode, alignCorners: Boolean(w.align_corners),
                 layout: w.layout };
  for (const reuse of [false, true]) {
    const sides = [1, all, undefined].map((numThreads) => ({
      options: { ...base, ...(numThreads && { numThreads }), ...(reuse && { out }) },
      times: [],
    }));
    const warmEnd = performance.now() + Number(args['warmup-time']) * 1000;
    while (performance.now() < warmEnd) {
      for (const side of sides) gridsample.gridSample(x, grid, side.options);
    }
    for (let round = 0; round < rounds; ++round) {
      for (const side of sides) {
        side.times.push(timeRound(() => gridsample.gridSample(x, grid, side.options), roundMs));
      }
    }
    const [one, every, none] = sides.map((side) => side.times);
    console.log(`| ${w.id} | ${reuse ? '`out`' : 'fresh'} | ${ms(one)} | ${ms(every)} | ` +
                `${ms(none)} | ${(median(one) / median(every)).toFixed(2)}× | ` +
                `${(median(one) / median(none)).toFixed(2)}× |`);
  }
}
