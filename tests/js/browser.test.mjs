// In a real browser: headless Chromium (Debian's, driven by playwright-core) computes the spec's
// example with the package in a page, in a module worker that loads the .wasm itself, and in a
// worker given a compiled WebAssembly.Module, and in each checks the threads (tests/js/browser/
// example.js: init()'s default count, and a call spread over them gives one thread's bits):
//   1. from a plain static server (no bundler), cross-origin isolated: the package's dist/ at
//      /gridsample/, the pages of tests/js/browser/ at /, their bare `gridsample` imports
//      pointed at /gridsample/index.js by the server (what an import map does; module workers
//      have none); the page and its workers run threaded, and a worker whose threads' script
//      is not there (locateFile) runs on one thread without an error;
//   2. the same server without the isolation headers: one thread everywhere, no thread's
//      worker made, no error;
//   3. from a Vite 7 build of the same pages against the packed package installed from its
//      tarball (Vite follows new URL('./gridsample.wasm', import.meta.url) and emits the .wasm,
//      and new Worker(new URL('./gridsample_thread.mjs', ...)) and bundles the thread's script),
//      cross-origin isolated.
// The servers (the demo's, scripts/serve.mjs) listen on 127.0.0.1 only. Skipped (with the
// reason) where /usr/bin/chromium is missing; scripts/test.sh installs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';

import { serve } from '../../scripts/serve.mjs';
import { closeTo, distDir, repo, specExample } from './helpers.mjs';

const run = promisify(execFile);
const CHROMIUM = process.env.GRIDSAMPLE_CHROMIUM || '/usr/bin/chromium';
const fixtures = path.join(repo, 'tests', 'js', 'browser');
const skip = fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

let browser;
let scratch;
before(async () => {
  if (skip) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
                                    args: ['--no-sandbox', '--headless'] });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gridsample-browser-'));
});
after(async () => {
  if (browser) await browser.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

// Opens the page, waits for window.results, and checks every result against the spec, and the
// threads: isolated, init() starts min(4, hardwareConcurrency) (a worker for each past the
// first, which the page's count of Worker constructions sees for its own instance); else one.
async function check(pageUrl, { expectWorkerWithModule, isolated }) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  // Count streaming compilations and the threads' workers in the page (the workers' own are
  // not visible from here).
  await page.addInitScript(() => {
    const original = WebAssembly.instantiateStreaming;
    window.streamed = 0;
    WebAssembly.instantiateStreaming = (...args) => {
      window.streamed += 1;
      return original.apply(WebAssembly, args);
    };
    const PageWorker = Worker;
    window.threadWorkers = 0;
    window.Worker = class extends PageWorker {
      constructor(url, options) {
        super(url, options);
        if (/gridsample_thread/.test(String(url))) window.threadWorkers += 1;
      }
    };
  });
  try {
    await page.goto(pageUrl);
    const results = await page.evaluate(() => window.results);
    const streamed = await page.evaluate(() => window.streamed);
    const threadWorkers = await page.evaluate(() => window.threadWorkers);
    assert.equal(results.error, undefined, results.error);
    assert.deepEqual(problems, []);
    assert.match(results.early, /call init\(\) and await it before gridSample\(\)/);
    const { y, yDims } = specExample();
    const outcomes = { page: results.page, worker: results.worker.result };
    if (expectWorkerWithModule) outcomes.workerWithModule = results.workerWithModule.result;
    for (const [where, result] of Object.entries(outcomes)) {
      assert.ok(result, `${where}: ${JSON.stringify(results[where])}`);
      assert.deepEqual(result.dims, yDims, where);
      assert.equal(result.type, 'float32', where);
      assert.ok(closeTo(result.data, y, 1e-4), `${where}: ${result.data}`);
    }
    assert.equal(streamed, 1, 'the page compiled the .wasm with instantiateStreaming');
    const threads = isolated ? Math.min(4, results.hardwareConcurrency) : 1;
    assert.equal(results.isolated, isolated);
    assert.equal(results.threadsBeforeInit, 0);
    assert.deepEqual(results.threads, { threads, same: true }, 'page');
    // The pool's helpers and the call thread, each on a worker of its own.
    assert.equal(threadWorkers, threads > 1 ? threads : 0, 'the page\'s threads\' workers');
    const workers = { worker: results.worker };
    if (expectWorkerWithModule) workers.workerWithModule = results.workerWithModule;
    for (const [where, result] of Object.entries(workers)) {
      assert.equal(result.isolated, isolated, where);
      assert.deepEqual(result.threads, { threads, same: true }, where);
    }
    // A thread's script that is not there: one thread, the example right, no error.
    if (expectWorkerWithModule) {
      const { result, threads: bad, error } = results.workerBadThread;
      assert.equal(error, undefined, error);
      assert.deepEqual(bad, { threads: 1, same: true });
      assert.ok(closeTo(result.data, specExample().y, 1e-4));
    }
    // Chromium has Float16Array: float16 tensors may use it, and Y comes back as one.
    assert.deepEqual(results.float16,
                     { array: 'Float16Array', type: 'float16', data: [4, 1.5, -2.25] });
  } finally {
    await page.close();
  }
}

// A page that never answers (threads that wait on each other) fails instead of hanging npm test.
describe('Chromium', { skip, timeout: 300000 }, () => {
  for (const isolated of [true, false]) {
    test(`plain static server, ${isolated ? '' : 'not '}cross-origin isolated: page, worker, ` +
         'worker with a compiled module, worker whose threads cannot load', async () => {
      await staticServer(isolated);
    });
  }

  async function staticServer(isolated) {
    const log = [];
    const { server, url } = await serve({ '/gridsample/': distDir, '/': fixtures }, {
      log,
      isolated,
      rewrite: (file, text) => (file.startsWith(fixtures) ?
          text.replaceAll("from 'gridsample'", "from '/gridsample/index.js'") : text),
    });
    try {
      await check(`${url}/?wasm=/gridsample/gridsample.wasm`,
                  { expectWorkerWithModule: true, isolated });
      const wasm = log.filter((entry) => entry.url.endsWith('.wasm'));
      // The page's init, its workers' (one loading it itself, one whose threads cannot load),
      // and the page's compileStreaming for the other one.
      assert.equal(wasm.length, 4, JSON.stringify(log));
      assert.ok(wasm.every((entry) => entry.type === 'application/wasm' && entry.status === 200));
      // Asked for only with threads: once per thread worker (the pool's and the call thread's).
      const missing = log.filter((entry) => entry.status !== 200).map((entry) => entry.url);
      assert.ok(missing.every((url) => url === '/no-such-thread.mjs'), JSON.stringify(missing));
      assert.equal(missing.length > 0, isolated, JSON.stringify(missing));
    } finally {
      server.close();
    }
  }

  test('Vite 7 build against the installed tarball: page and worker', async () => {
    const app = path.join(scratch, 'vite-app');
    fs.mkdirSync(app);
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch],
                                 { cwd: repo, env: { ...process.env, SKIP_BOOTSTRAP: '1' },
                                   maxBuffer: 1 << 24, timeout: 600000 });
    const tarball = path.join(scratch, JSON.parse(stdout)[0].filename);
    fs.writeFileSync(path.join(app, 'package.json'),
                     JSON.stringify({ name: 'vite-app', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball],
              { cwd: app, timeout: 300000 });
    for (const name of ['index.html', 'main.js', 'worker.js', 'example.js']) {
      fs.copyFileSync(path.join(fixtures, name), path.join(app, name));
    }
    // Vite from the repository's devDependencies, run on the app folder.
    const vite = path.join(repo, 'node_modules', 'vite', 'bin', 'vite.js');
    await run(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', 'out'],
              { cwd: app, timeout: 300000 });
    const assets = fs.readdirSync(path.join(app, 'out', 'assets'));
    assert.ok(assets.some((name) => name.endsWith('.wasm')), `no .wasm emitted: ${assets}`);
    const log = [];
    const { server, url } = await serve({ '/': path.join(app, 'out') }, { log });
    try {
      await check(`${url}/`, { expectWorkerWithModule: false, isolated: true });
      assert.ok(log.every((entry) => entry.status === 200), JSON.stringify(log));
      assert.ok(log.some((entry) => entry.url.endsWith('.wasm') &&
                                    entry.type === 'application/wasm'));
    } finally {
      server.close();
    }
  });
});
