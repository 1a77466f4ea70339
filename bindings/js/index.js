// gridsample for browsers, workers and bundlers (ES module). The .wasm is fetched from beside
// this file (new URL(..., import.meta.url), which bundlers follow) and compiled while it
// streams in; init()'s options override that. Threads are module Web Workers running
// gridsample_thread.mjs (which imports the glue), where the page is cross-origin isolated.
import createModule from './gridsample_glue.mjs';
import {
  affineGrid, backend, gridSample, initWith, numThreads, version,
} from './gridsample_core.js';

const THREAD_FILE = 'gridsample_thread.mjs';

// A module that validates only where WebAssembly has threads: a shared memory (limits flag 3,
// 1 page) and a function `memory.atomic.notify(0, 0)` whose result is dropped.
const ATOMICS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0,            // magic, version 1
  1, 4, 1, 96, 0, 0,                      // types: () -> ()
  3, 2, 1, 0,                             // functions: one of type 0
  5, 4, 1, 3, 1, 1,                       // memory: shared, 1 to 1 pages
  10, 13, 1, 11, 0, 65, 0, 65, 0, 254, 0, 2, 0, 26, 11,  // code: i32.const 0 ×2, notify, drop
]);

// Workers can share the memory: the page (or worker) is cross-origin isolated, so a
// SharedArrayBuffer can be posted, and WebAssembly has atomics.
function threadsAvailable() {
  if (globalThis.crossOriginIsolated !== true || typeof SharedArrayBuffer !== 'function' ||
      typeof Worker !== 'function' || typeof MessageChannel !== 'function') {
    return false;
  }
  try {
    new MessageChannel().port1.postMessage(new SharedArrayBuffer(1));
    return WebAssembly.validate(ATOMICS_PROBE);
  } catch {
    return false;
  }
}

const platform = {
  createModule,
  defaultLocation: () => new URL('./gridsample.wasm', import.meta.url).href,
  async instantiate(where, imports) {
    const url = String(where);
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) {
      throw new Error(`gridsample: cannot fetch ${url}: HTTP ${response.status}`);
    }
    const contentType = (response.headers.get('Content-Type') || '').split(';')[0].trim();
    // Streaming compilation needs the right MIME type; a server without it still works.
    if (typeof WebAssembly.instantiateStreaming === 'function' &&
        contentType === 'application/wasm') {
      return WebAssembly.instantiateStreaming(response, imports);
    }
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
  },
  // onnxruntime-web's cap of 4, without its halving of the cores: a call's own thread is one
  // of its threads, and it waits for the others.
  defaultThreads: () => Math.min(4, (globalThis.navigator && navigator.hardwareConcurrency) || 1),
  hardwareThreads: () => (globalThis.navigator && navigator.hardwareConcurrency) || 1,
  threadsAvailable,
  createThreadWorker(locateFile, { loaded, failed }) {
    let worker;
    try {
      // The URL written out in full, as bundlers find workers by this pattern.
      worker = locateFile ? new Worker(locateFile(THREAD_FILE), { type: 'module' }) :
          new Worker(new URL('./gridsample_thread.mjs', import.meta.url), { type: 'module' });
    } catch {
      // No module workers here (or a policy forbids them): a stand-in that never loads.
      queueMicrotask(failed);
      return { postMessage() {}, terminate() {} };
    }
    // Until it has loaded, its errors are init()'s (which goes on with one thread), not the
    // glue's, whose own handler would throw them at the page.
    let ready = false;
    worker.addEventListener('message', ({ data }) => {
      if (data && data.cmd === 'loaded' && !ready) {
        ready = true;
        loaded();
      }
    });
    worker.addEventListener('error', (event) => {
      if (ready) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      failed();
    });
    return worker;
  },
};

export function init(options) {
  return initWith(platform, options);
}

export { affineGrid, backend, gridSample, numThreads, version };
