// Merges the results of one benchmark run into the Markdown comparison table that
// scripts/bench.sh prints. Usage:
//
//   node scripts/bench_table.mjs --workloads DIR/workloads.json --gridsample GB.json [...]
//       [--ours OURS.json ...] [--peer PEER.json ...] [--stat median|min] [--out FILE.md]
//
//   --workloads   the table as `gridsample_workloads --write DIR` wrote it
//   --gridsample  gridsample_bench's --benchmark_out JSON (Google Benchmark format; the median
//                 aggregates are used when it ran repetitions): the native build; once per round
//   --ours        another build of gridsample timed by a JavaScript runner (scripts/bench_wasm.mjs:
//                 the WebAssembly package), in the report format of scripts/bench_common.mjs;
//                 once per round
//   --peer        a peer's report in that format (scripts/bench_ort.mjs: onnxruntime-node or
//                 onnxruntime-web), once per round
//   --stat        which time a cell shows: the median of the runs (default), or the fastest run,
//                 which a busy machine disturbs less
//
// Every report names its platform ("native" or "wasm"; Google Benchmark's is native). Each
// platform gets a group of columns per thread count: gridsample's build for that platform, then
// an "ms" and a "speed-up" column per peer of that platform (distinct runner + version, in the
// order first given). Speed-up is peer ms / gridsample ms on the same platform: above 1 means
// gridsample is faster. A cell a runner could not run shows n/a and a footnote with its reason.
// When a runner ran several rounds, a cell shows its best (lowest) round: on a shared machine
// the rounds catch different spells of load, and the best one is the closest to the runner's
// own speed. Under the table, each JavaScript runner's largest |difference| from gridsample's
// native output, and for a build of ours whose report also times calls with `out` reused
// (out_ms: scripts/bench_wasm.mjs), a second table of its fresh-output and reused-output times
// per thread count and their ratio (both from the same round). The tables go to stdout and,
// with --out, to a file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    workloads: { type: 'string' },
    gridsample: { type: 'string', multiple: true, default: [] },
    ours: { type: 'string', multiple: true, default: [] },
    peer: { type: 'string', multiple: true, default: [] },
    stat: { type: 'string', default: 'median' },
    out: { type: 'string' },
  },
});
if (!args.workloads || args.gridsample.length === 0 || !['median', 'min'].includes(args.stat)) {
  console.error('usage: node scripts/bench_table.mjs --workloads FILE --gridsample FILE [...] ' +
                '[--ours FILE ...] [--peer FILE ...] [--stat median|min] [--out FILE]');
  process.exit(2);
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const table = readJson(args.workloads);
const allThreads = table.hardware_threads;
const threadLabel = (threads) =>
  (threads === 1 ? '1T' : threads === allThreads ? 'all-T' : `${threads}T`);

// Google Benchmark's JSON → { "ID/threads": { status, ms, reason } }.
function nativeResults(report) {
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  const entries = report.benchmarks ?? [];
  const repeated = entries.some((b) => b.run_type === 'aggregate');
  const results = {};
  for (const b of entries) {
    if (repeated && !(b.run_type === 'aggregate' && b.aggregate_name === args.stat)) continue;
    const match = /^gridsample\/([^/]+)\/num_threads:(\d+)/.exec(b.run_name ?? b.name);
    if (!match) continue;
    results[`${match[1]}/${match[2]}`] = b.error_occurred
      ? { status: 'n/a', reason: b.error_message }
      : { status: 'ok', ms: b.real_time * toMs[b.time_unit ?? 'ns'] };
  }
  return results;
}

// A JavaScript runner's report → { "ID/threads": result }, ms being the chosen statistic.
function peerResults(report) {
  const results = {};
  for (const r of report.results) {
    results[`${r.id}/${r.num_threads}`] =
        args.stat === 'min' ? { ...r, ms: r.min_ms, out_ms: r.out_min_ms } : r;
  }
  return results;
}

// Several rounds of one runner → one: per cell, the ok result with the lowest ms.
function best(rounds) {
  const merged = {};
  for (const results of rounds) {
    for (const [key, r] of Object.entries(results)) {
      const kept = merged[key];
      if (!kept || (r.status === 'ok' && (kept.status !== 'ok' || r.ms < kept.ms))) {
        merged[key] = r;
      }
    }
  }
  return merged;
}

// Short names for the table's headers.
const NAMES = { 'onnxruntime-node': 'ORT', 'onnxruntime-web': 'ORT-web',
                'gridsample-wasm': 'gridsample wasm' };

// Reports of JavaScript runners → [{ name, label, platform, reports, results }], one per
// runner + version, in the order first given.
function groupRunners(files) {
  const runners = [];
  for (const report of files.map(readJson)) {
    const label = `${report.runner} ${report.version}`;
    let runner = runners.find((r) => r.label === label);
    if (!runner) {
      runner = { name: NAMES[report.runner] ?? report.runner, label,
                 platform: report.platform ?? 'native', reports: [] };
      runners.push(runner);
    }
    runner.reports.push(report);
  }
  for (const runner of runners) runner.results = best(runner.reports.map(peerResults));
  return runners;
}

const nativeReports = args.gridsample.map(readJson);
const native = {
  name: 'gridsample', label: 'gridsample (native)', platform: 'native', reports: nativeReports,
  results: best(nativeReports.map(nativeResults)), threads: [...new Set([1, allThreads])],
};
const ours = [native, ...groupRunners(args.ours)];
const peers = groupRunners(args.peer);
// Per platform: our build there (the first one given), its peers and the thread counts shown
// (native: 1 and all hardware threads; elsewhere those the runners report).
const platforms = [];
for (const subject of ours) {
  if (platforms.some((p) => p.name === subject.platform)) continue;
  const platformPeers = peers.filter((p) => p.platform === subject.platform);
  const threads = subject.threads ?? [...new Set([subject, ...platformPeers].flatMap(
      (r) => r.reports.flatMap((report) => report.thread_counts ?? [1])))].sort((a, b) => a - b);
  platforms.push({ name: subject.platform, subject, peers: platformPeers, threads });
}
const orphans = peers.filter((p) => !platforms.some((platform) => platform.name === p.platform));
if (orphans.length) {
  console.error(`bench_table: no gridsample build on the platform of ${
    orphans.map((p) => `${p.label} (${p.platform})`).join(', ')}`);
  process.exit(2);
}

// Footnotes for n/a cells: one number per distinct runner + reason.
const notes = [];
function note(text) {
  let index = notes.indexOf(text);
  if (index < 0) index = notes.push(text) - 1;
  return `[${index + 1}]`;
}

function formatMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  return ms >= 0.001 ? ms.toPrecision(3) : ms.toExponential(2);
}

function cell(result, runner) {
  if (!result) return '–';
  if (result.status !== 'ok') return `n/a ${note(`${runner}: ${result.reason}`)}`;
  return formatMs(result.ms);
}

function speedUp(subject, peer) {
  if (subject?.status !== 'ok' || peer?.status !== 'ok') return '–';
  return `${(peer.ms / subject.ms).toFixed(2)}×`;
}

const header = ['workload', 'description'];
for (const platform of platforms) {
  for (const threads of platform.threads) {
    const label = threadLabel(threads);
    header.push(`${platform.subject.name} ${label} ms`);
    for (const peer of platform.peers) {
      header.push(`${peer.name} ${label} ms`, `speed-up vs ${peer.name} ${label}`);
    }
  }
}
header.push('Melem/s (1T)');

const rows = [];
for (const w of table.workloads) {
  const row = [w.id, w.description];
  for (const platform of platforms) {
    for (const threads of platform.threads) {
      const key = `${w.id}/${threads}`;
      const subject = platform.subject.results[key];
      row.push(cell(subject, platform.subject.label));
      for (const peer of platform.peers) {
        row.push(cell(peer.results[key], peer.label), speedUp(subject, peer.results[key]));
      }
    }
  }
  const one = native.results[`${w.id}/1`];
  row.push(one?.status === 'ok' ? (w.y.elements / one.ms / 1e3).toFixed(1) : '–');
  rows.push(row);
}

// Agreement: each JavaScript runner's largest |difference| from gridsample's native output, per
// workload.
const runners = [...ours.slice(1), ...peers];
const agreement = runners.map((runner) => {
  const parts = table.workloads.map((w) => {
    const r = Object.values(runner.results).find(
        (x) => x.id === w.id && x.status === 'ok' && x.max_abs_diff !== undefined);
    return `${w.id} ${r ? Number(r.max_abs_diff).toPrecision(2) : '–'}`;
  });
  return `- ${runner.name} vs gridsample native output, max |ΔY|: ${parts.join(', ')}`;
});

const ctx = nativeReports[0].context ?? {};
const cpuModel = ctx.cpu_model && ctx.cpu_model !== 'unknown' ? ctx.cpu_model : os.cpus()[0]?.model;
let cores = '';
try {
  const match = /^cpu cores\s*:\s*(\d+)/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
  if (match) cores = `, ${match[1]} cores per socket`;
} catch {
  // not Linux: the logical CPU count stands alone
}
// The 1-minute load average when each round of each runner started.
const load = (reports, get) =>
  reports.map((r) => (Array.isArray(get(r)) ? get(r)[0].toFixed(2) : '?')).join(', ');
const loads = [`gridsample ${load(nativeReports, (r) => r.context?.load_avg)}`,
               ...runners.map((r) => `${r.name} ${load(r.reports, (x) => x.load_avg)}`)];
const rounds = nativeReports.length;
const statText = args.stat === 'min' ? 'fastest' : 'median';
const lines = [
  '# gridsample benchmark',
  '',
  `- Date: ${ctx.date ?? new Date().toISOString()}`,
  `- CPU: ${cpuModel}; ${ctx.num_cpus ?? os.cpus().length} logical CPUs${cores}; ` +
    `1-minute load average at the start of each round: ${loads.join('; ')}`,
  `- gridsample (native): ${ctx.compiler ?? '?'}, ${ctx.build_type ?? '?'}, ` +
    `flags \`${ctx.build_flags ?? '?'}\`; Highway target ${ctx.highway_target ?? '?'} ` +
    `(this CPU runs: ${ctx.highway_targets_available ?? '?'}); Google Benchmark, wall time, ` +
    `${statText} of the repetitions`,
  ...runners.map((r) => `- ${r.label}: ${r.reports[0].setup ?? '?'}; ${r.reports[0].method}, ` +
    `of which the table shows the ${statText}`),
  `- Threads: 1T = 1 thread, all-T = ${allThreads} threads (all hardware threads). ` +
    (rounds > 1 ? `Each cell is the best of ${rounds} rounds (the runners alternate). ` : '') +
    'Speed-up = peer ms / gridsample ms on the same platform: native peers against the native ' +
    'build, wasm peers against the WebAssembly build (above 1: gridsample is faster). ' +
    'Melem/s = output elements per second (native, 1 thread).',
  '',
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
  ...rows.map((row) => `| ${row.join(' | ')} |`),
  '',
  ...notes.map((text, i) => `- [${i + 1}] ${text}`),
  ...agreement,
];
// Fresh outputs against `out` reused, for each build of ours that timed both.
for (const platform of platforms) {
  const { subject } = platform;
  if (!Object.values(subject.results).some((r) => r.out_ms !== undefined)) continue;
  const head = ['workload'];
  for (const threads of platform.threads) {
    const label = threadLabel(threads);
    head.push(`fresh ${label} ms`, `out ${label} ms`, `fresh/out ${label}`);
  }
  lines.push('', `${subject.name}: a fresh output per call (as above) against \`out\` reused ` +
             '(both from the same round)', '', `| ${head.join(' | ')} |`,
             `|${head.map((_, i) => (i < 1 ? ' --- ' : ' ---: ')).join('|')}|`);
  for (const w of table.workloads) {
    const row = [w.id];
    for (const threads of platform.threads) {
      const r = subject.results[`${w.id}/${threads}`];
      if (r?.status !== 'ok' || r.out_ms === undefined) {
        row.push('–', '–', '–');
        continue;
      }
      row.push(formatMs(r.ms), formatMs(r.out_ms), `${(r.ms / r.out_ms).toFixed(2)}×`);
    }
    lines.push(`| ${row.join(' | ')} |`);
  }
}
const markdown = lines.join('\n') + '\n';
process.stdout.write(markdown);
if (args.out) {
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, markdown);
}
