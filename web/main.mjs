// The demo page: reads the controls, makes X from the image and the grid from the warp, runs
// gridsample and onnxruntime-web on the same tensors, draws both outputs and shows the median
// time per call and the largest difference. Where the browser has a WebGPU adapter, a switch
// runs gridsample on the GPU too (gridsample/webgpu, imported only then): the GPU's Y is drawn,
// and both of gridsample's times are shown. The packages are imported by their bare names (the
// import map of index.html), as a page of a user would.
//
// Renders run one at a time; while nothing changes, the page keeps calling both engines on the
// last inputs until it has RECENT_CALLS timings of each, so the medians settle without a
// button. window.demo is a small hook for the browser test (tests/js/demo.test.mjs).
import { affineGrid, gridSample, init, numThreads } from 'gridsample';
import * as ort from 'onnxruntime-web';

import { gridSampleModel } from './onnx_model.mjs';
import { drawSampleImage } from './sample_image.mjs';
import {
  DATA_TYPES, imageToTensor, layoutOf, maxAbsDifference, median, tensorToImage,
} from './tensors.mjs';
import { WARPS, affineTheta, makeGrid, warpParams } from './warps.mjs';

const RECENT_CALLS = 15;  // timings kept per engine for the current sizes, types and attributes
const MAX_INPUT_SIDE = 4096;  // larger images are scaled down when loaded
const MAX_OUTPUT_SIDE = 4096;

const $ = (id) => document.getElementById(id);
const form = $('controls');

// ---------------------------------------------------------------------------------------------
// The source image and its tensors.

let source = null;  // { id, name, width, height, rgba, tensors: Map(type → X) }

function setSource(canvas, name) {
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  source = { id: (source?.id ?? 0) + 1, name, width, height, rgba, tensors: new Map() };
  const preview = $('source-preview');
  const scale = Math.min(1, 480 / Math.max(width, height));
  preview.width = Math.max(1, Math.round(width * scale));
  preview.height = Math.max(1, Math.round(height * scale));
  preview.getContext('2d').drawImage(canvas, 0, 0, preview.width, preview.height);
  $('source-caption').textContent = `${name}, ${width} × ${height}`;
  return requestRender();
}

function inputTensor(type) {
  if (!source.tensors.has(type)) {
    source.tensors.set(type, imageToTensor(source.rgba, source.width, source.height, type));
  }
  return source.tensors.get(type);
}

async function loadFile(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (error) {
    showStatus(`Cannot read ${file.name} as an image: ${error.message}`);
    return;
  }
  const scale = Math.min(1, MAX_INPUT_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const scaled = scale < 1 ? ` (scaled down from ${bitmap.width} × ${bitmap.height})` : '';
  bitmap.close();
  await setSource(canvas, `${file.name}${scaled}`);
}

// ---------------------------------------------------------------------------------------------
// The controls.

function paramBlock(warp) {
  return $('warp-params').querySelector(`[data-warp="${warp}"]`);
}

function buildWarpControls() {
  for (const [warp, { label, params }] of Object.entries(WARPS)) {
    $('warp').add(new Option(label, warp));
    const block = document.createElement('div');
    block.dataset.warp = warp;
    for (const param of params) {
      const row = document.createElement('label');
      row.className = 'field';
      const name = document.createElement('span');
      name.textContent = param.label;
      const input = document.createElement('input');
      input.type = param.input ?? 'range';
      Object.assign(input, { min: param.min, max: param.max, step: param.step });
      input.value = param.value;
      input.dataset.param = param.name;
      input.dataset.default = param.value;
      row.append(name, input);
      if (input.type === 'range') row.append(document.createElement('output'));
      block.append(row);
    }
    $('warp-params').append(block);
  }
}

// Shows the chosen warp's parameters and the sliders' values.
function syncControls() {
  const warp = $('warp').value;
  for (const block of $('warp-params').children) block.hidden = block.dataset.warp !== warp;
  $('new-seed').hidden = warp !== 'elastic';
  for (const output of $('warp-params').querySelectorAll('output')) {
    output.textContent = output.previousElementSibling.value;
  }
}

function readSettings() {
  const warp = $('warp').value;
  const params = {};
  for (const input of paramBlock(warp).querySelectorAll('input')) {
    params[input.dataset.param] = Number(input.value);
  }
  return {
    warp, params, mode: $('mode').value, padding: $('padding').value,
    alignCorners: $('align-corners').checked, outputSize: Number($('output-size').value),
    type: form.elements.type.value, gpu: gpu !== null && $('gpu').checked,
  };
}

// Sets the controls from (part of) a settings object like readSettings' result.
function writeSettings(settings) {
  const { warp = $('warp').value, params = {}, mode, padding, alignCorners, outputSize, type,
          gpu: onTheGpu } = settings;
  if (onTheGpu && gpu === null) throw new RangeError('gpu: this browser has no WebGPU adapter');
  warpParams(warp, params);  // throws on an unknown warp or parameter
  const choose = (select, value, what) => {
    if (value === undefined) return;
    if (![...select.options].some((option) => option.value === value)) {
      throw new RangeError(`${what} must be one of ${[...select.options].map((o) => o.value)}, ` +
                           `got ${JSON.stringify(value)}`);
    }
    select.value = value;
  };
  $('warp').value = warp;
  for (const [name, value] of Object.entries(params)) {
    paramBlock(warp).querySelector(`[data-param="${name}"]`).value = value;
  }
  choose($('mode'), mode, 'mode');
  choose($('padding'), padding, 'padding');
  if (alignCorners !== undefined) $('align-corners').checked = Boolean(alignCorners);
  if (outputSize !== undefined) $('output-size').value = outputSize;
  if (onTheGpu !== undefined) $('gpu').checked = Boolean(onTheGpu);
  if (type !== undefined) {
    const radio = form.querySelector(`input[name="type"][value="${type}"]`);
    if (!radio) {
      throw new RangeError(`type must be one of ${DATA_TYPES.join(', ')}, got ` +
                           JSON.stringify(type));
    }
    radio.checked = true;
  }
  syncControls();
}

// Output width and height: `size` on the long side, the source's aspect ratio.
function outputDims(size) {
  if (!Number.isInteger(size) || size < 1 || size > MAX_OUTPUT_SIDE) {
    throw new RangeError(`output size must be a whole number from 1 to ${MAX_OUTPUT_SIDE}, ` +
                         `got ${$('output-size').value || 'nothing'}`);
  }
  const { width, height } = source;
  return width >= height ? [size, Math.max(1, Math.round((size * height) / width))]
                         : [Math.max(1, Math.round((size * width) / height)), size];
}

// ---------------------------------------------------------------------------------------------
// The two engines.

let grid = { key: null, tensor: null };  // the last grid, remade when the warp or size changes

// What one render computes from: the tensors, the attributes, and the key its timings go by.
function prepareJob(settings) {
  const [width, height] = outputDims(settings.outputSize);
  const params = warpParams(settings.warp, settings.params);
  const gridKey = JSON.stringify([settings.warp, params, width, height, settings.alignCorners]);
  if (grid.key !== gridKey) {
    // The affine warp's grid is ONNX AffineGrid's, from the package; the others are made here.
    const tensor = settings.warp === 'affine'
      ? affineGrid({ data: Float32Array.from(affineTheta(params, width, height)), dims: [1, 2, 3] },
                   [1, 1, height, width], { alignCorners: settings.alignCorners })
      : { data: makeGrid(settings.warp, params, width, height, settings.alignCorners),
          dims: [1, height, width, 2], type: 'float32' };
    grid = { key: gridKey, tensor };
  }
  const x = inputTensor(settings.type);
  return {
    settings, x, grid: grid.tensor, xKey: JSON.stringify([source.id, settings.type]), gridKey,
    options: { mode: settings.mode, paddingMode: settings.padding,
               alignCorners: settings.alignCorners, layout: layoutOf(settings.type) },
    timingKey: JSON.stringify([source.id, settings.type, settings.mode, settings.padding,
                               settings.alignCorners, width, height]),
  };
}

// On `threads` threads at most: all of the page's for the figure beside onnxruntime-web's (which
// gets as many), 1 for the figure that shows what the others gain. (A call of more than 1 runs
// on 1 where its first calls measured that faster: then the gain shown is about 1.)
function runGridSample(job, threads) {
  const options = { ...job.options, numThreads: threads };
  const start = performance.now();
  const y = gridSample(job.x, job.grid, options);
  return { y, ms: performance.now() - start };
}

// One session per type and attributes; a case onnxruntime-web rejects keeps its message.
const sessions = new Map();
function ortSession({ type, mode, padding, alignCorners }) {
  const key = JSON.stringify([type, mode, padding, alignCorners]);
  if (!sessions.has(key) && layoutOf(type) === 'channels-last') {
    sessions.set(key, Promise.resolve({
      error: 'ONNX GridSample takes NCHW tensors, not interleaved RGBA bytes (choose float32 ' +
             'NCHW to compare)',
    }));
  }
  if (!sessions.has(key)) {
    const model = gridSampleModel({ type, mode, paddingMode: padding, alignCorners });
    // Its own log would repeat a refusal on the console; the page shows it instead.
    sessions.set(key, ort.InferenceSession
        .create(model, { executionProviders: ['wasm'], logSeverityLevel: 4 })
        .then((session) => ({ session }), (error) => ({ error: String(error.message ?? error) })));
  }
  return sessions.get(key);
}

async function runOrt(job, session) {
  const start = performance.now();
  const { Y } = await session.run({
    X: new ort.Tensor(job.x.type, job.x.data, job.x.dims),
    grid: new ort.Tensor('float32', job.grid.data, job.grid.dims),
  });
  const ms = performance.now() - start;
  return { y: { data: Y.data, dims: Y.dims, type: Y.type }, ms };
}

// ---------------------------------------------------------------------------------------------
// gridsample on the GPU, where the browser has a WebGPU adapter.

// { device, webgpu (gridsample/webgpu's exports), name (the adapter's) }, or null.
let gpu = null;
const onGpu = new Map();  // 'x' and 'grid' → { key, tensor }: their last upload

async function startGpu() {
  const adapter = await navigator.gpu?.requestAdapter();
  if (!adapter) return null;
  // The adapter's largest buffers: a float32 image of 4096 × 4096 exceeds the default limits.
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  const [device, webgpu] = await Promise.all([
    adapter.requestDevice({ requiredLimits: { maxBufferSize, maxStorageBufferBindingSize } }),
    import('gridsample/webgpu'),
  ]);
  device.addEventListener('uncapturederror', (event) => showStatus(
      `WebGPU: ${event.error.message}`));
  const { vendor, architecture, description } = adapter.info;
  const name = [vendor, architecture, description].filter(Boolean).join(' ') || 'an adapter';
  return { device, webgpu, name };
}

// The tensor { buffer, dims, type } of `tensor` on the GPU, uploaded once per key (X per image
// and type, the grid per warp and size); a new upload frees the slot's last one.
function gpuTensor(slot, key, { data, dims, type }) {
  const held = onGpu.get(slot);
  if (held?.key === key) return held.tensor;
  held?.tensor.buffer.destroy();
  // Buffers hold whole 4-byte words.
  const bytes = new Uint8Array(Math.max(4, Math.ceil(data.byteLength / 4) * 4));
  bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  const buffer = gpu.device.createBuffer({
    size: bytes.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  gpu.device.queue.writeBuffer(buffer, 0, bytes);
  const tensor = { buffer, dims, type };
  onGpu.set(slot, { key, tensor });
  return tensor;
}

// One call on the GPU, timed from the call to the end of its GPU work (uploads finish first):
// { y: { buffer, dims, type }, ms }.
async function runOnGpu(job) {
  const x = gpuTensor('x', job.xKey, job.x);
  const grid = gpuTensor('grid', job.gridKey, job.grid);
  await gpu.device.queue.onSubmittedWorkDone();
  const start = performance.now();
  const y = gpu.webgpu.gridSample(x, grid, { device: gpu.device, ...job.options });
  await gpu.device.queue.onSubmittedWorkDone();
  return { y, ms: performance.now() - start };
}

// Y of the GPU as the CPU API gives it: { data (in X's array type), dims, type }; its buffer is
// freed.
async function readBack(y, Array_) {
  const length = y.dims.reduce((a, b) => a * b, 1);
  const byteLength = length * Array_.BYTES_PER_ELEMENT;
  const read = gpu.device.createBuffer({
    size: Math.max(4, Math.ceil(byteLength / 4) * 4),
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = gpu.device.createCommandEncoder();
  encoder.copyBufferToBuffer(y.buffer, 0, read, 0, read.size);
  gpu.device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const data = new Array_(read.getMappedRange().slice(0, byteLength));
  read.destroy();
  y.buffer.destroy();
  return { data, dims: y.dims, type: y.type };
}

// ---------------------------------------------------------------------------------------------
// Rendering, timing and the figures.

// gridsample: on all of the page's threads; single: on 1 thread, timed where the page has more,
// to show what they gain.
// gpu: gridsample on the GPU, where the switch is on.
const noTimings = (key) => ({ key, gridsample: [], single: [], gpu: [], ort: [] });
let timings = noTimings(null);
// The last render: { job, y (the GPU's where it ran), ortY, ortError, maxDiff (between
// gridsample's WebAssembly Y and onnxruntime-web's), gpuDiff (between the GPU's Y and
// WebAssembly's) }
let last = null;

function record(engine, ms) {
  const recent = timings[engine];
  recent.push(ms);
  if (recent.length > RECENT_CALLS) recent.shift();
}

// Y's pixels on the canvas; channels-last RGBA Y is an ImageData's data as it is.
function draw(canvas, y, layout) {
  const [height, width] = layout === 'channels-last' ? y.dims.slice(1, 3) : y.dims.slice(2);
  canvas.width = width;
  canvas.height = height;
  canvas.classList.toggle('small', width < 400);
  canvas.getContext('2d').putImageData(new ImageData(tensorToImage(y, layout), width, height),
                                       0, 0);
}

async function renderOnce() {
  const job = prepareJob(readSettings());
  if (timings.key !== job.timingKey) timings = noTimings(job.timingKey);
  const result = { job };
  const ours = runGridSample(job, numThreads());
  record('gridsample', ours.ms);
  result.y = ours.y;
  if (job.settings.gpu) {
    const { y, ms } = await runOnGpu(job);
    record('gpu', ms);
    result.y = await readBack(y, ours.y.data.constructor);
    result.gpuDiff = maxAbsDifference(result.y.data, ours.y.data);
  }
  draw($('gridsample-canvas'), result.y, job.options.layout);
  if (numThreads() > 1) record('single', runGridSample(job, 1).ms);
  last = result;
  showFigures();  // ours shows while onnxruntime-web loads or runs

  const { session, error } = await ortSession(job.settings);
  if (error) {
    result.ortError = error;
  } else {
    try {
      const theirs = await runOrt(job, session);
      record('ort', theirs.ms);
      result.ortY = theirs.y;
      result.maxDiff = maxAbsDifference(ours.y.data, theirs.y.data);
      draw($('ort-canvas'), theirs.y, job.options.layout);
    } catch (failure) {
      result.ortError = String(failure.message ?? failure);
    }
  }
  result.ortDone = true;
  showFigures();
}

// The engines timed for the last render: gridsample, on 1 thread too where the page has more
// and on the GPU where the switch is on, and onnxruntime-web unless it refused the case.
function timedEngines() {
  return ['gridsample', ...(numThreads() > 1 ? ['single'] : []),
          ...(last.job.settings.gpu ? ['gpu'] : []), ...(last.ortError ? [] : ['ort'])];
}

// One more timed call, on the last render's tensors, of the engine with the fewest recent
// timings.
async function timeOnce() {
  const { job } = last;
  const engine = timedEngines().reduce((a, b) => (timings[b].length < timings[a].length ? b : a));
  if (engine === 'ort') {
    record('ort', (await runOrt(job, (await ortSession(job.settings)).session)).ms);
  } else if (engine === 'gpu') {
    const { y, ms } = await runOnGpu(job);
    y.buffer.destroy();
    record('gpu', ms);
  } else {
    record(engine, runGridSample(job, engine === 'single' ? 1 : numThreads()).ms);
  }
  showFigures();
}

function wantsMoreTimings() {
  if (!last?.ortDone || timings.key !== last.job.timingKey) return false;
  return timedEngines().some((engine) => timings[engine].length < RECENT_CALLS);
}

function formatMs(ms) {
  if (Number.isNaN(ms)) return '…';
  return `${ms < 1 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
}

function showFigures() {
  const { job, y, ortError, ortDone, maxDiff } = last;
  const shapes = `${job.x.type} [${job.x.dims.join(', ')}] → [${y.dims.join(', ')}]` +
                 (job.options.layout === 'channels-last' ? ' (channels-last)' : '');
  const ours = median(timings.gridsample);
  const theirs = median(timings.ort);
  const calls = (n) => `median of ${n} call${n === 1 ? '' : 's'}`;
  $('gridsample-time').textContent = formatMs(ours);
  $('gridsample-detail').textContent = `${calls(timings.gridsample.length)} · ${shapes}`;
  const single = median(timings.single);
  $('gridsample-threads').hidden = numThreads() === 1;
  $('gridsample-threads').textContent = timings.single.length === 0 ? '' :
      `on 1 thread ${formatMs(single)} (${calls(timings.single.length)}): ` +
      `up to ${numThreads()} threads are ${(single / ours).toFixed(2)}× as fast`;
  $('gridsample-gpu').hidden = !job.settings.gpu;
  if (job.settings.gpu) {
    const onGpuMs = median(timings.gpu);
    $('gridsample-gpu').textContent =
        `on the GPU (${gpu.name}) ${formatMs(onGpuMs)} to the end of its work ` +
        `(${calls(timings.gpu.length)}), drawn above; WebAssembly ${formatMs(ours)}: the GPU is ` +
        `${(ours / onGpuMs).toFixed(2)}× as fast; largest |difference| between their outputs: ` +
        `${last.gpuDiff === 0 ? '0' : last.gpuDiff.toExponential(2)}`;
  }

  $('ort-canvas').hidden = Boolean(ortError);
  $('ort-unavailable').hidden = !ortError;
  if (ortError) {
    $('ort-time').textContent = 'n/a';
    $('ort-unavailable').textContent = `onnxruntime-web cannot run this case: ${ortError}`;
    $('ort-detail').textContent = shapes;
    $('summary').textContent =
        `No comparison for ${job.x.type}${job.options.layout === 'channels-last' ? ' RGBA' : ''} ` +
        `${job.options.mode}: onnxruntime-web refuses it.`;
    return;
  }
  $('ort-time').textContent = ortDone ? formatMs(theirs) : 'loading…';
  $('ort-detail').textContent = `${calls(timings.ort.length)} · ${shapes}`;
  if (!ortDone) {
    $('summary').textContent = 'Waiting for onnxruntime-web…';
    return;
  }
  const faster = ours <= theirs ? 'gridsample' : 'onnxruntime-web';
  const ratio = Math.max(ours, theirs) / Math.min(ours, theirs);
  const speed = Number.isFinite(ratio) ? `${faster} is ${ratio.toFixed(1)}× as fast here` :
                'too fast to time';
  const difference = maxDiff === 0 ? '0, identical outputs' : `${maxDiff.toExponential(2)} ` +
                                                             '(the values run from 0 to 1)';
  $('summary').textContent =
      `${speed}; largest |difference| between the two outputs: ${difference}.`;
}

function showStatus(message) {
  $('status').textContent = message;
}

// Renders run one after another: a change during a render makes one more render, not one per
// event. Each request resolves (or rejects) once a render has used the controls as they
// were when it was made.
let wanted = 0;
let rendered = 0;
let running = false;
const waiters = [];

function requestRender() {
  wanted += 1;
  const promise = new Promise((resolve, reject) => {
    waiters.push({ until: wanted, resolve, reject });
  });
  pump();
  return promise;
}

function settle(generation, error) {
  for (let i = waiters.length - 1; i >= 0; --i) {
    if (waiters[i].until > generation) continue;
    const [waiter] = waiters.splice(i, 1);
    if (error) waiter.reject(error);
    else waiter.resolve();
  }
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// For the page's own event handlers: a failed render has already said why in the status line.
const quietly = (promise) => promise.catch(() => {});

async function pump() {
  if (running || !gridsampleReady) return;
  running = true;
  try {
    for (;;) {
      if (rendered < wanted) {
        const generation = wanted;
        try {
          await renderOnce();
          showStatus('');
          settle(generation);
        } catch (error) {
          showStatus(error.message);
          settle(generation, error);
        }
        rendered = generation;
      } else if (wantsMoreTimings()) {
        await timeOnce();
      } else {
        break;
      }
      await nextTask();  // lets input events in between calls
    }
  } finally {
    running = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Start.

let gridsampleReady = false;

buildWarpControls();
syncControls();
form.addEventListener('submit', (event) => event.preventDefault());
form.addEventListener('input', (event) => {
  syncControls();
  if (event.target.type !== 'file' && event.target.type !== 'number') quietly(requestRender());
});
form.addEventListener('change', (event) => {
  if (event.target.type === 'number') quietly(requestRender());
});
$('file').addEventListener('change', () => {
  const [file] = $('file').files;
  if (file) quietly(loadFile(file));
});
$('use-sample').addEventListener('click',
                                 () => quietly(setSource(drawSampleImage(), 'Sample pattern')));
$('reset-warp').addEventListener('click', () => {
  for (const input of paramBlock($('warp').value).querySelectorAll('input')) {
    input.value = input.dataset.default;
  }
  syncControls();
  quietly(requestRender());
});
$('new-seed').addEventListener('click', () => {
  paramBlock('elastic').querySelector('[data-param="seed"]').value =
      Math.floor(Math.random() * 10000);
  quietly(requestRender());
});
window.addEventListener('dragover', (event) => {
  event.preventDefault();
  document.body.classList.add('dragging');
});
window.addEventListener('dragleave', (event) => {
  if (!event.relatedTarget) document.body.classList.remove('dragging');
});
window.addEventListener('drop', (event) => {
  event.preventDefault();
  document.body.classList.remove('dragging');
  const file = event.dataTransfer?.files?.[0];
  if (file) quietly(loadFile(file));
});

const firstRender = setSource(drawSampleImage(), 'Sample pattern');
// gridsample's default threads (several where this page is cross-origin isolated, as
// scripts/serve.mjs serves it, else one); onnxruntime-web, whose first session comes later,
// gets as many.
const ready = init().then(() => {
  ort.env.wasm.numThreads = numThreads();
  const threads = numThreads();
  $('threads').textContent = `${threads} thread${threads === 1 ? '' : 's'}` +
      (self.crossOriginIsolated ? '' : ' (this page is not cross-origin isolated)');
  gridsampleReady = true;
  pump();
  return firstRender;
});
ready.catch((error) => showStatus(`gridsample failed to load: ${error.message}`));
// The GPU switch shows once a device is there; without an adapter it stays hidden.
const gpuReady = startGpu().then((started) => {
  gpu = started;
  $('gpu-switch').hidden = gpu === null;
  $('gpu-adapter').hidden = gpu === null;
  if (gpu) $('gpu-adapter').textContent = `WebGPU adapter: ${gpu.name}`;
}, (error) => showStatus(`WebGPU: ${error.message}`));

// The browser test's hook: set controls, wait for the render, read what the page shows.
window.demo = {
  ready,
  gpuReady,
  async set(settings) {
    await gpuReady;
    writeSettings(settings);
    await requestRender();
    return this.summary();
  },
  async load(file) {
    await loadFile(file);
    return this.summary();
  },
  summary() {
    return {
      settings: last.job.settings, source: source.name,
      threads: { gridsample: numThreads(), ort: ort.env.wasm.numThreads },
      xDims: last.job.x.dims, yDims: last.y.dims,
      gridsample: { ms: median(timings.gridsample), calls: timings.gridsample.length,
                    oneThread: { ms: median(timings.single), calls: timings.single.length } },
      ort: last.ortError ? { error: last.ortError }
                         : { ms: median(timings.ort), calls: timings.ort.length,
                             maxDiff: last.maxDiff },
      gpu: { adapter: gpu?.name ?? null, on: last.job.settings.gpu, ms: median(timings.gpu),
             calls: timings.gpu.length, wasmDiff: last.gpuDiff ?? null },
    };
  },
  // The last render's tensors and the gridsample canvas's pixels, as plain arrays.
  output() {
    const canvas = $('gridsample-canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    return {
      x: { data: Array.from(last.job.x.data), dims: last.job.x.dims, type: last.job.x.type },
      grid: { data: Array.from(last.job.grid.data), dims: last.job.grid.dims },
      options: last.job.options,
      y: { data: Array.from(last.y.data), dims: last.y.dims, type: last.y.type,
           array: last.y.data.constructor.name },
      pixels: Array.from(pixels),
    };
  },
};
