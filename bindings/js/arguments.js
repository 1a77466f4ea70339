// Reading and checking the arguments of the API's calls, with the messages that name the
// argument and the bad value. It knows tensors, options and sizes, and nothing of where a call
// runs (no heap, no module), so that another backend can check its arguments the same way.
//
// A call reads everything it needs from its arguments first (readTensor, readOptions, ...), each
// property once, into values of its own; only then does it touch the heap. So a getter or a
// Proxy among the arguments, whatever it returns or however often it is asked, cannot make the
// checks and the copies disagree, and code it runs (a nested gridSample call included) never
// finds the heap or the scratch in use.
import { MAX_HEAP_BYTES } from './limits.js';
import {
  apply, arrayName, bytesOf, TYPE_OF_ARRAY, typedArrayLength, typedArrayName,
} from './typed_arrays.js';

const OPTION_NAMES = ['mode', 'paddingMode', 'alignCorners', 'layout', 'out', 'numThreads'];
const AFFINE_OPTION_NAMES = ['alignCorners'];

// A string for an error message: quoted, and cut if long.
export function quote(text) {
  if (text.length <= 64) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, 64)}…`)} (${text.length} characters)`;
}

// A value for an error message: its kind, and for primitives the value (long strings cut).
// Reading an object's constructor may run a getter or a Proxy trap; whatever that throws is
// not the error being reported, so it is ignored.
export function describe(value) {
  if (value === null || value === undefined) return String(value);
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

// A thread count: a whole number from 1 (to `most`, if given).
export function checkThreads(what, value, most = Infinity) {
  if (typeof value !== 'number') {
    throw new TypeError(`${what} must be a number, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < 1 || value > most) {
    const range = most === Infinity ? 'at least 1' : `from 1 to ${most}`;
    throw new RangeError(`${what} must be a whole number ${range}, got ${value}`);
  }
}

export function shapeText(dims) {
  return `[${dims.join(', ')}]`;
}

// The error for a StatusCode of the core, with the core's message: a TypeError for a type that
// is not allowed where it was given, a RangeError for everything else.
export function coreError(message, typeMismatch) {
  const text = `gridsample: ${message}`;
  return typeMismatch ? new TypeError(text) : new RangeError(text);
}

// An attribute's spelling as the core gets it to parse: cut to MAX_SPELLING characters (longer
// ones are invalid anyway, and the core's message shows the start).
export const MAX_SPELLING = 32;
export function shownSpelling(spelling) {
  return spelling.length > MAX_SPELLING ? `${spelling.slice(0, MAX_SPELLING)}…` : spelling;
}

// The core's Mode / Padding / Layout value of a spelling, parsed once per spelling (pipelines
// repeat theirs): parse(shown) gives the value of shownSpelling(spelling) or throws the core's
// error.
export function cachedAttribute(cache, spelling, parse) {
  let value = cache.get(spelling);
  if (value === undefined) {
    value = parse(shownSpelling(spelling));
    cache.set(spelling, value);
  }
  return value;
}

function sameDims(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; ++i) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}

// Y's dims for X's and the grid's in the layout (its Layout value): outputShape() gives them
// (the core's OutputShape, or throws its error) unless they are the last call's (kept in
// runtime.lastShapes). Pipelines call with the same shapes again and again, and asking the core
// costs as much as sampling a small input; the core checks Y's shape again when it samples.
export function cachedOutputShape(runtime, xDims, gridDims, layout, outputShape) {
  const last = runtime.lastShapes;
  if (last !== null && last.layout === layout && sameDims(last.x, xDims) &&
      sameDims(last.grid, gridDims)) {
    return last.y.slice();
  }
  const yDims = outputShape();
  runtime.lastShapes = { x: xDims, grid: gridDims, layout, y: yDims.slice() };
  return yDims;
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

// A tensor's dims, read once into an array of numbers (the core checks their values).
export function readDims(name, dims) {
  if (!Array.isArray(dims)) {
    throw new TypeError(
        `gridsample: ${name}.dims must be an array of numbers, got ${describe(dims)}`);
  }
  return copyArray(`${name}.dims`, dims, 8, checkExtent);
}

// Reads a tensor argument once: { dims (numbers), info, array (its class name), length, and
// either bytes and byteLength (a typed array's) or strings (a copy of a string[]) }. `types`
// are the dtypes the loaded module has, by name ({ name, id, size, arrays, parts }).
export function readTensor(name, tensor, types) {
  if (tensor === null || typeof tensor !== 'object') {
    throw new TypeError(
        `gridsample: ${name} must be a tensor { data, dims, type? }, got ${describe(tensor)}`);
  }
  const { data, dims, type } = tensor;
  if (data === undefined && dims === undefined) {
    throw new TypeError(
        `gridsample: ${name} must be a tensor { data, dims, type? }, got ${describe(tensor)}`);
  }
  const extents = readDims(name, dims);
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
  const info = types.get(typeName);
  if (!info) {
    throw new TypeError(`gridsample: ${name}.type: unknown type ${quote(typeName)}; ` +
                        `expected one of ${[...types.keys()].join(', ')}`);
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
export function checkOptionNames(options, names) {
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

// The options every backend of gridSample reads (from checkOptionNames' object), each once and
// in this order: { mode, paddingMode, alignCorners (a boolean), layout }, the spellings
// checked to be strings (the backend parses them).
export function readSampleAttributes(options) {
  const { mode = 'linear', paddingMode = 'zeros', alignCorners, layout = 'channels-first' } =
      options;
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
  return { mode, paddingMode, alignCorners: readAlignCorners(alignCorners), layout };
}

// Reads gridSample's options argument once: { mode, paddingMode, alignCorners (a boolean),
// layout, out, threads } with out undefined or { array, length, bytes, byteLength, target (the
// caller's array) }, and threads the core's num_threads (0: all of the `started` threads).
export function readOptions(options, started) {
  const checked = checkOptionNames(options, OPTION_NAMES);
  const { mode, paddingMode, alignCorners, layout } = readSampleAttributes(checked);
  const { out, numThreads } = checked;
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
  return { mode, paddingMode, alignCorners, layout, out: outView,
           threads: numThreads === undefined ? 0 : Math.min(numThreads, started) };
}

// Reads affineGrid's options argument once: { alignCorners (a boolean) }.
export function readAffineOptions(options) {
  const { alignCorners } = checkOptionNames(options, AFFINE_OPTION_NAMES);
  return { alignCorners: readAlignCorners(alignCorners) };
}

// What ran while the arguments were read (a getter, a Proxy trap) may have detached or shrunk
// a buffer read before (`view`: what readTensor or readOptions made of it, if anything).
export function checkStillUsable(name, view) {
  if (view !== undefined && view.bytes !== undefined &&
      view.bytes.byteLength !== view.byteLength) {
    throw new TypeError(`gridsample: ${name}: the array's ArrayBuffer was detached or shrunk ` +
                        'while the arguments were read');
  }
}

export function elementCount(dims) {
  let count = 1;
  for (let i = 0; i < dims.length; ++i) count *= dims[i];
  return count;
}

// A tensor's length against its dims (once the core has checked the dims themselves).
export function checkLength(name, tensor) {
  const count = elementCount(tensor.dims);
  const expected = count * tensor.info.parts;
  if (tensor.length !== expected) {
    const what = tensor.info.parts === 1 ? `${expected} values` :
        `${expected} numbers (${count} ${tensor.info.name} values, interleaved)`;
    throw new RangeError(`gridsample: ${name}.data has ${tensor.length} elements, but dims ` +
                         `${shapeText(tensor.dims)} need ${what}`);
  }
}

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

// Reads affineGrid's `size` once: (N, C, H, W) or (N, C, D, H, W) as numbers, from an array of
// numbers or bigints, a BigInt64Array, or an int64 tensor { data, dims: [4 or 5], type? } such
// as the ort.Tensor an ONNX model takes. The core checks the values (non-negative, theta's N).
export function readSize(size) {
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
