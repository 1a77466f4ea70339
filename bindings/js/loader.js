// Loading the module once per realm: init()'s options, the shared memory, the wasm instance,
// the threads' workers, and the runtime every call then works with (see load()). The platform
// (index.js for browsers, index.cjs for Node.js) says how the .wasm is found and compiled and
// how a thread's worker is made; everything else is the same everywhere.
import { checkThreads, describe } from './arguments.js';
import { allocateScratch, viewsOf } from './heap.js';
import { INITIAL_PAGES, MAX_THREADS, MAXIMUM_PAGES, PAGE_BYTES } from './limits.js';
import { nativeRuntime } from './native.js';
import { ThreadChooser } from './thread_choice.js';
import { typesOf } from './typed_arrays.js';

const WASM_FILE = 'gridsample.wasm';
// The options that say where the WebAssembly module comes from: given, they ask for it.
const WASM_OPTIONS = ['locateFile', 'wasmModule', 'wasmBinary'];

let runtime = null;  // what load() returns: the module, its memory and threads, the dtypes, ...
let loading = null;  // the promise of the first init() still under way

function checkInitOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') {
    throw new TypeError(`init: options must be an object, got ${describe(options)}`);
  }
  const { locateFile, wasmModule, wasmBinary, numThreads, backend } = options;
  if (backend !== undefined && backend !== 'native' && backend !== 'wasm') {
    throw new TypeError(
        `init: options.backend must be "native" or "wasm", got ${describe(backend)}`);
  }
  if (locateFile !== undefined && typeof locateFile !== 'function') {
    throw new TypeError(`init: options.locateFile must be a function, got ${describe(locateFile)}`);
  }
  if (wasmModule !== undefined && !(wasmModule instanceof WebAssembly.Module)) {
    throw new TypeError(
        `init: options.wasmModule must be a WebAssembly.Module, got ${describe(wasmModule)}`);
  }
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) &&
      !(wasmBinary instanceof Uint8Array)) {
    throw new TypeError(
        'init: options.wasmBinary must be an ArrayBuffer or a Uint8Array, got ' +
        describe(wasmBinary));
  }
  if (numThreads !== undefined) checkThreads('init: options.numThreads', numThreads, MAX_THREADS);
  const wasmOption = WASM_OPTIONS.find((name) => options[name] !== undefined);
  if (backend === 'native' && wasmOption) {
    throw new TypeError(`init: options.${wasmOption} is an option of the "wasm" backend, ` +
                        'not of "native"');
  }
  // Where the module comes from says which backend is wanted.
  return wasmOption && backend === undefined ? { ...options, backend: 'wasm' } : options;
}

// Instantiates the wasm: a precompiled module or bytes from the options, else the platform's
// own way (a file read in Node, a streaming fetch in browsers).
async function instantiate(platform, options, imports) {
  if (options.wasmModule) {
    const instance = await WebAssembly.instantiate(options.wasmModule, imports);
    return { instance, module: options.wasmModule };
  }
  if (options.wasmBinary) return WebAssembly.instantiate(options.wasmBinary, imports);
  const where = options.locateFile ? options.locateFile(WASM_FILE) : platform.defaultLocation();
  return platform.instantiate(where, imports);
}

// The native backend, where it was asked for or by default, or null for the WebAssembly one.
// By default (no options.backend) the addon is taken where it loads, and WebAssembly where it
// does not (browsers, other systems, a missing or broken addon), with no error: the user's code
// is the same on both. Asked for where it cannot load: an Error saying why.
function loadNative(platform, options) {
  if (options.backend === 'wasm') return null;
  const { addon, reason } = platform.loadNative ? platform.loadNative() :
      { reason: 'this platform has no native backend (browsers and workers run WebAssembly)' };
  if (addon) return nativeRuntime(addon, options.numThreads);
  if (options.backend === undefined) return null;
  throw new Error(`gridsample: init: the native backend is not available: ${reason}`);
}

async function load(platform, options) {
  const native = loadNative(platform, options);
  if (native) return native;
  // Threads where the platform has them (platform.threadsAvailable(): feature detection), else
  // one, without an error.
  const wanted = options.numThreads ?? Math.min(platform.defaultThreads(), MAX_THREADS);
  const helpers = wanted > 1 && platform.threadsAvailable() ? wanted - 1 : 0;
  let memory;
  try {
    memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES,
                                      shared: true });
  } catch (error) {
    throw new RangeError(`gridsample: init: cannot make the WebAssembly memory (shared, up to ` +
                         `${MAXIMUM_PAGES * PAGE_BYTES} bytes): ${error.message}`);
  }
  let fail;
  const failed = new Promise((resolve, reject) => { fail = reject; });
  const workers = [];
  let loading = 0;
  let workersLoaded;  // resolves true once every worker has loaded, false if one cannot
  const loaded = new Promise((resolve) => { workersLoaded = resolve; });
  const ready = platform.createModule({
    wasmMemory: memory,
    // The glue makes this many workers at once and loads the module into them; each then hosts
    // one thread of the core's pool, and one the call thread (sampleNumbers).
    pthreadPoolSize: helpers > 0 ? helpers + 1 : 0,
    createThreadWorker() {
      loading += 1;
      const worker = platform.createThreadWorker(options.locateFile, {
        loaded: () => { if (--loading === 0) workersLoaded(true); },
        failed: () => workersLoaded(false),
      });
      workers.push(worker);
      return worker;
    },
    // The glue never fetches (instantiateWasm does), but it asks where the file is.
    locateFile: (file) => file,
    instantiateWasm(imports, receive) {
      instantiate(platform, options, imports)
          .then((result) => receive(result.instance, result.module))
          .catch(fail);
      return {};  // the exports come later, through receive
    },
    onAbort: (what) => fail(new Error(`gridsample: the WebAssembly module aborted: ${what}`)),
    print: () => {},
    printErr: () => {},
  });
  let module;
  let threads = 1;
  let callThread = false;
  try {
    module = await Promise.race([ready, failed]);
    // A worker that cannot load (a browser without module workers, a script that is not
    // served) leaves the module on one thread, as where threads are unavailable.
    if (helpers > 0 && await Promise.race([loaded, failed])) {
      // The glue marks a worker loaded (worker.loaded) in its own handler of the message the
      // platform told us of, which may run after us: a thread started on a worker it does not
      // count as loaded would wait for that handler, which this thread, blocked until the
      // threads run, could never reach.
      while (workers.some((worker) => !worker.loaded)) {
        await new Promise((resolve) => { setTimeout(resolve, 0); });
      }
      threads = module.startThreads(helpers + 1);
      callThread = threads > 1 && module.startCallThread();
    }
  } catch (error) {
    for (const worker of workers) worker.terminate();
    throw error;
  }
  if (threads === 1) {
    for (const worker of workers) worker.terminate();
    workers.length = 0;
  }
  const types = typesOf(module.dtypes());
  const codes = module.StatusCode;
  const scratch = allocateScratch(module);
  return {
    backend: 'wasm',
    module,
    memory,
    views: viewsOf(memory.buffer),
    threads,
    callThread,           // the call thread runs (sampleNumbers)
    // How calls run (thread_choice.js): their threads where they name none, and whether a
    // fresh output's pages are made beside the call thread; null on one thread.
    threadChooser: threads > 1 ? new ThreadChooser() : null,
    cores: platform.hardwareThreads(),
    workers,              // the threads' workers, for the package's tests
    types,
    ok: codes.kOk.value,
    typeMismatch: codes.kTypeMismatch.value,
    modes: new Map(),     // spelling → Mode value, as the core parsed it
    paddings: new Map(),  // spelling → Padding value
    layouts: new Map(),   // spelling → Layout value
    lastShapes: null,     // { x, grid, layout, y }: the last OutputShape that succeeded
    ...scratch,           // dimsScratch, dimsCapacity, textScratch (heap.js)
  };
}

// init() for one platform: { createModule, defaultLocation(), instantiate(where, imports),
// defaultThreads(), hardwareThreads(), threadsAvailable(),
// createThreadWorker(locateFile, { loaded, failed }) }:
// a thread's worker, which calls loaded() once the module is loaded in it, failed() if it
// cannot load.
export function initWith(platform, options) {
  let checked;
  try {
    checked = checkInitOptions(options);
  } catch (error) {
    return Promise.reject(error);
  }
  if (runtime) return Promise.resolve();
  if (!loading) {
    loading = load(platform, checked).then(
        (loaded) => { runtime = loaded; loading = null; },
        (error) => { loading = null; throw error; });
  }
  return loading;
}

// The runtime a call works with, or an Error naming `caller` before init() resolves.
export function loadedRuntime(caller) {
  if (!runtime) {
    throw new Error(`gridsample: not loaded yet: call init() and await it before ${caller}()`);
  }
  return runtime;
}

// The threads gridSample may use: what init() started (1 where threads are unavailable); 0
// before init() resolves.
export function numThreads() {
  return runtime ? runtime.threads : 0;
}

// The backend init() loaded, 'native' or 'wasm'; null before init() resolves.
export function backend() {
  return runtime ? runtime.backend : null;
}

// The embind module, its memory and the threads' workers, for the package's own tests (heap
// probes, thread counts); on the native backend the addon as `module` (its registry); null
// before init().
export function moduleForTesting() {
  if (!runtime) return null;
  if (runtime.backend === 'native') return { module: runtime.addon };
  return { module: runtime.module, memory: runtime.memory, workers: runtime.workers,
           callThread: runtime.callThread };
}
