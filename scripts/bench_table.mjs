// Merges the results of one benchmark run into the Markdown comparison tables that
// scripts/bench.sh prints. Usage:
//
//   node scripts/bench_table.mjs --workloads DIR/workloads.json --gridsample GB.json [...]
//       [--ours OURS.json ...] [--peer PEER.json ...] [--stat median|min] [--out FILE.md]
//
//   --workloads   the table as `gridsample_workloads --write DIR` wrote it
//   --gridsample  gridsample_bench's --benchmark_out JSON (Google Benchmark format; the median
//                 aggregates are used when it ran repetitions): the native build; once per round
//                 and SIMD target (its context names the target), the best target first: the
//                 tables compare that one, and give each other target a column and a speed-up
//   --ours        another build of gridsample timed by a JavaScript runner (scripts/bench_wasm.mjs:
//                 the WebAssembly package), in the report format of scripts/bench_common.mjs;
//                 once per round
//   --peer        a peer's report in that format (scripts/bench_ort.mjs: onnxruntime-node or
//                 onnxruntime-web), or a JSON array of such reports (scripts/bench_peers.py:
//                 ncnn, OpenCV, PyTorch, OpenVINO), once per round
//   --pair        scripts/bench_builds.mjs's --out JSON of the package's WebAssembly build (A)
//                 against its native backend (B), their calls taking turns on one thread in one
//                 process; once per round
//   --stat        which time a cell shows: the median of the runs (default), or the fastest run,
//                 which a busy machine disturbs less
//
// Every report names its platform ("native" or "wasm"; Google Benchmark's is native). Each
// platform gets a table per thread count: gridsample's build for that platform, an "ms" column
// per peer of that platform (distinct runner + version + variant, in the order first given),
// the fastest exact peer and gridsample's speed-up over it (peer ms / gridsample ms: above 1,
// gridsample is faster). A peer is exact on a workload when its output lies within the
// tolerance of the output's dtype (TOLERANCE) of gridsample's native output; a time whose
// output does not is marked ≠ and never counts as the fastest. A cell a runner could not run
// shows — and a footnote with its reason. A report may set `name` (its header), `family` and
// `apart`: a variant shown apart (OpenCV's HWC-only and fixed-point figures) is left out of the
// platform tables and the fastest peer, and gets a table of its family's variants instead.
// When a runner ran several rounds, a cell shows its best (lowest) round: on a shared machine
// the rounds catch different spells of load, and the best one is the closest to the runner's
// own speed. Under the tables, each runner's largest |difference| from gridsample's native
// output, and for a build of ours whose report also times calls with `out` reused (out_ms:
// scripts/bench_wasm.mjs), a table of its fresh-output and reused-output times per thread
// count and their ratio (both from the same round). The tables go to stdout and, with --out,
// to a file.
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
    pair: { type: 'string', multiple: true, default: [] },
    stat: { type: 'string', default: 'median' },
    out: { type: 'string' },
  },
});
if (!args.workloads || args.gridsample.length === 0 || !['median', 'min'].includes(args.stat)) {
  console.error('usage: node scripts/bench_table.mjs --workloads FILE --gridsample FILE [...] ' +
                '[--ours FILE ...] [--peer FILE ...] [--pair FILE ...] [--stat median|min] ' +
                '[--out FILE]');
  process.exit(2);
}

// The largest |difference| from gridsample's native output that still counts as the same
// result, per output dtype. Float32: inputs are in [-1, 1), and rounding a coordinate near 1024
// in float32 (2^-14) moves an output by up to 2^-13 per axis; 1/32-pixel fixed-point locations
// move it by up to ~0.06. Float16: 4 units in the last place near 1. Integers: 1, since
// gridsample truncates its exact sum where others round.
const TOLERANCE = { float64: 1e-3, float32: 1e-3, float16: 2e-3, bfloat16: 8e-3 };
const toleranceOf = (dtype) => TOLERANCE[dtype] ?? 1;

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const table = readJson(args.workloads);
const allThreads = table.hardware_threads;
const workloadById = new Map(table.workloads.map((w) => [w.id, w]));

// Google Benchmark's JSON → { "ID/threads": { status, ms, reason } }, and the memory copy's
// bandwidth as { "memory/threads": { status, ms, bytesPerSecond } }.
function nativeResults(report) {
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  const entries = report.benchmarks ?? [];
  const repeated = entries.some((b) => b.run_type === 'aggregate');
  const results = {};
  for (const b of entries) {
    if (repeated && !(b.run_type === 'aggregate' && b.aggregate_name === args.stat)) continue;
    const name = b.run_name ?? b.name;
    const memory = /^memory\/copy\/num_threads:(\d+)/.exec(name);
    if (memory && !b.error_occurred) {
      results[`memory/${memory[1]}`] = { status: 'ok', ms: b.real_time * toMs[b.time_unit ?? 'ns'],
                                         bytesPerSecond: b.bytes_per_second };
    }
    const match = /^gridsample\/([^/]+)\/num_threads:(\d+)/.exec(name);
    if (!match) continue;
    results[`${match[1]}/${match[2]}`] = b.error_occurred
      ? { status: 'n/a', reason: b.error_message }
      : { status: 'ok', ms: b.real_time * toMs[b.time_unit ?? 'ns'] };
  }
  return results;
}

// A runner's report → { "ID/threads": result }, ms being the chosen statistic, `exact` whether
// its output is within the tolerance (undefined: not compared).
function peerResults(report) {
  const results = {};
  for (const r of report.results) {
    const w = workloadById.get(r.id);
    const exact = r.max_abs_diff === undefined || r.max_abs_diff === null || !w
      ? undefined
      : Number(r.max_abs_diff) <= toleranceOf(w.y.dtype);
    results[`${r.id}/${r.num_threads}`] =
        { ...r, exact, ...(args.stat === 'min' && { ms: r.min_ms, out_ms: r.out_min_ms }) };
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

// Short names for the table's headers, where a report does not give its own.
const NAMES = { 'onnxruntime-node': 'ORT', 'onnxruntime-web': 'ORT-web',
                'gridsample-wasm': 'gridsample wasm',
                'gridsample-node': 'gridsample native (Node)' };

// Reports of runners (files of one report or an array of them) → [{ name, label, platform,
// family, apart, reports, results }], one per runner + version + variant, in the order first
// given.
function groupRunners(files) {
  const runners = [];
  for (const report of files.flatMap((file) => [readJson(file)].flat())) {
    const label = `${report.runner} ${report.version}` +
                  (report.variant ? ` (${report.variant})` : '');
    let runner = runners.find((r) => r.label === label);
    if (!runner) {
      runner = { name: report.name ?? NAMES[report.runner] ?? report.runner, label,
                 platform: report.platform ?? 'native', family: report.family ?? report.runner,
                 apart: Boolean(report.apart), reports: [] };
      runners.push(runner);
    }
    runner.reports.push(report);
  }
  for (const runner of runners) runner.results = best(runner.reports.map(peerResults));
  return runners;
}

// The native build's reports, one build per Highway target it was timed on (the first given,
// the best target, is the one the tables compare; the others get columns of their own).
const nativeReports = args.gridsample.map(readJson);
const targetOf = (report) => report.context?.highway_target ?? '?';
const nativeTargets = [...new Set(nativeReports.map(targetOf))].map((target) => {
  const reports = nativeReports.filter((r) => targetOf(r) === target);
  return { target, reports, results: best(reports.map(nativeResults)) };
});
const native = {
  name: nativeTargets.length > 1 ? `gridsample ${nativeTargets[0].target}` : 'gridsample',
  label: 'gridsample (native)', platform: 'native', reports: nativeTargets[0].reports,
  results: nativeTargets[0].results, threads: [...new Set([1, allThreads])],
};
const otherTargets = nativeTargets.slice(1).map((t) => ({ ...t, name: `gridsample ${t.target}`,
                                                          label: `gridsample (native, ${t.target})` }));
const ours = [native, ...groupRunners(args.ours)];
// The package's native backend in Node.js (scripts/bench_wasm.mjs --backend native) has no peers
// of its own: it gets a table beside the package's WebAssembly build instead.
const packageNative = ours.find((r) => r.platform === 'node-native');
const peers = groupRunners(args.peer);
// Per platform: our build there (the first one given), its peers and the thread counts shown
// (native: 1 and all hardware threads; elsewhere those the runners report).
const platforms = [];
for (const subject of ours) {
  if (subject === packageNative || platforms.some((p) => p.name === subject.platform)) continue;
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

// Footnotes: one number per distinct text.
const notes = [];
function note(text) {
  let index = notes.indexOf(text);
  if (index < 0) index = notes.push(text) - 1;
  return `[${index + 1}]`;
}
const INEXACT = '≠';

function formatMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  return ms >= 0.001 ? ms.toPrecision(3) : ms.toExponential(2);
}

function cell(result, runner) {
  if (!result) return '—';
  if (result.status !== 'ok') return `— ${note(`${runner.label}: ${result.reason}`)}`;
  return formatMs(result.ms) + (result.exact === false ? ` ${INEXACT}` : '');
}

// The peer with the lowest time among those whose output is exact, or undefined.
function fastestExact(platform, key) {
  let fastest;
  for (const peer of platform.peers.filter((p) => !p.apart)) {
    const r = peer.results[key];
    if (r?.status === 'ok' && r.exact && (!fastest || r.ms < fastest.result.ms)) {
      fastest = { peer, result: r };
    }
  }
  return fastest;
}

function speedUp(subject, peer) {
  if (subject?.status !== 'ok' || peer?.status !== 'ok') return '—';
  return `${(peer.ms / subject.ms).toFixed(2)}×`;
}

const platformTitle = { native: 'Native', wasm: 'WebAssembly' };
const threadTitle = (threads) => (threads === 1 ? '1 thread'
  : threads === allThreads ? `all ${threads} threads` : `${threads} threads`);
const threadLabel = (threads) =>
  (threads === 1 ? '1T' : threads === allThreads ? 'all-T' : `${threads}T`);
// A Markdown table whose first `text` columns are left-aligned, the others (numbers) right.
const tableLines = (header, rows, text = 2) => [
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < text ? ' --- ' : ' ---: ')).join('|')}|`,
  ...rows.map((row) => `| ${row.join(' | ')} |`),
];

// One table per platform and thread count.
const sections = [];
for (const platform of platforms) {
  const shown = platform.peers.filter((p) => !p.apart);
  for (const threads of platform.threads) {
    const withMelem = platform.subject === native && threads === 1;
    const targets = platform.subject === native ? otherTargets : [];
    const header = ['workload', 'description', `${platform.subject.name} ms`,
                    ...targets.map((t) => `${t.name} ms`), ...shown.map((p) => `${p.name} ms`)];
    if (shown.length > 1) header.push('fastest exact peer', 'speed-up vs fastest');
    if (shown.length === 1) header.push(`speed-up vs ${shown[0].name}`);
    header.push(...targets.map((t) => `${t.target} speed-up`));
    if (withMelem) header.push('Melem/s');
    const rows = table.workloads.map((w) => {
      const key = `${w.id}/${threads}`;
      const subject = platform.subject.results[key];
      const row = [w.id, w.description, cell(subject, platform.subject),
                   ...targets.map((t) => cell(t.results[key], t)),
                   ...shown.map((p) => cell(p.results[key], p))];
      const fastest = fastestExact(platform, key);
      if (shown.length > 1) row.push(fastest?.peer.name ?? '—');
      if (shown.length > 0) row.push(speedUp(subject, fastest?.result));
      row.push(...targets.map((t) => speedUp(t.results[key], fastest?.result)));
      if (withMelem) {
        row.push(subject?.status === 'ok' ? (w.y.elements / subject.ms / 1e3).toFixed(1) : '—');
      }
      return row;
    });
    sections.push('', `### ${platformTitle[platform.name] ?? platform.name}, ${
      threadTitle(threads)}`, '', ...tableLines(header, rows));
  }
}

// The memory-bound workloads against the machine's bandwidth: each call's traffic (X, the grid
// and Y once each) at the speed of the 64 MiB copy on as many threads, against the native
// build's time. Shown for calls of 10 MB or more, where memory can be what bounds them.
const bytesOf = (tensor) => tensor.shape.reduce((a, b) => a * b, 1) *
  ({ float64: 8, float32: 4, float16: 2, bfloat16: 2, uint8: 1, int8: 1 }[tensor.dtype] ?? 4);
const heavy = table.workloads.filter((w) => bytesOf(w.x) + bytesOf(w.grid) + bytesOf(w.y) >= 10e6);
if (heavy.length && native.threads.some((t) => native.results[`memory/${t}`])) {
  const header = ['workload', 'traffic MB', ...native.threads.flatMap((threads) => {
    const label = threadLabel(threads);
    return [`${native.name} ${label} ms`, `limit ${label} ms`, `ratio ${label}`];
  })];
  const rows = heavy.map((w) => {
    const traffic = bytesOf(w.x) + bytesOf(w.grid) + bytesOf(w.y);
    return [w.id, (traffic / 1e6).toFixed(1), ...native.threads.flatMap((threads) => {
      const bandwidth = native.results[`memory/${threads}`]?.bytesPerSecond;
      const r = native.results[`${w.id}/${threads}`];
      const limit = bandwidth ? traffic / bandwidth * 1e3 : undefined;
      return [cell(r, native), limit ? formatMs(limit) : '—',
              limit && r?.status === 'ok' ? `${(r.ms / limit).toFixed(2)}×` : '—'];
    })];
  });
  const speeds = native.threads.map((threads) => {
    const bandwidth = native.results[`memory/${threads}`]?.bytesPerSecond;
    return `${threadTitle(threads)} ${bandwidth ? (bandwidth / 1e9).toFixed(1) : '?'} GB/s`;
  });
  sections.push('', '### The native build against the memory bandwidth', '',
                'Limit = the call\'s traffic (X, the grid and Y, each once) at the bandwidth of a ' +
                `64 MiB memcpy on as many threads (${speeds.join(', ')}, read and written bytes ` +
                'counted); ratio = gridsample ms / limit ms (1: as fast as memory allows).', '',
                ...tableLines(header, rows, 1));
}

// Where the real models' workloads come from.
const sourced = table.workloads.filter((w) => w.source);
if (sourced.length) {
  sections.push('', '### The real models\' workloads', '',
                ...sourced.map((w) => `- ${w.id}: ${w.source}.`));
}

// The package in Node.js: its native backend against its WebAssembly build, fresh outputs.
const packageWasm = platforms.find((p) => p.name === 'wasm')?.subject;
if (packageNative && packageWasm) {
  const threadsShown = [...new Set(packageNative.reports.flatMap((r) => r.thread_counts))]
    .sort((a, b) => a - b);
  const header = ['workload', ...threadsShown.flatMap((threads) => {
    const label = threadLabel(threads);
    return [`wasm ${label} ms`, `native ${label} ms`, `native speed-up ${label}`];
  })];
  // The backends' calls in turns (--pair): per workload and output, each side's fastest round
  // over every run, so that both figures come from the same moments of the host's load.
  const pairs = args.pair.map(readJson);
  const misnamed = pairs.find((p) => p.a.backend !== 'wasm' || p.b.backend !== 'native' ||
                                     p.threads !== 1);
  if (misnamed) {
    console.error('bench_table: a --pair report is not WebAssembly (A) against native (B) on ' +
                  `1 thread: ${JSON.stringify({ a: misnamed.a, b: misnamed.b })}`);
    process.exit(2);
  }
  const outputs = pairs.length ? ['fresh', 'out'] : [];
  header.push(...outputs.map((output) => `native speed-up 1T in turns, ${output}`));
  const inTurns = (id, output) => {
    const rounds = pairs.flatMap((p) => p.results.filter((r) => r.id === id &&
                                                               r.output === output));
    if (!rounds.length) return '—';
    const fastest = (side) => Math.min(...rounds.map((r) => r[side]));
    return `${(fastest('a_min_ms') / fastest('b_min_ms')).toFixed(2)}×`;
  };
  const rows = table.workloads.map((w) => [w.id, ...threadsShown.flatMap((threads) => {
    const key = `${w.id}/${threads}`;
    const [wasm, node] = [packageWasm.results[key], packageNative.results[key]];
    return [cell(wasm, packageWasm), cell(node, packageNative), speedUp(node, wasm)];
  }), ...outputs.map((output) => inTurns(w.id, output))]);
  sections.push('', '### The package in Node.js: its native backend against WebAssembly', '',
                'Speed-up = wasm ms / native ms (above 1: the native backend is faster), fresh ' +
                'outputs; each runner timed on its own. In turns: the two backends\' calls ' +
                'alternating in rounds of 25 ms in one process (scripts/bench_builds.mjs), the ' +
                'fastest round of each; `out`: the output reused.', '',
                ...tableLines(header, rows, 1));
}

// A table per family with variants shown apart: all its variants side by side, on the
// workloads where one of them ran.
for (const family of [...new Set(peers.filter((p) => p.apart).map((p) => p.family))]) {
  const members = peers.filter((p) => p.family === family);
  const platform = platforms.find((p) => p.name === members[0].platform);
  const header = ['workload'];
  for (const threads of platform.threads) {
    const label = threads === 1 ? '1T' : threads === allThreads ? 'all-T' : `${threads}T`;
    header.push(`${platform.subject.name} ${label} ms`,
                ...members.map((p) => `${p.name} ${label} ms`));
  }
  const rows = table.workloads.filter((w) => members.some((p) => Object.values(p.results).some(
    (r) => r.id === w.id && r.status === 'ok'))).map((w) => [w.id,
    ...platform.threads.flatMap((threads) => {
      const key = `${w.id}/${threads}`;
      return [cell(platform.subject.results[key], platform.subject),
              ...members.map((p) => cell(p.results[key], p))];
    })]);
  const counted = members.filter((p) => !p.apart).map((p) => p.name);
  sections.push('', `### ${members[0].name}: its variants`, '',
                `Only ${counted.join(', ') || 'none'} counts as a peer in the tables above; ` +
                'the setup of each variant is in the list at the top.', '',
                ...tableLines(header, rows, 1));
}

// Images as they come (channels-last workloads): gridsample's speed-up over every variant of
// every peer that ran them, those shown apart included, per platform and thread count.
const imageWorkloads = table.workloads.filter((w) => w.layout === 'channels-last');
const imageRows = [];
for (const w of imageWorkloads) {
  for (const platform of platforms) {
    for (const threads of platform.threads) {
      const key = `${w.id}/${threads}`;
      const subject = platform.subject.results[key];
      for (const peer of platform.peers) {
        const r = peer.results[key];
        if (r?.status !== 'ok' || subject?.status !== 'ok') continue;
        imageRows.push([w.id, `${platformTitle[platform.name] ?? platform.name}, ${
          threadTitle(threads)}`, peer.name, cell(subject, platform.subject), cell(r, peer),
                        speedUp(subject, r)]);
      }
    }
  }
}
if (imageRows.length > 0) {
  sections.push('', '### Images as they come: the channels-last workloads against every variant',
                '', `${imageWorkloads.map((w) => `${w.id}: ${w.description}`).join('; ')}. ` +
                'Speed-up = variant ms / gridsample ms, exact or not (≠).', '',
                ...tableLines(['workload', 'platform, threads', 'variant', 'gridsample ms',
                               'variant ms', 'speed-up'], imageRows, 3));
}

// Agreement: each runner's largest |difference| from gridsample's native output, per workload
// (the round and thread count the table shows at 1 thread, else the first that ran).
const runners = [...ours.slice(1), ...peers];
const agreement = runners.map((runner) => {
  const parts = table.workloads.map((w) => {
    const candidates = [runner.results[`${w.id}/1`], ...Object.values(runner.results).filter(
      (x) => x.id === w.id)];
    const r = candidates.find((x) => x?.status === 'ok' && x.exact !== undefined);
    if (!r) return `${w.id} —`;
    return `${w.id} ${Number(r.max_abs_diff).toPrecision(2)}${r.exact ? '' : ` ${INEXACT}`}`;
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
               ...runners.filter((r) => !r.apart)
                 .map((r) => `${r.name} ${load(r.reports, (x) => x.load_avg)}`)];
const rounds = nativeReports.length;
const statText = args.stat === 'min' ? 'fastest' : 'median';
const dtypes = [...new Set(table.workloads.map((w) => w.y.dtype))];
const lines = [
  '# gridsample benchmark',
  '',
  `- Date: ${ctx.date ?? new Date().toISOString()}`,
  `- CPU: ${cpuModel}; ${ctx.num_cpus ?? os.cpus().length} logical CPUs${cores}; ` +
    `1-minute load average at the start of each round: ${loads.join('; ')}`,
  `- gridsample (native): ${ctx.compiler ?? '?'}, ${ctx.build_type ?? '?'}, ` +
    `flags \`${ctx.build_flags ?? '?'}\`; Highway target${nativeTargets.length > 1 ? 's' : ''} ` +
    `${nativeTargets.map((t) => t.target).join(', ')} ` +
    `(this CPU runs: ${ctx.highway_targets_available ?? '?'}); Google Benchmark, wall time, ` +
    `${statText} of the repetitions`,
  ...runners.map((r) => `- ${r.label}: ${r.reports[0].setup ?? '?'}` + (r.apart ? '' :
    `; ${r.reports[0].method}, of which the tables show the ${statText}`)),
  `- Threads: all = ${allThreads} threads (all hardware threads). ` +
    (rounds > 1 ? `Each cell is the best of ${rounds} rounds (the runners alternate). ` : '') +
    'Speed-up = peer ms / gridsample ms on the same platform, against the fastest peer whose ' +
    'output is exact: native peers against the native build, wasm peers against the ' +
    'WebAssembly build (above 1: gridsample is faster). Melem/s = output elements per second.',
  `- Exact: within ${dtypes.map((d) => `${toleranceOf(d)} (${d})`).join(', ')} of gridsample's ` +
    `native output at every element; ${INEXACT} marks a time whose output is not, which never ` +
    'counts as the fastest exact peer.',
  ...sections,
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
  lines.push('', `### ${subject.name}: a fresh output per call (as above) against \`out\` ` +
             'reused (both from the same round)', '', `| ${head.join(' | ')} |`,
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
