// The package's JS API over the embind module (bindings/gridsample_embind.cc): argument checks,
// dtype ↔ typed-array mapping, copies in and out of the wasm heap, error classes, and the cached
// instance and its threads. The entry files (index.js for browsers, index.node.js and index.cjs
// for Node) only add the way the .wasm is found and the threads' workers are made.
// bindings/js/assemble.mjs copies this file into dist/ and makes its CommonJS twin from it, so
// it keeps to `export function` declarations and imports nothing.

const WASM_FILE = 'gridsample.wasm';
// The module's memory, which the wrapper makes (shared, for the threads): 16 MiB at first (the
// link's INITIAL_MEMORY), growing up to 2 GiB (MAXIMUM_MEMORY, bindings/CMakeLists.txt).
const PAGE_BYTES = 65536;
const INITIAL_PAGES = 256;
const MAXIMUM_PAGES = 32768;
// init()'s numThreads: each thread past the first is a Web Worker (a worker_threads Worker in
// Node.js) with a 2 MiB stack on the heap.
const MAX_THREADS = 64;

// The JS side of each dtype: the typed arrays that may hold it, by name (a typed array's
// Symbol.toStringTag, so that subclasses such as Node's Buffer and arrays of other realms count),
// and, for `type`-less tensors, which dtype an array means. Y is made of X's kind of array.
// Sizes, names and kinds come from the core's registry (dtypes.inc) at init().
const Float16 = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : null;
const ARRAY_CLASSES = new Map(
    [Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array,
     Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
     ...(Float16 ? [Float16] : [])].map((Class) => [Class.name, Class]));
// The two tables below are written by bindings/js/assemble.mjs from the registry's JsArrays
// column (src/gridsample/dtypes.inc): a type added there reaches them with no edit here.
const known = (name) => name === 'Array' || ARRAY_CLASSES.has(name);
const ARRAYS_OF_TYPE = Object.fromEntries(
    Object.entries(/* @registry arraysOfType */ {})
        .map(([type, arrays]) => [type, arrays.filter(known)]));
const TYPE_OF_ARRAY = new Map(
    Object.entries(/* @registry typeOfArray */ {}).filter(([array]) => known(array)));

// The engine's own accessors of typed arrays, taken once: a caller's array may carry own
// properties (length, byteLength, buffer, Symbol.toStringTag) that lie, and these read the
// array's internal slots instead, in any realm, and never run the caller's code.
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const apply = Reflect.apply;
const accessor = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const typedArrayName = accessor(Symbol.toStringTag);  // undefined for anything else
const typedArrayBuffer = accessor('buffer');
const typedArrayByteOffset = accessor('byteOffset');
const typedArrayByteLength = accessor('byteLength');
const typedArrayLength = accessor('length');

// 'Float32Array', ... for a typed array, 'Array' for an array, undefined for anything else
// (a DataView included).
function arrayName(value) {
  if (Array.isArray(value)) return 'Array';
  const name = apply(typedArrayName, value, []);
  return ARRAY_CLASSES.has(name) ? name : undefined;
}

const ALIGN = 16;  // heap alignment of each tensor (complex128 needs 8)
// The heap's ceiling: -sMAXIMUM_MEMORY=2GB in bindings/CMakeLists.txt (wasm32 pointers are
// signed in JS). A call whose buffers add up to more is refused before anything is allocated.
const MAX_HEAP_BYTES = 2 ** 31 - ALIGN * 4;
const SCRATCH_DIMS = 48;  // dims a call keeps in the scratch allocated at init()
// An attribute spelling longer than any valid one is cut to this many characters (plus '…')
// before the core parses it and names it in its message.
const MAX_SPELLING = 32;
// Fresh outputs of at least this many bytes are allocated, and their pages touched, while the
// call samples on the call thread (sampleNumbers): below it, faulting the pages in as the copy
// out writes them costs less than handing the call over.
const BACKGROUND_OUTPUT_BYTES = 256 * 1024;
const OS_PAGE_BYTES = 4096;  // the smallest page size of the platforms we run on
const OPTION_NAMES = ['mode', 'paddingMode', 'alignCorners', 'layout', 'out', 'numThreads'];
const AFFINE_OPTION_NAMES = ['alignCorners'];

let runtime = null;  // what load() returns: the module, its memory and threads, the dtypes, ...
let loading = null;  // the promise of the first init() still under way

// ---------------------------------------------------------------------------------------------
// Loading.

// A string for an error message: quoted, and cut if long.
function quote(text) {
  if (text.length <= 64) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, 64)}…`)} (${text.length} characters)`;
}

// A value for an error message: its kind, and for primitives the value (long strings cut).
// Reading an object's constructor may run a getter or a Proxy trap; whatever that throws is
// not the error being reported, so it is ignored.
function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'bigint') return `bigint ${value}n`;
  if (typeof value !== 'object' && typeof value !== 'function') {
    return `${typeof value} ${String(value)}`;
  }
  try {
    if (Array.isArray(value)) return 'an Array';
    const typed = apply(typedArrayName, value, []);
    if (typed !== undefined) return `a ${typed}`;
    const name = value.constructor && value.constructor.name;
    if (typeof name === 'string' && name !== '') return `a ${name}`;
  } catch {
    // a revoked Proxy, a throwing getter: described by its type alone
  }
  return `an ${typeof value}`;
}

function checkInitOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') {
    throw new TypeError(`init: options must be an object, got ${describe(options)}`);
  }
  const { locateFile, wasmModule, wasmBinary, numThreads } = options;
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
  return options;
}

// A thread count: a whole number from 1 (to `most`, if given).
function checkThreads(what, value, most = Infinity) {
  if (typeof value !== 'number') {
    throw new TypeError(`${what} must be a number, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < 1 || value > most) {
    const range = most === Infinity ? 'at least 1' : `from 1 to ${most}`;
    throw new RangeError(`${what} must be a whole number ${range}, got ${value}`);
  }
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

// The heap's views over the memory's current buffer. A memory growth (by any thread) gives the
// memory a new, longer buffer; views of the old one stay usable but short, so the wrapper takes
// its views through heap(), never the glue's HEAP* (updated only when the glue's own code runs).
function viewsOf(buffer) {
  return { buffer, u8: new Uint8Array(buffer), u32: new Uint32Array(buffer),
           f64: new Float64Array(buffer) };
}
function heap() {
  const buffer = runtime.memory.buffer;
  if (runtime.views.buffer !== buffer) runtime.views = viewsOf(buffer);
  return runtime.views;
}

async function load(platform, options) {
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
  const types = new Map();
  for (const { name, id, size, kind } of module.dtypes()) {
    const arrays = ARRAYS_OF_TYPE[name];
    if (!arrays) continue;  // a registry type this wrapper does not know: refused as unknown
    types.set(name, { name, id, size, arrays, parts: kind === 'kComplex' ? 2 : 1 });
  }
  const codes = module.StatusCode;
  // Room for the dims of a call (X's, the grid's, Y's, as float64; a call of higher ranks
  // allocates its own) and for an attribute spelling as UTF-8: no call needs the heap before
  // its arguments are checked.
  const dimsScratch = module._malloc(SCRATCH_DIMS * 8);
  const textScratch = module._malloc(MAX_SPELLING * 3 + 3);
  if (!dimsScratch || !textScratch) {
    throw new RangeError('gridsample: init: the WebAssembly heap cannot give the call scratch');
  }
  return {
    module,
    memory,
    views: viewsOf(memory.buffer),
    threads,
    callThread,           // the call thread runs (sampleNumbers)
    cores: platform.hardwareThreads(),
    workers,              // the threads' workers, for the package's tests
    types,
    ok: codes.kOk.value,
    typeMismatch: codes.kTypeMismatch.value,
    modes: new Map(),     // spelling → Mode value, as the core parsed it
    paddings: new Map(),  // spelling → Padding value
    layouts: new Map(),   // spelling → Layout value
    dimsCapacity: SCRATCH_DIMS,
    lastShapes: null,     // { x, grid, layout, y }: the last OutputShape that succeeded
    dimsScratch,
    textScratch,
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

// The package's version, package.json's: bindings/js/assemble.mjs writes it in. The .wasm's C++
// was built from the same file (CMakeLists.txt reads it for gridsample/version.h).
export const version = /* @version */ '';

// The threads gridSample may use: what init() started (1 where threads are unavailable); 0
// before init() resolves.
export function numThreads() {
  return runtime ? runtime.threads : 0;
}

// The embind module, its memory and the threads' workers, for the package's own tests (heap
// probes, thread counts); null before init().
export function moduleForTesting() {
  return runtime ? { module: runtime.module, memory: runtime.memory, workers: runtime.workers,
                     callThread: runtime.callThread } : null;
}

// ---------------------------------------------------------------------------------------------
// gridSample.
//
// A call reads everything it needs from its arguments first (readTensor, readOptions), each
// property once, into values of its own; only then does it touch the heap. So a getter or a
// Proxy among the arguments, whatever it returns or however often it is asked, cannot make the
// checks and the copies disagree, and code it runs (a nested gridSample call included) never
// finds the heap or the scratch in use.

// The error for a StatusCode of the core, with its message (UTF-8 at lastMessageAt()).
function errorOf(code) {
  const at = runtime.module.lastMessageAt();
  const { u8 } = heap();
  // A copy: TextDecoder does not read shared memory.
  const message = `gridsample: ${new TextDecoder().decode(u8.slice(at, u8.indexOf(0, at)))}`;
  if (code === runtime.typeMismatch) return new TypeError(message);
  return new RangeError(message);  // kInvalidArgument, kUnsupported, kOutOfRange
}

// The core's Mode / Padding / Layout value of a spelling, parsed once per spelling. The spelling
// crosses as UTF-8 in the scratch of init() (cut to MAX_SPELLING characters: longer ones are
// invalid anyway, and the core's message shows the start).
function attribute(cache, parse, spelling) {
  let value = cache.get(spelling);
  if (value === undefined) {
    const shown = spelling.length > MAX_SPELLING ? `${spelling.slice(0, MAX_SPELLING)}…` :
        spelling;
    const bytes = new TextEncoder().encode(shown);  // at most MAX_SPELLING * 3 + 3 bytes
    heap().u8.set(bytes, runtime.textScratch);
    value = parse(runtime.textScratch, bytes.length);
    if (value < 0) throw errorOf(runtime.module.StatusCode.kInvalidArgument.value);
    cache.set(spelling, value);
  }
  return value;
}

function shapeText(dims) {
  return `[${dims.join(', ')}]`;
}

// A copy of an array (or of a Proxy of one: its length may be anything), each element read
// once and passed to check(value, what, index), which throws for a value it refuses (naming it
// `${what}[${index}]`: built only then, as a call's own cost is mostly such small work). Each
// element takes `bytes` on the heap, which bounds the length (and the time spent reading).
function copyArray(what, array, bytes, check) {
  const length = array.length;
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new TypeError(`gridsample: ${what}.length must be a length, got ${describe(length)}`);
  }
  if (length * bytes > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: ${what} has ${length} elements, more than the ` +
                         `WebAssembly heap holds (${MAX_HEAP_BYTES} bytes)`);
  }
  const copy = [];
  for (let i = 0; i < length; ++i) {
    const value = array[i];
    check(value, what, i);
    copy.push(value);
  }
  return copy;
}

function checkExtent(extent, what, i) {
  if (typeof extent !== 'number') {
    throw new TypeError(`gridsample: ${what}[${i}] must be a number, got ${describe(extent)}`);
  }
  if (!Number.isSafeInteger(extent)) {
    throw new RangeError(`gridsample: ${what}[${i}] must be an integer, got ${extent}`);
  }
}

function checkString(value, what, i) {
  if (typeof value !== 'string') {
    throw new TypeError(`gridsample: ${what}[${i}] must be a string, got ${describe(value)}`);
  }
}

// The bytes of a typed array, as a Uint8Array of our own over its memory (made with the
// engine's accessors); a TypeError if its buffer was detached (transferred).
function bytesOf(name, view) {
  const buffer = apply(typedArrayBuffer, view, []);
  try {
    return new Uint8Array(buffer, apply(typedArrayByteOffset, view, []),
                          apply(typedArrayByteLength, view, []));
  } catch {
    throw new TypeError(`gridsample: ${name}: the array's ArrayBuffer is detached ` +
                        '(transferred); pass an array whose memory is still usable');
  }
}

// Reads a tensor argument once: { dims (numbers), info, array (its class name), length, and
// either bytes and byteLength (a typed array's) or strings (a copy of a string[]) }.
function readTensor(name, tensor) {
  if (tensor === null || typeof tensor !== 'object') {
    throw new TypeError(
        `gridsample: ${name} must be a tensor { data, dims, type? }, got ${describe(tensor)}`);
  }
  const { data, dims, type } = tensor;
  if (data === undefined && dims === undefined) {
    throw new TypeError(
        `gridsample: ${name} must be a tensor { data, dims, type? }, got ${describe(tensor)}`);
  }
  if (!Array.isArray(dims)) {
    throw new TypeError(
        `gridsample: ${name}.dims must be an array of numbers, got ${describe(dims)}`);
  }
  const extents = copyArray(`${name}.dims`, dims, 8, checkExtent);
  const array = arrayName(data);
  if (array === undefined) {
    throw new TypeError(
        `gridsample: ${name}.data must be a typed array (or string[]), got ${describe(data)}`);
  }
  let typeName = type;
  if (typeName === undefined) {
    typeName = TYPE_OF_ARRAY.get(array);
  } else if (typeof typeName !== 'string') {
    throw new TypeError(`gridsample: ${name}.type must be a string, got ${describe(typeName)}`);
  }
  const info = runtime.types.get(typeName);
  if (!info) {
    throw new TypeError(`gridsample: ${name}.type: unknown type ${quote(typeName)}; ` +
                        `expected one of ${[...runtime.types.keys()].join(', ')}`);
  }
  if (!info.arrays.includes(array)) {
    throw new TypeError(`gridsample: ${name}.data: ${describe(data)} does not hold ${typeName} ` +
                        `(expected ${info.arrays.join(' or ')})`);
  }
  if (array === 'Array') {
    const strings = copyArray(`${name}.data`, data, info.size, checkString);
    return { dims: extents, info, array, length: strings.length, strings };
  }
  const bytes = bytesOf(`${name}.data`, data);
  return { dims: extents, info, array, length: apply(typedArrayLength, data, []), bytes,
           byteLength: bytes.byteLength };
}

// The options argument as an object whose keys are all among `names` ({} when absent). A
// misspelt option would otherwise be dropped without a word, and its default used: the error
// names the known one it resembles but for case and underscores (the ONNX attribute spellings
// padding_mode and align_corners).
function checkOptionNames(options, names) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`gridsample: options must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!names.includes(key)) {
      const plain = key.replace(/_/g, '').toLowerCase();
      const likely = names.find((known) => known.toLowerCase() === plain);
      throw new TypeError(`gridsample: options: unknown option ${quote(key)}` +
                          (likely ? ` (did you mean ${likely}?)` : '') +
                          `; the options are ${names.join(', ')}`);
    }
  }
  return options;
}

// options.alignCorners (a boolean, 0 or 1; default false) as a boolean.
function readAlignCorners(alignCorners = false) {
  if (typeof alignCorners !== 'boolean' && typeof alignCorners !== 'number') {
    throw new TypeError(
        'gridsample: options.alignCorners must be a boolean, 0 or 1, got ' +
        describe(alignCorners));
  }
  if (typeof alignCorners === 'number' && alignCorners !== 0 && alignCorners !== 1) {
    throw new RangeError(
        `gridsample: options.alignCorners must be a boolean, 0 or 1, got ${alignCorners}`);
  }
  return alignCorners === true || alignCorners === 1;
}

// Reads the options argument once: { mode, paddingMode, alignCorners (a boolean), layout, out,
// threads } with out undefined or { array, length, bytes, byteLength, target (the caller's
// array) }, and threads the core's num_threads (0: all of init()'s).
function readOptions(options) {
  const { mode = 'linear', paddingMode = 'zeros', alignCorners, layout = 'channels-first', out,
          numThreads } = checkOptionNames(options, OPTION_NAMES);
  if (typeof mode !== 'string') {
    throw new TypeError(`gridsample: options.mode must be a string, got ${describe(mode)}`);
  }
  if (typeof paddingMode !== 'string') {
    throw new TypeError(
        `gridsample: options.paddingMode must be a string, got ${describe(paddingMode)}`);
  }
  if (typeof layout !== 'string') {
    throw new TypeError(`gridsample: options.layout must be a string, got ${describe(layout)}`);
  }
  const aligned = readAlignCorners(alignCorners);
  let outView;
  if (out !== undefined) {
    const array = arrayName(out);
    if (array === undefined || array === 'Array') {
      throw new TypeError(`gridsample: options.out must be a typed array, got ${describe(out)}`);
    }
    const bytes = bytesOf('options.out', out);
    outView = { array, length: apply(typedArrayLength, out, []), bytes,
                byteLength: bytes.byteLength, target: out };
  }
  // More threads than init() started are as many as it started (so code written for an isolated
  // page runs unchanged where threads are unavailable).
  if (numThreads !== undefined) checkThreads('gridsample: options.numThreads', numThreads);
  return { mode, paddingMode, alignCorners: aligned, layout, out: outView,
           threads: numThreads === undefined ? 0 : Math.min(numThreads, runtime.threads) };
}

// What ran while the arguments were read (a getter, a Proxy trap) may have detached or shrunk
// a buffer read before (`view`: what readTensor or readOptions made of it, if anything).
function checkStillUsable(name, view) {
  if (view !== undefined && view.bytes !== undefined &&
      view.bytes.byteLength !== view.byteLength) {
    throw new TypeError(`gridsample: ${name}: the array's ArrayBuffer was detached or shrunk ` +
                        'while the arguments were read');
  }
}

function elementCount(dims) {
  let count = 1;
  for (let i = 0; i < dims.length; ++i) count *= dims[i];
  return count;
}

function checkLength(name, tensor) {
  const count = elementCount(tensor.dims);
  const expected = count * tensor.info.parts;
  if (tensor.length !== expected) {
    const what = tensor.info.parts === 1 ? `${expected} values` :
        `${expected} numbers (${count} ${tensor.info.name} values, interleaved)`;
    throw new RangeError(`gridsample: ${name}.data has ${tensor.length} elements, but dims ` +
                         `${shapeText(tensor.dims)} need ${what}`);
  }
}

function alignUp(bytes) {
  return Math.ceil(bytes / ALIGN) * ALIGN;
}

// The heap block of a call: `bytes` of them, refused (RangeError) beyond the heap's ceiling or
// when malloc cannot find them, before anything else is allocated.
function allocate(bytes, what) {
  if (bytes > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: ${what} need ${bytes} bytes, more than the WebAssembly ` +
                         `heap holds (${MAX_HEAP_BYTES})`);
  }
  const ptr = runtime.module._malloc(Math.max(bytes, 1));
  if (!ptr) {
    throw new RangeError(`gridsample: ${what} need ${bytes} bytes, which the WebAssembly heap ` +
                         'cannot give now');
  }
  return ptr;
}

// Writes dims to the heap as float64 at byte address `at`.
function putDims(heap64, at, dims) {
  const base = at / 8;
  for (let i = 0; i < dims.length; ++i) heap64[base + i] = dims[i];
}

// Calls body(at) with `at` the heap addresses of `lists` (arrays of dims) written there as
// float64 one after another, then of room for `room` more: in the scratch of init(), or in a
// block of the call's own when they do not fit there (freed however body ends).
function withDims(lists, room, body) {
  let count = room;
  for (const list of lists) count += list.length;
  const own = count > runtime.dimsCapacity ? allocate(count * 8, 'the dims') : 0;
  try {
    const at = [];
    let next = own || runtime.dimsScratch;
    for (const list of lists) {
      at.push(next);
      putDims(heap().f64, next, list);
      next += 8 * list.length;
    }
    at.push(next);
    return body(at);
  } finally {
    if (own) runtime.module._free(own);
  }
}

function sameDims(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; ++i) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}

// Y's dims, as the core's OutputShape gives them for X's and the grid's dims (on the heap at
// xAt and gridAt) in the layout (its Layout value), also left on the heap at yAt for the
// sampling call. The last answer is kept: pipelines call with the same shapes again and again,
// and asking the core costs as much as sampling a small input. (The core checks Y's shape
// again when it samples.)
function outputDims(xDims, gridDims, layout, xAt, gridAt, yAt) {
  const last = runtime.lastShapes;
  if (last !== null && last.layout === layout && sameDims(last.x, xDims) &&
      sameDims(last.grid, gridDims)) {
    putDims(heap().f64, yAt, last.y);
    return last.y.slice();
  }
  const module = runtime.module;
  const code = module.outputShape(xAt, xDims.length, gridAt, gridDims.length, layout, yAt);
  if (code !== runtime.ok) throw errorOf(code);
  const yDims = [];
  const heap64 = heap().f64;
  for (let i = 0; i < xDims.length; ++i) yDims.push(heap64[yAt / 8 + i]);
  runtime.lastShapes = { x: xDims, grid: gridDims, layout, y: yDims.slice() };
  return yDims;
}

// The loaded module, or an Error naming `caller` before init() resolves.
function loadedModule(caller) {
  if (!runtime) {
    throw new Error('gridsample: the WebAssembly module is not loaded: call init() and await ' +
                    `it before ${caller}()`);
  }
  return runtime.module;
}

// A new array of the class named `array` (a typed array's name), `count` long; a RangeError
// naming `what` (its `bytes`) when JavaScript cannot allocate it now.
function newArray(array, count, bytes, what) {
  try {
    return new (ARRAY_CLASSES.get(array))(count);
  } catch {
    throw new RangeError(`gridsample: ${what} needs ${bytes} bytes, which JavaScript cannot ` +
                         'allocate now');
  }
}

// Y = GridSample(X, grid): see index.d.ts.
export function gridSample(x, grid, options) {
  const module = loadedModule('gridSample');
  const xt = readTensor('x', x);
  const gt = readTensor('grid', grid);
  const { mode, paddingMode, alignCorners, layout, out, threads } = readOptions(options);
  // From here on, no code of the caller's runs; what ran while the arguments were read may
  // have detached or shrunk a buffer read before.
  checkStillUsable('x.data', xt);
  checkStillUsable('grid.data', gt);
  checkStillUsable('options.out', out);
  if (gt.info.name === 'string') {
    throw new TypeError('gridsample: grid.type: a grid holds coordinates, not strings (expected ' +
                        'a floating-point type)');
  }
  return withDims([xt.dims, gt.dims], xt.dims.length, ([xDims, gridDims, yDimsAt]) => {
    const layoutValue = attribute(runtime.layouts, module.parseLayout, layout);
    const yDims = outputDims(xt.dims, gt.dims, layoutValue, xDims, gridDims, yDimsAt);
    checkLength('x', xt);
    checkLength('grid', gt);
    const modeValue = attribute(runtime.modes, module.parseMode, mode);
    const paddingValue = attribute(runtime.paddings, module.parsePadding, paddingMode);
    const call = { xt, gt, xDims, gridDims, yDims, yDimsAt, modeValue, paddingValue, alignCorners,
                   layoutValue, out, threads };
    return xt.info.name === 'string' ? sampleStrings(call) : sampleNumbers(call);
  });
}

// X of strings: the glue returns Y as indices into X's strings (see GridSampleStringsJs), so
// only the grid and those indices are on the heap, beside the core's own small stand-ins.
function sampleStrings({ xt, gt, xDims, gridDims, yDims, modeValue, paddingValue, alignCorners,
                         layoutValue, out, threads }) {
  const module = runtime.module;
  if (out !== undefined) {
    throw new TypeError('gridsample: options.out cannot hold strings (string outputs are new ' +
                        'arrays)');
  }
  const yCount = elementCount(yDims);
  const gridBytes = gt.bytes.byteLength;
  const indexBytes = yCount * 4;
  // The core's stand-ins: one std::string per element of X and of Y.
  const standInBytes = (xt.length + yCount) * xt.info.size;
  if (alignUp(gridBytes) + indexBytes + standInBytes > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: the grid and the ${yCount} output strings need ` +
                         `${alignUp(gridBytes) + indexBytes + standInBytes} bytes, more than ` +
                         `the WebAssembly heap holds (${MAX_HEAP_BYTES})`);
  }
  const gridPtr = allocate(alignUp(gridBytes) + indexBytes, 'the grid and the output indices');
  try {
    const indexPtr = gridPtr + alignUp(gridBytes);
    heap().u8.set(gt.bytes, gridPtr);
    const code = module.gridSampleStrings(xDims, xt.dims.length, gridPtr, gt.info.id, gridDims,
                                          gt.dims.length, indexPtr, modeValue, paddingValue,
                                          alignCorners, layoutValue, threads);
    if (code !== runtime.ok) throw errorOf(code);
    const indices = heap().u32.subarray(indexPtr / 4, indexPtr / 4 + yCount);
    const y = new Array(yCount);
    for (let i = 0; i < yCount; ++i) y[i] = indices[i] === 0 ? '' : xt.strings[indices[i] - 1];
    return { data: y, dims: yDims, type: 'string' };
  } finally {
    module._free(gridPtr);
  }
}

function sampleNumbers({ xt, gt, xDims, gridDims, yDims, yDimsAt, modeValue, paddingValue,
                         alignCorners, layoutValue, out, threads }) {
  const module = runtime.module;
  const yCount = elementCount(yDims) * xt.info.parts;
  if (out !== undefined) {
    if (!xt.info.arrays.includes(out.array)) {
      throw new TypeError(
          `gridsample: options.out: a ${out.array} cannot hold ${xt.info.name} (expected ` +
          `${xt.info.arrays.join(' or ')})`);
    }
    if (out.length !== yCount) {
      throw new RangeError(`gridsample: options.out has ${out.length} elements, but the output ` +
                           `${shapeText(yDims)} of ${xt.info.name} needs ${yCount}`);
    }
  }
  const xBytes = xt.bytes.byteLength;
  const gridBytes = gt.bytes.byteLength;
  const yBytes = yCount / xt.info.parts * xt.info.size;
  const total = alignUp(xBytes) + alignUp(gridBytes) + yBytes;
  if (total > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: the tensors need ${total} bytes, more than the ` +
                         `WebAssembly heap holds (${MAX_HEAP_BYTES})`);
  }
  // A large fresh output is allocated while the call samples on the call thread, and its pages
  // touched: new memory, which the system would otherwise map page by page as the copy out
  // first writes it. Only where a core is left for this thread: else it slows the call's own
  // (docs/javascript.md, "Threads").
  const background = out === undefined && runtime.callThread &&
                     yBytes >= BACKGROUND_OUTPUT_BYTES &&
                     (threads || runtime.threads) < runtime.cores;
  const fresh = () => newArray(xt.array, yCount, yBytes, 'the output');
  let y;
  let yView;
  if (out !== undefined) {
    y = out.target;
    yView = out.bytes;
  } else if (!background) {
    y = fresh();
    yView = bytesOf('y', y);
  }
  const ptr = allocate(total, 'the tensors');
  try {
    // Views are taken after _malloc (heap()): a memory growth gives the heap a new buffer. X
    // and the grid are copied in before Y is written, so `out` may alias them.
    const xPtr = ptr;
    const gridPtr = xPtr + alignUp(xBytes);
    const yPtr = gridPtr + alignUp(gridBytes);
    const { u8 } = heap();
    u8.set(xt.bytes, xPtr);
    u8.set(gt.bytes, gridPtr);
    // The same arguments either way: startGridSample returns at once (undefined).
    const call = background ? module.startGridSample : module.gridSample;
    let code = call(xPtr, xt.info.id, xDims, xt.dims.length, gridPtr, gt.info.id, gridDims,
                    gt.dims.length, yPtr, yDimsAt, modeValue, paddingValue, alignCorners,
                    layoutValue, threads);
    if (background) {
      try {
        y = fresh();
        yView = bytesOf('y', y);
        for (let at = 0; at < yView.length; at += OS_PAGE_BYTES) yView[at] = 0;
      } finally {
        code = module.finishGridSample();  // the heap block is freed only after the call
      }
    }
    if (code !== runtime.ok) throw errorOf(code);
    yView.set(heap().u8.subarray(yPtr, yPtr + yBytes));  // the call may have grown the memory
  } finally {
    module._free(ptr);
  }
  return { data: y, dims: yDims, type: xt.info.name };
}

// ---------------------------------------------------------------------------------------------
// affineGrid.

function checkSizeValue(value, what, i) {
  if (typeof value === 'bigint') {
    if (value < -Number.MAX_SAFE_INTEGER || value > Number.MAX_SAFE_INTEGER) {
      throw new RangeError(`gridsample: ${what}[${i}] must be a safe integer, got ${value}n`);
    }
    return;
  }
  if (typeof value !== 'number') {
    throw new TypeError(`gridsample: ${what}[${i}] must be an integer (a number or a bigint), ` +
                        `got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`gridsample: ${what}[${i}] must be an integer, got ${value}`);
  }
}

// Reads `size` once: (N, C, H, W) or (N, C, D, H, W) as numbers, from an array of numbers or
// bigints, a BigInt64Array, or an int64 tensor { data, dims: [4 or 5], type? } such as the
// ort.Tensor an ONNX model takes. The core checks the values (non-negative, theta's N).
function readSize(size) {
  const tensor = size !== null && typeof size === 'object' && arrayName(size) === undefined;
  const { data: values, dims, type } = tensor ? size : { data: size };
  const what = tensor ? 'size.data' : 'size';
  if (type !== undefined && type !== 'int64') {
    throw new TypeError(`gridsample: size.type must be "int64", got ${describe(type)}`);
  }
  const array = arrayName(values);
  if (array !== 'Array' && array !== 'BigInt64Array') {
    throw new TypeError(`gridsample: ${what} must be an array of integers, a BigInt64Array or ` +
                        `an int64 tensor { data, dims }, got ${describe(values)}`);
  }
  const length = array === 'Array' ? values.length : apply(typedArrayLength, values, []);
  if (length !== 4 && length !== 5) {
    throw new RangeError(`gridsample: ${what} has ${typeof length === 'number' ? length :
        describe(length)} values; expected 4, (N, C, H, W), or 5, (N, C, D, H, W)`);
  }
  if (dims !== undefined && (!Array.isArray(dims) || dims.length !== 1 || dims[0] !== length)) {
    throw new RangeError(`gridsample: size.dims must be [${length}] for the ${length} values ` +
                         'of size.data');
  }
  const copy = [];
  for (let i = 0; i < length; ++i) {
    const value = values[i];
    checkSizeValue(value, what, i);
    copy.push(Number(value));
  }
  return copy;
}

// grid = AffineGrid(theta, size): see index.d.ts.
export function affineGrid(theta, size, options) {
  const module = loadedModule('affineGrid');
  const tt = readTensor('theta', theta);
  const sizeValues = readSize(size);
  const affineOptions = checkOptionNames(options, AFFINE_OPTION_NAMES);
  const alignCorners = readAlignCorners(affineOptions.alignCorners);
  // From here on, no code of the caller's runs (see gridSample).
  checkStillUsable('theta.data', tt);
  if (tt.info.name === 'string') {
    throw new TypeError('gridsample: theta.type: theta holds affine matrices, not strings ' +
                        '(expected a floating-point type)');
  }
  const thetaRank = tt.dims.length;
  const gridRank = sizeValues.length;
  return withDims([tt.dims, sizeValues], gridRank, ([thetaDims, sizeAt, gridDimsAt]) => {
    let code = module.affineGridShape(thetaDims, thetaRank, sizeAt, gridRank, gridDimsAt);
    if (code !== runtime.ok) throw errorOf(code);
    const gridDims = Array.from(heap().f64.subarray(gridDimsAt / 8, gridDimsAt / 8 + gridRank));
    checkLength('theta', tt);
    const gridCount = elementCount(gridDims);
    const gridBytes = gridCount * tt.info.size;
    const total = alignUp(tt.byteLength) + gridBytes;
    if (total > MAX_HEAP_BYTES) {
      throw new RangeError(`gridsample: theta and the grid ${shapeText(gridDims)} need ${total} ` +
                           `bytes, more than the WebAssembly heap holds (${MAX_HEAP_BYTES})`);
    }
    const grid = newArray(tt.array, gridCount, gridBytes, 'the grid');
    const ptr = allocate(total, 'theta and the grid');
    try {
      const gridPtr = ptr + alignUp(tt.byteLength);
      heap().u8.set(tt.bytes, ptr);
      code = module.affineGrid(ptr, tt.info.id, thetaDims, thetaRank, sizeAt, gridRank, gridPtr,
                               gridDimsAt, gridRank, alignCorners);
      if (code !== runtime.ok) throw errorOf(code);
      bytesOf('grid', grid).set(heap().u8.subarray(gridPtr, gridPtr + gridBytes));
    } finally {
      module._free(ptr);
    }
    return { data: grid, dims: gridDims, type: tt.info.name };
  });
}
