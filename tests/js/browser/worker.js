// A module worker: init() (by itself, from a WebAssembly.Module the page sends, or with a
// locateFile that sends the threads' workers to a script that is not there), then the spec
// example and the threads' check.
import { gridSample, init, numThreads } from 'gridsample';

import { runExample, runThreads } from './example.js';

self.onmessage = async (event) => {
  try {
    const { wasmModule, wasm, badThread } = event.data || {};
    const locateFile = (file) => (file.endsWith('.wasm') ? wasm : '/no-such-thread.mjs');
    await init(wasmModule ? { wasmModule } : badThread ? { locateFile } : undefined);
    self.postMessage({ result: runExample(gridSample), threads: runThreads(gridSample, numThreads),
                       isolated: self.crossOriginIsolated });
  } catch (error) {
    self.postMessage({ error: String((error && error.stack) || error) });
  }
};
