// The package's API in Node: dtypes from typed arrays, onnxruntime-web tensors as input, `out`
// reuse, channels-last tensors (canvas RGBA bytes in a Uint8ClampedArray, and Y back in one),
// many-channel images (the core's channels-last path) against one channel at a time,
// errors (TypeError / RangeError with the core's message) that leave the heap as it was, no
// heap growth over 10,000 calls, and memory growth in the middle of a call; `version`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { Tensor } from 'onnxruntime-web';

import { gridSample, init, version } from 'gridsample';

import {
  ARRAY_OF, assertRefused, closeTo, embindModule, initOptions, keepsHeap, memoryBytes, registry,
  repo, sameBits, specExample, toChannelsLast, wasmOnly,
} from './helpers.mjs';

before(() => init(initOptions));

describe('types', () => {
  test('the spec example, float32', () => {
    const { x, grid, y, yDims } = specExample();
    const result = gridSample(x, grid);
    assert.deepEqual(result.dims, yDims);
    assert.equal(result.type, 'float32');
    assert.ok(result.data instanceof Float32Array);
    assert.ok(closeTo(result.data, y), String(result.data));
  });

  test('every registry dtype has a JS representation and runs (nearest copies it)', () => {
    // X: 1x1x1x3 holding 1, 2, 3 in each type's own representation; grid picks [2, 0].
    const grid = { data: new Float32Array([1, 0, -1, 0]), dims: [1, 1, 2, 2] };
    const values = {
      float16: [0x3c00, 0x4000, 0x4200], bfloat16: [0x3f80, 0x4000, 0x4040],
      int64: [1n, 2n, 3n], uint64: [1n, 2n, 3n], bool: [1, 0, 1], string: ['a', 'b', 'c'],
      complex64: [1, -1, 2, -2, 3, -3], complex128: [1, -1, 2, -2, 3, -3],
    };
    for (const [type, info] of registry()) {
      const Array_ = ARRAY_OF[type];
      assert.ok(Array_, `no JS array for ${type}`);
      const data = type === 'string' ? values.string : Array_.from(values[type] || [1, 2, 3]);
      const result = gridSample({ data, dims: [1, 1, 1, 3], type }, grid, { mode: 'nearest' });
      const parts = info.kind === 'kComplex' ? 2 : 1;
      assert.equal(result.type, type);
      assert.deepEqual(result.dims, [1, 1, 1, 2]);
      assert.deepEqual(Array.from(result.data),
                       [...Array.from(data).slice(2 * parts), ...Array.from(data).slice(0, parts)],
                       type);
    }
  });

  test('type defaults from the typed array', () => {
    const grid = { data: new Float64Array([-1]), dims: [1, 1, 1] };
    const cases = [
      [Float32Array, 'float32'], [Float64Array, 'float64'], [Int8Array, 'int8'],
      [Uint8Array, 'uint8'], [Int16Array, 'int16'], [Uint16Array, 'uint16'],
      [Int32Array, 'int32'], [Uint32Array, 'uint32'], [BigInt64Array, 'int64'],
      [BigUint64Array, 'uint64'],
    ];
    for (const [Array_, type] of cases) {
      const data = Array_ === BigInt64Array || Array_ === BigUint64Array ?
          Array_.from([7n, 9n]) : Array_.from([7, 9]);
      const result = gridSample({ data, dims: [1, 1, 2] }, grid,
                                { alignCorners: true, mode: 'nearest' });
      assert.equal(result.type, type);
      assert.ok(result.data instanceof Array_, type);
      assert.equal(result.data[0], data[0]);
    }
    const strings = gridSample({ data: ['p', 'q'], dims: [1, 1, 2] }, grid,
                               { mode: 'nearest', alignCorners: 1 });
    assert.deepEqual(strings, { data: ['p'], dims: [1, 1, 1], type: 'string' });
  });

  test('typed-array subclasses (Node\'s Buffer) count as their base array', () => {
    const x = { data: Buffer.from([10, 20, 30]), dims: [1, 1, 3] };
    const grid = { data: new Float32Array([1, -1]), dims: [1, 2, 1] };
    const result = gridSample(x, grid, { mode: 'nearest', alignCorners: true });
    assert.equal(result.type, 'uint8');
    assert.equal(result.data.constructor, Uint8Array);
    assert.deepEqual(Array.from(result.data), [30, 10]);
    const out = Buffer.alloc(2);
    assert.equal(gridSample({ ...x, type: 'bool' }, grid, { mode: 'nearest', out }).data, out);
    assert.deepEqual(Array.from(out), [1, 1]);
  });

  test('int64 and uint64 beyond 2^53 survive nearest exactly; linear interpolates BigInts', () => {
    const big = [2n ** 62n + 1n, -(2n ** 63n)];
    const grid = { data: new Float32Array([1, -1]), dims: [1, 2, 1] };
    const options = { mode: 'nearest', alignCorners: true };
    assert.deepEqual(Array.from(gridSample({ data: BigInt64Array.from(big), dims: [1, 1, 2] },
                                           grid, options).data), [big[1], big[0]]);
    const ubig = [2n ** 64n - 1n, 2n ** 53n + 1n];
    assert.deepEqual(Array.from(gridSample({ data: BigUint64Array.from(ubig), dims: [1, 1, 2] },
                                           grid, options).data), [ubig[1], ubig[0]]);
    const mid = gridSample({ data: BigInt64Array.from([10n, 20n]), dims: [1, 1, 2] },
                           { data: new Float32Array([0]), dims: [1, 1, 1] },
                           { alignCorners: true });
    assert.deepEqual(Array.from(mid.data), [15n]);
  });

  test('complex: interleaved pairs, dims without the pair', () => {
    const x = { data: new Float32Array([0, 10, 2, 30]), dims: [1, 1, 2], type: 'complex64' };
    const result = gridSample(x, { data: new Float32Array([0]), dims: [1, 1, 1] },
                              { alignCorners: true });
    assert.deepEqual(result.dims, [1, 1, 1]);
    assert.deepEqual(Array.from(result.data), [1, 20]);
  });

  test('float16 and bfloat16 grids; bool X reads any nonzero byte as true', () => {
    const x = { data: Float32Array.from({ length: 16 }, (_, i) => i), dims: [1, 1, 4, 4] };
    // (0, 0) in float16 and bfloat16 bits: the centre, bilinear → mean of 5, 6, 9, 10.
    for (const type of ['float16', 'bfloat16']) {
      const result = gridSample(x, { data: new Uint16Array([0, 0]), dims: [1, 1, 1, 2], type });
      assert.deepEqual(Array.from(result.data), [7.5], type);
    }
    const bool = gridSample({ data: new Uint8Array([0, 2, 0]), dims: [1, 1, 3], type: 'bool' },
                            { data: new Float32Array([0, -1]), dims: [1, 2, 1] },
                            { mode: 'nearest', alignCorners: true });
    assert.deepEqual(Array.from(bool.data), [1, 0]);
    assert.equal(bool.type, 'bool');
  });

  test('strings: UTF-8 both ways, zeros padding gives ""', () => {
    const x = { data: ['α', '😀', '', 'a b'], dims: [1, 1, 4] };
    const grid = { data: new Float32Array([-1, -1 / 3, 1 / 3, 1, 5]), dims: [1, 5, 1] };
    const result = gridSample(x, grid, { mode: 'nearest', alignCorners: true });
    assert.deepEqual(result.data, ['α', '😀', '', 'a b', '']);
  });

  test('16 spatial axes (more dims than the scratch of init() holds), heap unchanged', () => {
    const r = 16;
    const ones = new Array(r).fill(1);
    const result = keepsHeap(() => {
      assert.throws(() => gridSample({ data: new Float32Array([2.5, -4]), dims: [1, 2, ...ones] },
                                     { data: new Float32Array(r), dims: [1, ...ones, r] }),
                    { name: 'RangeError', message: /gridsample: .*16384/ });
      return gridSample({ data: new Float32Array([2.5, -4]), dims: [1, 2, ...ones] },
                        { data: new Float32Array(r).fill(0.2), dims: [1, ...ones, r] },
                        { mode: 'nearest' });
    });
    assert.deepEqual(result.dims, [1, 2, ...ones]);
    assert.deepEqual(Array.from(result.data), [2.5, -4]);
  });

  test('empty tensors', () => {
    const result = gridSample({ data: new Float32Array(0), dims: [0, 3, 4] },
                              { data: new Float32Array(0), dims: [0, 5, 1] });
    assert.deepEqual(result.dims, [0, 3, 5]);
    assert.equal(result.data.length, 0);
  });
});

describe('onnxruntime-web Tensor as input', () => {
  test('float32 X and grid: the spec example', () => {
    const { x, grid, y, yDims } = specExample();
    const result = gridSample(new Tensor('float32', x.data, x.dims),
                              new Tensor('float32', grid.data, grid.dims),
                              { mode: 'bilinear', paddingMode: 'zeros', alignCorners: 0 });
    assert.deepEqual(result.dims, yDims);
    assert.ok(closeTo(result.data, y));
    // The result feeds back into a Tensor.
    const again = new Tensor(result.type, result.data, result.dims);
    assert.equal(again.size, 36);
  });

  test('int64, bool, float16, uint8 and string tensors', () => {
    const grid = new Tensor('float32', new Float32Array([1, -1]), [1, 2, 1]);
    const options = { mode: 'nearest', alignCorners: true };
    const cases = [
      new Tensor('int64', BigInt64Array.from([5n, -6n]), [1, 1, 2]),
      new Tensor('bool', new Uint8Array([1, 0]), [1, 1, 2]),
      new Tensor('float16', new Uint16Array([0x3c00, 0xc000]), [1, 1, 2]),
      new Tensor('uint8', new Uint8Array([200, 7]), [1, 1, 2]),
      new Tensor('string', ['left', 'right'], [1, 1, 2]),
    ];
    for (const x of cases) {
      const result = gridSample(x, grid, options);
      assert.equal(result.type, x.type);
      assert.deepEqual(Array.from(result.data), [x.data[1], x.data[0]], x.type);
    }
  });
});

describe('out', () => {
  test('is filled and returned, call after call', () => {
    const { x, grid, y } = specExample();
    const out = new Float32Array(36);
    for (let i = 0; i < 3; ++i) {
      out.fill(-1);
      const result = gridSample(x, grid, { out });
      assert.equal(result.data, out);
      assert.ok(closeTo(out, y));
    }
  });

  test('a view into a larger buffer: only its own elements are written', () => {
    const { x, grid, y } = specExample();
    const buffer = new Float32Array(40).fill(-7);
    const out = buffer.subarray(2, 38);
    gridSample(x, grid, { out });
    assert.ok(closeTo(out, y));
    assert.deepEqual(Array.from(buffer.subarray(0, 2)), [-7, -7]);
    assert.deepEqual(Array.from(buffer.subarray(38)), [-7, -7]);
  });

  test('float16 out, complex out (interleaved length)', () => {
    const out16 = new Uint16Array(1);
    gridSample({ data: new Uint16Array([0x3c00, 0x4000]), dims: [1, 1, 2], type: 'float16' },
               { data: new Float32Array([1]), dims: [1, 1, 1] },
               { out: out16, alignCorners: true });
    assert.equal(out16[0], 0x4000);
    const outC = new Float64Array(2);
    const result = gridSample(
        { data: new Float64Array([1, 2, 3, 4]), dims: [1, 1, 2], type: 'complex128' },
        { data: new Float32Array([-1]), dims: [1, 1, 1] }, { out: outC, alignCorners: true });
    assert.equal(result.data, outC);
    assert.deepEqual(Array.from(outC), [1, 2]);
  });

  // Large fresh outputs come from memory not zeroed first in Node.js (typed_arrays.js,
  // newOutputArray): that holds only if every call writes every element, as it must into `out`.
  test('large fresh outputs: their own buffer, equal to an `out` filled with garbage first', () => {
    const side = 96;  // 9216 locations: past 64 KiB of output in each type below
    const grid = new Float32Array(side * side * 2);
    for (let i = 0; i < grid.length; ++i) grid[i] = ((i * 7919) % 601) / 200 - 1.5;  // a third out
    const cases = [['float32', Float32Array, 2], ['float64', Float64Array, 1],
                   ['uint8', Uint8Array, 8], ['int64', BigInt64Array, 1]];
    for (const [type, Class, channels] of cases) {
      const x = new Class(channels * 16 * 16);
      for (let i = 0; i < x.length; ++i) {
        x[i] = Class === BigInt64Array ? BigInt(i % 200 + 1) : i % 200 + 1;
      }
      const args = [{ data: x, dims: [1, channels, 16, 16], type },
                    { data: grid, dims: [1, side, side, 2] }];
      for (const mode of ['linear', 'nearest']) {
        const fresh = gridSample(...args, { mode }).data;
        assert.ok(fresh.byteLength >= 64 * 1024, type);
        assert.equal(fresh.byteOffset, 0);
        assert.equal(fresh.buffer.byteLength, fresh.byteLength);
        const out = new Class(fresh.length);
        new Uint8Array(out.buffer).fill(0xA5);  // no element's value
        gridSample(...args, { mode, out });
        assert.ok(sameBits(fresh, out), `${type} ${mode}`);
        const zeros = Array.from(fresh, Number).filter((v) => v === 0).length;
        assert.ok(zeros > 0 && zeros < fresh.length, `${type} ${mode}: ${zeros} zeros`);
      }
    }
  });

  test('wrong class is a TypeError, wrong length a RangeError; out is left as it was', () => {
    const { x, grid } = specExample();
    const wrongClass = new Float64Array(36).fill(3);
    assert.throws(() => gridSample(x, grid, { out: wrongClass }),
                  { name: 'TypeError',
                    message: /options\.out: a Float64Array cannot hold float32/ });
    const short = new Float32Array(35).fill(3);
    assert.throws(() => gridSample(x, grid, { out: short }),
                  { name: 'RangeError', message: /options\.out has 35 elements.*needs 36/ });
    assert.ok(wrongClass.every((v) => v === 3) && short.every((v) => v === 3));
    assert.throws(() => gridSample({ data: ['a'], dims: [1, 1, 1] },
                                   { data: new Float32Array([0]), dims: [1, 1, 1] },
                                   { mode: 'nearest', out: new Uint8Array(1) }),
                  { name: 'TypeError', message: /cannot hold strings/ });
  });
});

describe('errors', () => {
  const { x, grid } = specExample();
  const oneGrid = { data: new Float32Array(1), dims: [1, 1, 1] };
  const cases = [
    // [what, call, error class, message]
    ['x not a tensor', () => gridSample(null, grid), TypeError, /x must be a tensor/],
    ['x a bare typed array', () => gridSample(x.data, grid), TypeError, /x must be a tensor/],
    ['grid.dims not an array', () => gridSample(x, { data: grid.data, dims: '1,6,6,2' }),
     TypeError, /grid\.dims must be an array/],
    ['a dim not a number', () => gridSample({ data: x.data, dims: [1, 1, '4', 4] }, grid),
     TypeError, /x\.dims\[2\] must be a number/],
    ['a fractional dim', () => gridSample({ data: x.data, dims: [1, 1, 4.5, 4] }, grid),
     RangeError, /x\.dims\[2\] must be an integer, got 4\.5/],
    ['data a number array', () => gridSample({ data: [0, 1, 2], dims: [1, 1, 3] }, grid),
     TypeError, /x\.data\[0\] must be a string/],
    ['data a DataView',
     () => gridSample({ data: new DataView(new ArrayBuffer(64)), dims: [1, 1, 4, 4] }, grid),
     TypeError, /x\.data must be a typed array/],
    ['typed array not matching type', () => gridSample({ ...x, type: 'float64' }, grid),
     TypeError, /x\.data: a Float32Array does not hold float64 \(expected Float64Array\)/],
    ['unknown type', () => gridSample({ ...x, type: 'float8' }, grid),
     TypeError, /x\.type: unknown type "float8"/],
    ['type not a string', () => gridSample({ ...x, type: 1 }, grid),
     TypeError, /x\.type must be a string/],
    ['integer grid (core: type mismatch)',
     () => gridSample(x, { data: new Int32Array(72), dims: [1, 6, 6, 2] }),
     TypeError, /grid: dtype int32 is not a grid type/],
    ['string grid', () => gridSample(x, { data: ['a'], dims: [1, 1, 1] }),
     TypeError, /grid\.type: a grid holds coordinates/],
    ['options not an object', () => gridSample(x, grid, 'nearest'),
     TypeError, /options must be an object/],
    ['mode not a string', () => gridSample(x, grid, { mode: 1 }),
     TypeError, /options\.mode must be a string/],
    ['paddingMode not a string', () => gridSample(x, grid, { paddingMode: null }),
     TypeError, /options\.paddingMode must be a string/],
    ['alignCorners a string', () => gridSample(x, grid, { alignCorners: 'yes' }),
     TypeError, /options\.alignCorners must be a boolean, 0 or 1/],
    ['alignCorners 2', () => gridSample(x, grid, { alignCorners: 2 }),
     RangeError, /options\.alignCorners must be a boolean, 0 or 1, got 2/],
    ['out not a typed array', () => gridSample(x, grid, { out: [] }),
     TypeError, /options\.out must be a typed array/],
    ['unknown mode (core)', () => gridSample(x, grid, { mode: 'area' }),
     RangeError, /mode: unknown value "area"/],
    ['unknown padding (core)', () => gridSample(x, grid, { paddingMode: 'wrap' }),
     RangeError, /padding_mode: unknown value "wrap"/],
    ['layout not a string', () => gridSample(x, grid, { layout: 1 }),
     TypeError, /options\.layout must be a string, got number 1/],
    ['unknown layout (core)', () => gridSample(x, grid, { layout: 'NHWC' }),
     RangeError, /layout: unknown value "NHWC"; expected channels-first or channels-last/],
    ['channels-last x rank 2 (core)',
     () => gridSample({ data: new Float32Array(4), dims: [2, 2] }, grid,
                      { layout: 'channels-last' }),
     RangeError, /below 3; X must be \(N, D1, \.\.\., Dr, C\) \(channels-last\)/],
    ['grid last dim (core)',
     () => gridSample(x, { data: new Float32Array(108), dims: [1, 6, 6, 3] }),
     RangeError, /grid: last extent 3/],
    ['N mismatch (core)', () => gridSample(x, { data: new Float32Array(144), dims: [2, 6, 6, 2] }),
     RangeError, /grid: batch 2 must equal x's batch 1/],
    ['x rank 2 (core)', () => gridSample({ data: new Float32Array(4), dims: [2, 2] }, grid),
     RangeError, /x: rank 2 \(shape \[2, 2\]\) is below 3/],
    ['negative dim (core)', () => gridSample({ data: x.data, dims: [1, 1, -4, -4] }, grid),
     RangeError, /x: extent -4 of axis 2 in shape \[1, 1, -4, -4\] is negative/],
    ['overflowing shape (core)',
     () => gridSample({ data: x.data, dims: [2 ** 40, 2 ** 40, 4, 4] },
                      { data: grid.data, dims: [2 ** 40, 6, 6, 2] }),
     RangeError, /x: the element count of shape .* overflows/],
    ['data length vs dims',
     () => gridSample({ data: new Float32Array(15), dims: [1, 1, 4, 4] }, grid),
     RangeError, /x\.data has 15 elements, but dims \[1, 1, 4, 4\] need 16 values/],
    ['complex length vs dims',
     () => gridSample({ data: new Float32Array(16), dims: [1, 1, 4, 4], type: 'complex64' }, grid),
     RangeError, /need 32 numbers \(16 complex64 values, interleaved\)/],
    ['string with linear (core: unsupported)',
     () => gridSample({ data: ['a', 'b'], dims: [1, 1, 2] }, oneGrid),
     RangeError, /only nearest is defined for strings/],
    ['string with a bad mode (core, after the grid is on the heap)',
     () => gridSample({ data: ['a', 'b'], dims: [1, 1, 2] }, oneGrid, { mode: 'near' }),
     RangeError, /mode: unknown value "near"/],
    ['an empty input axis to sample (core)',
     () => gridSample({ data: new Float32Array(0), dims: [1, 1, 0] },
                      { data: new Float32Array(1), dims: [1, 1, 1] }),
     RangeError, /x: spatial axis 0 of shape \[1, 1, 0\] is empty/],
  ];
  if (!wasmOnly) {
    cases.push(['an output larger than the wasm heap (2^29 float32 from small inputs)',
                () => gridSample({ data: new Float32Array(2 ** 14), dims: [1, 2 ** 14, 1] },
                                 { data: new Float32Array(2 ** 15), dims: [1, 2 ** 15, 1] }),
                RangeError, /the tensors need \d+ bytes, more than the WebAssembly heap holds/]);
  }
  for (const [what, call, ErrorClass, message] of cases) {
    test(`${what}: ${ErrorClass.name}, heap unchanged`, () => {
      assertRefused(call, ErrorClass, message);
    });
  }

  test('errors after the tensors are on the heap free them (same malloc pointer after)',
       { skip: wasmOnly }, () => {
    const module = embindModule();
    const probe = module._malloc(256);
    module._free(probe);
    assert.throws(() => gridSample(x, { data: new Int32Array(72), dims: [1, 6, 6, 2] }), TypeError);
    assert.throws(() => gridSample(x, grid, { mode: 'area' }), RangeError);
    const again = module._malloc(256);
    module._free(again);
    assert.equal(again, probe);
  });
});

describe('channels-last', () => {
  // A 5x7 RGBA image as a canvas holds it, warped by a small rotation.
  const [height, width] = [5, 7];
  const rgba = Uint8ClampedArray.from({ length: height * width * 4 }, (_, i) => (i * 97) % 256);
  const steps = (n) => Array.from({ length: n }, (_, i) => ((2 * i + 1) / n - 1) * 1.1);
  const grid = {
    data: Float32Array.from(steps(6).flatMap((gy) => steps(8).flatMap((gx) => [
      0.9 * gx - 0.2 * gy, 0.2 * gx + 0.9 * gy]))),
    dims: [1, 6, 8, 2],
  };
  // The same pixels channels-first, as planes.
  const planes = new Uint8Array(rgba.length);
  for (let c = 0; c < 4; ++c) {
    for (let p = 0; p < height * width; ++p) planes[c * height * width + p] = rgba[p * 4 + c];
  }

  test('RGBA bytes in a Uint8ClampedArray: Y is one too, the channels-first Y transposed', () => {
    for (const mode of ['linear', 'nearest', 'cubic']) {
      for (const paddingMode of ['zeros', 'border', 'reflection']) {
        const y = gridSample({ data: rgba, dims: [1, height, width, 4] }, grid,
                             { mode, paddingMode, layout: 'channels-last' });
        assert.equal(y.type, 'uint8');
        assert.ok(y.data instanceof Uint8ClampedArray);
        assert.deepEqual(y.dims, [1, 6, 8, 4]);  // as new ImageData(y.data, 8, 6) takes it
        const first = gridSample({ data: planes, dims: [1, 4, height, width] }, grid,
                                 { mode, paddingMode });
        assert.deepEqual(Array.from(y.data),
                         Array.from(toChannelsLast(first.data, first.dims).data),
                         `${mode} ${paddingMode}`);
      }
    }
  });

  test('every numeric dtype, ranks 1 to 3: the channels-first Y transposed, bit for bit', () => {
    for (const [type, info] of registry()) {
      if (type === 'string') continue;
      const parts = info.kind === 'kComplex' ? 2 : 1;
      const Array_ = ARRAY_OF[type];
      for (const spatial of [[9], [5, 6], [3, 4, 5]]) {
        const dims = [2, 3, ...spatial];
        const count = dims.reduce((a, b) => a * b, 1) * parts;
        const value = (i) => ((i * 37) % 23) - (info.kind === 'kInt' ? 0 : 11);
        const data = Array_ === BigInt64Array || Array_ === BigUint64Array ?
            Array_.from({ length: count }, (_, i) => BigInt(value(i))) :
            Array_.from({ length: count }, (_, i) => (type.includes('float16') ? 0x3c00 + i :
                                                    value(i)));
        const r = spatial.length;
        const gridDims = [2, ...spatial.map((e) => e + 1), r];
        const gridData = Float32Array.from(
            { length: gridDims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 1.7) * 1.2);
        for (const mode of ['linear', 'nearest', 'cubic']) {
          const options = { mode, paddingMode: 'border' };
          const first = gridSample({ data, dims, type }, { data: gridData, dims: gridDims },
                                   options);
          const last = toChannelsLast(data, dims, parts);
          const y = gridSample({ data: last.data, dims: last.dims, type },
                               { data: gridData, dims: gridDims },
                               { ...options, layout: 'channels-last' });
          const expected = toChannelsLast(first.data, first.dims, parts);
          assert.deepEqual(y.dims, expected.dims, `${type} rank ${r} ${mode}`);
          assert.ok(sameBits(y.data, expected.data), `${type} rank ${r} ${mode}`);
        }
      }
    }
  });

  test('the same dims in the other layout give the other Y dims', () => {
    const x = { data: new Float32Array(64), dims: [1, 4, 4, 4] };
    const g = { data: new Float32Array(2 * 3 * 5), dims: [1, 3, 5, 2] };
    assert.deepEqual(gridSample(x, g).dims, [1, 4, 3, 5]);
    assert.deepEqual(gridSample(x, g, { layout: 'channels-last' }).dims, [1, 3, 5, 4]);
    assert.deepEqual(gridSample(x, g, { layout: 'channels-first' }).dims, [1, 4, 3, 5]);
  });
});

describe('many channels (the core\'s channels-last path)', () => {
  // 20 channels of 24x31: the core copies X channels-last and samples every channel at once;
  // one channel alone takes the pair path. src/channels_last.h promises the same bits from both.
  const [channels, height, width] = [20, 24, 31];
  const gridData = new Float32Array(26 * 29 * 2).map((_, i) => Math.sin(i * 12.9898) * 1.2);
  gridData[7] = NaN;
  const grid = { data: gridData, dims: [1, 26, 29, 2] };
  const plane = height * width;
  const outPlane = 26 * 29;
  const inputs = {
    float32: new Float32Array(channels * plane).map((_, i) => Math.cos(i * 78.233) * 4),
    // float16 and bfloat16 bits of finite values in [-4, 4), signs and exponents mixed
    float16: new Uint16Array(channels * plane).map((_, i) => (i * 7919) % 0x4400 | (i % 2) << 15),
    bfloat16: new Uint16Array(channels * plane).map((_, i) => (i * 7919) % 0x4080 | (i % 2) << 15),
  };
  for (const [type, data] of Object.entries(inputs)) {
    test(`${type}: equal bit for bit to one channel at a time, every padding`, () => {
      for (const paddingMode of ['zeros', 'border', 'reflection']) {
        const whole = gridSample({ data, dims: [1, channels, height, width], type }, grid,
                                 { paddingMode });
        assert.deepEqual(whole.dims, [1, channels, 26, 29]);
        const bits = (array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
        for (let c = 0; c < channels; ++c) {
          const one = gridSample(
              { data: data.subarray(c * plane, (c + 1) * plane), dims: [1, 1, height, width],
                type }, grid, { paddingMode });
          assert.deepEqual(bits(whole.data.subarray(c * outPlane, (c + 1) * outPlane)),
                           bits(one.data), `${type} ${paddingMode} channel ${c}`);
        }
      }
    });
  }

  test('its copy of X is kept, not grown, call after call', () => {
    const x = { data: inputs.float32, dims: [1, channels, height, width] };
    gridSample(x, grid);
    keepsHeap(() => { for (let i = 0; i < 200; ++i) gridSample(x, grid); });
  });
});

describe('memory', () => {
  test('no heap growth over 10,000 calls', () => {
    const { x, grid, y } = specExample();
    const out = new Float32Array(36);
    const strings = { data: ['a', 'b', 'c'], dims: [1, 1, 3] };
    const sgrid = { data: new Float32Array([0.5, -2]), dims: [1, 2, 1] };
    const small = { data: new Float64Array([1, 2, 3, 4, 5, 6]), dims: [1, 2, 3] };
    const line = { data: new Float32Array([0.1, 0.7]), dims: [1, 2, 1] };
    for (let i = 0; i < 100; ++i) gridSample(x, grid);  // warm up
    keepsHeap(() => {
      for (let i = 0; i < 10000; ++i) {
        switch (i % 5) {
          case 0: gridSample(x, grid); break;
          case 1: gridSample(x, grid, { out, mode: 'cubic', paddingMode: 'reflection' }); break;
          case 2: gridSample(strings, sgrid, { mode: 'nearest' }); break;
          case 3: gridSample(small, line, { paddingMode: 'border', alignCorners: true }); break;
          default:
            assert.throws(() => gridSample(x, grid, { mode: 'area' }), RangeError);
        }
      }
    });
    assert.ok(closeTo(gridSample(x, grid).data, y));
  });

  test('a call that grows the memory (views are taken after allocating)', { skip: wasmOnly },
       () => {
    // X of 48 MiB cannot fit the initial 16 MiB: _malloc grows the memory and replaces the
    // heap's ArrayBuffer before the copy in.
    const side = 3584;
    const data = new Float32Array(side * side);
    for (let i = 0; i < data.length; ++i) data[i] = i % 1000;
    const before = memoryBytes();
    const corners = gridSample({ data, dims: [1, 1, side, side] },
                               { data: new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]),
                                 dims: [1, 2, 2, 2] },
                               { alignCorners: true });
    assert.ok(memoryBytes() > before, 'the memory grew');
    const at = (row, col) => (row * side + col) % 1000;
    assert.deepEqual(Array.from(corners.data),
                     [at(0, 0), at(0, side - 1), at(side - 1, 0), at(side - 1, side - 1)]);
    assert.ok(closeTo(gridSample(specExample().x, specExample().grid).data, specExample().y));
  });
});

describe('version', () => {
  test("package.json's, for import and require, and the backend's C++ says the same", () => {
    const { version: expected } =
        JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
    assert.equal(typeof version, 'string');
    assert.equal(version, expected);
    assert.equal(createRequire(import.meta.url)('gridsample').version, expected);
    // GRIDSAMPLE_VERSION_STRING, as CMake wrote it into gridsample/version.h for this build.
    assert.equal(embindModule().version(), expected);
  });
});
