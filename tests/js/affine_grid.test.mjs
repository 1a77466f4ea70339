// affineGrid through the package: the golden file (tests/data/affine_grid.txt: onnx.reference
// and an exact model; scripts/gen_affine_grid.py) bit for bit, its grids straight into
// gridSample, the forms `theta` and `size` may take (onnxruntime-web tensors included), and
// hostile arguments: a wrong JS type is a TypeError, a bad shape, value or size a RangeError,
// both "gridsample: ..." naming the argument; after each the heap is as it was (assertRefused).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { affineGrid, gridSample, init } from 'gridsample';
import { Tensor } from 'onnxruntime-web';

import {
  assertRefused, bfloat16ToNumber, dataDir, halfToNumber, initOptions, parseTensor, scenario,
  testBackend,
} from './helpers.mjs';

before(() => init(initOptions));

// Reads tests/data/affine_grid.txt (format: tests/data/README.md):
// [{ name, alignCorners, theta, size (numbers), grid, reference }], tensors as parseTensor's.
function readAffineCases(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
  const cases = [];
  for (let i = 0; i < lines.length; i += 7) {
    const [keyword, name] = lines[i].split(' ');
    if (keyword !== 'case') throw new Error(`expected 'case', got: ${lines[i].slice(0, 60)}`);
    const attrs = lines[i + 1].split(' ');
    if (attrs[0] !== 'attrs' || !/^align_corners=[01]$/.test(attrs[1])) {
      throw new Error(`case ${name}: expected 'attrs align_corners=<0|1>'`);
    }
    if (lines[i + 6] !== 'end') throw new Error(`case ${name}: no 'end'`);
    cases.push({
      name,
      alignCorners: attrs[1] === 'align_corners=1',
      theta: parseTensor(lines[i + 2], 'theta'),
      size: Array.from(parseTensor(lines[i + 3], 'size').data, Number),
      grid: parseTensor(lines[i + 4], 'grid'),
      reference: parseTensor(lines[i + 5], 'reference'),
    });
  }
  return cases;
}

const cases = readAffineCases(path.join(dataDir, 'affine_grid.txt'));

// (significant bits, smallest normal exponent, largest exponent) and the value of an element.
const FORMATS = {
  float32: { bits: 24, emin: -126, emax: 127, value: (v) => v },
  float64: { bits: 53, emin: -1022, emax: 1023, value: (v) => v },
  float16: { bits: 11, emin: -14, emax: 15, value: halfToNumber },
  bfloat16: { bits: 8, emin: -126, emax: 127, value: bfloat16ToNumber },
};

// Half an ulp of the format at |v|.
function halfUlp(v, { bits, emin }) {
  let exponent = v === 0 ? emin : Math.floor(Math.log2(Math.abs(v)));
  if (2 ** exponent > Math.abs(v)) exponent -= 1;  // log2 rounded up
  return 2 ** (Math.max(exponent, emin) - bits);
}

function bytes(view) {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function run(c) {
  return affineGrid(c.theta, c.size, { alignCorners: c.alignCorners });
}

describe('golden vectors (tests/data/affine_grid.txt)', () => {
  test('the file covers every dtype, both alignments, 2-D and 3-D, N of 1 to 3', () => {
    assert.ok(cases.length >= 136, `${cases.length} cases`);
    const seen = new Set(cases.map((c) => `${c.theta.type} ${c.alignCorners} ${c.size.length}`));
    for (const type of Object.keys(FORMATS)) {
      for (const align of [false, true]) {
        for (const length of [4, 5]) {
          assert.ok(seen.has(`${type} ${align} ${length}`), `${type} ${align} ${length}`);
        }
      }
    }
    assert.deepEqual([...new Set(cases.map((c) => c.size[0]))].sort(), [1, 2, 3]);
  });

  for (const type of Object.keys(FORMATS)) {
    const ofType = cases.filter((c) => c.theta.type === type);
    test(`${type}: ${ofType.length} cases bit for bit, near onnx.reference`, () => {
      const format = FORMATS[type];
      const failures = [];
      for (const c of ofType) {
        const grid = run(c);
        assert.deepEqual(grid.dims, c.grid.dims, c.name);
        assert.equal(grid.type, type, c.name);
        assert.equal(grid.data.constructor, c.grid.data.constructor, c.name);
        assert.deepEqual(bytes(grid.data), bytes(c.grid.data), c.name);
        // Within half an ulp of onnx.reference's float64 values, plus their drift: a few
        // float64 ulps of |theta| over the value's row (every base coordinate is in [-1, 1]).
        const r = c.size.length - 2;
        const perItem = grid.data.length / c.size[0];
        for (let i = 0; i < grid.data.length; ++i) {
          const actual = format.value(grid.data[i]);
          const reference = c.reference.data[i];
          const start = (Math.floor(i / perItem) * r + (i % r)) * (r + 1);
          let row = 0;
          for (let j = 0; j <= r; ++j) row += Math.abs(format.value(c.theta.data[start + j]));
          const ok = Number.isFinite(actual) ?
              Math.abs(actual - reference) <=
                  halfUlp(Math.max(Math.abs(actual), Math.abs(reference)), format) +
                  1e-15 * (1 + row) :
              Math.abs(reference) > 2 ** format.emax && Math.sign(actual) === Math.sign(reference);
          if (!ok) {
            failures.push(`${c.name}: value ${i}: got ${actual}, onnx.reference ${reference}`);
            break;
          }
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${ofType.length} cases differ`);
    });
  }
});

describe('the grid goes straight into gridSample', () => {
  // Ones where row == column in each of the n matrices.
  function identity(n, r, type, Array_) {
    const data = new Array_(n * r * (r + 1));
    const one = { float16: 0x3c00, bfloat16: 0x3f80 }[type] ?? 1;
    for (let i = 0; i < data.length; ++i) {
      data[i] = (i % (r * (r + 1))) % (r + 2) === 0 ? one : 0;
    }
    return { data, dims: [n, r, r + 1], type };
  }
  const types = [['float32', Float32Array], ['float64', Float64Array], ['float16', Uint16Array],
                 ['bfloat16', Uint16Array]];
  for (const dims of [[2, 3, 5, 7], [1, 1, 1, 4], [1, 2, 3, 4, 5], [1, 1, 1, 2, 1]]) {
    test(`the identity's grid samples X ${JSON.stringify(dims)} back (nearest, any padding)`,
         () => {
      const count = dims.reduce((a, b) => a * b, 1);
      const x = { data: Float32Array.from({ length: count }, (_, i) => Math.sin(i) * 10), dims };
      for (const [type, Array_] of types) {
        for (const alignCorners of [false, true]) {
          const grid = affineGrid(identity(dims[0], dims.length - 2, type, Array_), dims,
                                  { alignCorners });
          assert.equal(grid.data.constructor, Array_);
          for (const paddingMode of ['zeros', 'border', 'reflection']) {
            const y = gridSample(x, grid, { mode: 'nearest', paddingMode, alignCorners });
            assert.deepEqual(y.dims, dims);
            assert.deepEqual(bytes(y.data), bytes(x.data),
                             `${type} ${alignCorners} ${paddingMode}`);
          }
        }
      }
    });
  }

  test('a 90° rotation turns the image (alignCorners, nearest)', () => {
    // x' = -y, y' = x: output pixel (row i, column j) samples input (row j, column W-1-i).
    const x = { data: Float32Array.from({ length: 12 }, (_, i) => i), dims: [1, 1, 3, 4] };
    const grid = affineGrid({ data: Float32Array.of(0, -1, 0, 1, 0, 0), dims: [1, 2, 3] },
                            [1, 1, 4, 3], { alignCorners: true });
    const y = gridSample(x, grid, { mode: 'nearest', alignCorners: true });
    assert.deepEqual(y.dims, [1, 1, 4, 3]);
    assert.deepEqual(Array.from(y.data), [3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8]);
  });
});

describe('the forms of theta and size', () => {
  const theta = { data: Float32Array.of(0.5, -0.25, 0.125, 2, 1, -1), dims: [1, 2, 3] };
  let expected;
  before(() => { expected = affineGrid(theta, [1, 3, 2, 3]); });

  test('size: numbers, bigints, a BigInt64Array, an int64 tensor, an ort.Tensor', () => {
    const forms = [
      [1n, 3n, 2n, 3n], [1, 3n, 2, 3n], BigInt64Array.of(1n, 3n, 2n, 3n),
      { data: BigInt64Array.of(1n, 3n, 2n, 3n), dims: [4], type: 'int64' },
      { data: [1, 3, 2, 3], dims: [4] }, { data: [1, 3, 2, 3] },
      new Tensor('int64', BigInt64Array.of(1n, 3n, 2n, 3n), [4]),
    ];
    for (const size of forms) {
      const grid = affineGrid(theta, size);
      assert.deepEqual(grid.dims, [1, 2, 3, 2]);
      assert.deepEqual(grid.data, expected.data);
    }
    // x = -2/3, y = -1/2, in the documented order, rounded once.
    assert.deepEqual(Array.from(expected.data.subarray(0, 2)),
                     [Math.fround(0.5 * (-2 / 3) + 0.125 + 0.125),
                      Math.fround(2 * (-2 / 3) + -0.5 + -1)]);
  });

  test('theta: an ort.Tensor, a view at an offset, float16 and bfloat16 bits', () => {
    const ort = new Tensor('float32', theta.data, [1, 2, 3]);
    assert.deepEqual(affineGrid(ort, [1, 3, 2, 3]).data, expected.data);
    const buffer = new ArrayBuffer(4 * 9);
    const view = new Float32Array(buffer, 4, 6);
    view.set(theta.data);
    assert.deepEqual(affineGrid({ data: view, dims: [1, 2, 3] }, [1, 3, 2, 3]).data,
                     expected.data);
    for (const type of ['float16', 'bfloat16']) {
      const bits = type === 'float16' ? Uint16Array.of(0x3800, 0xb400, 0x3000, 0x4000, 0x3c00,
                                                       0xbc00) :
          Uint16Array.of(0x3f00, 0xbe80, 0x3e00, 0x4000, 0x3f80, 0xbf80);
      const grid = affineGrid({ data: bits, dims: [1, 2, 3], type }, [1, 3, 2, 3]);
      assert.equal(grid.type, type);
      assert.ok(grid.data instanceof Uint16Array);
      // The same theta: the float32 grid within the narrower type's rounding.
      const decode = type === 'float16' ? halfToNumber : bfloat16ToNumber;
      for (let i = 0; i < grid.data.length; ++i) {
        const value = decode(grid.data[i]);
        assert.ok(Math.abs(value - expected.data[i]) <= 2 ** -7 * Math.abs(expected.data[i]),
                  `${type} value ${i}: ${value} vs ${expected.data[i]}`);
      }
    }
  });

  test('3-D, empty grids, and alignCorners 0 and 1', () => {
    const theta3 = { data: Float64Array.of(1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0), dims: [1, 3, 4] };
    const grid = affineGrid(theta3, [1, 1, 2, 1, 2], { alignCorners: 1 });
    assert.deepEqual(grid.dims, [1, 2, 1, 2, 3]);
    assert.deepEqual(Array.from(grid.data), [-0.5, -1, -1, 1.5, -1, -1, -0.5, -1, 1, 1.5, -1, 1]);
    assert.deepEqual(affineGrid(theta3, [1, 1, 2, 1, 2], { alignCorners: 0 }).data,
                     affineGrid(theta3, [1, 1, 2, 1, 2]).data);
    const empty = affineGrid({ data: new Float32Array(0), dims: [0, 2, 3] }, [0, 3, 4, 5]);
    assert.deepEqual(empty.dims, [0, 4, 5, 2]);
    assert.equal(empty.data.length, 0);
    assert.deepEqual(affineGrid(theta, [1, 3, 0, 5]).dims, [1, 0, 5, 2]);
  });

  test('an argument whose getter calls affineGrid again gets its own result', () => {
    const size = new Proxy([1, 3, 2, 3], {
      get(target, key) {
        if (key === '0') affineGrid(theta, [1, 1, 7, 7]);
        return Reflect.get(target, key);
      },
    });
    assert.deepEqual(affineGrid(theta, size).data, expected.data);
  });
});

describe('hostile arguments', () => {
  const theta = { data: Float32Array.of(1, 0, 0, 0, 1, 0), dims: [1, 2, 3] };
  const size = [1, 1, 2, 2];

  test('theta of the wrong JS type, or not of a floating-point type: TypeError', () => {
    for (const bad of [null, undefined, 3, 's', {}, [], Float32Array.of(1, 0, 0, 0, 1, 0)]) {
      assertRefused(() => affineGrid(bad, size), TypeError, /theta must be a tensor/);
    }
    const strings = { data: ['a', 'b', 'c', 'd', 'e', 'f'], dims: [1, 2, 3] };
    assertRefused(() => affineGrid(strings, size), TypeError,
                  /theta\.type: theta holds affine matrices, not strings/);
    assertRefused(() => affineGrid({ data: new Int32Array(6), dims: [1, 2, 3] }, size), TypeError,
                  /theta: dtype int32 is not a floating-point type \(float32, float64, float16/);
    assertRefused(() => affineGrid({ data: new Uint16Array(6), dims: [1, 2, 3] }, size), TypeError,
                  /theta: dtype uint16 is not a floating-point type/);
    assertRefused(() => affineGrid({ ...theta, type: 'float64' }, size), TypeError,
                  /theta\.data: a Float32Array does not hold float64/);
    const gone = theta.data.slice();
    structuredClone(gone.buffer, { transfer: [gone.buffer] });
    assertRefused(() => affineGrid({ data: gone, dims: [1, 2, 3] }, size), TypeError,
                  /theta\.data: the array's ArrayBuffer is detached/);
  });

  test('theta of the wrong shape or length: RangeError naming theta', () => {
    assertRefused(() => affineGrid({ data: new Float32Array(9), dims: [1, 3, 3] }, size),
                  RangeError, /theta: shape \[1, 3, 3\] must be \(N, 2, 3\) for the 2-D size/);
    assertRefused(() => affineGrid(theta, [1, 1, 2, 2, 2]), RangeError,
                  /theta: shape \[1, 2, 3\] must be \(N, 3, 4\) for the 3-D size \[1, 1, 2, 2/);
    assertRefused(() => affineGrid(theta, [2, 1, 2, 2]), RangeError,
                  /theta: batch 1 must equal N = 2 of size \[2, 1, 2, 2\]/);
    assertRefused(() => affineGrid({ data: new Float32Array(5), dims: [1, 2, 3] }, size),
                  RangeError, /theta\.data has 5 elements, but dims \[1, 2, 3\] need 6 values/);
    assertRefused(() => affineGrid({ data: theta.data, dims: [1, 2, 3.5] }, size), RangeError,
                  /theta\.dims\[2\] must be an integer, got 3\.5/);
  });

  test('size of the wrong JS type: TypeError; of the wrong length or values: RangeError', () => {
    for (const bad of [null, undefined, 4, '1122', new Float64Array(4), new Int32Array(4)]) {
      assertRefused(() => affineGrid(theta, bad), TypeError,
                    /size must be an array of integers, a BigInt64Array or an int64 tensor/);
    }
    assertRefused(() => affineGrid(theta, { data: new Int32Array(4), dims: [4] }), TypeError,
                  /size\.data must be an array of integers/);
    assertRefused(() => affineGrid(theta, { data: size, type: 'int32' }), TypeError,
                  /size\.type must be "int64", got the string "int32"/);
    assertRefused(() => affineGrid(theta, [1, 1, '2', 2]), TypeError,
                  /size\[2\] must be an integer \(a number or a bigint\), got the string "2"/);
    for (const bad of [[1, 1, 2], [1, 1, 2, 2, 2, 2], [], BigInt64Array.of(1n, 1n, 2n)]) {
      assertRefused(() => affineGrid(theta, bad), RangeError,
                    /size has \d values; expected 4, \(N, C, H, W\), or 5, \(N, C, D, H, W\)/);
    }
    assertRefused(() => affineGrid(theta, [1, 1, 2.5, 2]), RangeError,
                  /size\[2\] must be an integer, got 2\.5/);
    assertRefused(() => affineGrid(theta, [1, 1, NaN, 2]), RangeError,
                  /size\[2\] must be an integer, got NaN/);
    assertRefused(() => affineGrid(theta, [1, 1, 2, 2n ** 60n]), RangeError,
                  /size\[3\] must be a safe integer, got 1152921504606846976n/);
    assertRefused(() => affineGrid(theta, [1, 1, 2, -2]), RangeError,
                  /size: value -2 at index 3 of \[1, 1, 2, -2\] is negative/);
    assertRefused(() => affineGrid(theta, { data: size, dims: [5] }), RangeError,
                  /size\.dims must be \[4\] for the 4 values of size\.data/);
  });

  test('grids beyond the heap or int64: RangeError before anything is allocated', () => {
    // The WebAssembly heap ends at 2 GiB; the native backend has no such ceiling.
    if (testBackend === 'wasm') {
      const theta64 = { data: new Float64Array(6), dims: [1, 2, 3] };
      assertRefused(() => affineGrid(theta64, [1, 1, 15000, 10000]), RangeError,
                    /theta and the grid \[1, 15000, 10000, 2\] need 2400000048 bytes, more than /);
    }
    assertRefused(() => affineGrid(theta, [1, 1, 2 ** 40, 2 ** 40]), RangeError,
                  /grid: the element count of shape \[1, 1099511627776, 1099511627776, 2\] /);
  });

  test('options: unknown names and bad alignCorners values', () => {
    assertRefused(() => affineGrid(theta, size, 'align'), TypeError,
                  /options must be an object, got the string "align"/);
    assertRefused(() => affineGrid(theta, size, { align_corners: true }), TypeError,
                  /unknown option "align_corners" \(did you mean alignCorners\?\); the options /);
    assertRefused(() => affineGrid(theta, size, { mode: 'nearest' }), TypeError,
                  /unknown option "mode"; the options are alignCorners$/);
    assertRefused(() => affineGrid(theta, size, { alignCorners: 'yes' }), TypeError,
                  /options\.alignCorners must be a boolean, 0 or 1, got the string "yes"/);
    assertRefused(() => affineGrid(theta, size, { alignCorners: 2 }), RangeError,
                  /options\.alignCorners must be a boolean, 0 or 1, got 2/);
    assert.equal(affineGrid(theta, size, null).data.length, 8);
  });

  test('before init (a process of its own): Error', async () => {
    const result = await scenario(`import * as gs from 'gridsample';`, `
      let early;
      try { gs.affineGrid({ data: new Float32Array(6), dims: [1, 2, 3] }, [1, 1, 2, 2]); }
      catch (e) { early = e.constructor.name + ': ' + e.message; }
      await gs.init();
      const after = gs.affineGrid({ data: new Float32Array(6), dims: [1, 2, 3] }, [1, 1, 2, 2]);
      console.log(JSON.stringify({ early, after: after.dims }));
    `);
    assert.match(result.early, /^Error: gridsample: not loaded yet: call /);
    assert.deepEqual(result.after, [1, 2, 2, 2]);
  });
});
