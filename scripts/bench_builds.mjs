// Two builds of the npm package against each other, in one Node.js process: each dist/ is
// loaded as a module of its own (its own WebAssembly instance and threads), and their calls
// take turns in rounds of about --round-ms, so that a machine whose speed drifts moves both
// alike. For checking that a change keeps the speed (timing the two builds one after the
// other, in two processes, differed by more than the change on a shared machine). Usage:
//
//   node scripts/bench_builds.mjs --data DIR --a DIST_A --b DIST_B [--threads 1]
//       [--backend-a wasm] [--backend-b wasm] [--filter REGEX] [--rounds 12] [--round-ms 25]
//       [--warmup-time 0.5]
//
// DIR is what `gridsample_workloads --write DIR` made (build/bench/data after `npm run bench`);
// a DIST is a dist/ folder as scripts/build_wasm.sh makes it (build an older commit in a git
// worktree for it). --backend-a and --backend-b give each its backend (init's backend option);
// the native backend against WebAssembly may take one dist/ for both (B then loads from a copy
// of it, as a package keeps one backend per module). Prints a Markdown table: per workload, with
// a fresh output and with `out` reused, the median of each build's rounds in ms (a round: the
// mean of its calls), and B's time over A's, for the medians and for the fastest rounds; with
// --out, also those figures as JSON (scripts/bench.sh's table of the package's backends).
//
// On more than one thread the two sides' idle threads share the cores with the side that runs:
// the native backend against WebAssembly is only sound on one thread (its calls ran several
// times slower beside the module's threads), two builds of one backend pay alike.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { readWorkloads, timeRound, workloadTensors } from './bench_common.mjs';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    a: { type: 'string' },
    b: { type: 'string' },
    threads: { type: 'string', default: '1' },
    'backend-a': { type: 'string', default: 'wasm' },
    'backend-b': { type: 'string', default: 'wasm' },
    filter: { type: 'string' },
    rounds: { type: 'string', default: '12' },
    'round-ms': { type: 'string', default: '25' },
    'warmup-time': { type: 'string', default: '0.5' },
    out: { type: 'string' },
  },
});
if (!args.data || !args.a || !args.b) {
  console.error('usage: node scripts/bench_builds.mjs --data DIR --a DIST_A --b DIST_B ' +
                '[--threads 1] [--filter REGEX] [--rounds 12] [--round-ms 25] [--warmup-time 0.5] ' +
                '[--out FILE]');
  process.exit(2);
}
const threads = Number(args.threads);
const rounds = Number(args.rounds);
const roundMs = Number(args['round-ms']);

async function load(dist, backend) {
  const entry = pathToFileURL(path.join(path.resolve(dist), 'index.node.js')).href;
  const gridsample = await import(entry);
  // The wasm module's bytes say where it comes from, and so ask for WebAssembly.
  await gridsample.init(backend === 'native' ? { numThreads: threads, backend } :
      { wasmBinary: fs.readFileSync(path.join(dist, 'gridsample.wasm')), numThreads: threads });
  return gridsample;
}
// One dist/ on both sides: B's own copy, so that each side is a module of its own.
let distB = args.b;
if (path.resolve(args.a) === path.resolve(args.b)) {
  distB = fs.mkdtempSync(path.join(os.tmpdir(), 'gridsample-bench-builds-'));
  fs.cpSync(args.b, distB, { recursive: true });
  process.on('exit', () => fs.rmSync(distB, { recursive: true, force: true }));
}
const builds = [await load(args.a, args['backend-a']), await load(distB, args['backend-b'])];
if (builds[0] === builds[1]) {
  console.error('bench_builds.mjs: --a and --b load the same module');
  process.exit(2);
}

// An older build, from before the native backend, has no backend().
const backendOf = (build) => build.backend?.() ?? 'wasm';
const report = { runner: 'bench_builds', a: { dist: args.a, backend: backendOf(builds[0]) },
                 b: { dist: args.b, backend: backendOf(builds[1]) }, threads, rounds,
                 round_ms: roundMs, load_avg: os.loadavg(), results: [] };
const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];
const which = (dist, build) => `${dist} (${backendOf(build)})`;
console.log(`A: ${which(args.a, builds[0])}, B: ${which(args.b, builds[1])}; ${threads} ` +
            `thread(s); medians of ${rounds} alternating rounds of ${roundMs} ms, ms per call\n`);
console.log('| workload | output | A | B | B / A (medians) | B / A (fastest rounds) |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const w of readWorkloads(args.data, args.filter).workloads) {
  const { x, grid, out } = workloadTensors(args.data, w);
  for (const reuse of [false, true]) {
    const options = { mode: w.mode, paddingMode: w.padding_mode,
                      alignCorners: Boolean(w.align_corners), layout: w.layout, numThreads: threads,
                      ...(reuse && { out }) };
    const sides = builds.map((gridsample) => ({ gridsample, times: [] }));
    const warmEnd = performance.now() + Number(args['warmup-time']) * 1000;
    while (performance.now() < warmEnd) {
      for (const side of sides) side.gridsample.gridSample(x, grid, options);
    }
    for (let round = 0; round < rounds; ++round) {
      // Each build goes first in every other round.
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        side.times.push(timeRound(() => side.gridsample.gridSample(x, grid, options), roundMs));
      }
    }
    const [a, b] = sides.map((side) => side.times);
    report.results.push({ id: w.id, output: reuse ? 'out' : 'fresh', a_ms: median(a),
                          b_ms: median(b), a_min_ms: Math.min(...a), b_min_ms: Math.min(...b) });
    console.log(`| ${w.id} | ${reuse ? '`out`' : 'fresh'} | ${median(a).toFixed(3)} | ` +
                `${median(b).toFixed(3)} | ${(median(b) / median(a)).toFixed(3)} | ` +
                `${(Math.min(...b) / Math.min(...a)).toFixed(3)} |`);
  }
}
if (args.out) fs.writeFileSync(args.out, JSON.stringify(report, null, 1) + '\n');
