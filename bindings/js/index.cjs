// gridsample for Node.js through require() (CommonJS). The same API, core and glue as the ES
// module entries, in their CommonJS copies; the .wasm is read from beside this file. Threads are
// worker_threads Workers running gridsample_thread.cjs, always available in Node.js.
'use strict';

const { existsSync } = require('node:fs');
const { readFile } = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { fileURLToPath } = require('node:url');
const { Worker } = require('node:worker_threads');

// The glue's CommonJS copy (esbuild's) keeps its ES module default export as `default`.
const { default: createModule } = require('./gridsample_glue.cjs');
const { affineGrid, backend, gridSample, initWith, numThreads, version } =
    require('./gridsample_core.cjs');

async function readWasm(where) {
  const text = String(where);
  if (/^https?:/i.test(text)) {
    const response = await fetch(text);
    if (!response.ok) throw new Error(`gridsample: cannot fetch ${text}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  return readFile(/^file:/i.test(text) ? fileURLToPath(text) : text);
}

// A thread's worker as Emscripten's glue drives it (a Web Worker's onmessage, onerror,
// postMessage and terminate), over worker_threads. It keeps the process alive only until it
// has loaded: idle threads must not stop Node.js from exiting.
class ThreadWorker {
  constructor({ loaded, failed }) {
    this.onmessage = null;
    this.onerror = null;
    this.ready = false;  // (the glue's own mark is `loaded`)
    this.worker = new Worker(path.join(__dirname, 'gridsample_thread.cjs'));
    this.worker.on('message', (data) => {
      if (this.onmessage) this.onmessage({ data });
      if (data && data.cmd === 'loaded') {
        this.ready = true;
        this.worker.unref();
        loaded();
      }
    });
    // A worker that cannot load fails init(); one that fails later (a thread crashed) is the
    // glue's to report, as it is in browsers.
    this.worker.on('error', (error) => {
      if (!this.ready) failed();
      else if (this.onerror) this.onerror(error);
    });
  }

  postMessage(message, transfer) {
    this.worker.postMessage(message, transfer);
  }

  terminate() {
    this.worker.terminate();
  }
}

const platform = {
  createModule,
  defaultLocation: () => path.join(__dirname, 'gridsample.wasm'),
  async instantiate(where, imports) {
    return WebAssembly.instantiate(await readWasm(where), imports);
  },
  defaultThreads: () => (os.availableParallelism ? os.availableParallelism() : os.cpus().length),
  hardwareThreads: () => (os.availableParallelism ? os.availableParallelism() : os.cpus().length),
  threadsAvailable: () => true,
  // locateFile is for the .wasm only: the thread's script requires the glue beside it.
  createThreadWorker: (locateFile, hooks) => new ThreadWorker(hooks),
  // The addon built for this platform (scripts/build_addon.sh), if the package has one and it
  // loads here: { addon } or { reason }.
  loadNative() {
    const platform = `${process.platform}-${process.arch}`;
    const file = path.join(__dirname, 'native', platform, 'gridsample.node');
    if (!existsSync(file)) return { reason: `the package has no addon for ${platform}` };
    try {
      return { addon: require(file) };
    } catch (error) {
      return { reason: `${file} does not load: ${error.message}` };
    }
  },
};

function init(options) {
  return initWith(platform, options);
}

module.exports = { init, gridSample, affineGrid, numThreads, backend, version };
