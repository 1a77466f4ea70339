// patchEmscripten (bindings/js/patch_emscripten.mjs), the package's one rewrite of Emscripten's
// output: the installed Emscripten's glue and worker script (the build's, in $BUILD_ROOT/wasm)
// are rewritten as dist/ has them, and output another Emscripten could write (a text changed,
// missing or doubled, a worker made somewhere else) is refused with a message naming the text,
// so that an upgrade fails the build and this suite rather than the threads at run time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { patchEmscripten } from '../../bindings/js/patch_emscripten.mjs';
import { distDir, repo } from './helpers.mjs';

// Where scripts/build_wasm.sh left Emscripten's output (the js stage of scripts/test.sh runs
// after it, with the same BUILD_ROOT).
const built = path.join(process.env.BUILD_ROOT || path.join(repo, 'build'), 'wasm', 'bindings');
function emscriptenOutput() {
  const files = { glue: 'gridsample.mjs', worker: 'gridsample.worker.js' };
  const output = {};
  for (const [part, name] of Object.entries(files)) {
    const file = path.join(built, name);
    assert.ok(fs.existsSync(file), `${file}: run scripts/build_wasm.sh (with this BUILD_ROOT)`);
    output[part] = fs.readFileSync(file, 'utf8');
  }
  return output;
}

const count = (text, part) => text.split(part).length - 1;
const WORKER_HOOK = 'Module["createThreadWorker"]()';
const STATIC_GLUE = 'Promise.resolve({default:createGridSampleModule})';

test("the installed Emscripten's output: the workers are the entry's, the glue imported", () => {
  const output = emscriptenOutput();
  const { glue, worker } = patchEmscripten(output);
  assert.equal(count(glue, 'new Worker('), 0);
  assert.equal(count(glue, WORKER_HOOK), 2);
  assert.equal(count(glue, 'worker.loaded=true'), 1);
  assert.equal(count(worker, 'import('), 0);
  assert.equal(count(worker, STATIC_GLUE), 1);
  // Only those texts changed.
  assert.equal(glue.length - output.glue.length,
               2 * WORKER_HOOK.length - 'new Worker(pthreadMainJs)'.length -
               'new Worker(new URL("gridsample.worker.js",import.meta.url))'.length);
  // dist/ was assembled from this output.
  assert.equal(fs.readFileSync(path.join(distDir, 'gridsample_glue.mjs'), 'utf8'), glue);
  for (const script of ['gridsample_thread.mjs', 'gridsample_thread.cjs']) {
    assert.ok(fs.readFileSync(path.join(distDir, script), 'utf8').endsWith(worker), script);
  }
});

test('output another Emscripten could write fails, naming the part and the text', () => {
  const output = emscriptenOutput();
  const expected = (part, text, found) =>
    `Emscripten's ${part}: expected 1 × ${JSON.stringify(text)}, found ${found}`;
  const left = (part, text) =>
    `Emscripten's ${part}: ${JSON.stringify(text)} is left after the rewrites`;
  const workerUrl = 'new Worker(new URL("gridsample.worker.js",import.meta.url))';
  const pthreadMain = 'new Worker(pthreadMainJs)';
  const glueImport = '(e.data.urlOrBlob?import(e.data.urlOrBlob):import("./gridsample.mjs"))';
  // Each case: the part, a text of it, what that text becomes, and the message.
  const cases = [
    ['glue', workerUrl, workerUrl.replace(/\)$/, ',{type:"module"})'),
     expected('glue', workerUrl, 0)],
    ['glue', pthreadMain, 'new Worker(pthreadMainJs,{name:"em-pthread"})',
     expected('glue', pthreadMain, 0)],
    ['glue', pthreadMain, `${pthreadMain};${pthreadMain}`, expected('glue', pthreadMain, 2)],
    ['glue', 'worker.loaded=true', 'worker.ready=true',
     expected('glue', 'worker.loaded=true', 0)],
    ['glue', 'worker.loaded=true', 'worker.loaded=true;new Worker(blobUrl)',
     left('glue', 'new Worker(')],
    ['worker', 'import("./gridsample.mjs")', 'import("./gridsample.js")',
     expected('worker', glueImport, 0)],
    ['worker', 'var Module={};', 'var Module={};import("./polyfill.mjs");',
     left('worker', 'import(')],
  ];
  for (const [part, from, to, message] of cases) {
    assert.equal(count(output[part], from), 1, `${part}: ${from}`);
    const changed = { ...output, [part]: output[part].replace(from, () => to) };
    assert.throws(() => patchEmscripten(changed), { message }, `${part}: ${from} → ${to}`);
  }
});
