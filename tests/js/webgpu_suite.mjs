// gridsample/webgpu in Node.js through Dawn (the `webgpu` package) on SwiftShader's Vulkan: the
// float32 channels-first cases of the reference vectors and the golden file, hostile grids
// against the CPU gridSample, and the argument checks. No adapter is a failure, not a skip. Not
// named *.test.mjs yet, so that `npm test` leaves it out: Dawn on SwiftShader aborts the process
// at random on the development machine (docs/javascript.md, "WebGPU"). Run it with
// `node --test tests/js/webgpu_suite.mjs`.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { gridSample as cpuGridSample, init } from 'gridsample';
import { gridSample } from 'gridsample/webgpu';

import { dataDir, initOptions, readVectors } from './helpers.mjs';

// Dawn's Vulkan backend needs an ICD; Debian's chromium package ships SwiftShader's. Set before
// `webgpu` loads, which is why it is imported below and not above.
process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';

const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, STORAGE: 0x80 };
const F32_EPSILON = 2 ** -24;  // float32's unit roundoff
// Σ|W| of the four cubic taps (A = -0.75) is largest at t = 0.5.
const CUBIC_WEIGHT_SUM = 1.375;

let device;
before(async () => {
  // A threaded WebAssembly module started after a Dawn device crashes Node.js (issue 36).
  await init(initOptions);
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  const adapter = await create([]).requestAdapter();
  assert.ok(adapter, `no WebGPU adapter (VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES})`);
  device = await adapter.requestDevice();
  device.addEventListener('uncapturederror', (event) => {
    throw new Error(`WebGPU error: ${event.error.message}`);
  });
});
after(() => device?.destroy());

function upload(data, usage = USAGE.STORAGE | USAGE.COPY_DST) {
  const buffer = device.createBuffer({ size: Math.max(4, data.byteLength), usage });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

function gpuTensor({ data, dims }) {
  return { buffer: upload(Float32Array.from(data)), dims, type: 'float32' };
}

async function download(buffer, count) {
  const read = device.createBuffer({ size: Math.max(4, count * 4),
                                     usage: USAGE.MAP_READ | USAGE.COPY_DST });
  const encoder = device.createCommandEncoder();
  if (count > 0) encoder.copyBufferToBuffer(buffer, 0, read, 0, count * 4);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(0x1);
  const values = new Float32Array(read.getMappedRange().slice(0, count * 4));
  read.destroy();
  return values;
}

// Y of a call on the GPU, as a Float32Array.
async function sampleOnGpu(x, grid, options) {
  const y = gridSample(gpuTensor(x), gpuTensor(grid), { device, ...options });
  return { dims: y.dims, data: await download(y.buffer, y.dims.reduce((a, b) => a * b, 1)) };
}

// The tolerance of one case: both sides (the file's reference and the GPU) sum K^r products of
// r + 1 float32 factors, each rounding (or fusing) at most once per operation, so each is
// within (K^r + 2r) unit roundoffs of Σ|w x| <= (Σ|w|)^r max|X| of the exact sum, to first
// order; the GPU may fuse the products into the sums, and evaluates the cubic weights with
// fusing too, which the 2r covers. Nearest copies an element: no tolerance at all.
function tolerance(mode, rank, x) {
  let largest = 0;
  for (const value of x) if (Number.isFinite(value)) largest = Math.max(largest, Math.abs(value));
  const taps = mode === 'cubic' || mode === 'bicubic' ? 4 : 2;
  const weightSum = taps === 4 ? CUBIC_WEIGHT_SUM : 1;
  return 2 * (taps ** rank + 2 * rank) * F32_EPSILON * weightSum ** rank * largest;
}

// The first index where actual and expected differ beyond `tol` (NaN only against NaN, an
// infinity only against itself), and the largest |difference| / tol seen; exact compares bits.
function compare(actual, expected, tol, exact) {
  let worst = 0;
  for (let i = 0; i < expected.length; ++i) {
    const a = actual[i];
    const e = expected[i];
    if (Number.isNaN(e) || Number.isNaN(a)) {
      if (Number.isNaN(a) !== Number.isNaN(e)) return { index: i, worst };
      continue;
    }
    if (exact || !Number.isFinite(e) || !Number.isFinite(a)) {
      if (!Object.is(a, e) && !(a === 0 && e === 0)) return { index: i, worst };
      continue;
    }
    const difference = Math.abs(a - e);
    if (difference > tol) return { index: i, worst };
    if (tol > 0) worst = Math.max(worst, difference / tol);
  }
  return { index: -1, worst };
}

function checkCase(name, mode, xData, rank, actual, expected) {
  const exact = mode === 'nearest';
  const tol = tolerance(mode, rank, xData);
  const { index, worst } = compare(actual, expected, tol, exact);
  assert.equal(index, -1, `${name}: element ${index} is ${actual[index]}, expected ` +
                          `${expected[index]} (tolerance ${tol})`);
  return worst;
}

// Whether the GPU path takes a case of the vector files: float32 X and grid, 1 to 5 spatial axes.
const inScope = ({ x, grid }) =>
  x.type === 'float32' && grid.type === 'float32' && x.dims.length >= 3 && x.dims.length <= 7;

for (const [file, least] of [['reference_vectors.txt', 18], ['golden.txt', 270]]) {
  test(`the float32 cases of ${file}`, async () => {
    const cases = readVectors(path.join(dataDir, file)).filter(inScope);
    let worst = 0;
    for (const c of cases) {
      const options = { mode: c.attrs.mode, paddingMode: c.attrs.padding,
                        alignCorners: c.attrs.alignCorners };
      const y = await sampleOnGpu(c.x, c.grid, options);
      assert.deepEqual(y.dims, c.y.dims, c.name);
      worst = Math.max(worst, checkCase(c.name, c.attrs.mode, c.x.data, c.x.dims.length - 2,
                                        y.data, c.y.data));
    }
    // The files' cases in scope, so that the suite cannot pass on none.
    assert.ok(cases.length >= least, `${cases.length} cases, fewer than ${least}`);
    console.log(`${file}: ${cases.length} cases; the largest difference is ` +
                `${worst.toFixed(3)} of the tolerance`);
  });
}

// Seeded values in [-1, 1), the same on every run.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  };
}

const HOSTILE = [NaN, Infinity, -Infinity, 1e30, -1e30, 3e38, -3e38, 1e6, -1e6, 2 ** 24 + 2,
                 -7.25, 0.5, -1, 1, 1.0000001, 2.5, -0.9999999];
const MODES = ['linear', 'nearest', 'cubic', 'bilinear', 'bicubic'];
const PADDINGS = ['zeros', 'border', 'reflection'];

test('hostile grids give what the CPU gives, in every mode, padding and rank', async () => {
  const next = random(36);
  let calls = 0;
  for (const spatial of [[5], [4, 3], [3, 1, 4], [2, 1, 2, 3], [1, 2, 1, 2, 3]]) {
    const r = spatial.length;
    const x = { data: Float32Array.from({ length: 2 * spatial.reduce((a, b) => a * b) },
                                        () => 10 * next()),
                dims: [1, 2, ...spatial] };
    // Each hostile value on each component, beside ordinary ones.
    const locations = HOSTILE.length * r;
    const grid = new Float32Array(locations * r).map(() => 1.3 * next());
    for (let k = 0; k < locations; ++k) grid[k * r + (k % r)] = HOSTILE[Math.floor(k / r)];
    const gridTensor = { data: grid, dims: [1, locations, ...Array(r - 1).fill(1), r] };
    for (const mode of MODES) {
      for (const paddingMode of PADDINGS) {
        for (const alignCorners of [false, true]) {
          const options = { mode, paddingMode, alignCorners };
          const expected = cpuGridSample(x, gridTensor, options);
          const actual = await sampleOnGpu(x, gridTensor, options);
          assert.deepEqual(actual.dims, expected.dims);
          checkCase(`${r}-D ${mode} ${paddingMode} ${alignCorners}`, mode, x.data, r,
                    actual.data, expected.data);
          ++calls;
        }
      }
    }
  }
  assert.equal(calls, 5 * MODES.length * PADDINGS.length * 2);
});

test('options.out takes Y; an empty Y is a buffer of no bytes', async () => {
  const x = { data: [1, 2, 3, 4], dims: [1, 1, 2, 2] };
  const grid = { data: [0, 0, -1, -1], dims: [1, 2, 1, 2] };
  const out = device.createBuffer({ size: 64, usage: USAGE.STORAGE | USAGE.COPY_SRC });
  const y = gridSample(gpuTensor(x), gpuTensor(grid), { device, out: { buffer: out } });
  assert.equal(y.buffer, out);
  assert.deepEqual(Array.from(await download(out, 2)), [2.5, 0.25]);
  const empty = gridSample(gpuTensor(x), gpuTensor({ data: [], dims: [1, 0, 3, 2] }), { device });
  assert.deepEqual([empty.dims, empty.type, empty.buffer.size], [[1, 1, 0, 3], 'float32', 0]);
});

// A device that counts what is asked of it: a refused call must not have touched it.
function watched() {
  const calls = [];
  const proxy = new Proxy(device, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args) => {
        calls.push(String(key));
        return value.apply(target, args);
      };
    },
  });
  return { proxy, calls };
}

// The call must throw ErrorClass with `message`, having done no GPU work.
function refused(x, grid, options, ErrorClass, message) {
  const { proxy, calls } = watched();
  assert.throws(() => gridSample(x, grid, { device: proxy, ...options }), (error) => {
    assert.equal(error.constructor, ErrorClass, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, message);
    return true;
  });
  assert.deepEqual(calls, [], 'no GPU work before the checks');
}

const X = { data: [1, 2, 3, 4], dims: [1, 1, 2, 2] };
const GRID = { data: [0, 0], dims: [1, 1, 1, 2] };

test('errors the CPU API has too: the same class and message', () => {
  const bad = [
    [X, GRID, { mode: 'bilinearr' }],
    [X, GRID, { paddingMode: 'mirror' }],
    [X, GRID, { mode: 'x'.repeat(40) }],
    [X, GRID, { alignCorners: 2 }],
    [X, GRID, { align_corners: true }],
    [X, GRID, { mode: 3 }],
    [X, GRID, { layout: 'nchw' }],
    [{ data: [1, 2], dims: [1, 2] }, GRID, {}],
    [X, { data: [0, 0], dims: [1, 1, 2] }, {}],
    [X, { data: [0, 0, 0], dims: [1, 1, 1, 3] }, {}],
    [X, { data: [0, 0, 0, 0], dims: [2, 1, 1, 2] }, {}],
    [{ data: [], dims: [1, 1, -1, 2] }, GRID, {}],
    [{ data: [], dims: [1, 1, 0, 2] }, GRID, {}],
    [{ data: [], dims: 'abc' }, GRID, {}],
    [{ data: [], dims: [1, 1, 1.5, 2] }, GRID, {}],
  ];
  for (const [x, grid, options] of bad) {
    let cpu;
    try {
      cpuGridSample({ data: Float32Array.from(x.data), dims: x.dims },
                    { data: Float32Array.from(grid.data), dims: grid.dims }, options);
    } catch (error) {
      cpu = error;
    }
    assert.ok(cpu, `the CPU refuses ${JSON.stringify(options)}`);
    const gpuX = { buffer: upload(new Float32Array(4)), dims: x.dims, type: 'float32' };
    const gpuGrid = { buffer: upload(new Float32Array(4)), dims: grid.dims, type: 'float32' };
    refused(gpuX, gpuGrid, options, cpu.constructor,
            new RegExp(`^${cpu.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  }
});

test('errors of the GPU path: device, buffers, types, layout, rank', () => {
  const x = gpuTensor(X);
  const grid = gpuTensor(GRID);
  assert.throws(() => gridSample(x, grid),
                /^TypeError: gridsample: options.device must be the GPUDevice/);
  assert.throws(() => gridSample(x, grid, { device: {} }), TypeError);
  refused({ ...x, buffer: new Float32Array(4) }, grid, {}, TypeError,
          /^gridsample: x.buffer must be a GPUBuffer, got a Float32Array$/);
  refused({ ...x, buffer: upload(new Float32Array(2)) }, grid, {}, RangeError,
          /^gridsample: x.buffer has 8 bytes, but dims \[1, 1, 2, 2\] of float32 need 16$/);
  refused(x, { ...grid, buffer: upload(new Float32Array(2), USAGE.COPY_DST) }, {}, TypeError,
          /^gridsample: grid.buffer: its usage \(0x8\) lacks GPUBufferUsage.STORAGE/);
  refused(x, grid, { out: { buffer: upload(new Float32Array(0)) } }, RangeError,
          /^gridsample: options.out.buffer has 4 bytes, but dims \[1, 1, 1, 1\] of float32 need/);
  refused(x, grid, { out: { buffer: x.buffer } }, RangeError, /is x's or the grid's buffer/);
  refused(x, grid, { out: x.buffer }, TypeError,
          /^gridsample: options.out.buffer must be a GPUBuffer, got undefined$/);
  refused({ ...x, type: 'float16' }, grid, {}, TypeError,
          /^gridsample: x.type: float16 is not supported on WebGPU yet \(float32 is\); the CPU/);
  refused(x, { ...grid, type: 'float64' }, {}, TypeError, /grid.type: float64 is not supported/);
  refused({ ...x, type: 'uint8' }, grid, {}, TypeError, /x.type: uint8 is not supported/);
  refused({ ...x, type: 'float' }, grid, {}, TypeError, /^gridsample: x.type: unknown type/);
  refused({ ...x, type: undefined }, grid, {}, TypeError, /^gridsample: x.type must be a string/);
  refused(x, grid, { layout: 'channels-last' }, RangeError,
          /^gridsample: options.layout: channels-last is not supported on WebGPU yet/);
  refused(x, grid, { numThreads: 2 }, TypeError, /unknown option "numThreads"/);
  refused({ ...x, dims: [1, 1, 1, 1, 1, 1, 1, 2] }, { ...grid, dims: [1, 1, 1, 1, 1, 1, 1, 6] },
          {}, RangeError, /6 spatial axes .*; WebGPU takes 1 to 5 yet/);
});
