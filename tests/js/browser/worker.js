// A module worker: init() (by itself, or from a WebAssembly.Module the page sends), then the
// spec example.
import { gridSample, init } from 'gridsample';

import { runExample } from './example.js';

self.onmessage = async (event) => {
  try {
    await init(event.data && event.data.wasmModule ? { wasmModule: event.data.wasmModule } :
                                                     undefined);
    self.postMessage({ result: runExample(gridSample) });
  } catch (error) {
    self.postMessage({ error: String((error && error.stack) || error) });
  }
};
