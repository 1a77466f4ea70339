// The page: the spec example and the threads' check in the page, in a module worker that loads
// the .wasm itself, and (when the page's URL says where the .wasm is, ?wasm=URL) in a worker
// given a compiled module.
import { gridSample, init, numThreads } from 'gridsample';

import { runExample, runThreads } from './example.js';

function inWorker(message) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve({ error: `worker error: ${event.message}` });
    };
    worker.postMessage(message);
  });
}

async function main() {
  const results = {};
  let early;
  try {
    gridSample({ data: new Float32Array(1), dims: [1, 1, 1] },
               { data: new Float32Array(1), dims: [1, 1, 1] });
  } catch (error) {
    early = error.message;
  }
  results.early = early;
  results.threadsBeforeInit = numThreads();
  await init();
  results.page = runExample(gridSample);
  results.threads = runThreads(gridSample, numThreads);
  results.isolated = self.crossOriginIsolated;
  results.hardwareConcurrency = navigator.hardwareConcurrency;
  if (typeof Float16Array === 'function') {  // float16 X as a Float16Array (type from the array)
    const y = gridSample({ data: new Float16Array([1.5, -2.25, 4]), dims: [1, 1, 3] },
                         { data: new Float32Array([1, -1, 0]), dims: [1, 3, 1] },
                         { alignCorners: true });
    results.float16 = { array: y.data.constructor.name, type: y.type, data: Array.from(y.data) };
  }
  results.worker = await inWorker({});
  const wasm = new URLSearchParams(location.search).get('wasm');
  if (wasm) {
    const wasmModule = await WebAssembly.compileStreaming(fetch(wasm));
    results.workerWithModule = await inWorker({ wasmModule });
    results.workerBadThread = await inWorker({ wasm, badThread: true });
  }
  return results;
}

window.results = main().catch((error) => ({ error: String((error && error.stack) || error) }));
