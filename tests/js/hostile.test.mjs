// The npm package against hostile input (issue 6): values of the wrong type in every argument
// position, bad dims and data lengths, views with offsets, shared, resizable and detached
// buffers, `out` misuse, `type` mismatches, unknown options and values, sizes beyond the
// WebAssembly heap, calls around init(), and arguments whose getters or Proxy traps lie or call
// gridSample again. A wrong JS type is a TypeError, a bad shape, value or size a RangeError,
// both "gridsample: ..." naming the argument; after each the heap is as it was and the next call
// computes the spec's example (assertRefused).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import vm from 'node:vm';

import { gridSample, init } from 'gridsample';

import {
  assertRefused, closeTo, EXAMPLE_ROW, embindModule, heapState, initOptions, keepsHeap, scenario,
  specExample, testBackend, wasmOnly,
} from './helpers.mjs';

before(() => init(initOptions));

const example = specExample();
const { x, grid } = example;

// One value of every kind no argument position takes (each position adds its own).
const KINDS = {
  'null': null, 'undefined': undefined, 'a number': 3, 'a string': 's', 'a plain object': {},
  'an array': [], 'a function': () => {}, 'a Symbol': Symbol('s'), 'a BigInt': 5n,
};

// Copies of a typed array into a larger buffer at an element offset: the view the caller might
// have (byteOffset != 0, not 16-aligned) over the same values.
function offsetView(array, offset, Buffer_ = ArrayBuffer) {
  const Class = array.constructor;
  const buffer = new Buffer_((array.length + offset + 3) * Class.BYTES_PER_ELEMENT);
  const view = new Class(buffer, offset * Class.BYTES_PER_ELEMENT, array.length);
  view.set(array);
  return view;
}

function detached(array) {
  const copy = array.slice();
  structuredClone(copy.buffer, { transfer: [copy.buffer] });
  return copy;
}

function sameResult(actual, expected) {
  assert.deepEqual(actual.dims, expected.dims);
  assert.equal(actual.type, expected.type);
  assert.deepEqual(Array.from(actual.data), Array.from(expected.data));
}

describe('wrong JS types in every argument position: TypeError', () => {
  // [position, call with the bad value, message, the kinds this position accepts or answers
  // differently (they get rows of their own below)]
  const positions = [
    ['x', (v) => gridSample(v, grid), /x must be a tensor \{ data, dims, type\? \}, got /, []],
    ['grid', (v) => gridSample(x, v), /grid must be a tensor/, []],
    ['options', (v) => gridSample(x, grid, v), /options must be an object, got /,
     ['null', 'undefined', 'a plain object']],
    ['x.data', (v) => gridSample({ data: v, dims: x.dims }, grid),
     /x\.data must be a typed array \(or string\[\]\), got /, ['an array']],
    ['x.dims', (v) => gridSample({ data: x.data, dims: v }, grid),
     /x\.dims must be an array of numbers, got /, ['an array']],
    ['x.dims[2]', (v) => gridSample({ data: x.data, dims: [1, 1, v, 4] }, grid),
     /x\.dims\[2\] must be a number, got /, ['a number']],
    ['x.type', (v) => gridSample({ ...x, type: v }, grid), /x\.type must be a string, got /,
     ['undefined', 'a string']],
    ['grid.data', (v) => gridSample(x, { data: v, dims: grid.dims }),
     /grid\.data must be a typed array/, ['an array']],
    ['grid.dims', (v) => gridSample(x, { data: grid.data, dims: v }),
     /grid\.dims must be an array of numbers/, ['an array']],
    ['grid.dims[3]', (v) => gridSample(x, { data: grid.data, dims: [1, 6, 6, v] }),
     /grid\.dims\[3\] must be a number/, ['a number']],
    ['grid.type', (v) => gridSample(x, { ...grid, type: v }), /grid\.type must be a string/,
     ['undefined', 'a string']],
    ['options.mode', (v) => gridSample(x, grid, { mode: v }),
     /options\.mode must be a string, got /, ['undefined', 'a string']],
    ['options.paddingMode', (v) => gridSample(x, grid, { paddingMode: v }),
     /options\.paddingMode must be a string, got /, ['undefined', 'a string']],
    ['options.alignCorners', (v) => gridSample(x, grid, { alignCorners: v }),
     /options\.alignCorners must be a boolean, 0 or 1, got /, ['undefined', 'a number']],
    ['options.out', (v) => gridSample(x, grid, { out: v }),
     /options\.out must be a typed array, got /, ['undefined']],
  ];
  for (const [position, call, message, skip] of positions) {
    describe(position, () => {
      for (const [kind, value] of Object.entries(KINDS)) {
        if (skip.includes(kind)) continue;
        test(kind, () => assertRefused(() => call(value), TypeError, message));
      }
    });
  }

  test('x.data: numbers in a plain array (only strings come as arrays)', () => {
    assertRefused(() => gridSample({ data: Array.from(x.data), dims: x.dims }, grid),
                  TypeError, /x\.data\[0\] must be a string, got number 0/);
  });
  test('x.data: a DataView, an ArrayBuffer, a boxed array-like', () => {
    for (const data of [new DataView(new ArrayBuffer(64)), new ArrayBuffer(64),
                        { length: 16, 0: 1 }]) {
      assertRefused(() => gridSample({ data, dims: x.dims }, grid), TypeError,
                    /x\.data must be a typed array/);
    }
  });
  test('x.dims: a typed array, a Set, a string', () => {
    for (const dims of [Int32Array.of(1, 1, 4, 4), new Set([1, 4]), '1,1,4,4']) {
      assertRefused(() => gridSample({ data: x.data, dims }, grid), TypeError,
                    /x\.dims must be an array of numbers/);
    }
  });
  test('x.dims[2]: a boxed Number, a numeric string, a hole', () => {
    const hole = [1, 1, 4, 4];
    delete hole[2];
    for (const dims of [[1, 1, Object(4), 4], [1, 1, '4', 4], hole]) {
      assertRefused(() => gridSample({ data: x.data, dims }, grid), TypeError,
                    /x\.dims\[2\] must be a number/);
    }
  });
  test('x.type and options.mode: a boxed String', () => {
    assertRefused(() => gridSample({ ...x, type: Object('float32') }, grid), TypeError,
                  /x\.type must be a string, got a String/);
    assertRefused(() => gridSample(x, grid, { mode: Object('linear') }), TypeError,
                  /options\.mode must be a string, got a String/);
  });
  test('options.out: a DataView, a plain array of numbers', () => {
    for (const out of [new DataView(new ArrayBuffer(144)), new Array(36).fill(0)]) {
      assertRefused(() => gridSample(x, grid, { out }), TypeError,
                    /options\.out must be a typed array/);
    }
  });
  test('a revoked Proxy as x or as options', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    assert.throws(() => gridSample(proxy, grid), TypeError);
    assert.throws(() => gridSample(x, grid, proxy), TypeError);
    assert.ok(closeTo(gridSample(x, grid).data, example.y));
  });
  test('null, undefined and {} options, and undefined option values, are the defaults', () => {
    const expected = gridSample(x, grid, { mode: 'linear', paddingMode: 'zeros',
                                           alignCorners: false });
    for (const options of [undefined, null, {},
                           { mode: undefined, paddingMode: undefined, alignCorners: undefined,
                             out: undefined }]) {
      sameResult(gridSample(x, grid, options), expected);
    }
  });
});

describe('dims: bad values are RangeErrors', () => {
  const bad = [
    ['negative (core)', [1, 1, -4, 4],
     /x: extent -4 of axis 2 in shape \[1, 1, -4, 4\] is negative/],
    ['fractional', [1, 1, 4.5, 4], /x\.dims\[2\] must be an integer, got 4\.5/],
    ['NaN', [1, 1, NaN, 4], /x\.dims\[2\] must be an integer, got NaN/],
    ['Infinity', [1, 1, Infinity, 4], /x\.dims\[2\] must be an integer, got Infinity/],
    ['-Infinity', [1, 1, 4, -Infinity], /x\.dims\[3\] must be an integer, got -Infinity/],
    ['beyond 2^53', [1, 1, 2 ** 53, 4], /x\.dims\[2\] must be an integer, got 9007199254740992/],
    ['empty (rank 0, core)', [], /x: rank 0 \(shape \[\]\) is below 3/],
    ['too few (rank 1, core)', [16], /x: rank 1 \(shape \[16\]\) is below 3/],
  ];
  for (const [what, dims, message] of bad) {
    test(`x.dims ${what}`, () => {
      assertRefused(() => gridSample({ data: x.data, dims }, grid), RangeError, message);
    });
  }
  test('grid.dims NaN, negative, rank not X\'s (core)', () => {
    assertRefused(() => gridSample(x, { data: grid.data, dims: [1, 6, NaN, 2] }), RangeError,
                  /grid\.dims\[2\] must be an integer, got NaN/);
    assertRefused(() => gridSample(x, { data: grid.data, dims: [1, 6, -6, 2] }), RangeError,
                  /grid: extent -6/);
    assertRefused(() => gridSample(x, { data: grid.data, dims: [1, 36, 2] }), RangeError,
                  /grid: rank 3 .* must equal x's rank 4/);
    assertRefused(() => gridSample(x, { data: grid.data, dims: [] }), RangeError, /grid: rank 0/);
  });
  test('too many spatial axes for the mode (core: 2^r / 4^r taps beyond 16384)', () => {
    for (const [mode, r] of [['linear', 15], ['cubic', 8]]) {
      const ones = new Array(r).fill(1);
      assertRefused(() => gridSample({ data: new Float32Array(1), dims: [1, 1, ...ones] },
                                     { data: new Float32Array(r), dims: [1, ...ones, r] },
                                     { mode }),
                    RangeError, /16384/);
    }
    // Nearest reads one element whatever the rank: 40 axes work (beyond the dims scratch).
    const ones = new Array(40).fill(1);
    const y = gridSample({ data: new Float32Array([7]), dims: [1, 1, ...ones] },
                         { data: new Float32Array(40), dims: [1, ...ones, 40] },
                         { mode: 'nearest' });
    assert.deepEqual(Array.from(y.data), [7]);
  });
  test('Proxy arrays whose length is not a length: TypeError; or too long: RangeError', () => {
    const lying = (length, element) => new Proxy([1, 1, 4, 4], {
      get: (target, key) => (key === 'length' ? length : element ?? target[key]),
    });
    for (const length of [-1, 1.5, 'four', 2 ** 60]) {
      assertRefused(() => gridSample({ data: x.data, dims: lying(length) }, grid), TypeError,
                    /x\.dims\.length must be a length/);
    }
    // Refused before 2^32 elements are read one by one.
    assertRefused(() => gridSample({ data: x.data, dims: lying(2 ** 32 - 1) }, grid), RangeError,
                  /x\.dims has 4294967295 elements, more than the WebAssembly heap holds/);
    assertRefused(() => gridSample({ data: lying(2 ** 30, 'a'), dims: [1, 1, 2 ** 30] }, grid),
                  RangeError, /x\.data has 1073741824 elements, more than/);
  });
});

describe('data shorter or longer than dims: RangeError', () => {
  const rows = [
    ['x shorter', () => gridSample({ data: x.data.subarray(1), dims: x.dims }, grid),
     /x\.data has 15 elements, but dims \[1, 1, 4, 4\] need 16 values/],
    ['x longer', () => gridSample({ data: new Float32Array(17), dims: x.dims }, grid),
     /x\.data has 17 elements, but dims \[1, 1, 4, 4\] need 16 values/],
    ['grid shorter', () => gridSample(x, { data: grid.data.subarray(2), dims: grid.dims }),
     /grid\.data has 70 elements, but dims \[1, 6, 6, 2\] need 72 values/],
    ['grid longer', () => gridSample(x, { data: new Float32Array(73), dims: grid.dims }),
     /grid\.data has 73 elements/],
    ['strings shorter', () => gridSample({ data: ['a'], dims: [1, 1, 2] },
                                         { data: new Float32Array(1), dims: [1, 1, 1] },
                                         { mode: 'nearest' }),
     /x\.data has 1 elements, but dims \[1, 1, 2\] need 2 values/],
    ['complex64 with an odd count', () => gridSample(
        { data: new Float32Array(33), dims: [1, 1, 4, 4], type: 'complex64' }, grid),
     /x\.data has 33 elements, .* need 32 numbers \(16 complex64 values, interleaved\)/],
    ['empty data for a non-empty shape', () => gridSample({ data: new Float32Array(0),
                                                           dims: x.dims }, grid),
     /x\.data has 0 elements/],
  ];
  for (const [what, call, message] of rows) {
    test(what, () => assertRefused(call, RangeError, message));
  }
});

describe('views with offsets, shared, resizable and detached buffers', () => {
  test('subarrays at unaligned byte offsets give what copies give, for each kind of array', () => {
    const line = { data: new Float64Array([-1, -0.3, 0.45, 1, 2]), dims: [1, 5, 1] };
    const arrays = [
      Float32Array.of(1.5, -2, 3.25), Float64Array.of(1e300, -2, 3), Int16Array.of(-7, 300, 9),
      Uint8Array.of(1, 200, 3), BigInt64Array.of(-(2n ** 62n), 5n, 2n ** 62n),
      Uint32Array.of(4e9, 1, 2),
    ];
    for (const data of arrays) {
      for (const options of [{ mode: 'nearest', alignCorners: true }, { mode: 'linear' }]) {
        const expected = gridSample({ data, dims: [1, 1, 3] }, line, options);
        const viewed = gridSample({ data: offsetView(data, 1), dims: [1, 1, 3] },
                                  { data: offsetView(line.data, 3), dims: line.dims }, options);
        sameResult(viewed, expected);
      }
    }
    // float32 grid at an odd float offset, complex128 X at one complex value's offset.
    const complex = Float64Array.of(1, 2, 3, 4, 5, 6);
    const c = { data: complex, dims: [1, 1, 3], type: 'complex128' };
    sameResult(gridSample({ ...c, data: offsetView(complex, 2) },
                          { data: offsetView(Float32Array.of(0.2), 1), dims: [1, 1, 1] }),
               gridSample(c, { data: Float32Array.of(0.2), dims: [1, 1, 1] }));
  });

  test('a pooled Node Buffer (byteOffset into a shared pool) as uint8 X', () => {
    const data = Buffer.from([10, 20, 30, 40]);
    assert.ok(data.byteOffset > 0 || data.buffer.byteLength > data.length, 'a pooled Buffer');
    const line = { data: Float32Array.of(-1, 1), dims: [1, 2, 1] };
    const y = gridSample({ data, dims: [1, 1, 4] }, line, { alignCorners: true });
    assert.deepEqual(Array.from(y.data), [10, 40]);
  });

  test('X and the grid as two views into one ArrayBuffer', () => {
    const buffer = new ArrayBuffer((16 + 72) * 4);
    const xs = new Float32Array(buffer, 0, 16);
    const gs = new Float32Array(buffer, 64, 72);
    xs.set(x.data);
    gs.set(grid.data);
    sameResult(gridSample({ data: xs, dims: x.dims }, { data: gs, dims: grid.dims }),
               gridSample(x, grid));
  });

  test('SharedArrayBuffer-backed X, grid and out (growable too) work like ordinary ones', () => {
    const expected = gridSample(x, grid);
    const out = new Float32Array(new SharedArrayBuffer(36 * 4));
    const result = gridSample({ data: offsetView(x.data, 1, SharedArrayBuffer), dims: x.dims },
                              { data: offsetView(grid.data, 2, SharedArrayBuffer),
                                dims: grid.dims }, { out });
    assert.equal(result.data, out);
    sameResult(result, expected);
    const growable = new SharedArrayBuffer(64, { maxByteLength: 1024 });
    const xs = new Float32Array(growable);
    xs.set(x.data);
    sameResult(gridSample({ data: xs, dims: x.dims }, grid), expected);
  });

  test('a length-tracking view of a resizable ArrayBuffer', () => {
    const resizable = new ArrayBuffer(32, { maxByteLength: 256 });
    const xs = new Float32Array(resizable);  // tracks the buffer's length
    resizable.resize(64);
    xs.set(x.data);
    sameResult(gridSample({ data: xs, dims: x.dims }, grid), gridSample(x, grid));
  });

  test('typed arrays of another realm (node:vm)', () => {
    const other = vm.runInNewContext('({ x: new Float32Array(16), g: new Float32Array(72) })');
    assert.ok(!(other.x instanceof Float32Array));
    other.x.set(x.data);
    other.g.set(grid.data);
    const y = gridSample({ data: other.x, dims: x.dims }, { data: other.g, dims: grid.dims });
    assert.ok(y.data instanceof Float32Array);
    sameResult(y, gridSample(x, grid));
  });

  test('detached x.data, grid.data, out: TypeError', () => {
    assertRefused(() => gridSample({ data: detached(x.data), dims: x.dims }, grid), TypeError,
                  /x\.data: the array's ArrayBuffer is detached/);
    assertRefused(() => gridSample(x, { data: detached(grid.data), dims: grid.dims }), TypeError,
                  /grid\.data: the array's ArrayBuffer is detached/);
    assertRefused(() => gridSample(x, grid, { out: detached(new Float32Array(36)) }), TypeError,
                  /options\.out: the array's ArrayBuffer is detached/);
    // Empty: detached still says so rather than computing on nothing.
    assertRefused(() => gridSample({ data: detached(new Float32Array(0)), dims: [0, 1, 1] },
                                   { data: new Float32Array(0), dims: [0, 1, 1] }),
                  TypeError, /detached/);
  });

  test('a buffer detached or shrunk by a getter read after it: TypeError', () => {
    const xs = Float32Array.from(x.data);
    assertRefused(() => gridSample({ data: xs, dims: x.dims }, grid, {
      get mode() {
        structuredClone(xs.buffer, { transfer: [xs.buffer] });
        return 'linear';
      },
    }), TypeError, /x\.data: the array's ArrayBuffer was detached or shrunk while the arguments/);
    const resizable = new ArrayBuffer(64, { maxByteLength: 64 });
    const fixed = new Float32Array(resizable, 0, 16);
    fixed.set(x.data);
    const out = new Float32Array(36);
    assertRefused(() => gridSample({ data: fixed, dims: x.dims }, grid, {
      out,
      get paddingMode() {
        resizable.resize(8);
        return 'zeros';
      },
    }), TypeError, /x\.data: .*detached or shrunk/);
    assert.ok(out.every((v) => v === 0), 'out untouched');
  });
});

describe('out', () => {
  test('of the wrong class: TypeError; of the wrong length: RangeError; left untouched', () => {
    for (const out of [new Float64Array(36), new Int32Array(36), new Uint16Array(36)]) {
      out.fill(3);
      assertRefused(() => gridSample(x, grid, { out }), TypeError,
                    new RegExp(`options\\.out: a ${out.constructor.name} cannot hold float32`));
      assert.ok(out.every((v) => v === 3));
    }
    for (const length of [0, 35, 37]) {
      const out = new Float32Array(length).fill(3);
      assertRefused(() => gridSample(x, grid, { out }), RangeError,
                    new RegExp(`options\\.out has ${length} elements.*needs 36`));
      assert.ok(out.every((v) => v === 3));
    }
  });

  test('aliasing X or the grid gives what a separate out gives', () => {
    // X 1x1x4x4 and a 4x4 grid: Y has X's length, so out can be X's own array.
    const square = { data: Float32Array.from(grid.data.subarray(0, 32)), dims: [1, 4, 4, 2] };
    const expected = gridSample(x, square);
    const xs = Float32Array.from(x.data);
    const result = gridSample({ data: xs, dims: x.dims }, square, { out: xs });
    assert.equal(result.data, xs);
    sameResult(result, expected);
    // out over the grid's own memory (its first 16 floats).
    const gs = Float32Array.from(square.data);
    const out = gs.subarray(0, 16);
    gridSample(x, { data: gs, dims: square.dims }, { out });
    assert.deepEqual(Array.from(out), Array.from(expected.data));
  });

  test('for strings: TypeError', () => {
    assertRefused(() => gridSample({ data: ['a'], dims: [1, 1, 1] },
                                   { data: new Float32Array(1), dims: [1, 1, 1] },
                                   { mode: 'nearest', out: new Uint32Array(1) }),
                  TypeError, /options\.out cannot hold strings/);
  });
});

describe('type against the array: TypeError', () => {
  const rows = [
    [new Float32Array(16), 'float64',
     /a Float32Array does not hold float64 \(expected Float64Array\)/],
    [new Uint16Array(16), 'float32', /a Uint16Array does not hold float32/],
    [new Uint8Array(16), 'int8', /a Uint8Array does not hold int8/],
    [new Int32Array(16), 'uint32', /an? Int32Array does not hold uint32/],
    [new BigInt64Array(16), 'uint64', /a BigInt64Array does not hold uint64/],
    [new Float64Array(16), 'int64', /a Float64Array does not hold int64/],
    [new Array(16).fill('s'), 'float32', /an Array does not hold float32/],
    [new Float32Array(16), 'string', /a Float32Array does not hold string \(expected Array\)/],
  ];
  for (const [data, type, message] of rows) {
    test(`${data.constructor.name} as ${type}`, () => {
      assertRefused(() => gridSample({ data, dims: x.dims, type }, grid), TypeError, message);
    });
  }
  test('unknown type names (case matters; long names are cut in the message)', () => {
    for (const type of ['float8', '', 'Float32', 'FLOAT32', 'x'.repeat(100000)]) {
      assertRefused(() => gridSample({ ...x, type }, grid), TypeError,
                    /x\.type: unknown type "[^"]{0,70}"( \(\d+ characters\))?; expected one of/);
    }
  });
  test('grids of integers (core) or strings', () => {
    assertRefused(() => gridSample(x, { data: new Int16Array(72), dims: grid.dims }), TypeError,
                  /grid: dtype int16 is not a grid type/);
    assertRefused(() => gridSample(x, { data: new Array(72).fill('0'), dims: grid.dims }),
                  TypeError, /grid\.type: a grid holds coordinates/);
  });
});

describe('options: unknown names are TypeErrors, bad values RangeErrors', () => {
  const names = [
    ['padding_mode', / \(did you mean paddingMode\?\)/],
    ['align_corners', / \(did you mean alignCorners\?\)/],
    ['Mode', / \(did you mean mode\?\)/],
    ['interpolation',
     /; the options are mode, paddingMode, alignCorners, layout, out, numThreads$/],
  ];
  for (const [name, hint] of names) {
    test(`unknown option ${name}`, () => {
      assertRefused(() => gridSample(x, grid, { mode: 'nearest', [name]: 'border' }), TypeError,
                    new RegExp(`options: unknown option "${name}"${hint.source}`));
    });
  }
  test('symbol keys, non-enumerable and inherited properties are not options (still read)', () => {
    const nearest = gridSample(x, grid, { mode: 'nearest' });
    const options = Object.create({ mode: 'nearest' });
    Object.defineProperty(options, 'colour', { value: 'red', enumerable: false });
    options[Symbol('tag')] = 1;
    sameResult(gridSample(x, grid, options), nearest);
    class Options { get mode() { return 'nearest'; } }
    sameResult(gridSample(x, grid, new Options()), nearest);
  });
  const values = [
    ['mode "area" (core)', { mode: 'area' }, /mode: unknown value "area"/],
    ['mode "" (core)', { mode: '' }, /mode: unknown value ""/],
    ['mode "LINEAR" (core: case-sensitive)', { mode: 'LINEAR' }, /mode: unknown value "LINEAR"/],
    ['paddingMode "wrap" (core)', { paddingMode: 'wrap' }, /padding_mode: unknown value "wrap"/],
    ['alignCorners 2', { alignCorners: 2 }, /alignCorners must be a boolean, 0 or 1, got 2/],
    ['alignCorners -1', { alignCorners: -1 }, /got -1/],
    ['alignCorners 0.5', { alignCorners: 0.5 }, /got 0\.5/],
    ['alignCorners NaN', { alignCorners: NaN }, /got NaN/],
    ['numThreads 0', { numThreads: 0 },
     /options\.numThreads must be a whole number at least 1, got 0/],
    ['numThreads -2', { numThreads: -2 }, /numThreads .*got -2/],
    ['numThreads 1.5', { numThreads: 1.5 }, /numThreads .*got 1\.5/],
    ['numThreads NaN', { numThreads: NaN }, /numThreads .*got NaN/],
    ['numThreads Infinity', { numThreads: Infinity }, /numThreads .*got Infinity/],
  ];
  for (const [what, options, message] of values) {
    test(what, () => assertRefused(() => gridSample(x, grid, options), RangeError, message));
  }
  test('numThreads of another type: TypeError; more than init() started: as many as it did', () => {
    for (const [value, shown] of [['2', 'the string "2"'], [2n, 'bigint 2n'], [null, 'null'],
                                  [true, 'boolean true'], [new Number(2), 'a Number']]) {
      assertRefused(() => gridSample(x, grid, { numThreads: value }), TypeError,
                    new RegExp(`options\\.numThreads must be a number, got ${shown}$`));
    }
    sameResult(gridSample(x, grid, { numThreads: 2 ** 40 }), gridSample(x, grid));
  });
  test('a megabyte-long mode: RangeError naming its start, and the heap does not grow', () => {
    const mode = `${'x'.repeat(2 ** 20)}linear`;
    assertRefused(() => gridSample(x, grid, { mode }), RangeError,
                  /mode: unknown value "x{32}…"/);
    assertRefused(() => gridSample(x, grid, { paddingMode: `zeros${'é'.repeat(2 ** 20)}` }),
                  RangeError, /padding_mode: unknown value "zerosé{27}…"/);
  });
});

describe('re-entrancy: getters and Proxies among the arguments', () => {
  const nested = () => gridSample(x, grid, { mode: 'cubic' });

  test('an options getter that calls gridSample: both calls right, heap as it was', () => {
    let inner;
    const outer = keepsHeap(() => gridSample(x, grid, {
      get paddingMode() {
        inner = nested();
        return 'border';
      },
    }));
    sameResult(outer, gridSample(x, grid, { paddingMode: 'border' }));
    sameResult(inner, nested());
  });

  test('Proxies as tensor, dims and data holder whose traps call gridSample', () => {
    let calls = 0;
    const trap = {
      get(target, key) {
        calls += 1;
        nested();
        return target[key];
      },
    };
    const xp = new Proxy({ data: x.data, dims: new Proxy([...x.dims], trap) }, trap);
    const gp = new Proxy({ ...grid }, trap);
    const op = new Proxy({ mode: 'linear' }, trap);
    sameResult(keepsHeap(() => gridSample(xp, gp, op)), gridSample(x, grid));
    assert.ok(calls >= 10, `the traps ran (${calls})`);
  });

  test('each dims entry, data, type and option is read once (getters may change answers)', () => {
    const reads = new Map();
    const count = (key, first, later) => () => {
      reads.set(key, (reads.get(key) || 0) + 1);
      return reads.get(key) === 1 ? first : later;
    };
    const dims = [1, 1, 4, 4];
    Object.defineProperty(dims, 2, { get: count('dims[2]', 4, 4000), enumerable: true });
    const tensor = {};
    Object.defineProperty(tensor, 'data', { get: count('data', x.data, new Float32Array(4000)) });
    Object.defineProperty(tensor, 'dims', { get: count('dims', dims, [1, 1, 1]) });
    Object.defineProperty(tensor, 'type', { get: count('type', 'float32', 'float64') });
    const options = {};
    Object.defineProperty(options, 'mode', { get: count('mode', 'linear', 'cubic'),
                                             enumerable: true });
    const strings = ['a', 'b'];
    Object.defineProperty(strings, 1, { get: count('strings[1]', 'b', 5), enumerable: true });
    sameResult(gridSample(tensor, grid, options), gridSample(x, grid));
    const y = gridSample({ data: strings, dims: [1, 1, 2] },
                         { data: Float32Array.of(1), dims: [1, 1, 1] },
                         { mode: 'nearest', alignCorners: true });
    assert.deepEqual(y.data, ['b']);
    assert.deepEqual(Object.fromEntries(reads), {
      'dims[2]': 1, 'data': 1, 'dims': 1, 'type': 1, 'mode': 1, 'strings[1]': 1,
    });
  });

  test('own length, byteLength, byteOffset, buffer, toStringTag of arrays are not believed', () => {
    const lie = (array) => Object.defineProperties(array, {
      length: { value: 4000 }, byteLength: { value: 1 << 20 }, byteOffset: { value: 8 },
      buffer: { value: new ArrayBuffer(8) }, [Symbol.toStringTag]: { value: 'Float64Array' },
    });
    const out = lie(new Float32Array(36));
    const result = gridSample({ data: lie(Float32Array.from(x.data)), dims: x.dims },
                              { data: lie(Float32Array.from(grid.data)), dims: grid.dims },
                              { out });
    assert.equal(result.type, 'float32');
    assert.ok(closeTo(Array.from({ length: 36 }, (_, i) => out[i]), example.y));
  });

  test('a getter that throws: its own error, heap as it was, the next call works', () => {
    const boom = new Error('boom');
    keepsHeap(() => {
      assert.throws(() => gridSample(x, grid, { get alignCorners() { throw boom; } }),
                    (error) => error === boom);
      assert.throws(() => gridSample({ data: x.data, get dims() { throw boom; } }, grid),
                    (error) => error === boom);
    });
    assert.ok(closeTo(gridSample(x, grid).data, example.y));
  });

  test('a nested call that fails does not disturb the outer one', () => {
    const result = gridSample(x, grid, {
      get mode() {
        assert.throws(() => gridSample(x, grid, { mode: 'area' }), RangeError);
        return 'linear';
      },
    });
    assert.ok(closeTo(result.data, example.y));
  });
});

describe('strings and grid values', () => {
  test('strings cross unchanged: lone surrogates, NULs, long ones; "" where padded', () => {
    const data = ['\uD800', 'a\u0000b', 'é'.repeat(100000), ''];
    const y = gridSample({ data, dims: [1, 1, 4] },
                         { data: Float32Array.of(-1, -1 / 3, 1 / 3, 1, 5, NaN), dims: [1, 6, 1] },
                         { mode: 'nearest', alignCorners: true });
    const expected = [...data, '', ''];
    assert.ok(y.data.length === expected.length && y.data.every((s, i) => s === expected[i]),
              JSON.stringify(y.data.map((s) => s.slice(0, 8))));
  });
  test('NaN, ±Infinity and ±1e30 grid values: NaN or padding, no error', () => {
    const y = gridSample(x, { data: Float32Array.of(NaN, 0, Infinity, 0, -Infinity, 0, 1e30, 0,
                                                    -1e30, 0, 0, 0), dims: [1, 1, 6, 2] });
    assert.ok(Number.isNaN(y.data[0]) && Number.isNaN(y.data[1]) && Number.isNaN(y.data[2]));
    assert.deepEqual(Array.from(y.data.subarray(3, 5)), [0, 0]);
    assert.ok(closeTo(y.data.subarray(5), [7.5]));
  });
});

describe('calls around init() (each in a process of its own)', () => {
  const NODE_ESM = `import * as gs from 'gridsample';`;
  const attempt = `const attempt = () => { try { return example(); }
    catch (e) { return e.constructor.name + ': ' + e.message; } };`;
  const notLoaded = /^Error: gridsample: not loaded yet: call init\(\)/;
  const options = JSON.stringify(initOptions);

  test('before init, and while init is pending: Error; after it resolves: works', async () => {
    const result = await scenario(NODE_ESM, `${attempt}
      const early = attempt();
      const pending = gs.init(${options});
      const during = attempt();
      await pending;
      console.log(JSON.stringify({ early, during, after: attempt() }));
    `);
    assert.match(result.early, notLoaded);
    assert.match(result.during, notLoaded);
    assert.deepEqual(result.after, EXAMPLE_ROW);
  });

  test('concurrent init calls: one promise, one instantiation', async () => {
    const result = await scenario(NODE_ESM, `${attempt}
      let instantiations = 0;
      const original = WebAssembly.instantiate;
      WebAssembly.instantiate = (...args) => { instantiations += 1; return original(...args); };
      const promises = [gs.init(${options}), gs.init(${options}), gs.init(${options})];
      const during = attempt();
      await Promise.all(promises);
      await gs.init(${options});
      console.log(JSON.stringify({ same: promises.every((p) => p === promises[0]), during,
                                   instantiations, after: attempt() }));
    `);
    assert.equal(result.same, true);
    assert.match(result.during, notLoaded);
    assert.equal(result.instantiations, testBackend === 'wasm' ? 1 : 0);
    assert.deepEqual(result.after, EXAMPLE_ROW);
  });

  test('a failed init: still Error; a later init works', async () => {
    const result = await scenario(NODE_ESM, `${attempt}
      let failure;
      try { await gs.init({ wasmBinary: new Uint8Array([0, 97, 115, 109]) }); }
      catch (e) { failure = e.constructor.name; }
      const between = attempt();
      await gs.init(${options});
      console.log(JSON.stringify({ failure, between, after: attempt() }));
    `);
    assert.equal(result.failure, 'CompileError');
    assert.match(result.between, notLoaded);
    assert.deepEqual(result.after, EXAMPLE_ROW);
  });
});

// Last: the heap-filling test leaves the wasm memory at its 2 GiB ceiling (it never shrinks).
describe('sizes: RangeError before anything is allocated, and the package stays usable', () => {
  test('dims of 2^32 elements with 16 values (wasm32: the core; native: the length check)', () => {
    assertRefused(() => gridSample({ data: x.data, dims: [1, 1, 65536, 65536] }, grid),
                  RangeError, testBackend === 'wasm' ?
                      /x: the element count of shape \[1, 1, 65536, 65536\] overflows/ :
                      /x\.data has 16 elements, but dims .* need 4294967296 values/);
  });

  test('dims of 2^30 elements with 16 values (the length check)', () => {
    assertRefused(() => gridSample({ data: x.data, dims: [1, 1, 32768, 32768] }, grid),
                  RangeError, /x\.data has 16 elements, but dims .* need 1073741824 values/);
    assertRefused(() => gridSample(x, { data: grid.data, dims: [1, 16384, 16384, 2] }),
                  RangeError, /grid\.data has 72 elements/);
  });

  test('outputs beyond the 2 GiB heap from small inputs: float64, complex128, strings',
       { skip: wasmOnly }, () => {
    // X: C channels of one element; grid: L locations. Y holds C × L elements.
    const C = 2 ** 14;
    const L = 2 ** 15;
    const line = { data: new Float32Array(L), dims: [1, L, 1] };
    for (const [data, type] of [[new Float64Array(C), 'float64'],
                                [new Float64Array(2 * C), 'complex128']]) {
      assertRefused(() => gridSample({ data, dims: [1, C, 1], type }, line), RangeError,
                    /the tensors need \d+ bytes, more than the WebAssembly heap holds/);
    }
    // Strings: 2^27 outputs need an index and the core's stand-in each.
    const strings = { data: new Array(2 ** 10).fill('s'), dims: [1, 2 ** 10, 1] };
    const locations = { data: new Float32Array(2 ** 17), dims: [1, 2 ** 17, 1] };
    assertRefused(() => gridSample(strings, locations, { mode: 'nearest' }), RangeError,
                  /the grid and the 134217728 output strings need \d+ bytes, more than/);
  });

  test('a heap too full to give the memory now: RangeError from the wrapper, the glue and the ' +
       'core (the module never aborts); then everything works again', { skip: wasmOnly }, () => {
    const module = embindModule();
    const before = heapState();
    // Take all the heap there is (growing the memory to its 2 GiB ceiling), in blocks, then
    // give back 64 KiB: room for small tensors but not for a large one, nor for the core's
    // plans or the glue's stand-ins.
    const room = module._malloc(2 ** 16);
    // And room for the tensors of a call whose output (256 KiB, at 1 thread) is allocated while
    // the call thread samples, given back last: the core then fails there.
    const ones6 = new Array(6).fill(4);
    const backgroundX = { data: new Float32Array(1), dims: [1, 1, 1, 1, 1, 1, 1, 1, 1] };
    const backgroundGrid = { data: new Float32Array(2 ** 16 * 7), dims: [1, ...ones6, 16, 7] };
    const tensorsRoom = module._malloc(16 + 2 ** 16 * 7 * 4 + 2 ** 18 + 64);
    const blocks = [];
    for (let size = 2 ** 30; size >= 2 ** 12;) {
      const block = module._malloc(size);
      if (block) blocks.push(block);
      else size /= 2;
    }
    try {
      assert.equal(module._malloc(2 ** 12), 0, 'the heap is full');
      module._free(room);
      const big = { data: new Float32Array(2 ** 20), dims: [1, 1, 2 ** 20] };
      assert.throws(() => gridSample(big, { data: new Float32Array(1), dims: [1, 1, 1] }),
                    { name: 'RangeError',
                      message: /the tensors need \d+ bytes, which the WebAssembly heap cannot/ });
      // Tiny tensors, but cubic over 7 axes plans 16384 taps per output: the core's scratch.
      const ones = new Array(7).fill(1);
      assert.throws(() => gridSample({ data: new Float32Array(1), dims: [1, 1, ...ones] },
                                     { data: new Float32Array(7), dims: [1, ...ones, 7] },
                                     { mode: 'cubic' }),
                    { name: 'RangeError',
                      message: /^gridsample: y: out of memory for the sampling plan$/ });
      // 10,000 strings: the glue's stand-ins do not fit.
      assert.throws(() => gridSample({ data: new Array(10000).fill('s'), dims: [1, 10000, 1] },
                                     { data: new Float32Array(1), dims: [1, 1, 1] },
                                     { mode: 'nearest' }),
                    { name: 'RangeError',
                      message: /^gridsample: the call needs more memory than the WebAssembly/ });
      // Small calls still run in the room left.
      assert.ok(closeTo(gridSample(x, grid).data, example.y));
      module._free(tensorsRoom);
      assert.throws(() => gridSample(backgroundX, backgroundGrid, { mode: 'cubic', numThreads: 1 }),
                    { name: 'RangeError',
                      message: /^gridsample: y: out of memory for the sampling plan$/ });
    } finally {
      for (const block of blocks) module._free(block);
    }
    assert.deepEqual(heapState(), before);
    const big = { data: new Float32Array(2 ** 22).fill(1), dims: [1, 4, 2 ** 20] };
    const y = gridSample(big, { data: new Float32Array(2 ** 16), dims: [1, 2 ** 16, 1] });
    assert.equal(y.data.length, 2 ** 18);
    assert.ok(y.data.every((v) => v === 1));
    assert.deepEqual(heapState(), before);
  });
});
