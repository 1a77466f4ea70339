// Times gridsample/webgpu against onnxruntime-web's WebGPU execution provider on the same
// adapter and the same GPUDevice, and against the package's own WebAssembly path, on the
// benchmark workloads W1-W6, in headless Chromium. Usage:
//
//   node scripts/bench_webgpu.mjs --data DIR [--adapter swiftshader|gpu] [--chromium PATH]
//       [--browser-arg ARG]... [--out FILE] [--min-time 0.5] [--min-runs 5] [--max-runs 10000]
//       [--warmup 2] [--warmup-time 1] [--filter REGEX]
//
// DIR is what `gridsample_workloads --write DIR` made (scripts/bench_ort.mjs); --filter keeps the
// workloads whose id matches (default ^W[1-6]$). --adapter swiftshader (the default) gives
// Chromium --use-webgpu-adapter=swiftshader: SwiftShader is a CPU emulation of a GPU, so its
// ratios show how much work each kernel does, not how fast a GPU runs it. --adapter gpu leaves
// the choice to Chromium (requestAdapter({ powerPreference: 'high-performance' })), for a real
// GPU; --browser-arg adds what that machine's Chromium needs (e.g. --enable-features=Vulkan).
//
// The page (served on localhost with cross-origin isolation, so the wasm path has its threads)
// requests one device on the adapter and gives it to onnxruntime-web (its WebGPU EP's `device`
// option, ort.webgpu.min.mjs), so both run on the same queue. Per workload, X and the grid are
// uploaded once, and each side is timed from the call to the completion of its GPU work (the
// call, then `await device.queue.onSubmittedWorkDone()`), with a fresh Y per call as its users
// get it: gridsample/webgpu's gridSample on { buffer, dims, type } tensors, and a session of a
// one-node opset 19 model (web/onnx_model.mjs: the last opset the EP's 4-D kernel takes; from 20
// on the node falls back to the CPU) run on Tensor.fromGpuBuffer inputs with
// preferredOutputLocation 'gpu-buffer'. The wasm path is gridsample's gridSample on the same
// tensors on the CPU, on the page's threads (init()'s default), synchronous. Each timing is
// scripts/bench_common.mjs's timeRuns, run in the page (warm-up runs, then samples of batches
// lasting about 1 ms; the median is reported). Each side's Y (read back once) is compared with
// gridsample's native one.
//
// Prints a Markdown table (and writes it to --out) naming the adapter, the browser, the machine
// and the method; progress goes to stderr.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { methodText, parseRunnerArgs, readWorkloads, timeRuns } from './bench_common.mjs';
import { serve } from './serve.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = parseRunnerArgs({
  adapter: { type: 'string', default: 'swiftshader' },
  chromium: { type: 'string', default: process.env.GRIDSAMPLE_CHROMIUM || '/usr/bin/chromium' },
  'browser-arg': { type: 'string', multiple: true, default: [] },
}, 'node scripts/bench_webgpu.mjs --data DIR [--adapter swiftshader|gpu] [--chromium PATH] ' +
   '[--browser-arg ARG]... [--out FILE]');
const tag = 'bench_webgpu';
const ADAPTERS = {
  swiftshader: ['--use-webgpu-adapter=swiftshader'],
  gpu: [],
};
if (!ADAPTERS[args.adapter]) {
  console.error(`${tag}: --adapter must be swiftshader or gpu, not ${args.adapter}`);
  process.exit(2);
}
for (const file of [args.chromium, path.join(repo, 'dist', 'webgpu.js')]) {
  if (!fs.existsSync(file)) {
    console.error(`${tag}: no ${file} (the chromium package; scripts/build_wasm.sh)`);
    process.exit(1);
  }
}
const table = readWorkloads(args.data, args.filter ?? '^W[1-6]$');

// ONNX GridSample before opset 20, the EP's 4-D kernel, has opset 16's mode names.
const OPSET_16_MODE = { linear: 'bilinear', nearest: 'nearest', cubic: 'bicubic' };

// Runs in the page: every workload on both GPU paths and the wasm path. Each Y, read back once
// after the timings, is compared with the native one.
async function benchmark({ workloads, timing, powerPreference, opset16Mode }) {
  const [{ timeRuns: time }, webgpu, wasm, ort, { gridSampleModel }, { maxAbsDifference }] =
      await Promise.all(['/timing.mjs', '/gridsample/webgpu.js', '/gridsample/index.js',
                         '/ort/ort.webgpu.min.mjs', '/web/onnx_model.mjs', '/web/tensors.mjs']
                            .map((url) => import(url)));
  const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, STORAGE: 0x80 };
  await wasm.init();
  const adapter = await navigator.gpu?.requestAdapter({ powerPreference });
  if (!adapter) return { error: 'no WebGPU adapter' };
  // The adapter's largest buffers, for the largest workloads' tensors.
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: { maxBufferSize, maxStorageBufferBindingSize },
  });
  const gpuErrors = [];
  device.addEventListener('uncapturederror', (event) => gpuErrors.push(event.error.message));
  ort.env.wasm.numThreads = 1;  // its CPU side only schedules the GPU's work
  const { vendor, architecture, device: name, description } = adapter.info;

  const upload = (data) => {
    const buffer = device.createBuffer({ size: Math.ceil(data.byteLength / 4) * 4,
                                         usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST });
    device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
    return buffer;
  };
  const download = async (buffer, Array_, length) => {
    const size = Math.ceil((length * Array_.BYTES_PER_ELEMENT) / 4) * 4;
    const read = device.createBuffer({ size, usage: USAGE.MAP_READ | USAGE.COPY_DST });
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, read, 0, size);
    device.queue.submit([encoder.finish()]);
    await read.mapAsync(USAGE.MAP_READ);
    const data = new Array_(read.getMappedRange().slice(0), 0, length);
    read.destroy();
    return data;
  };
  const done = () => device.queue.onSubmittedWorkDone();
  const fetchTensor = async (w, name) => {
    const bytes = await (await fetch(`/data/${w.files[name]}`)).arrayBuffer();
    return { data: new Float32Array(bytes), dims: w[name].shape, type: w[name].dtype };
  };
  // A timing of `run`, or n/a with the first line of its error.
  const timed = async (run) => {
    try {
      return await time(run, timing);
    } catch (error) {
      return { status: 'n/a', reason: String(error?.message ?? error).split('\n')[0] };
    }
  };

  const results = [];
  for (const w of workloads) {
    const [x, grid, expected] = await Promise.all(['x', 'grid', 'y'].map((n) => fetchTensor(w, n)));
    const options = { mode: w.mode, paddingMode: w.padding_mode,
                      alignCorners: Boolean(w.align_corners), layout: w.layout };
    const xGpu = { buffer: upload(x.data), dims: x.dims, type: x.type };
    const gridGpu = { buffer: upload(grid.data), dims: grid.dims, type: grid.type };
    const length = expected.data.length;
    const diffOf = (y) => maxAbsDifference(y, expected.data);
    const row = { id: w.id };

    row.gpu = await timed(async () => {
      webgpu.gridSample(xGpu, gridGpu, { device, ...options }).buffer.destroy();
      await done();
    });
    if (row.gpu.status === 'ok') {
      const y = webgpu.gridSample(xGpu, gridGpu, { device, ...options });
      row.gpu.max_abs_diff = diffOf(await download(y.buffer, Float32Array, length));
      y.buffer.destroy();
    }

    if (x.dims.length !== 4) {
      row.ort = { status: 'n/a', reason: `${x.dims.length}-D X: ONNX GridSample before opset ` +
                                         "20 (the WebGPU EP's kernel) is 4-D only" };
    } else {
      let session;
      try {
        const model = gridSampleModel({ type: 'float32', mode: opset16Mode[w.mode],
                                        paddingMode: w.padding_mode,
                                        alignCorners: options.alignCorners, opset: 19 });
        session = await ort.InferenceSession.create(model, {
          executionProviders: [{ name: 'webgpu', device }],
          preferredOutputLocation: 'gpu-buffer', graphOptimizationLevel: 'all',
          logSeverityLevel: 4,
          // A node without a WebGPU kernel fails the session instead of running on the CPU.
          extra: { session: { disable_cpu_ep_fallback: '1' } },
        });
        const feeds = {
          X: ort.Tensor.fromGpuBuffer(xGpu.buffer, { dataType: 'float32', dims: x.dims }),
          grid: ort.Tensor.fromGpuBuffer(gridGpu.buffer, { dataType: 'float32', dims: grid.dims }),
        };
        row.ort = await timed(async () => {
          const { Y } = await session.run(feeds);
          await done();
          Y.dispose();
        });
        if (row.ort.status === 'ok') {
          const { Y } = await session.run(feeds);
          row.ort.max_abs_diff = diffOf(await download(Y.gpuBuffer, Float32Array, length));
          Y.dispose();
        }
      } catch (error) {
        row.ort = { status: 'n/a', reason: String(error?.message ?? error).split('\n')[0] };
      } finally {
        await session?.release();
      }
    }

    row.wasm = await timed(() => wasm.gridSample(x, grid, options));
    if (row.wasm.status === 'ok') {
      row.wasm.max_abs_diff = diffOf(wasm.gridSample(x, grid, options).data);
    }
    xGpu.buffer.destroy();
    gridGpu.buffer.destroy();
    results.push(row);
    console.log(`${w.id}: ${JSON.stringify(row)}`);  // progress, relayed to stderr
  }
  return {
    adapter: { vendor, architecture, device: name, description,
               fallback: adapter.info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? null },
    ort: ort.env.versions?.web, threads: wasm.numThreads(), isolated: self.crossOriginIsolated,
    gpuErrors, results,
  };
}

const { server } = await serve({
  '/gridsample/': path.join(repo, 'dist'),
  '/ort/': path.join(repo, 'node_modules', 'onnxruntime-web', 'dist'),
  '/web/': path.join(repo, 'web'),
  '/data/': args.data,
}, {});
const origin = `http://localhost:${server.address().port}`;
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: args.chromium, headless: true,
  args: ['--no-sandbox', '--headless', '--enable-unsafe-webgpu', ...ADAPTERS[args.adapter],
         '--disable-background-networking', '--disable-component-update', '--no-first-run',
         '--disable-sync', ...args['browser-arg']],
});
let report;
try {
  const page = await browser.newPage();
  page.on('console', (message) => console.error(`${tag}: page: ${message.text()}`));
  // The page's HTML, and bench_common's timeRuns as a module of the page: the same timing loop
  // as the other runners'. Both with the server's cross-origin isolation.
  const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin',
                      'Cross-Origin-Embedder-Policy': 'require-corp' };
  await page.route(`${origin}/bench.html`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8', headers: isolation,
    body: '<!doctype html><meta charset="utf-8"><title>bench_webgpu</title>',
  }));
  await page.route(`${origin}/timing.mjs`, (route) => route.fulfill({
    contentType: 'text/javascript', headers: isolation,
    body: `import { median } from '/web/tensors.mjs';\nexport ${timeRuns}\n`,
  }));
  await page.goto(`${origin}/bench.html`);
  const loadAverage = os.loadavg();
  report = await page.evaluate(benchmark, {
    workloads: table.workloads, timing: args.timing, opset16Mode: OPSET_16_MODE,
    powerPreference: args.adapter === 'gpu' ? 'high-performance' : undefined,
  });
  report.browser = `Chromium ${browser.version()}`;
  report.loadAverage = loadAverage;
} finally {
  await browser.close();
  server.close();
}
if (report.error) {
  console.error(`${tag}: ${report.error} (--adapter ${args.adapter})`);
  process.exit(1);
}
if (report.gpuErrors.length > 0) {
  console.error(`${tag}: the device reported errors: ${report.gpuErrors.join('; ')}`);
  process.exit(1);
}

const ms = (result) => (result.status === 'ok' ? result.ms.toFixed(2) : 'n/a');
const times = (slow, fast) => (slow.status === 'ok' && fast.status === 'ok' ?
    `${(slow.ms / fast.ms).toFixed(2)}×` : '–');
const diff = (result) => (result.status === 'ok' ? result.max_abs_diff.toExponential(1) : '–');
const shape = (w) => `${w.x.shape.join('×')} → ${w.y.shape.join('×')} ${w.mode} ` +
                     `${w.padding_mode}${w.align_corners ? ' align' : ''}`;
const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
const { adapter } = report;
const cpu = os.cpus();
const swiftshader = args.adapter === 'swiftshader';
const lines = [
  `## gridsample/webgpu against onnxruntime-web's WebGPU EP, on one adapter`,
  '',
  `Adapter: ${[adapter.vendor, adapter.architecture, adapter.device, adapter.description]
      .filter(Boolean).join(', ')}${adapter.fallback ? ' (a fallback adapter)' : ''} ` +
      `(--adapter ${args.adapter}). ${report.browser}, headless; ${cpu[0]?.model ?? 'a CPU'}, ` +
      `${cpu.length} hardware threads, load average ${report.loadAverage[0].toFixed(2)} at the ` +
      'start.',
  '',
  ...(swiftshader ? [
    '**SwiftShader is a CPU emulation of a GPU**: these ratios show how much work each kernel ' +
    'does, not how fast a GPU runs it. `--adapter gpu` measures a real one.',
    '',
  ] : []),
  `gridsample ${version} (dist/, \`gridSample\` of gridsample/webgpu, and of gridsample on ` +
  `${report.threads} thread${report.threads === 1 ? '' : 's'}); onnxruntime-web ${report.ort} ` +
  '(its WebGPU EP, a one-node opset 19 model, the same device, GPU tensors in and out). Each ' +
  'GPU call timed to the completion of its work (`await device.queue.onSubmittedWorkDone()`), ' +
  `a fresh Y per call on every side; ${methodText(args.timing)}; medians. ×: how many times ` +
  "as fast gridsample/webgpu is as the other. |diff|: the largest difference from gridsample's " +
  'native Y.',
  '',
  '| workload | shape | gridsample/webgpu ms | onnxruntime-web WebGPU ms | × | gridsample wasm ms ' +
  '| × | \\|diff\\| webgpu, ort-web, wasm |',
  '|---|---|--:|--:|--:|--:|--:|---|',
];
for (const row of report.results) {
  const w = table.workloads.find((workload) => workload.id === row.id);
  lines.push(`| ${row.id} | ${shape(w)} | ${ms(row.gpu)} | ${ms(row.ort)} | ` +
             `${times(row.ort, row.gpu)} | ${ms(row.wasm)} | ${times(row.wasm, row.gpu)} | ` +
             `${diff(row.gpu)}, ${diff(row.ort)}, ${diff(row.wasm)} |`);
}
const notes = report.results.flatMap((row) => ['gpu', 'ort', 'wasm']
    .filter((side) => row[side].status !== 'ok')
    .map((side) => `- ${row.id}, ${side}: ${row[side].reason}`));
const text = `${[...lines, ...(notes.length ? ['', ...notes] : [])].join('\n')}\n`;
process.stdout.write(text);
if (args.out) fs.writeFileSync(args.out, text);
