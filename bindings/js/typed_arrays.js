// The typed arrays a tensor's data may be, for each dtype, and the engine's own ways of reading
// them. Both the argument checks and the heap copies go through these, so that a caller's array
// is never asked about itself (its properties may lie, or run code) and an array of another
// realm or a subclass (Node's Buffer) counts as what it is.

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
export const ARRAYS_OF_TYPE = Object.fromEntries(
    Object.entries(/* @registry arraysOfType */ {})
        .map(([type, arrays]) => [type, arrays.filter(known)]));
export const TYPE_OF_ARRAY = new Map(
    Object.entries(/* @registry typeOfArray */ {}).filter(([array]) => known(array)));

// The engine's own accessors of typed arrays, taken once: a caller's array may carry own
// properties (length, byteLength, buffer, Symbol.toStringTag) that lie, and these read the
// array's internal slots instead, in any realm, and never run the caller's code.
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
export const apply = Reflect.apply;
const accessor = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
export const typedArrayName = accessor(Symbol.toStringTag);  // undefined for anything else
const typedArrayBuffer = accessor('buffer');
const typedArrayByteOffset = accessor('byteOffset');
const typedArrayByteLength = accessor('byteLength');
export const typedArrayLength = accessor('length');

// 'Float32Array', ... for a typed array, 'Array' for an array, undefined for anything else
// (a DataView included).
export function arrayName(value) {
  if (Array.isArray(value)) return 'Array';
  const name = apply(typedArrayName, value, []);
  return ARRAY_CLASSES.has(name) ? name : undefined;
}

// The bytes of a typed array, as a Uint8Array of our own over its memory (made with the
// engine's accessors); a TypeError if its buffer was detached (transferred).
export function bytesOf(name, view) {
  const buffer = apply(typedArrayBuffer, view, []);
  try {
    return new Uint8Array(buffer, apply(typedArrayByteOffset, view, []),
                          apply(typedArrayByteLength, view, []));
  } catch {
    throw new TypeError(`gridsample: ${name}: the array's ArrayBuffer is detached ` +
                        '(transferred); pass an array whose memory is still usable');
  }
}

// The dtypes a backend's registry lists ([{ name, id, size, kind }], its dtypes()), by name:
// { name, id, size, arrays, parts }. A registry type this wrapper has no arrays for is left out
// (refused as unknown).
export function typesOf(registry) {
  const types = new Map();
  for (const { name, id, size, kind } of registry) {
    const arrays = ARRAYS_OF_TYPE[name];
    if (arrays) types.set(name, { name, id, size, arrays, parts: kind === 'kComplex' ? 2 : 1 });
  }
  return types;
}

// Arrays of at least this many bytes are allocated without zeroing where the host allows it
// (Node.js's Buffer.allocUnsafeSlow): V8 zeroes a new typed array's memory, which glibc hands back
// reused, so that a large fresh output was written twice (docs/benchmarks.md, "Fresh outputs
// without zeroing"). Smaller ones cost too little to matter.
const UNZEROED_BYTES = 64 * 1024;
// Taken once, as the accessors above: Node.js's own (browsers' Buffer polyfills zero anyway).
const allocUnsafeSlow = globalThis.process?.versions?.node !== undefined &&
                        typeof globalThis.Buffer?.allocUnsafeSlow === 'function'
  ? globalThis.Buffer.allocUnsafeSlow : null;

// A new array of the class named `array` (a typed array's name), `count` long, for a call to
// write whole before anyone can see it (a failed call drops it): in Node.js, from memory not
// zeroed first where it is large (UNZEROED_BYTES); its buffer is its own, of its exact size,
// either way. A RangeError naming `what` when JavaScript cannot allocate it now.
export function newOutputArray(array, count, what) {
  const Class = ARRAY_CLASSES.get(array);
  const bytes = count * Class.BYTES_PER_ELEMENT;
  let memory;
  try {
    if (allocUnsafeSlow === null || bytes < UNZEROED_BYTES) return new Class(count);
    memory = allocUnsafeSlow(bytes);
  } catch {
    throw new RangeError(`gridsample: ${what} needs ${bytes} bytes, which JavaScript cannot ` +
                         'allocate now');
  }
  return new Class(apply(typedArrayBuffer, memory, []), apply(typedArrayByteOffset, memory, []),
                   count);
}

// Y's strings from the tags the core gave for them (bindings/string_tags.h): tag i + 1 is X's
// string i, tag 0 "" (padding).
export function stringsOfTags(strings, tags) {
  const y = new Array(tags.length);
  for (let i = 0; i < tags.length; ++i) y[i] = tags[i] === 0 ? '' : strings[tags[i] - 1];
  return y;
}
