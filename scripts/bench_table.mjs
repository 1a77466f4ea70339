// Merges the results of one benchmark run into the Markdown comparison table that
// scripts/bench.sh prints. Usage:
//
//   node scripts/bench_table.mjs --workloads DIR/workloads.json --gridsample GB.json [...]
//       --peer PEER.json [...] [--stat median|min] [--out FILE.md]
//
//   --workloads   the table as `gridsample_workloads --write DIR` wrote it
//   --gridsample  gridsample_bench's --benchmark_out JSON (Google Benchmark format; the median
//                 aggregates are used when it ran repetitions); once per round
//   --peer        a runner's JSON in the format scripts/bench_ort.mjs writes ({ runner, version,
//                 load_avg, method, results: [{ id, num_threads, status, ms, reason,
//                 max_abs_diff }] }), once per round. Each distinct runner + version adds an
//                 "ms" and a "speed-up" column per thread count, in the order first given
//   --stat        which time a cell shows: the median of the runs (default), or the fastest run,
//                 which a busy machine disturbs less
//
// When a runner ran several rounds, a cell shows its best (lowest) round: on a shared machine
// the rounds catch different spells of load, and the best one is the closest to the runner's
// own speed. Speed-up is peer ms / gridsample ms: above 1 means gridsample is faster. The table
// goes to stdout and, with --out, to a file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    workloads: { type: 'string' },
    gridsample: { type: 'string', multiple: true, default: [] },
    peer: { type: 'string', multiple: true, default: [] },
    stat: { type: 'string', default: 'median' },
    out: { type: 'string' },
  },
});
if (!args.workloads || args.gridsample.length === 0 || !['median', 'min'].includes(args.stat)) {
  console.error('usage: node scripts/bench_table.mjs --workloads FILE --gridsample FILE [...] ' +
                '[--peer FILE ...] [--stat median|min] [--out FILE]');
  process.exit(2);
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const table = readJson(args.workloads);
const allThreads = table.hardware_threads;
const threadGroups = [{ label: '1T', threads: 1 }, { label: 'all-T', threads: allThreads }];

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

// bench_ort.mjs's JSON → { "ID/threads": result }, ms being the chosen statistic.
function peerResults(report) {
  const results = {};
  for (const r of report.results) {
    results[`${r.id}/${r.num_threads}`] = args.stat === 'min' ? { ...r, ms: r.min_ms } : r;
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

const nativeReports = args.gridsample.map(readJson);
const native = best(nativeReports.map(nativeResults));
const peers = [];  // { name, label, reports, results }, one per runner + version
for (const report of args.peer.map(readJson)) {
  const label = `${report.runner} ${report.version}`;
  let peer = peers.find((p) => p.label === label);
  if (!peer) {
    const name = report.runner === 'onnxruntime-node' ? 'ORT' : report.runner;
    peer = { name, label, reports: [] };
    peers.push(peer);
  }
  peer.reports.push(report);
}
for (const peer of peers) peer.results = best(peer.reports.map(peerResults));

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
for (const group of threadGroups) {
  header.push(`gridsample ${group.label} ms`);
  for (const peer of peers) {
    header.push(`${peer.name} ${group.label} ms`, `speed-up ${group.label}`);
  }
}
header.push('Melem/s (1T)');

const rows = [];
for (const w of table.workloads) {
  const row = [w.id, w.description];
  for (const group of threadGroups) {
    const key = `${w.id}/${group.threads}`;
    row.push(cell(native[key], 'gridsample'));
    for (const peer of peers) {
      row.push(cell(peer.results[key], peer.label), speedUp(native[key], peer.results[key]));
    }
  }
  const one = native[`${w.id}/1`];
  row.push(one?.status === 'ok' ? (w.y.elements / one.ms / 1e3).toFixed(1) : '–');
  rows.push(row);
}

// Agreement: each peer's largest |difference| from gridsample's output, per workload.
const agreement = peers.map((peer) => {
  const parts = table.workloads.map((w) => {
    const r = threadGroups.map((g) => peer.results[`${w.id}/${g.threads}`])
      .find((x) => x?.status === 'ok' && x.max_abs_diff !== undefined);
    return `${w.id} ${r ? Number(r.max_abs_diff).toPrecision(2) : '–'}`;
  });
  return `- ${peer.name} vs gridsample output, max |ΔY|: ${parts.join(', ')}`;
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
               ...peers.map((p) => `${p.name} ${load(p.reports, (r) => r.load_avg)}`)];
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
  ...peers.map((p) => `- ${p.label}: ${p.reports[0].execution_provider ?? '?'} execution ` +
    'provider, intraOpNumThreads = T, interOpNumThreads 1, sequential, ' +
    `graphOptimizationLevel 'all'; ${p.reports[0].method}, of which the table shows the ` +
    statText),
  `- Threads: 1T = 1 thread, all-T = ${allThreads} threads (all hardware threads). ` +
    (rounds > 1 ? `Each cell is the best of ${rounds} rounds (the runners alternate). ` : '') +
    'Speed-up = peer ms / gridsample ms (above 1: gridsample is faster). ' +
    'Melem/s = output elements per second.',
  '',
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
  ...rows.map((row) => `| ${row.join(' | ')} |`),
  '',
  ...notes.map((text, i) => `- [${i + 1}] ${text}`),
  ...agreement,
];
const markdown = lines.join('\n') + '\n';
process.stdout.write(markdown);
if (args.out) {
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, markdown);
}
