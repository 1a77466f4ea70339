// init(): where the .wasm comes from (beside the JS in Node; a streaming fetch in browsers;
// locateFile, wasmModule, wasmBinary), caching, concurrency, failures, and the entries (Node
// import, Node require, the browser entry). The instance is cached per process, so each
// scenario runs in a child process of its own.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { distDir, EXAMPLE_ROW as ROW, scenario } from './helpers.mjs';

// Paths as JS string literals, for the scenarios' code.
const WASM = JSON.stringify(path.join(distDir, 'gridsample.wasm'));
const BROWSER_ENTRY = JSON.stringify(path.join(distDir, 'index.js'));

let server;
let baseUrl;
const requests = [];
before(async () => {
  // dist/ over http on the loopback: /wasm/ with the right MIME type, /plain/ without it.
  server = http.createServer((request, response) => {
    requests.push(request.url);
    const [, kind, name] = request.url.split('/');
    const file = path.join(distDir, path.basename(name || ''));
    if (!fs.existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': kind === 'wasm' && file.endsWith('.wasm') ? 'application/wasm' :
          'application/octet-stream',
    });
    response.end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

const NODE_ESM = `import * as gs from 'gridsample';`;

test('Node import: gridSample before init() throws; init() is cached and shared', async () => {
  const result = await scenario(NODE_ESM, `
    let early;
    try { gs.gridSample({ data: new Float32Array(1), dims: [1, 1, 1] },
                        { data: new Float32Array(1), dims: [1, 1, 1] }); }
    catch (e) { early = e.constructor.name + ': ' + e.message; }
    const [a, b] = [gs.init(), gs.init()];
    const same = a === b;
    const values = await Promise.all([a, b, gs.init()]);
    const later = await gs.init({ wasmBinary: new Uint8Array([0]) });  // cached: options ignored
    console.log(JSON.stringify({ early, same, values, later: later === undefined,
                                 row: example() }));
  `);
  assert.match(result.early,
               /^Error: gridsample: not loaded yet: call init\(\)/);
  assert.equal(result.same, true);
  assert.deepEqual(result.values, [null, null, null]);  // undefined → null in JSON
  assert.equal(result.later, true);
  assert.deepEqual(result.row, ROW);
});

test('Node require: init() returns a promise; import and require share one instance', async () => {
  const result = await scenario(`const gs = require('gridsample');`, `
    const promise = gs.init();
    const isPromise = promise instanceof Promise;
    await promise;
    const esm = await import('gridsample');
    console.log(JSON.stringify({ isPromise, keys: Object.keys(gs).sort(),
                                 shared: esm.gridSample === gs.gridSample &&
                                     esm.affineGrid === gs.affineGrid, row: example() }));
  `, { cjs: true });
  assert.equal(result.isPromise, true);
  assert.deepEqual(result.keys,
                   ['affineGrid', 'backend', 'gridSample', 'init', 'numThreads', 'version']);
  assert.equal(result.shared, true);
  assert.deepEqual(result.row, ROW);
});

test('locateFile (a path, a file: URL); a failed init() rejects and is not cached', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridsample-locate-'));
  try {
    fs.copyFileSync(path.join(distDir, 'gridsample.wasm'), path.join(dir, 'renamed.wasm'));
    const result = await scenario(NODE_ESM, `
      const asked = [];
      let failure;
      const missing = ${JSON.stringify(path.join(dir, 'missing.wasm'))};
      try { await gs.init({ locateFile: (f) => { asked.push(f); return missing; } }); }
      catch (e) { failure = e.code || e.message; }
      await gs.init({ locateFile: (f) => { asked.push(f);
        return new URL('file://' + ${JSON.stringify(dir)} + '/renamed.wasm').href; } });
      console.log(JSON.stringify({ asked, failure, row: example() }));
    `);
    assert.deepEqual(result.asked, ['gridsample.wasm', 'gridsample.wasm']);
    assert.equal(result.failure, 'ENOENT');
    assert.deepEqual(result.row, ROW);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('wasmModule and wasmBinary override the file (locateFile is not asked)', async () => {
  for (const option of ['wasmModule: await WebAssembly.compile(bytes)',
                        'wasmBinary: bytes',
                        'wasmBinary: bytes.slice().buffer']) {
    const result = await scenario(`${NODE_ESM}\nimport fs from 'node:fs';`, `
      const bytes = new Uint8Array(fs.readFileSync(${WASM}));
      await gs.init({ ${option}, locateFile: () => { throw new Error('asked'); } });
      console.log(JSON.stringify({ row: example() }));
    `);
    assert.deepEqual(result.row, ROW, option);
  }
});

test('init() option types: TypeError (as a rejected promise)', async () => {
  const result = await scenario(NODE_ESM, `
    const errors = [];
    for (const options of [5, { locateFile: 'x' }, { wasmModule: new Uint8Array(1) },
                           { wasmBinary: [0, 97, 115, 109] }, { numThreads: '2' },
                           { numThreads: 0 }, { numThreads: 65 }, { numThreads: 2.5 }]) {
      const promise = gs.init(options);
      try { await promise; errors.push('resolved'); }
      catch (e) { errors.push(e.constructor.name + ': ' + e.message); }
    }
    let bad;
    try { await gs.init({ wasmBinary: new Uint8Array([1, 2, 3]) }); }
    catch (e) { bad = e.constructor.name; }
    await gs.init();
    console.log(JSON.stringify({ errors, bad, row: example() }));
  `);
  assert.match(result.errors[0], /^TypeError: init: options must be an object/);
  assert.match(result.errors[1], /^TypeError: init: options\.locateFile must be a function/);
  assert.match(result.errors[2],
               /^TypeError: init: options\.wasmModule must be a WebAssembly\.Module/);
  assert.match(result.errors[3],
               /^TypeError: init: options\.wasmBinary must be an ArrayBuffer or a Uint8Array/);
  assert.match(result.errors[4],
               /^TypeError: init: options\.numThreads must be a number, got the string "2"$/);
  assert.match(result.errors[5],
               /^RangeError: init: options\.numThreads must be a whole number from 1 to 64, got 0/);
  assert.match(result.errors[6], /^RangeError: init: options\.numThreads .* got 65$/);
  assert.match(result.errors[7], /^RangeError: init: options\.numThreads .* got 2\.5$/);
  assert.equal(result.bad, 'CompileError');  // bytes that are not wasm: WebAssembly's own error
  assert.deepEqual(result.row, ROW);
});

test('browser entry: streaming fetch (application/wasm), fallback without it', async () => {
  const browserEntry = `import * as gs from ${BROWSER_ENTRY};`;
  for (const kind of ['wasm', 'plain']) {
    requests.length = 0;
    const result = await scenario(browserEntry, `
      let streamed = false;
      const original = WebAssembly.instantiateStreaming;
      WebAssembly.instantiateStreaming = (...args) => {
        streamed = true;
        return original(...args);
      };
      await gs.init({ locateFile: (f) => ${JSON.stringify(baseUrl)} + '/${kind}/' + f });
      console.log(JSON.stringify({ streamed, row: example() }));
    `);
    assert.deepEqual(requests, [`/${kind}/gridsample.wasm`]);
    assert.equal(result.streamed, kind === 'wasm');
    assert.deepEqual(result.row, ROW);
  }
  const failed = await scenario(browserEntry, `
    let message;
    try { await gs.init({ locateFile: () => ${JSON.stringify(baseUrl)} + '/wasm/nothing.wasm' }); }
    catch (e) { message = e.message; }
    console.log(JSON.stringify({ message }));
  `);
  assert.match(failed.message, /^gridsample: cannot fetch .*nothing\.wasm: HTTP 404$/);
});

test('browser entry with wasmBinary; Node http(s) locateFile', async () => {
  const result = await scenario(
      `import * as gs from ${BROWSER_ENTRY};\nimport fs from 'node:fs';`, `
      await gs.init({ wasmBinary: fs.readFileSync(${WASM}) });
      console.log(JSON.stringify({ row: example() }));
    `);
  assert.deepEqual(result.row, ROW);
  const viaHttp = await scenario(NODE_ESM, `
    await gs.init({ locateFile: (f) => ${JSON.stringify(baseUrl)} + '/plain/' + f });
    console.log(JSON.stringify({ row: example() }));
  `);
  assert.deepEqual(viaHttp.row, ROW);
});
