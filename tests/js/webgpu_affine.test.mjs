// affineGrid of gridsample/webgpu in headless Chromium on SwiftShader (the page:
// webgpu_page.mjs) against the CPU affineGrid of this process, which computes in float64 and
// rounds once and which tests/js/affine_grid.test.mjs holds to the golden file bit for bit: every
// grid value bit for bit (NaN as NaN), for float32, float16 and bfloat16 thetas of ordinary,
// extreme and non-finite values, 2-D and 3-D, both alignments; a sum that one rounding and two
// roundings take to different float16 and bfloat16 values; its grid straight into gridSample on
// the GPU; and the refusals, with the CPU's messages where the rule is the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { affineGrid as cpuAffineGrid, gridSample as cpuGridSample } from 'gridsample';

import { ARRAY_OF, sameBits } from './helpers.mjs';
import { numbersOf, pageOfSuite, seededIntegers } from './webgpu_page.mjs';

const page = pageOfSuite();
const random = seededIntegers;

const TYPES = ['float32', 'float16', 'bfloat16'];
// float32 values at the edges of float64 products and sums: the largest, the least normal and
// subnormal, infinities, NaN, signed zeros.
const EXTREMES = [3.4028234663852886e38, -3.4028234663852886e38, 1.1754943508222875e-38,
                  1.401298464324817e-45, -1.401298464324817e-45, Infinity, -Infinity, NaN, 0, -0,
                  1e20, -(2 ** -100)];

// n theta values of `type`: mostly ordinary, now and then any bits at all (float16 and
// bfloat16: every exponent, infinities and NaNs among them) or an extreme (float32).
function thetaValues(type, n, next) {
  const data = new ARRAY_OF[type](n);
  const bits32 = new Uint32Array(1);
  const float32 = new Float32Array(bits32.buffer);
  for (let i = 0; i < n; ++i) {
    const pick = next(10);
    if (type !== 'float32') {
      float32[0] = (next(60001) - 30000) / 10000;
      data[i] = pick < 3 ? next(0x10000) : bits32[0] >>> 16;
    } else if (pick === 0) {
      data[i] = EXTREMES[next(EXTREMES.length)];
    } else if (pick === 1) {
      bits32[0] = next(2 ** 32);
      data[i] = float32[0];
    } else {
      data[i] = (next(60001) - 30000) / 10000;
    }
  }
  return data;
}

// Whether two grids are the same bits but for NaNs, which are NaN on both sides (their sign and
// payload are the platform's).
function sameGrid(type, actual, expected) {
  const [a, e] = [numbersOf(type, actual), numbersOf(type, expected)];
  for (let i = 0; i < e.length; ++i) {
    if (Number.isNaN(e[i]) !== Number.isNaN(a[i])) return `element ${i}: ${a[i]}, expected ${e[i]}`;
    if (!Number.isNaN(e[i]) && actual[i] !== expected[i]) {
      return `element ${i}: ${a[i]}, expected ${e[i]}`;
    }
  }
  return a.length === e.length ? null : 'lengths differ';
}

function checkGrids(cases, results) {
  cases.forEach(({ theta, size, options }, i) => {
    const expected = cpuAffineGrid(theta, size, options);
    const name = `${theta.type} size ${JSON.stringify(size)} ${JSON.stringify(options)}`;
    assert.deepEqual([results[i].dims, results[i].type], [expected.dims, expected.type], name);
    const difference = sameGrid(theta.type, results[i].data, expected.data);
    assert.equal(difference, null, `${name}: ${difference}`);
  });
}

test('the CPU grids bit for bit: every theta type, 2-D and 3-D, both alignments', async () => {
  const next = random(2020);
  const sizes = [[3, 1, 1, 1], [2, 3, 3, 5], [1, 1, 7, 2], [3, 2, 16, 9], [2, 1, 1, 1, 1],
                 [1, 1, 3, 4, 5], [3, 1, 2, 1, 6], [1, 2, 5, 3, 3], [2, 1, 0, 4], [0, 1, 2, 2]];
  const cases = [];
  for (const type of TYPES) {
    for (const size of sizes) {
      const r = size.length - 2;
      for (const alignCorners of [false, true]) {
        const dims = [size[0], r, r + 1];
        cases.push({ theta: { data: thetaValues(type, size[0] * r * (r + 1), next), dims, type },
                     size, options: { alignCorners } });
      }
    }
  }
  checkGrids(cases, await page.affineOnGpu(cases));
  assert.equal(cases.length, 3 * 10 * 2);
});

test('float16 and bfloat16 round the float64 sum once, not through float32', async () => {
  // Component 0 at (h, w) = (2, 1) of a 3 × 2 grid, align_corners 0: t0 * 1/2 + t1 * 2/3 + 1,
  // t0 / 2 the type's half unit at 1 and t1 * 2/3 less than float32's: the sum lies just past a
  // tie of the type, and float32 rounds it onto the tie, which would round to even, down.
  const cases = [['float16', 2 ** -10], ['bfloat16', 2 ** -7]].map(([type, unit]) => {
    const theta = Float32Array.of(unit, 2 ** -24, 1, 0, 0, 0);
    const data = type === 'float16' ? Uint16Array.from(theta, (v) => halfBitsOf(v)) :
        Uint16Array.from(new Uint32Array(theta.buffer), (word) => word >>> 16);
    return { theta: { data, dims: [1, 2, 3], type }, size: [1, 1, 3, 2], options: {} };
  });
  const results = await page.affineOnGpu(cases);
  checkGrids(cases, results);
  cases.forEach(({ theta }, i) => {
    const value = numbersOf(theta.type, [results[i].data[2 * (2 * 2 + 1)]])[0];
    assert.equal(value, 1 + (theta.type === 'float16' ? 2 ** -10 : 2 ** -7), theta.type);
  });
});

// The float16 bits of v, a float16 value (exact).
function halfBitsOf(v) {
  if (v === 0) return 0;
  const exponent = Math.max(Math.floor(Math.log2(v)), -14);
  const units = v / 2 ** (exponent - 10);
  return units < 1024 ? units : ((exponent + 15) << 10) + units - 1024;
}

test("float64's own rounding shows: a product it rounds onto a float32 tie", async () => {
  // At w = 2 of a width of 3 (align_corners 0) x is float64's 2/3, a little below it, and
  // 3 * 2^-25 * x is exactly half-way between two float64 values: rounded to even it is 2^-24,
  // and 1 + 2^-23 + 2^-24 is then a float32 tie, which rounds up to even. A product rounded
  // down instead would leave the sum below the tie, and float32 would round it down. Likewise
  // for y at h = 2.
  const theta = { data: Float32Array.of(3 * 2 ** -25, 0, 1 + 2 ** -23, 0, 3 * 2 ** -25,
                                        1 + 2 ** -23),
                  dims: [1, 2, 3] };
  const cases = [{ theta: { ...theta, type: 'float32' }, size: [1, 1, 3, 3], options: {} }];
  checkGrids(cases, await page.affineOnGpu(cases));
});

test("its grid straight into gridSample on the GPU: the CPU's chain, bit for bit", async () => {
  const next = random(9);
  const x = { data: Uint8Array.from({ length: 24 * 32 * 4 }, () => next(256)),
              dims: [1, 24, 32, 4], type: 'uint8' };
  const theta = { data: Float32Array.of(0.8, -0.65, 0.1, 0.6, 0.75, -0.2), dims: [1, 2, 3] };
  const size = [1, 4, 20, 28];
  const sampleOptions = { mode: 'bicubic', paddingMode: 'reflection', layout: 'channels-last' };
  const result = await page.inPage('affineThenSample', {
    theta: { bytes: Array.from(new Uint8Array(theta.data.buffer)), dims: theta.dims,
             type: 'float32' },
    size, options: { alignCorners: true }, sampleOptions, elementBytes: 1,
    x: { bytes: Array.from(x.data), dims: x.dims, type: 'uint8' },
  });
  const expected = cpuGridSample(x, cpuAffineGrid(theta, size, { alignCorners: true }),
                                 sampleOptions);
  assert.deepEqual(result.dims, expected.dims);
  assert.ok(sameBits(Uint8Array.from(result.bytes), expected.data));
});

test("refusals: the CPU's class and message where the rule is the same", async () => {
  const bad = [
    [{ dims: [1, 2, 3], type: 'float32' }, [1, 1, 2, -2], {}],
    [{ dims: [1, 2, 3], type: 'float32' }, [1, 1, 2, 2, 2], {}],
    [{ dims: [2, 2, 3], type: 'float32' }, [1, 1, 2, 2], {}],
    [{ dims: [1, 2, 3], type: 'float32' }, [1, 1, 2], {}],
    [{ dims: [1, 2, 3], type: 'float32' }, [1, 1, 2, 2], { alignCorners: 2 }],
    [{ dims: [1, 2, 3], type: 'float32' }, [1, 1, 2, 2], { mode: 'nearest' }],
    [{ dims: [1, 2, 3], type: 'float32' }, ['1', 1, 2, 2], {}],
  ];
  const outcomes = await page.inPage('affineRefusals', bad.map(([theta, size, options]) =>
    ({ theta, size, options })));
  bad.forEach(([theta, size, options], i) => {
    let cpu;
    try {
      cpuAffineGrid({ data: new Float32Array(12).slice(0, theta.dims.reduce((a, b) => a * b)),
                      dims: theta.dims }, size, options);
    } catch (error) {
      cpu = error;
    }
    const name = JSON.stringify(bad[i]);
    assert.ok(cpu, `the CPU refuses ${name}`);
    const [rule] = cpu.message.split('; the options are');
    assert.equal(outcomes[i].error, cpu.constructor.name, `${name}: ${outcomes[i].message}`);
    assert.ok(outcomes[i].message.startsWith(rule), `${name}: ${outcomes[i].message}`);
    assert.deepEqual(outcomes[i].calls, [], `${name}: no GPU work before the checks`);
  });
  const [float64, uint8] = await page.inPage('affineRefusals', [
    { theta: { dims: [1, 2, 3], type: 'float64' }, size: [1, 1, 2, 2], options: {} },
    { theta: { dims: [1, 2, 3], type: 'uint8' }, size: [1, 1, 2, 2], options: {} },
  ]);
  for (const [outcome, type] of [[float64, 'float64'], [uint8, 'uint8']]) {
    assert.equal(outcome.error, 'TypeError');
    assert.equal(outcome.message, `gridsample: theta.type: ${type} is not a theta type on ` +
                                  'WebGPU, which takes float32, float16, bfloat16; the CPU ' +
                                  "affineGrid of 'gridsample' takes float64 too");
  }
});

test('the device reported no error of its own', async () => {
  assert.deepEqual(await page.gpuErrors(), []);
});
