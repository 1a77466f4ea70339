// gridsample/webgpu in headless Chromium, on WebGPU over SwiftShader (the page on localhost,
// tests/js/webgpu/, over the package's dist/), or in Node.js through Dawn (webgpu_page.mjs): the
// float32 channels-first cases of the reference vectors and the golden file, hostile grids
// against the CPU gridSample of this process, `out`, an empty Y, and the argument checks (the
// CPU's class and message where the rule is the same, and no GPU work before any of them), every
// type the CPU takes and the GPU does not among them. No adapter is a failure, not a skip. The
// page (or Node.js on Dawn) does the GPU work; the tensors, the expected values and the judging
// stay in Node.js (the float bound: webgpu_page.mjs).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { gridSample as cpuGridSample } from 'gridsample';

import { closeTo, dataDir, readVectors, specExample } from './helpers.mjs';
import { checkCase, pageOfSuite } from './webgpu_page.mjs';

const page = pageOfSuite();

const inPage = (...args) => page.inPage(...args);
const sampleOnGpu = (cases) => page.sampleOnGpu(cases);

// Whether the GPU path takes a case of the vector files: float32 X and grid, 1 to 5 spatial axes.
const inScope = ({ x, grid }) =>
  x.type === 'float32' && grid.type === 'float32' && x.dims.length >= 3 && x.dims.length <= 7;

for (const [file, least] of [['reference_vectors.txt', 18], ['golden.txt', 270]]) {
  test(`the float32 cases of ${file}`, async () => {
    const cases = readVectors(path.join(dataDir, file)).filter(inScope);
    const results = await sampleOnGpu(cases.map((c) => ({
      x: c.x, grid: c.grid,
      options: { mode: c.attrs.mode, paddingMode: c.attrs.padding,
                 alignCorners: c.attrs.alignCorners },
    })));
    let worst = 0;
    cases.forEach((c, i) => {
      assert.deepEqual(results[i].dims, c.y.dims, c.name);
      assert.equal(results[i].type, 'float32', c.name);
      worst = Math.max(worst, checkCase(c.name, c.attrs.mode, c.x, results[i].data, c.y.data));
    });
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
  const cases = [];
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
          cases.push({ x, grid: gridTensor, options: { mode, paddingMode, alignCorners } });
        }
      }
    }
  }
  const results = await sampleOnGpu(cases);
  cases.forEach(({ x, grid, options }, i) => {
    const expected = cpuGridSample(x, grid, options);
    const r = x.dims.length - 2;
    assert.deepEqual(results[i].dims, expected.dims);
    checkCase(`${r}-D ${options.mode} ${options.paddingMode} ${options.alignCorners}`,
              options.mode, x, results[i].data, expected.data);
  });
  assert.equal(cases.length, 5 * MODES.length * PADDINGS.length * 2);
});

test('onnxruntime-web Tensors on the GPU pass as they are; a disposed one is a TypeError',
     async () => {
  const { location, dims, data, disposed } = await inPage('ortTensors');
  const { y, yDims } = specExample();
  assert.equal(location, 'gpu-buffer');
  assert.deepEqual(dims, yDims);
  assert.ok(closeTo(data, y), `${data}`);
  assert.equal(disposed.error, 'TypeError');
  assert.match(disposed.message,
               /^gridsample: grid: a tensor of location the string "none"; on WebGPU its data/);
  assert.deepEqual(disposed.calls, []);
});

test('options.out takes Y; an empty Y is a buffer of no bytes', async () => {
  const { same, data, empty } = await inPage('outAndEmpty');
  assert.equal(same, true);
  assert.deepEqual(data, [2.5, 0.25]);
  assert.deepEqual(empty, [[1, 1, 0, 3], 'float32', 0]);
});

// An outcome of the page's: the call threw ErrorClass with `message`, having done no GPU work.
function assertRefused(name, outcome, ErrorClass, message) {
  assert.equal(outcome.error, ErrorClass.name, `${name}: ${JSON.stringify(outcome)}`);
  assert.match(outcome.message, message, name);
  assert.deepEqual(outcome.calls, [], `${name}: no GPU work before the checks`);
}

const X = { data: [1, 2, 3, 4], dims: [1, 1, 2, 2] };
const GRID = { data: [0, 0], dims: [1, 1, 1, 2] };

test('errors the CPU API has too: the same class and message', async () => {
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
  const outcomes = await inPage('refusals', bad.map(([x, grid, options]) =>
    ({ x: { dims: x.dims }, grid: { dims: grid.dims }, options })));
  bad.forEach(([x, grid, options], i) => {
    let cpu;
    try {
      cpuGridSample({ data: Float32Array.from(x.data), dims: x.dims },
                    { data: Float32Array.from(grid.data), dims: grid.dims }, options);
    } catch (error) {
      cpu = error;
    }
    assert.ok(cpu, `the CPU refuses ${JSON.stringify(options)}`);
    // An unknown option's message ends with the path's own list of options.
    const [rule] = cpu.message.split('; the options are');
    assertRefused(JSON.stringify(bad[i]), outcomes[i], cpu.constructor,
                  new RegExp(`^${rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|; the options)`));
  });
});

// The types of X the CPU takes and WebGPU does not: those the CPU computes in float64, or as
// strings.
const CPU_ONLY = ['float64', 'int32', 'uint32', 'int64', 'uint64', 'complex64', 'complex128',
                  'string'];

test('errors of the GPU path: device, buffers, types, rank', async () => {
  const outcomes = await inPage('gpuRefusals', CPU_ONLY);
  const expected = {
    'no device': [TypeError, /^gridsample: options.device must be the GPUDevice/],
    'a plain object': [TypeError, /^gridsample: options.device must be the GPUDevice/],
    'a Float32Array as x.buffer':
        [TypeError, /^gridsample: x.buffer must be a GPUBuffer, got a Float32Array$/],
    'x.buffer too small':
        [RangeError, /^gridsample: x.buffer has 8 bytes, but dims \[1, 1, 2, 2\] of float32 need/],
    'grid.buffer without STORAGE':
        [TypeError, /^gridsample: grid.buffer: its usage \(0x8\) lacks GPUBufferUsage.STORAGE/],
    'out.buffer too small':
        [RangeError, /^gridsample: options.out.buffer has 4 bytes, but dims \[1, 1, 2, 1\] .* 8$/],
    "out.buffer is x's": [RangeError, /is x's or the grid's buffer/],
    'out a GPUBuffer, not { buffer }':
        [TypeError, /^gridsample: options.out.buffer must be a GPUBuffer, got undefined$/],
    'x of uint8 in 5 bytes':
        [RangeError, new RegExp('^gridsample: x.buffer has 5 bytes; dims \\[1, 1, 1, 5\\] of ' +
                                'uint8 need 5, and a binding takes whole 4-byte words: 8$')],
    ...Object.fromEntries(CPU_ONLY.map((type) => [
      `x.type ${type}`,
      [TypeError, new RegExp(`^gridsample: x.type: ${type} is not computed on WebGPU, which ` +
                             'takes float32, float16, bfloat16, uint8, int8, uint16, int16, ' +
                             "bool; the CPU gridSample of 'gridsample' takes it$")]])),
    ...Object.fromEntries(['float64', 'uint8'].map((type) => [
      `grid.type ${type}`,
      [TypeError, new RegExp(`^gridsample: grid.type: ${type} is not a grid type on WebGPU, ` +
                             'which takes float32, float16, bfloat16; the CPU gridSample of ' +
                             "'gridsample' takes float64 grids too$")]])),
    'x.type unknown': [TypeError, /^gridsample: x.type: unknown type/],
    'x.type missing': [TypeError, /^gridsample: x.type must be a string/],
    'numThreads': [TypeError, /unknown option "numThreads"/],
    '6 spatial axes': [RangeError, /6 spatial axes .*; WebGPU takes 1 to 5 yet/],
  };
  assert.deepEqual(Object.keys(outcomes).sort(), Object.keys(expected).sort());
  for (const [name, [ErrorClass, message]] of Object.entries(expected)) {
    assertRefused(name, outcomes[name], ErrorClass, message);
  }
});

test('the device reported no error of its own', async () => {
  assert.deepEqual(await page.gpuErrors(), []);
});
