// gridsample/webgpu's types beyond float32, in headless Chromium on SwiftShader (the page:
// webgpu_page.mjs): integer and bool X against the CPU gridSample of this process bit for bit
// (its integer results are exact, docs/semantics.md), float16 and bfloat16 X and grids within
// the float32 bound and the type's spacing, each in every rank, mode, padding and alignment,
// with hostile grid values, and the cases of the vector files the path takes; flat integer
// images; Y's packed words, whose bytes past Y a call must leave as they were; and
// channels-last, the channels-first Y transposed bit for bit, and RGBA bytes as the CPU gives.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { gridSample as cpuGridSample } from 'gridsample';

import { ARRAY_OF, dataDir, readVectors, sameBits, toChannelsLast } from './helpers.mjs';
import {
  checkCase, numbersOf, pageOfSuite, seededIntegers, tolerance,
} from './webgpu_page.mjs';

const page = pageOfSuite();
const random = seededIntegers;

// Each exact type: its range, and the value of a flat image of it.
const EXACT = {
  uint8: { lowest: 0, highest: 255, flat: 200 },
  int8: { lowest: -128, highest: 127, flat: -77 },
  uint16: { lowest: 0, highest: 65535, flat: 65001 },
  int16: { lowest: -32768, highest: 32767, flat: -30001 },
  // Bytes other than 0 and 1 are true too.
  bool: { lowest: 0, highest: 255, flat: 1 },
};
const MODES = ['linear', 'nearest', 'cubic'];
const PADDINGS = ['zeros', 'border', 'reflection'];
const SPATIAL = [[5], [4, 3], [3, 1, 4], [2, 1, 2, 3], [1, 2, 1, 2, 3]];
const HOSTILE = [NaN, Infinity, -Infinity, 1e30, -1e30, 3e38, -3e38, 1e6, -1e6, 2 ** 24 + 2,
                 -7.25, 0.5, -1, 1, 1.0000001, 2.5, -0.9999999];
const ORDINARY = 9;  // locations of ordinary values only, beside the hostile ones

// X (2, 3, ...spatial) of `type`: batch item 0 random over the type's range, item 1 flat.
function exactImage(type, spatial, next) {
  const { lowest, highest, flat } = EXACT[type];
  const plane = 3 * spatial.reduce((a, b) => a * b, 1);
  const data = new ARRAY_OF[type](2 * plane);
  for (let i = 0; i < plane; ++i) {
    // The extremes often, for saturation.
    const pick = next(8);
    data[i] = pick === 0 ? lowest : pick === 1 ? highest : lowest + next(highest - lowest + 1);
    data[plane + i] = flat;
  }
  return { data, dims: [2, 3, ...spatial], type };
}

// A grid (2, L, 1, ..., 1, r), the same for both batch items: each hostile value on each
// component beside ordinary ones, then ORDINARY locations of ordinary values.
function hostileGrid(r, next) {
  const locations = HOSTILE.length * r + ORDINARY;
  const one = Float32Array.from({ length: locations * r }, () => (next(2601) - 1300) / 1000);
  for (let k = 0; k < HOSTILE.length * r; ++k) one[k * r + (k % r)] = HOSTILE[Math.floor(k / r)];
  const data = new Float32Array(2 * one.length);
  data.set(one);
  data.set(one, one.length);
  return { data, dims: [2, locations, ...Array(r - 1).fill(1), r] };
}

// The first element where two Y differ, for the message.
function firstDifference(actual, expected) {
  const i = expected.findIndex((value, k) => !Object.is(value, actual[k]));
  return `element ${i}: ${actual[i]}, expected ${expected[i]}`;
}

test('integer and bool X: the CPU results bit for bit, every rank, mode, padding, alignment',
     async () => {
  const next = random(3601);
  const cases = [];
  for (const type of Object.keys(EXACT)) {
    for (const spatial of SPATIAL) {
      const x = exactImage(type, spatial, next);
      const grid = hostileGrid(spatial.length, next);
      for (const mode of MODES) {
        for (const paddingMode of PADDINGS) {
          for (const alignCorners of [false, true]) {
            cases.push({ x, grid, options: { mode, paddingMode, alignCorners } });
          }
        }
      }
    }
  }
  const results = await page.sampleOnGpu(cases);
  let flatChecked = 0;
  cases.forEach(({ x, grid, options }, i) => {
    const name = `${x.type} ${x.dims.length - 2}-D ${JSON.stringify(options)}`;
    const expected = cpuGridSample(x, grid, options);
    const actual = results[i];
    assert.deepEqual([actual.dims, actual.type], [expected.dims, x.type], name);
    assert.ok(sameBits(actual.data, expected.data),
              `${name}: ${firstDifference(actual.data, expected.data)}`);
    // The flat item stays flat where no tap reads padding zeros and the grid is finite.
    if (options.paddingMode === 'zeros') return;
    const r = x.dims.length - 2;
    const locations = grid.dims[1];
    const flat = EXACT[x.type].flat;
    for (let l = 0; l < locations; ++l) {
      if (!grid.data.slice(l * r, (l + 1) * r).every(Number.isFinite)) continue;
      for (let c = 0; c < 3; ++c) {
        assert.equal(actual.data[(3 + c) * locations + l], flat, `${name}: flat, location ${l}`);
        ++flatChecked;
      }
    }
  });
  assert.equal(cases.length, 5 * SPATIAL.length * MODES.length * PADDINGS.length * 2);
  assert.ok(flatChecked > 5000, `${flatChecked} flat elements`);
});

// The grid types of the GPU path.
const GRID_TYPES = ['float32', 'float16', 'bfloat16'];

// Whether the GPU path takes a case of the vector files: an exact X, a grid of GRID_TYPES, 1 to
// 5 spatial axes.
const exactInScope = ({ x, grid }) =>
  Object.hasOwn(EXACT, x.type) && GRID_TYPES.includes(grid.type) && x.dims.length <= 7;

for (const [file, least] of [['reference_vectors.txt', 270],
                             ['exact_integers.txt', 290]]) {
  test(`the integer and bool cases of ${file}, bit for bit`, async () => {
    const cases = readVectors(path.join(dataDir, file)).filter(exactInScope);
    const results = await page.sampleOnGpu(cases.map((c) => ({
      x: c.x, grid: c.grid,
      options: { mode: c.attrs.mode, paddingMode: c.attrs.padding,
                 alignCorners: c.attrs.alignCorners },
    })));
    cases.forEach((c, i) => {
      assert.deepEqual(results[i].dims, c.y.dims, c.name);
      assert.ok(sameBits(results[i].data, c.y.data),
                `${c.name}: ${firstDifference(results[i].data, c.y.data)}`);
    });
    assert.ok(cases.length >= least, `${cases.length} cases, fewer than ${least}`);
  });
}

// The float16 bits nearest v, ties to even.
function halfBits(v) {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(v);
  if (magnitude >= 65520) return sign | 0x7c00;
  const exponent = Math.max(Math.floor(Math.log2(magnitude)), -14);
  const units = magnitude / 2 ** (exponent - 10);  // exact: a power-of-two scaling
  let whole = Math.floor(units);
  if (units - whole > 0.5 || (units - whole === 0.5 && whole % 2 === 1)) ++whole;
  // A whole of 2048 carries into the exponent, as the bits add up to.
  return sign | (whole < 1024 ? whole : ((exponent + 15) << 10) + whole - 1024);
}

// The bfloat16 bits nearest v (through float32, rounding to nearest even twice: monotonic, as
// checkNarrow needs).
function bfloat16Bits(v) {
  const bits = new Uint32Array(Float32Array.of(v).buffer)[0];
  return (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16;
}
const ROUNDED = {
  float16: (v) => numbersOf('float16', [halfBits(v)])[0],
  bfloat16: (v) => numbersOf('bfloat16', [bfloat16Bits(v)])[0],
};

// A float16 or bfloat16 Y of the GPU against the CPU's float32 Y of X's values (`cpu32`): both
// compute in float32 and round once, so each element must be the type's rounding of a value
// within the float32 tolerance of the CPU's, which rounding (monotonic) brackets. A wrong
// rounding shows wherever the CPU's value is not within the tolerance of a tie; nearest copies
// bits, judged by checkCase.
function checkNarrow(name, mode, x, actual, cpu32) {
  const type = x.type;
  const tol = tolerance(mode, x.dims.length - 2, numbersOf(type, x.data));
  const values = numbersOf(type, actual);
  values.forEach((value, i) => {
    const low = ROUNDED[type](cpu32[i] - tol);
    const high = ROUNDED[type](cpu32[i] + tol);
    const ok = Number.isNaN(cpu32[i]) ? Number.isNaN(value) : value >= low && value <= high;
    assert.ok(ok, `${name}: element ${i} is ${value}, expected ${low}..${high} (${cpu32[i]} ` +
                  `± ${tol} rounded)`);
  });
}

// A float32 grid in `type`: float16 rounded to nearest even, bfloat16 cut to its top bits (any
// bits are a grid both sides read alike).
function gridOf(type, { data, dims }) {
  if (type === 'float32') return { data, dims };
  const bits = type === 'float16' ? Uint16Array.from(data, halfBits) :
      Uint16Array.from(new Uint32Array(data.buffer), (word) => word >>> 16);
  return { data: bits, dims, type };
}

const FLOATS = ['float32', 'float16', 'bfloat16'];

test('float16 and bfloat16 X and grids: the CPU results within the bound, every rank, mode, ' +
     'padding, alignment', async () => {
  const next = random(1616);
  const cases = [];
  FLOATS.forEach((type, t) => {
    SPATIAL.forEach((spatial, s) => {
      const count = 2 * 3 * spatial.reduce((a, b) => a * b, 1);
      const values = Float32Array.from({ length: count }, () => (next(20001) - 10000) / 1000);
      const x = gridOf(type, { data: values, dims: [2, 3, ...spatial] });
      // Each grid type with each X type, float32 X only with the narrow grids.
      const gridType = type === 'float32' ? FLOATS[1 + (s % 2)] : FLOATS[(t + s) % 3];
      const grid = gridOf(gridType, hostileGrid(spatial.length, next));
      for (const mode of [...MODES, 'bilinear', 'bicubic']) {
        for (const paddingMode of PADDINGS) {
          for (const alignCorners of [false, true]) {
            cases.push({ x, grid, options: { mode, paddingMode, alignCorners } });
          }
        }
      }
    });
  });
  const results = await page.sampleOnGpu(cases);
  let worst = 0;
  let narrow = 0;
  const seen = new Set();
  cases.forEach(({ x, grid, options }, i) => {
    const name = `${x.type ?? 'float32'} X, ${grid.type ?? 'float32'} grid, ` +
                 `${x.dims.length - 2}-D ${JSON.stringify(options)}`;
    const expected = cpuGridSample(x, grid, options);
    assert.deepEqual([results[i].dims, results[i].type], [expected.dims, expected.type], name);
    if (expected.type !== 'float32' && options.mode !== 'nearest') {
      const x32 = { data: Float32Array.from(numbersOf(x.type, x.data)), dims: x.dims };
      checkNarrow(name, options.mode, x, results[i].data, cpuGridSample(x32, grid, options).data);
      ++narrow;
    } else {
      worst = Math.max(worst, checkCase(name, options.mode, x, results[i].data, expected.data));
    }
    seen.add(`${expected.type} ${grid.type ?? 'float32'}`);
  });
  assert.equal(seen.size, 8, [...seen].join(', '));
  assert.equal(narrow, 2 * SPATIAL.length * 4 * PADDINGS.length * 2);
  console.log(`${cases.length} calls, ${narrow} judged by checkNarrow; the largest difference ` +
              `of the others is ${worst.toFixed(3)} of the bound`);
});

// Whether a case of the vector files has float X and grid the GPU path takes, one of them
// narrower than float32 (webgpu.test.mjs has float32's alone).
const narrowInScope = ({ x, grid }) =>
  FLOATS.includes(x.type) && GRID_TYPES.includes(grid.type) &&
  (x.type !== 'float32' || grid.type !== 'float32') && x.dims.length <= 7;

test('the float16 and bfloat16 cases of reference_vectors.txt, within the bound', async () => {
  const cases = readVectors(path.join(dataDir, 'reference_vectors.txt')).filter(narrowInScope);
  const results = await page.sampleOnGpu(cases.map((c) => ({
    x: c.x, grid: c.grid,
    options: { mode: c.attrs.mode, paddingMode: c.attrs.padding,
               alignCorners: c.attrs.alignCorners },
  })));
  let worst = 0;
  cases.forEach((c, i) => {
    assert.deepEqual([results[i].dims, results[i].type], [c.y.dims, c.x.type], c.name);
    worst = Math.max(worst, checkCase(c.name, c.attrs.mode, c.x, results[i].data, c.y.data));
  });
  // float16 and bfloat16 X with three grid types, float32 X with two.
  assert.ok(cases.length >= 2 * 54 + 36, `${cases.length} cases`);
  console.log(`${cases.length} cases; the largest difference is ${worst.toFixed(3)} of the bound`);
});

test("packed Y: a call writes Y's bytes and leaves the rest of the buffer", async () => {
  const next = random(77);
  const cases = [];
  // Y of 3 × 7 elements: its last word is shared with bytes past it, and with each other
  // channel's elements.
  for (const type of Object.keys(EXACT)) {
    const x = exactImage(type, [4, 5], next);
    const grid = { data: Float32Array.from({ length: 2 * 7 * 2 }, () => next(2001) / 1000 - 1),
                   dims: [2, 7, 1, 2] };
    for (const mode of MODES) {
      cases.push({ x, grid, options: { mode }, out: 2 * 3 * 7 * x.data.BYTES_PER_ELEMENT + 11 });
    }
  }
  const results = await page.sampleOnGpu(cases);
  cases.forEach(({ x, grid, options, out }, i) => {
    const expected = cpuGridSample(x, grid, options);
    const bytes = new Uint8Array(expected.data.buffer);
    const name = `${x.type} ${options.mode}`;
    assert.deepEqual(Array.from(results[i].bytes.subarray(0, bytes.length)), Array.from(bytes),
                     name);
    assert.deepEqual(Array.from(results[i].bytes.subarray(bytes.length)),
                     Array(out - bytes.length).fill(0xa5), `${name}: the bytes past Y`);
  });
});

// A channels-last (N, D1..Dr, C) Y back to channels-first (N, C, D1..Dr).
function toChannelsFirst(data, dims) {
  const [batch, ...rest] = dims;
  const channels = rest.pop();
  const plane = rest.reduce((a, b) => a * b, 1);
  const out = new data.constructor(data.length);
  for (let n = 0; n < batch; ++n) {
    for (let p = 0; p < plane; ++p) {
      for (let c = 0; c < channels; ++c) {
        out[(n * channels + c) * plane + p] = data[(n * plane + p) * channels + c];
      }
    }
  }
  return out;
}

test('channels-last: the channels-first Y transposed, bit for bit, every type; integers the ' +
     "CPU's", async () => {
  const next = random(4444);
  const pairs = [];
  for (const type of [...FLOATS, ...Object.keys(EXACT)]) {
    SPATIAL.forEach((spatial, s) => {
      // 1, 3 and 4 channels: pixels of narrow types share words, or fill them.
      const channels = [3, 1, 4][s % 3];
      const count = 2 * channels * spatial.reduce((a, b) => a * b, 1);
      const data = new ARRAY_OF[type](count);
      for (let i = 0; i < count; ++i) {
        data[i] = Object.hasOwn(EXACT, type) ? EXACT[type].lowest + next(EXACT[type].highest + 1) :
            type === 'float32' ? (next(2001) - 1000) / 100 : next(0x7c00);
      }
      const first = { data, dims: [2, channels, ...spatial], type };
      const last = { ...toChannelsLast(data, first.dims), type };
      const grid = hostileGrid(spatial.length, next);
      MODES.forEach((mode, m) => {
        PADDINGS.forEach((paddingMode, p) => {
          const options = { mode, paddingMode, alignCorners: (m + p + s) % 2 === 1 };
          pairs.push({ first, last, grid, options });
        });
      });
    });
  }
  const results = await page.sampleOnGpu(pairs.flatMap(({ first, last, grid, options }) => [
    { x: first, grid, options },
    { x: last, grid, options: { ...options, layout: 'channels-last' } },
  ]));
  pairs.forEach(({ first, last, grid, options }, i) => {
    const [firstY, lastY] = [results[2 * i], results[2 * i + 1]];
    const name = `${first.type} ${JSON.stringify(first.dims)} ${JSON.stringify(options)}`;
    const [batch, channels, ...spatialOut] = firstY.dims;
    assert.deepEqual(lastY.dims, [batch, ...spatialOut, channels], name);
    const back = toChannelsFirst(lastY.data, lastY.dims);
    assert.ok(sameBits(back, firstY.data), `${name}: ${firstDifference(back, firstY.data)}`);
    if (Object.hasOwn(EXACT, first.type)) {
      const cpu = cpuGridSample(last, grid, { ...options, layout: 'channels-last' });
      assert.ok(sameBits(lastY.data, cpu.data),
                `${name}: ${firstDifference(lastY.data, cpu.data)}`);
    }
  });
  assert.equal(pairs.length, 8 * SPATIAL.length * MODES.length * PADDINGS.length);
});

test('an RGBA image as a canvas holds it: (1, H, W, 4) uint8, as the CPU samples it', async () => {
  const next = random(255);
  const [height, width] = [37, 53];
  const x = { data: Uint8Array.from({ length: height * width * 4 }, () => next(256)),
              dims: [1, height, width, 4], type: 'uint8' };
  // A rotation with a zoom, out to 29 × 41 pixels, overshooting the image at the corners.
  const [outH, outW] = [29, 41];
  const grid = new Float32Array(outH * outW * 2);
  for (let h = 0; h < outH; ++h) {
    for (let w = 0; w < outW; ++w) {
      const [u, v] = [(2 * w + 1) / outW - 1, (2 * h + 1) / outH - 1];
      grid[2 * (h * outW + w)] = 1.1 * (0.8 * u - 0.6 * v);
      grid[2 * (h * outW + w) + 1] = 1.1 * (0.6 * u + 0.8 * v);
    }
  }
  const cases = [];
  for (const mode of MODES) {
    for (const paddingMode of PADDINGS) {
      cases.push({ x, grid: { data: grid, dims: [1, outH, outW, 2] },
                   options: { mode, paddingMode, layout: 'channels-last' } });
    }
  }
  const results = await page.sampleOnGpu(cases);
  cases.forEach(({ grid, options }, i) => {
    const cpu = cpuGridSample(x, grid, options);
    assert.deepEqual(results[i].dims, [1, outH, outW, 4]);
    assert.ok(sameBits(results[i].data, cpu.data),
              `${JSON.stringify(options)}: ${firstDifference(results[i].data, cpu.data)}`);
  });
});

test('the device reported no error of its own', async () => {
  assert.deepEqual(await page.gpuErrors(), []);
});
