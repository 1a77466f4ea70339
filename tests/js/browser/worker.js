// A module worker: init() (by itself, or from a WebAssembly.Module the page sends), then the
// spec example and the threads' check.
import { gridSample, init, numThreads } from 'gridsample';

import { runExample, runThreads } from './example.js';

self.onmessage = async (event) => {
  try {
    await init(event.data && event.data.wasmModule ? { wasmModule: event.data.wasmModule } :
                                                     undefined);
    self.postMessage({ result: runExample(gridSample), threads: runThreads(gridSample, numThreads),
                       isolated: self.crossOriginIsolated });
  } catch (error) {
    self.postMessage({ error: String((error && error.stack) || error) });
  }
};
