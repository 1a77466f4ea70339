// What the WebGPU suites (webgpu*.test.mjs) share: where their GPU work runs, the tensors' way
// there and back (no adapter is a failure, not a skip), and the bound floats are judged by. The
// GPU work is the harness's (tests/js/webgpu/harness.js) over the package's dist/, in one of two
// places, GRIDSAMPLE_WEBGPU's choice:
//
//   chromium (the default)  headless Chromium with WebGPU on SwiftShader, the page
//                           tests/js/webgpu/ on localhost
//   dawn                    Node.js itself, through Dawn: the npm package `webgpu`, which ships
//                           its binary. On Debian it takes the chromium package's Vulkan loader
//                           and SwiftShader: LD_LIBRARY_PATH=/usr/lib/chromium and
//                           VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json, set
//                           before Node.js starts (the loader reads them then).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { pathToFileURL } from 'node:url';

import { init } from 'gridsample';

import { serve } from '../../scripts/serve.mjs';
import {
  ARRAY_OF, bfloat16ToNumber, distDir, halfToNumber, initOptions, repo,
} from './helpers.mjs';

const CHROMIUM = process.env.GRIDSAMPLE_CHROMIUM || '/usr/bin/chromium';

// The page of a suite's tests, opened before them (with the CPU API's init, which they compare
// with) and closed after them: an object that holds openPage's methods once they run.
export function pageOfSuite() {
  const page = {};
  before(async () => {
    await init(initOptions);
    Object.assign(page, await openPage());
  });
  after(() => page.close?.());
  return page;
}

// Seeded integers in [0, n), the same on every run.
export function seededIntegers(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
}

// The harness where GRIDSAMPLE_WEBGPU says, once it has a device: { inPage(name, ...args) (a
// harness method's result), sampleOnGpu(cases), affineOnGpu(cases), gpuErrors() (the device's
// uncaptured errors so far), close() }.
export async function openPage() {
  const where = process.env.GRIDSAMPLE_WEBGPU ?? 'chromium';
  if (where === 'dawn') return withCalls(await openDawn());
  assert.equal(where, 'chromium', 'GRIDSAMPLE_WEBGPU: chromium or dawn');
  return withCalls(await openChromium());
}

// The harness in Node.js on Dawn: { inPage, gpuErrors, close }.
async function openDawn() {
  let dawn;
  try {
    dawn = await import('webgpu');
  } catch (error) {
    assert.fail(`GRIDSAMPLE_WEBGPU=dawn takes the npm package webgpu: ${error.message}`);
  }
  const url = (file) => pathToFileURL(file).href;
  const { startHarness } = await import(url(path.join(repo, 'tests/js/webgpu/harness.js')));
  // Dawn's instance: the package's devices do not keep it alive, and once it is collected the
  // next GPU call aborts the process (a futex or mutex error, or std::system_error), so the
  // suite holds it until it closes.
  let instance = dawn.create([]);
  const harness = await startHarness(
      instance, await import(url(path.join(distDir, 'webgpu.js'))),
      async () => (await import('onnxruntime-common')).Tensor);
  assert.equal(harness.error ?? 'ok', 'ok',
               'a WebGPU device through Dawn (LD_LIBRARY_PATH and VK_ICD_FILENAMES: see above)');
  return {
    inPage: async (name, ...args) => harness[name](...args),
    gpuErrors: async () => harness.gpuErrors,
    close() {
      instance = null;
    },
  };
}

// The harness in headless Chromium's page: { inPage, gpuErrors, close }.
async function openChromium() {
  assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const { server } = await serve({
    '/gridsample/': distDir,
    '/ort-common/': path.join(repo, 'node_modules', 'onnxruntime-common', 'dist', 'esm'),
    '/': path.join(repo, 'tests', 'js', 'webgpu'),
  }, {});
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--headless', '--enable-unsafe-webgpu',
           '--use-webgpu-adapter=swiftshader'],
  });
  const page = await browser.newPage();
  await page.goto(`http://localhost:${server.address().port}/index.html`);
  const started = await page.evaluate(async () => {
    const harness = await window.harness;
    return harness.error ?? 'ok';
  });
  assert.equal(started, 'ok', 'a WebGPU device in Chromium');

  return {
    inPage: (name, ...args) => page.evaluate(
        async ([method, params]) => (await window.harness)[method](...params), [name, args]),
    gpuErrors: () => page.evaluate(async () => (await window.harness).gpuErrors),
    async close() {
      await browser.close();
      server.close();
    },
  };
}

// The calls of the suites on a harness: openPage's.
function withCalls({ inPage, gpuErrors, close }) {
  return {
    inPage,
    gpuErrors,
    close,
    // Y of each case { x, grid (tensors { data, dims, type? } as the CPU API takes them),
    // options, out? } on the GPU: [{ dims, type, data (in the CPU API's array of the type) }],
    // and with `out` (a byte count), Y written into a buffer of that many bytes, all returned
    // as `bytes`.
    async sampleOnGpu(cases) {
      const results = await inPage('sample', cases.map(({ x, grid, options, out }) => ({
        x: pageTensor(x), grid: pageTensor(grid), options, out,
        elementBytes: ARRAY_OF[typeOf(x)].BYTES_PER_ELEMENT,
      })));
      return results.map(fromPage);
    },
    // The grid of each case { theta (a tensor as the CPU API takes it), size, options } from
    // affineGrid on the GPU, as sampleOnGpu gives Y.
    async affineOnGpu(cases) {
      const results = await inPage('affine', cases.map(({ theta, size, options }) => ({
        theta: pageTensor(theta), size, options,
        elementBytes: ARRAY_OF[typeOf(theta)].BYTES_PER_ELEMENT,
      })));
      return results.map(fromPage);
    },
  };
}

const typeOf = (tensor) => tensor.type ?? 'float32';

// A result from the page: its bytes, and its elements in the CPU API's array of its type.
function fromPage({ dims, type, bytes }) {
  const raw = Uint8Array.from(bytes);
  const Array_ = ARRAY_OF[type];
  const whole = raw.length - (raw.length % Array_.BYTES_PER_ELEMENT);
  return { dims, type, bytes: raw, data: new Array_(raw.buffer.slice(0, whole)) };
}

// A tensor as the page takes it: its elements' bytes as a plain array (typed arrays would
// cross as objects), and its type.
function pageTensor(tensor) {
  const data = ArrayBuffer.isView(tensor.data) ? tensor.data :
      ARRAY_OF[typeOf(tensor)].from(tensor.data);
  return { bytes: Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)),
           dims: tensor.dims, type: typeOf(tensor) };
}

const F32_EPSILON = 2 ** -24;  // float32's unit roundoff
// Σ|W| of the four cubic taps (A = -0.75) is largest at t = 0.5.
const CUBIC_WEIGHT_SUM = 1.375;

// The numbers of a float type's elements (float16 and bfloat16 hold bits).
export function numbersOf(type, data) {
  if (type === 'float16') return Array.from(data, halfToNumber);
  if (type === 'bfloat16') return Array.from(data, bfloat16ToNumber);
  return data;
}

// The distance between a type's neighbouring values at magnitude v, for the types narrower than
// float32, whose rounding the float32 tolerance does not cover.
const SPACING = {
  float16: (v) => 2 ** (Math.max(Math.floor(Math.log2(v)), -14) - 10),
  bfloat16: (v) => 2 ** (Math.max(Math.floor(Math.log2(v)), -126) - 7),
};

// The tolerance of one case: both sides (the file's reference and the GPU) sum K^r products of
// r + 1 float32 factors, each rounding (or fusing) at most once per operation, so each is
// within (K^r + 2r) unit roundoffs of Σ|w x| <= (Σ|w|)^r max|X| of the exact sum, to first
// order; the GPU may fuse the products into the sums, which the 2r covers. Nearest copies an
// element: no tolerance at all.
export function tolerance(mode, rank, x) {
  let largest = 0;
  for (const value of x) if (Number.isFinite(value)) largest = Math.max(largest, Math.abs(value));
  const taps = mode === 'cubic' || mode === 'bicubic' ? 4 : 2;
  const weightSum = taps === 4 ? CUBIC_WEIGHT_SUM : 1;
  return 2 * (taps ** rank + 2 * rank) * F32_EPSILON * weightSum ** rank * largest;
}

// The first index where actual and expected differ beyond `tol` plus spacing(the larger
// magnitude) (NaN only against NaN, an infinity only against itself), and the largest
// |difference| / that bound seen; exact compares bits.
function compare(actual, expected, tol, exact, spacing) {
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
    const bound = tol + (spacing ? spacing(Math.max(Math.abs(a), Math.abs(e))) : 0);
    if (difference > bound) return { index: i, worst };
    if (bound > 0) worst = Math.max(worst, difference / bound);
  }
  return { index: -1, worst };
}

// Judges the GPU's Y of float X (a tensor { data, dims, type? }) against the CPU's or a file's,
// both of X's type as the CPU API holds it: within the tolerance, and for a type narrower than
// float32 its spacing too (both sides round their float32 sums to it once); nearest bit for
// bit. Returns the largest difference as a fraction of the bound.
export function checkCase(name, mode, x, actual, expected) {
  const type = typeOf(x);
  const tol = tolerance(mode, x.dims.length - 2, numbersOf(type, x.data));
  const exact = mode === 'nearest';
  const [a, e] = exact ? [actual, expected] : [numbersOf(type, actual), numbersOf(type, expected)];
  const { index, worst } = compare(a, e, tol, exact, SPACING[type]);
  assert.equal(index, -1, `${name}: element ${index} is ${a[index]}, expected ${e[index]} ` +
                          `(tolerance ${tol})`);
  return worst;
}

