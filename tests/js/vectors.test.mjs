// Every case of the native reference's vectors (tests/data/reference_vectors.txt: every dtype,
// ranks 1-4, every mode x padding x align_corners) and of the golden file (tests/data/golden.txt:
// onnx.reference and the exact NOTES model) through the package's JS API.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { gridSample, init } from 'gridsample';

import { closeTo, dataDir, firstMismatch, readVectors, registry } from './helpers.mjs';

const referenceCases = readVectors(path.join(dataDir, 'reference_vectors.txt'));
const goldenCases = readVectors(path.join(dataDir, 'golden.txt'));

function run(c) {
  return gridSample({ data: c.x.data, dims: c.x.dims, type: c.x.type },
                    { data: c.grid.data, dims: c.grid.dims, type: c.grid.type },
                    { mode: c.attrs.mode, paddingMode: c.attrs.padding,
                      alignCorners: c.attrs.alignCorners });
}

function show(values, at) {
  const pick = (v) => (typeof v === 'bigint' ? `${v}n` : JSON.stringify(v));
  return pick(values[at]);
}

before(() => init());

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
