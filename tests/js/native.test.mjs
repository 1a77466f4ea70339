// The native backend (bindings/node/, bindings/js/native.js) against the WebAssembly one: the
// backend init() reports, the same outcome (the result's bits, or the error's class and
// message) for the same calls, bad ones included, an `out` that shares X's memory, the default
// (native where the addon loads; the wasm module's options ask for WebAssembly), worker_threads
// Workers calling beside the main thread, a package whose addon is broken or missing, which
// asked for it rejects and by default runs WebAssembly, and the SIMD target the addon's kernels
// run. (The vector, AffineGrid, API and hostile-input suites run on both backends too:
// scripts/test.sh, which also runs this suite on linux-arm64 under qemu.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { distDir, scenario, testBackend } from './helpers.mjs';

const platform = `${process.platform}-${process.arch}`;
const addon = path.join(distDir, 'native', platform, 'gridsample.node');
// A platform without an addon skips the suite, unless the native backend is what is tested
// (GRIDSAMPLE_TEST_BACKEND=native): then a missing addon fails it.
const skip = fs.existsSync(addon) || testBackend === 'native' ? false :
    `no addon for ${platform} in dist/native`;

// Calls, as source text, whose outcomes both backends must give alike: good calls of several
// kinds, and calls each argument check refuses (in the order the checks run).
const CALLS = [
  'gs.gridSample(x, grid)',
  'gs.gridSample(x, grid, { mode: "cubic", paddingMode: "reflection", alignCorners: true })',
  'gs.gridSample({ data: new Uint8Array([0, 50, 100, 250]), dims: [1, 1, 2, 2] }, grid)',
  'gs.gridSample({ data: ["a", "b", "c", "d"], dims: [1, 1, 2, 2] }, grid, { mode: "nearest" })',
  'gs.gridSample({ data: new Float32Array(8), dims: [1, 2, 2, 2] }, grid, ' +
      '{ layout: "channels-last" })',
  'gs.affineGrid({ data: new Float64Array([1, 0, 0, 0, 1, 0]), dims: [1, 2, 3] }, [1, 1, 2, 3])',
  'gs.gridSample(x, grid, { mode: "area" })',
  'gs.gridSample(x, grid, { paddingMode: "x".repeat(100) })',
  'gs.gridSample(x, grid, { layout: "nhwc" })',
  'gs.gridSample(x, grid, { mode: 7 })',
  'gs.gridSample(x, grid, { numThreads: 0 })',
  'gs.gridSample(x, grid, { out: new Float64Array(2) })',
  'gs.gridSample(x, grid, { out: new Float32Array(3) })',
  'gs.gridSample({ data: new Float32Array(3), dims: [1, 1, 2, 2] }, grid)',
  'gs.gridSample({ data: new Float32Array(4), dims: [1, 1, 2, -2] }, grid)',
  'gs.gridSample(x, { data: new Float32Array(4), dims: [1, 1, 2, 3] })',
  'gs.gridSample(x, { data: new Int32Array(4), dims: [1, 1, 2, 2] })',
  'gs.gridSample(x, { data: ["a", "b", "c", "d"], dims: [1, 1, 2, 2] })',
  'gs.gridSample({ data: ["a", "b", "c", "d"], dims: [1, 1, 2, 2] }, grid)',
  'gs.gridSample({ data: ["a", "b", "c", "d"], dims: [1, 1, 2, 2] }, grid, ' +
      '{ mode: "nearest", out: new Float32Array(2) })',
  'gs.gridSample({ data: new Float32Array(4), dims: [1, 1, 2, 2], type: "float8" }, grid)',
  'gs.gridSample(x, grid, { align_corners: true })',
  'gs.affineGrid({ data: new Float32Array(6), dims: [1, 2, 3] }, [1, 1, -2, 2])',
  'gs.affineGrid({ data: new Float32Array(5), dims: [1, 2, 3] }, [1, 1, 2, 2])',
  'gs.affineGrid({ data: ["a"], dims: [1, 2, 3] }, [1, 1, 2, 2])',
  'gs.affineGrid({ data: new Float32Array(6), dims: [1, 2, 3] }, [1, 1, 2 ** 40, 2 ** 40])',
];

// Each call's outcome on `backend`, in a process of its own.
function outcomes(backend) {
  return scenario(`import * as gs from 'gridsample';`, `
    await gs.init({ backend: ${JSON.stringify(backend)} });
    const x = { data: new Float32Array([1, 2, 3, 4]), dims: [1, 1, 2, 2] };
    const grid = { data: new Float32Array([-0.3, 0.2, 0.9, -1.1]), dims: [1, 1, 2, 2] };
    const results = [gs.backend()];
    for (const call of ${JSON.stringify(CALLS)}) {
      try {
        const { data, dims, type } = eval(call);
        results.push({ data: Array.from(data, (v) => (typeof v === 'number' ? v : String(v))),
                       dims, type });
      } catch (error) {
        results.push({ error: error.constructor.name, message: error.message });
      }
    }
    console.log(JSON.stringify(results));
  `);
}

describe('the native backend', { skip }, () => {
  test('runs the kernels on the SIMD target GRIDSAMPLE_TEST_KERNEL_TARGET names, if it is set',
       () => {
    // scripts/test.sh names the target each emulated ARM CPU has (QEMU_CPU): NEON, SVE2.
    const target = createRequire(import.meta.url)(addon).kernelTarget();
    assert.match(target, /^[A-Z][A-Z0-9_]+$/);
    const expected = process.env.GRIDSAMPLE_TEST_KERNEL_TARGET;
    if (expected) assert.equal(target, expected);
  });

  test('an allocation the addon cannot make: a code and a message, not a crash', () => {
    // The C++ exception crosses the system's unwinder (libgcc_s: bindings/CMakeLists.txt).
    const native = createRequire(import.meta.url)(addon);
    const dims = [];
    dims.length = 2 ** 32 - 1;  // 32 GB of extents for the glue to copy
    assert.equal(native.outputShape(dims, [1, 1, 1, 1], 0), native.StatusCode.kOutOfRange);
    assert.equal(native.lastMessage(), 'the call needs more memory than there is');
  });

  test('gives every call the WebAssembly backend’s outcome: bits, or error and message',
       async () => {
    const [native, wasm] = await Promise.all([outcomes('native'), outcomes('wasm')]);
    assert.equal(native.shift(), 'native');
    assert.equal(wasm.shift(), 'wasm');
    for (let i = 0; i < CALLS.length; ++i) assert.deepEqual(native[i], wasm[i], CALLS[i]);
    // The list exercises both kinds.
    assert.ok(wasm.some((r) => r.error === 'TypeError'));
    assert.ok(wasm.some((r) => r.error === 'RangeError'));
    assert.ok(wasm.filter((r) => r.data).length >= 6);
  });

  test('an out that shares X’s memory gets what a fresh output gets', async () => {
    const result = await scenario(`import * as gs from 'gridsample';`, `
      await gs.init({ backend: 'native' });
      const memory = new Float32Array(32);
      for (let i = 0; i < 16; ++i) memory[i] = i * 0.5;
      const x = { data: memory.subarray(0, 16), dims: [1, 1, 4, 4] };
      const grid = { data: Float32Array.from({ length: 32 }, (_, i) => Math.sin(i)),
                     dims: [1, 4, 4, 2] };
      const fresh = Array.from(gs.gridSample(x, grid).data);
      gs.gridSample(x, grid, { out: memory.subarray(8, 24) });  // Y over X's second half
      console.log(JSON.stringify({ fresh, shared: Array.from(memory.subarray(8, 24)) }));
    `);
    assert.deepEqual(result.shared, result.fresh);
  });

  test('outputs of 32 MiB or more (advised into 2 MiB pages): the WebAssembly backend’s bits',
       async () => {
    // 8192 channels × 64² locations of uint8, nearest (light enough for qemu): 32 MiB, fresh,
    // and in an out that starts 4 bytes into its buffer (the advised pages lie inside Y, not at
    // its ends).
    const digest = (backend) => scenario(`import * as gs from 'gridsample';`, `
      await gs.init({ backend: ${JSON.stringify(backend)} });
      const x = { data: Uint8Array.from({ length: 8192 * 3 * 3 }, (_, i) => (i * 37) % 251),
                  dims: [1, 8192, 3, 3] };
      const grid = { data: Float32Array.from({ length: 64 * 64 * 2 }, (_, i) => Math.sin(i)),
                     dims: [1, 64, 64, 2] };
      const hash = (a) => {
        const words = new Uint32Array(a.buffer, a.byteOffset, a.length / 4);
        let h = 2166136261;
        for (let i = 0; i < words.length; ++i) h = Math.imul(h ^ words[i], 16777619) >>> 0;
        return h;
      };
      const options = { mode: 'nearest' };
      const fresh = gs.gridSample(x, grid, options).data;
      const out = new Uint8Array(new ArrayBuffer(fresh.byteLength + 8), 4, fresh.length);
      gs.gridSample(x, grid, { ...options, out });
      console.log(JSON.stringify({ bytes: fresh.byteLength, fresh: hash(fresh), out: hash(out),
                                   some: Array.from(fresh.subarray(fresh.length - 4)) }));
    `);
    const [native, wasm] = await Promise.all([digest('native'), digest('wasm')]);
    assert.equal(native.bytes, 2 ** 25);
    assert.deepEqual(native, wasm);
    assert.equal(native.out, native.fresh);
  });

  test('by default where the addon loads; the wasm module\'s options ask for WebAssembly',
       async () => {
    const result = await scenario(`const gs = require('gridsample');`, `
      await gs.init();
      const first = gs.backend();
      const row = example();
      console.log(JSON.stringify({ first, row }));
    `, { cjs: true });
    assert.equal(result.first, 'native');
    assert.deepEqual(result.row, [0, 0.15, 0.55, 0.95, 1.35, 0.75]);
    for (const option of ['wasmBinary: bytes', 'locateFile: () => file', 'wasmModule: module']) {
      const asked = await scenario(
          `import * as gs from 'gridsample';\nimport fs from 'node:fs';`, `
        const file = ${JSON.stringify(path.join(distDir, 'gridsample.wasm'))};
        const bytes = fs.readFileSync(file);
        const module = await WebAssembly.compile(bytes);
        let contradiction;
        try { await gs.init({ ${option}, backend: 'native' }); }
        catch (e) { contradiction = e.constructor.name + ': ' + e.message; }
        await gs.init({ ${option} });
        console.log(JSON.stringify({ contradiction, backend: gs.backend(), row: example() }));
      `);
      const name = option.split(':')[0];
      assert.equal(asked.contradiction, `TypeError: init: options.${name} is an option of the ` +
                                        '"wasm" backend, not of "native"');
      assert.equal(asked.backend, 'wasm', option);
      assert.deepEqual(asked.row, result.row, option);
    }
  });

  test('in worker_threads Workers at once, beside the main thread: each its own errors',
       async () => {
    // Each Worker loads the addon into its own environment; the message of a failure is the
    // failing thread's, whatever the others do meanwhile.
    const result = await scenario(`import * as gs from 'gridsample';
      import { Worker } from 'node:worker_threads';`, `
      const body = \`
        const { parentPort, workerData } = require('node:worker_threads');
        const gs = require('gridsample');
        gs.init().then(() => {
          const x = { data: new Float32Array([1, 2, 3, 4]), dims: [1, 1, 2, 2] };
          const grid = { data: new Float32Array([0.25, -0.5]), dims: [1, 1, 1, 2] };
          const messages = new Set();
          let value;
          for (let i = 0; i < 2000; ++i) {
            value = gs.gridSample(x, grid).data[0];
            try { gs.gridSample(x, grid, { mode: 'area' + workerData }); }
            catch (e) { messages.add(e.message); }
          }
          parentPort.postMessage({ backend: gs.backend(), value, messages: [...messages] });
        });\`;
      const workers = [1, 2, 3].map(
          (n) => new Worker(body, { eval: true, workerData: n, execArgv: [] }));
      const replies = workers.map((w) => new Promise((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      }));
      await gs.init();
      const main = gs.gridSample({ data: new Float32Array([1, 2, 3, 4]), dims: [1, 1, 2, 2] },
                                 { data: new Float32Array([0.25, -0.5]), dims: [1, 1, 1, 2] });
      const results = await Promise.all(replies);
      await Promise.all(workers.map((w) => w.terminate()));
      console.log(JSON.stringify({ main: main.data[0], results }));
    `);
    assert.equal(result.results.length, 3);
    result.results.forEach(({ backend, value, messages }, i) => {
      assert.equal(backend, 'native');
      assert.equal(value, result.main);
      assert.deepEqual(messages,
                       [`gridsample: mode: unknown value "area${i + 1}"; expected linear, ` +
                        'nearest, cubic, bilinear or bicubic']);
    });
  });

  // A copy of dist/ whose addon is broken or missing, in which init() asked for the native
  // backend must reject saying why, and by default load WebAssembly.
  for (const [what, spoil, why] of [
    ['an addon that does not load',
     (copy) => fs.writeFileSync(path.join(copy, 'native', platform, 'gridsample.node'), 'junk'),
     /gridsample\.node does not load: /],
    ['without the addon',
     (copy) => fs.rmSync(path.join(copy, 'native'), { recursive: true }),
     new RegExp(`: the package has no addon for ${platform}$`)],
  ]) {
    test(`${what}: asked for, init() rejects saying why; by default, WebAssembly`, async () => {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'gridsample-addon-'));
      try {
        fs.cpSync(distDir, copy, { recursive: true });
        spoil(copy);
        const result = await scenario(
            `const gs = require(${JSON.stringify(copy)} + '/index.cjs');`, `
          let refused;
          try { await gs.init({ backend: 'native' }); } catch (e) { refused = e.message; }
          await gs.init();
          console.log(JSON.stringify({ refused, backend: gs.backend(), row: example() }));
        `, { cjs: true });
        assert.match(result.refused, /^gridsample: init: the native backend is not available: /);
        assert.match(result.refused, why);
        assert.equal(result.backend, 'wasm');
        assert.deepEqual(result.row, [0, 0.15, 0.55, 0.95, 1.35, 0.75]);
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    });
  }
});
