// The package's JS API over the embind module (bindings/gridsample_embind.cc): argument checks,
// dtype ↔ typed-array mapping, copies in and out of the wasm heap, error classes, and the cached
// instance. The entry files (index.js for browsers, index.node.js and index.cjs for Node) only
// add the way the .wasm is found. bindings/js/assemble.mjs copies this file into dist/ and
// makes its CommonJS twin from it, so it keeps to `export function` declarations and imports
// nothing.

const WASM_FILE = 'gridsample.wasm';

// The JS side of each dtype: the typed arrays that may hold it, by name (a typed array's
// Symbol.toStringTag, so that subclasses such as Node's Buffer and arrays of other realms count),
// and, for `type`-less tensors, which dtype an array means. Y is made of X's kind of array.
// Sizes, names and kinds come from the core's registry (dtypes.inc) at init().
const Float16 = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : null;
const ARRAY_CLASSES = new Map(
    [Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array,
     Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
     ...(Float16 ? [Float16] : [])].map((Class) => [Class.name, Class]));
const ARRAYS_OF_TYPE = {
  float32: ['Float32Array'],
  float64: ['Float64Array'],
  float16: Float16 ? ['Uint16Array', 'Float16Array'] : ['Uint16Array'],
  bfloat16: ['Uint16Array'],
  int8: ['Int8Array'],
  uint8: ['Uint8Array', 'Uint8ClampedArray'],
  int16: ['Int16Array'],
  uint16: ['Uint16Array'],
  int32: ['Int32Array'],
  uint32: ['Uint32Array'],
  int64: ['BigInt64Array'],
  uint64: ['BigUint64Array'],
  bool: ['Uint8Array'],
  complex64: ['Float32Array'],
  complex128: ['Float64Array'],
  string: ['Array'],
};
const TYPE_OF_ARRAY = new Map([
  ['Float32Array', 'float32'], ['Float64Array', 'float64'], ['Int8Array', 'int8'],
  ['Uint8Array', 'uint8'], ['Uint8ClampedArray', 'uint8'], ['Int16Array', 'int16'],
  ['Uint16Array', 'uint16'], ['Int32Array', 'int32'], ['Uint32Array', 'uint32'],
  ['BigInt64Array', 'int64'], ['BigUint64Array', 'uint64'], ['Array', 'string'],
  ...(Float16 ? [['Float16Array', 'float16']] : []),
]);

// 'Float32Array', ... for a typed array, 'Array' for an array, undefined for anything else
// (a DataView included).
function arrayName(value) {
  if (Array.isArray(value)) return 'Array';
  if (!ArrayBuffer.isView(value)) return undefined;
  const name = value[Symbol.toStringTag];
  return ARRAY_CLASSES.has(name) ? name : undefined;
}

const ALIGN = 16;  // heap alignment of each tensor (complex128 needs 8)
const MAX_HEAP_BYTES = 2 ** 31 - ALIGN * 4;  // wasm32 with memory growth: at most 2 GiB
const SCRATCH_DIMS = 48;  // dims a call keeps in the scratch allocated at init()

let runtime = null;  // what load() returns: the module, the dtypes, parsed attributes, scratch
let loading = null;  // the promise of the first init() still under way

// ---------------------------------------------------------------------------------------------
// Loading.

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object' || typeof value === 'function') {
    const name = value.constructor && value.constructor.name;
    return name ? `a ${name}` : `an ${typeof value}`;
  }
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

function checkInitOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') {
    throw new TypeError(`init: options must be an object, got ${describe(options)}`);
  }
  const { locateFile, wasmModule, wasmBinary } = options;
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
  return options;
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

async function load(platform, options) {
  let fail;
  const failed = new Promise((resolve, reject) => { fail = reject; });
  const ready = platform.createModule({
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
  const module = await Promise.race([ready, failed]);
  const types = new Map();
  for (const { name, id, size, kind } of module.dtypes()) {
    const arrays = ARRAYS_OF_TYPE[name];
    if (!arrays) continue;  // a registry type this wrapper does not know: refused as unknown
    types.set(name, { name, id, size, arrays, parts: kind === 'kComplex' ? 2 : 1 });
  }
  const codes = module.StatusCode;
  return {
    module,
    types,
    ok: codes.kOk.value,
    typeMismatch: codes.kTypeMismatch.value,
    modes: new Map(),     // spelling → Mode value, as the core parsed it
    paddings: new Map(),  // spelling → Padding value
    // Room for the dims of a call (X's, the grid's, Y's), as float64; a call of higher ranks
    // allocates its own.
    dimsCapacity: SCRATCH_DIMS,
    dimsScratch: module._malloc(SCRATCH_DIMS * 8),
  };
}

// init() for one platform: { createModule, defaultLocation(), instantiate(where, imports) }.
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

// The embind module, for the package's own tests (a heap probe); null before init().
export function moduleForTesting() {
  return runtime ? runtime.module : null;
}

// ---------------------------------------------------------------------------------------------
// gridSample.

// The error for a StatusCode of the core, with its message (lastMessage()).
function errorOf(code) {
  const message = `gridsample: ${runtime.module.lastMessage()}`;
  if (code === runtime.typeMismatch) return new TypeError(message);
  return new RangeError(message);  // kInvalidArgument, kUnsupported, kOutOfRange
}

// The core's Mode / Padding value of an ONNX spelling, parsed once per spelling.
function attribute(cache, parse, spelling) {
  let value = cache.get(spelling);
  if (value === undefined) {
    value = parse(spelling);
    if (value < 0) throw errorOf(runtime.module.StatusCode.kInvalidArgument.value);
    cache.set(spelling, value);
  }
  return value;
}

function shapeText(dims) {
  return `[${dims.join(', ')}]`;
}

// Checks a tensor's JS types and returns { data, dims, info }.
function checkTensor(name, tensor) {
  if (tensor === null || typeof tensor !== 'object' || !('data' in tensor) ||
      !('dims' in tensor)) {
    throw new TypeError(
        `gridsample: ${name} must be a tensor { data, dims, type? }, got ${describe(tensor)}`);
  }
  const { data, dims, type } = tensor;
  if (!Array.isArray(dims)) {
    throw new TypeError(
        `gridsample: ${name}.dims must be an array of numbers, got ${describe(dims)}`);
  }
  for (let i = 0; i < dims.length; ++i) {
    if (typeof dims[i] !== 'number') {
      throw new TypeError(
          `gridsample: ${name}.dims[${i}] must be a number, got ${describe(dims[i])}`);
    }
    if (!Number.isSafeInteger(dims[i])) {
      throw new RangeError(`gridsample: ${name}.dims[${i}] must be an integer, got ${dims[i]}`);
    }
  }
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
    throw new TypeError(`gridsample: ${name}.type: unknown type ${JSON.stringify(typeName)}; ` +
                        `expected one of ${[...runtime.types.keys()].join(', ')}`);
  }
  if (!info.arrays.includes(array)) {
    throw new TypeError(`gridsample: ${name}.data: ${describe(data)} does not hold ${typeName} ` +
                        `(expected ${info.arrays.join(' or ')})`);
  }
  if (array === 'Array') {
    for (let i = 0; i < data.length; ++i) {
      if (typeof data[i] !== 'string') {
        throw new TypeError(
            `gridsample: ${name}.data[${i}] must be a string, got ${describe(data[i])}`);
      }
    }
  }
  return { data, dims, info, array };
}

function checkOptions(options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object') {
    throw new TypeError(`gridsample: options must be an object, got ${describe(options)}`);
  }
  const { mode = 'linear', paddingMode = 'zeros', alignCorners = false, out } = options;
  if (typeof mode !== 'string') {
    throw new TypeError(`gridsample: options.mode must be a string, got ${describe(mode)}`);
  }
  if (typeof paddingMode !== 'string') {
    throw new TypeError(
        `gridsample: options.paddingMode must be a string, got ${describe(paddingMode)}`);
  }
  if (typeof alignCorners !== 'boolean' && typeof alignCorners !== 'number') {
    throw new TypeError(
        'gridsample: options.alignCorners must be a boolean, 0 or 1, got ' +
        describe(alignCorners));
  }
  if (typeof alignCorners === 'number' && alignCorners !== 0 && alignCorners !== 1) {
    throw new RangeError(
        `gridsample: options.alignCorners must be a boolean, 0 or 1, got ${alignCorners}`);
  }
  if (out !== undefined && (arrayName(out) === undefined || Array.isArray(out))) {
    throw new TypeError(`gridsample: options.out must be a typed array, got ${describe(out)}`);
  }
  return { mode, paddingMode, alignCorners: alignCorners === true || alignCorners === 1, out };
}

function elementCount(dims) {
  let count = 1;
  for (const extent of dims) count *= extent;
  return count;
}

function checkLength(name, tensor) {
  const count = elementCount(tensor.dims);
  const expected = count * tensor.info.parts;
  if (tensor.data.length !== expected) {
    const what = tensor.info.parts === 1 ? `${expected} values` :
        `${expected} numbers (${count} ${tensor.info.name} values, interleaved)`;
    throw new RangeError(`gridsample: ${name}.data has ${tensor.data.length} elements, but dims ` +
                         `${shapeText(tensor.dims)} need ${what}`);
  }
}

function alignUp(bytes) {
  return Math.ceil(bytes / ALIGN) * ALIGN;
}

function bytesOf(view) {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

// Writes dims to the heap as float64 at byte address `at`.
function putDims(heap64, at, dims) {
  const base = at / 8;
  for (let i = 0; i < dims.length; ++i) heap64[base + i] = dims[i];
}

// Y = GridSample(X, grid): see index.d.ts.
export function gridSample(x, grid, options) {
  if (!runtime) {
    throw new Error('gridsample: the WebAssembly module is not loaded: call init() and await ' +
                    'it before gridSample()');
  }
  const module = runtime.module;
  const xt = checkTensor('x', x);
  const gt = checkTensor('grid', grid);
  const { mode, paddingMode, alignCorners, out } = checkOptions(options);
  if (gt.info.name === 'string') {
    throw new TypeError('gridsample: grid.type: a grid holds coordinates, not strings (expected ' +
                        'a floating-point type)');
  }
  const xRank = xt.dims.length;
  const gridRank = gt.dims.length;
  const dimsCount = 2 * xRank + gridRank;
  const ownDims = dimsCount > runtime.dimsCapacity ? module._malloc(dimsCount * 8) : 0;
  if (dimsCount > runtime.dimsCapacity && !ownDims) {
    throw new RangeError(`gridsample: cannot allocate ${dimsCount * 8} bytes on the wasm heap`);
  }
  try {
    const xDims = ownDims || runtime.dimsScratch;
    const gridDims = xDims + 8 * xRank;
    const yDimsAt = gridDims + 8 * gridRank;
    putDims(module.HEAPF64, xDims, xt.dims);
    putDims(module.HEAPF64, gridDims, gt.dims);
    const code = module.outputShape(xDims, xRank, gridDims, gridRank, yDimsAt);
    if (code !== runtime.ok) throw errorOf(code);
    const yDims = Array.from(module.HEAPF64.subarray(yDimsAt / 8, yDimsAt / 8 + xRank));
    checkLength('x', xt);
    checkLength('grid', gt);
    const modeValue = attribute(runtime.modes, module.parseMode, mode);
    const paddingValue = attribute(runtime.paddings, module.parsePadding, paddingMode);
    const call = { xt, gt, xDims, gridDims, yDims, modeValue, paddingValue, alignCorners, out };
    return xt.info.name === 'string' ? sampleStrings(call) : sampleNumbers(call);
  } finally {
    if (ownDims) module._free(ownDims);
  }
}

function sampleStrings({ xt, gt, xDims, gridDims, yDims, modeValue, paddingValue, alignCorners,
                         out }) {
  const module = runtime.module;
  if (out !== undefined) {
    throw new TypeError('gridsample: options.out cannot hold strings (string outputs are new ' +
                        'arrays)');
  }
  const gridBytes = gt.data.byteLength;
  if (gridBytes > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: the grid needs ${gridBytes} bytes, more than the ` +
                         'WebAssembly heap holds');
  }
  const gridPtr = module._malloc(Math.max(gridBytes, 1));
  if (!gridPtr) throw new RangeError(`gridsample: cannot allocate ${gridBytes} bytes`);
  try {
    module.HEAPU8.set(bytesOf(gt.data), gridPtr);
    const y = [];
    const code = module.gridSampleStrings(xt.data, xDims, xt.dims.length, gridPtr, gt.info.id,
                                          gridDims, gt.dims.length, y, modeValue, paddingValue,
                                          alignCorners);
    if (code !== runtime.ok) throw errorOf(code);
    return { data: y, dims: yDims, type: 'string' };
  } finally {
    module._free(gridPtr);
  }
}

function sampleNumbers({ xt, gt, xDims, gridDims, yDims, modeValue, paddingValue, alignCorners,
                         out }) {
  const module = runtime.module;
  const yCount = elementCount(yDims) * xt.info.parts;
  let y;
  if (out !== undefined) {
    if (!xt.info.arrays.includes(arrayName(out))) {
      throw new TypeError(
          `gridsample: options.out: ${describe(out)} cannot hold ${xt.info.name} (expected ` +
          `${xt.info.arrays.join(' or ')})`);
    }
    if (out.length !== yCount) {
      throw new RangeError(`gridsample: options.out has ${out.length} elements, but the output ` +
                           `${shapeText(yDims)} of ${xt.info.name} needs ${yCount}`);
    }
    y = out;
  }
  const xBytes = xt.data.byteLength;
  const gridBytes = gt.data.byteLength;
  const yBytes = yCount * xt.info.size / xt.info.parts;
  const total = alignUp(xBytes) + alignUp(gridBytes) + yBytes;
  if (total > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: the tensors need ${total} bytes, more than the ` +
                         'WebAssembly heap holds');
  }
  if (y === undefined) y = new (ARRAY_CLASSES.get(xt.array))(yCount);
  const ptr = module._malloc(Math.max(total, 1));
  if (!ptr) throw new RangeError(`gridsample: cannot allocate ${total} bytes on the wasm heap`);
  try {
    // Views are taken after _malloc: a memory growth replaces the heap's ArrayBuffer.
    const xPtr = ptr;
    const gridPtr = xPtr + alignUp(xBytes);
    const yPtr = gridPtr + alignUp(gridBytes);
    let heap = module.HEAPU8;
    heap.set(bytesOf(xt.data), xPtr);
    heap.set(bytesOf(gt.data), gridPtr);
    const code = module.gridSample(xPtr, xt.info.id, xDims, xt.dims.length, gridPtr, gt.info.id,
                                   gridDims, gt.dims.length, yPtr, modeValue, paddingValue,
                                   alignCorners);
    if (code !== runtime.ok) throw errorOf(code);
    heap = module.HEAPU8;  // the call may have grown the memory
    bytesOf(y).set(heap.subarray(yPtr, yPtr + yBytes));
  } finally {
    module._free(ptr);
  }
  return { data: y, dims: yDims, type: xt.info.name };
}
