// The wasm heap as the calls use it: views that follow the memory's growth, one block per call,
// the dims and attribute spellings written into the scratch that init() keeps, and the core's
// status codes turned into errors. Each function takes the loaded runtime (loader.js).
import { cachedAttribute, coreError, MAX_SPELLING } from './arguments.js';
import { ALIGN, MAX_HEAP_BYTES } from './limits.js';

const SCRATCH_DIMS = 48;  // dims a call keeps in the scratch allocated at init()

// The heap's views over the memory's current buffer. A memory growth (by any thread) gives the
// memory a new, longer buffer; views of the old one stay usable but short, so the wrapper takes
// its views through heap(), never the glue's HEAP* (updated only when the glue's own code runs).
export function viewsOf(buffer) {
  return { buffer, u8: new Uint8Array(buffer), u32: new Uint32Array(buffer),
           f64: new Float64Array(buffer) };
}
export function heap(runtime) {
  const buffer = runtime.memory.buffer;
  if (runtime.views.buffer !== buffer) runtime.views = viewsOf(buffer);
  return runtime.views;
}

// Room for the dims of a call (X's, the grid's, Y's, as float64; a call of higher ranks
// allocates its own) and for an attribute spelling as UTF-8, taken at init(): no call needs the
// heap before its arguments are checked.
export function allocateScratch(module) {
  const dimsScratch = module._malloc(SCRATCH_DIMS * 8);
  const textScratch = module._malloc(MAX_SPELLING * 3 + 3);
  if (!dimsScratch || !textScratch) {
    throw new RangeError('gridsample: init: the WebAssembly heap cannot give the call scratch');
  }
  return { dimsCapacity: SCRATCH_DIMS, dimsScratch, textScratch };
}

// The error for a StatusCode of the core, with its message (UTF-8 at lastMessageAt()).
export function errorOf(runtime, code) {
  const at = runtime.module.lastMessageAt();
  const { u8 } = heap(runtime);
  // A copy: TextDecoder does not read shared memory.
  return coreError(new TextDecoder().decode(u8.slice(at, u8.indexOf(0, at))),
                   code === runtime.typeMismatch);
}

// The core's Mode / Padding / Layout value of a spelling (cachedAttribute). The spelling crosses
// as UTF-8 in the scratch of init().
export function attribute(runtime, cache, parse, spelling) {
  return cachedAttribute(cache, spelling, (shown) => {
    const bytes = new TextEncoder().encode(shown);  // at most MAX_SPELLING * 3 + 3 bytes
    heap(runtime).u8.set(bytes, runtime.textScratch);
    const value = parse(runtime.textScratch, bytes.length);
    if (value < 0) throw errorOf(runtime, runtime.module.StatusCode.kInvalidArgument.value);
    return value;
  });
}

export function alignUp(bytes) {
  return Math.ceil(bytes / ALIGN) * ALIGN;
}

// The heap block of a call: `bytes` of them, refused (RangeError) beyond the heap's ceiling or
// when malloc cannot find them, before anything else is allocated.
export function allocate(runtime, bytes, what) {
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
export function putDims(heap64, at, dims) {
  const base = at / 8;
  for (let i = 0; i < dims.length; ++i) heap64[base + i] = dims[i];
}

// Calls body(at) with `at` the heap addresses of `lists` (arrays of dims) written there as
// float64 one after another, then of room for `room` more: in the scratch of init(), or in a
// block of the call's own when they do not fit there (freed however body ends).
export function withDims(runtime, lists, room, body) {
  let count = room;
  for (const list of lists) count += list.length;
  const own = count > runtime.dimsCapacity ? allocate(runtime, count * 8, 'the dims') : 0;
  try {
    const at = [];
    let next = own || runtime.dimsScratch;
    for (const list of lists) {
      at.push(next);
      putDims(heap(runtime).f64, next, list);
      next += 8 * list.length;
    }
    at.push(next);
    return body(at);
  } finally {
    if (own) runtime.module._free(own);
  }
}
