// Every case of the native reference's vectors (tests/data/reference_vectors.txt: every dtype,
// ranks 1-4, every mode x padding x align_corners; in both layouts: channels-last X gives the
// channels-first Y transposed, bit for bit), of the golden file (tests/data/golden.txt:
// onnx.reference and the exact NOTES model) and of the exact integer cases
// (tests/data/exact_integers.txt: an exact rational model) through the package's JS API.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { backend, gridSample, init } from 'gridsample';

import {
  closeTo, dataDir, firstMismatch, initOptions, readVectors, registry, sameBits, testBackend,
  toChannelsLast,
} from './helpers.mjs';

const referenceCases = readVectors(path.join(dataDir, 'reference_vectors.txt'));
const goldenCases = readVectors(path.join(dataDir, 'golden.txt'));
const exactCases = readVectors(path.join(dataDir, 'exact_integers.txt'));

// Numbers per element: 2 for complex (interleaved), else 1.
const partsOf = (type) => (registry().get(type).kind === 'kComplex' ? 2 : 1);

function run(c, layout = 'channels-first') {
  const parts = partsOf(c.x.type);
  const x = layout === 'channels-last' ? toChannelsLast(c.x.data, c.x.dims, parts) : c.x;
  return gridSample({ data: x.data, dims: x.dims, type: c.x.type },
                    { data: c.grid.data, dims: c.grid.dims, type: c.grid.type },
                    { mode: c.attrs.mode, paddingMode: c.attrs.padding,
                      alignCorners: c.attrs.alignCorners, layout });
}

function show(values, at) {
  const pick = (v) => (typeof v === 'bigint' ? `${v}n` : JSON.stringify(v));
  return pick(values[at]);
}

before(() => init(initOptions));

test('runs on the backend GRIDSAMPLE_TEST_BACKEND names (default: wasm)', () => {
  assert.equal(backend(), testBackend);
});

describe('reference vectors (native scalar reference vs the wasm build)', () => {
  test('the file covers every dtype of the registry, ranks 1-4, every mode/padding/align', () => {
    const seen = new Set(referenceCases.map(
        (c) => `${c.x.type} ${c.x.dims.length - 2} ${c.attrs.mode} ${c.attrs.padding} ` +
               `${c.attrs.alignCorners}`));
    for (const type of registry().keys()) {
      for (let rank = 1; rank <= 4; ++rank) {
        for (const mode of ['linear', 'nearest', 'cubic']) {
          if (type === 'string' && mode !== 'nearest') continue;
          for (const padding of ['zeros', 'border', 'reflection']) {
            for (const align of [false, true]) {
              assert.ok(seen.has(`${type} ${rank} ${mode} ${padding} ${align}`),
                        `no case for ${type} rank ${rank} ${mode} ${padding} align ${align}`);
            }
          }
        }
      }
    }
    const gridTypes = new Set(referenceCases.map((c) => c.grid.type));
    assert.deepEqual([...gridTypes].sort(), ['bfloat16', 'float16', 'float32', 'float64']);
  });

  const byType = Map.groupBy ? Map.groupBy(referenceCases, (c) => c.x.type) :
      referenceCases.reduce((m, c) => m.set(c.x.type, [...(m.get(c.x.type) || []), c]), new Map());
  for (const [type, cases] of byType) {
    test(`${type}: ${cases.length} cases`, () => {
      const info = registry().get(type);
      const failures = [];
      for (const c of cases) {
        const y = run(c);
        assert.deepEqual(y.dims, c.y.dims, c.name);
        assert.equal(y.type, type, c.name);
        assert.equal(y.data.constructor, c.y.data.constructor, c.name);
        const at = firstMismatch(info, y.data, c.y.data, c.attrs.mode === 'nearest');
        if (at >= 0) {
          failures.push(`${c.name}: element ${at}: got ${show(y.data, at)}, expected ` +
                        `${show(c.y.data, at)}`);
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`);
    });
    test(`${type}, channels-last: ${cases.length} cases, the channels-first Y transposed`, () => {
      const info = registry().get(type);
      const failures = [];
      for (const c of cases) {
        const first = run(c);
        const y = run(c, 'channels-last');
        const expected = toChannelsLast(c.y.data, c.y.dims, partsOf(type));
        assert.deepEqual(y.dims, expected.dims, c.name);
        const at = firstMismatch(info, y.data, expected.data, c.attrs.mode === 'nearest');
        if (at >= 0) {
          failures.push(`${c.name}: element ${at}: got ${show(y.data, at)}, expected ` +
                        `${show(expected.data, at)}`);
        } else if (!sameBits(y.data, toChannelsLast(first.data, first.dims, partsOf(type)).data)) {
          failures.push(`${c.name}: not the channels-first Y transposed, bit for bit`);
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`);
    });
  }
});

describe('golden vectors (tests/data/golden.txt)', () => {
  for (const type of ['float32', 'float64']) {
    const cases = goldenCases.filter((c) => c.x.type === type);
    test(`${type} X: ${cases.length} cases`, () => {
      // The native golden suite's tolerance: tol * (1 + |expected|), NaN exactly where expected.
      const tol = type === 'float32' ? 1e-5 : 1e-12;
      const failures = [];
      for (const c of cases) {
        const y = run(c);
        assert.deepEqual(y.dims, c.y.dims, c.name);
        for (let i = 0; i < c.y.data.length; ++i) {
          const a = y.data[i];
          const e = c.y.data[i];
          const ok = Number.isNaN(e) ? Number.isNaN(a) :
              a === e || Math.abs(a - e) <= tol * (1 + Math.abs(e));
          if (!ok) {
            failures.push(`${c.name}: element ${i}: got ${a}, expected ${e}`);
            break;
          }
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`);
    });
  }
  test('every golden case was run', () => {
    assert.equal(goldenCases.filter((c) => !['float32', 'float64'].includes(c.x.type)).length, 0);
    assert.ok(goldenCases.length > 100);
    assert.ok(closeTo([1], [1]));
  });
});

describe('exact integers (tests/data/exact_integers.txt)', () => {
  test(`${exactCases.length} cases of every integer type and bool, bit for bit`, () => {
    assert.ok(exactCases.length >= 612);
    const failures = [];
    for (const c of exactCases) {
      const y = run(c);
      assert.deepEqual(y.dims, c.y.dims, c.name);
      const at = firstMismatch(registry().get(c.x.type), y.data, c.y.data, true);
      if (at >= 0) {
        failures.push(`${c.name}: element ${at}: got ${show(y.data, at)}, expected ` +
                      `${show(c.y.data, at)}`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${exactCases.length} cases differ`);
  });

  test('a flat uint8 image of 200 stays 200 under a random border grid, in every mode', () => {
    // 3 x 64 x 64 of 200 and a 128 x 128 grid uniform in +-0.9: summed in float32 this came
    // back with 199 in 5% (linear) and 32% (cubic) of the outputs.
    const x = new Uint8Array(3 * 64 * 64).fill(200);
    let state = 200;
    const grid = Float32Array.from({ length: 128 * 128 * 2 }, () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return (state / 2147483648) * 1.8 - 0.9;
    });
    for (const mode of ['linear', 'cubic', 'nearest']) {
      const y = gridSample({ data: x, dims: [1, 3, 64, 64] },
                           { data: grid, dims: [1, 128, 128, 2] }, { mode, paddingMode: 'border' });
      assert.equal(y.data.length, 3 * 128 * 128);
      assert.equal(y.data.filter((v) => v !== 200).length, 0, mode);
    }
  });

  test('RGBA bytes channels-last (the pixel pairs) give the planes\' Y transposed, bit for bit',
       () => {
    // Images and volumes past a few vectors of locations, every padding: the pixel kernel sums
    // all 4 channels of a location at once, the pair kernel each plane apart; both sums are
    // exact, so they agree bit for bit.
    let state = 7;
    const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [dims, out] of [[[1, 4, 37, 45], [70, 90]], [[1, 4, 6, 20, 24], [9, 30, 31]]]) {
      const count = dims.reduce((a, b) => a * b, 1);
      const planes = Uint8Array.from({ length: count }, () => Math.floor(random() * 256));
      const x = toChannelsLast(planes, dims);
      const points = out.reduce((a, b) => a * b, 1);
      const gridDims = [1, ...out, dims.length - 2];
      const grid = Float32Array.from({ length: points * (dims.length - 2) },
                                     () => random() * 2.4 - 1.2);
      for (const paddingMode of ['zeros', 'border', 'reflection']) {
        for (const alignCorners of [false, true]) {
          const options = { paddingMode, alignCorners };
          const first = gridSample({ data: planes, dims }, { data: grid, dims: gridDims },
                                   options);
          const last = gridSample({ data: x.data, dims: x.dims }, { data: grid, dims: gridDims },
                                  { ...options, layout: 'channels-last' });
          const expected = toChannelsLast(first.data, first.dims);
          assert.ok(sameBits(last.data, expected.data),
                    `${dims.length - 2}-D, ${paddingMode}, alignCorners ${alignCorners}`);
        }
      }
    }
  });
});
