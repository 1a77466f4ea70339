// Y = GridSample(X, grid) for the API (see index.d.ts): the arguments read and checked first
// (arguments.js), then Y's shape from the core, then one heap block for the tensors, the core's
// call (or its calls on runs of batch items: sampleInPieces), and Y copied out. Tensors of
// strings take a path of their own (sampleStrings), as the heap holds only their indices.
import { cachedOutputShape, checkLength, elementCount } from './arguments.js';
import { checkOut, checkStringOutput, readSampleCall } from './call_arguments.js';
import { alignUp, allocate, attribute, errorOf, heap, putDims, withDims } from './heap.js';
import { MAX_HEAP_BYTES } from './limits.js';
import { sampleOnChosenThreads, threadsMatter } from './thread_choice.js';
import { bytesOf, newOutputArray, stringsOfTags } from './typed_arrays.js';

// Fresh outputs of at least this many bytes may be allocated, and Y copied into them part by
// part, while the call samples on the call thread (sampleWhole's handOver, where
// thread_choice.js finds it faster): below it, faulting the pages in as the copy out writes them
// after the call costs less than handing the call over. (Into `out`, handing over measured
// slower than the copy after the call: docs/benchmarks.md, "Y copied out as the call finishes
// it".)
const HAND_OVER_OUTPUT_BYTES = 256 * 1024;
// Calls into `out` on the call thread of several batch items are sampled in up to PIECES
// pieces of PIECE_BYTES of Y or more (sampleInPieces), so that the heap copies overlap the
// sampling; smaller pieces measured slower, their hand-overs costing what the overlap saves.
// Fresh outputs are sampled whole (sampleWhole's handOver): pieces copied into new memory,
// whose pages the system maps one by one, measured slower (docs/benchmarks.md, "Batch items
// in pieces").
const PIECES = 8;
const PIECE_BYTES = 1024 * 1024;
const OS_PAGE_BYTES = 4096;  // the smallest page size of the platforms we run on

// Y's dims (cachedOutputShape), X's and the grid's on the heap at xAt and gridAt, and left on
// the heap at yAt for the sampling call.
function outputDims(runtime, xDims, gridDims, layout, xAt, gridAt, yAt) {
  const yDims = cachedOutputShape(runtime, xDims, gridDims, layout, () => {
    const code = runtime.module.outputShape(xAt, xDims.length, gridAt, gridDims.length, layout,
                                            yAt);
    if (code !== runtime.ok) throw errorOf(runtime, code);
    const heap64 = heap(runtime).f64;
    const yDims = [];
    for (let i = 0; i < xDims.length; ++i) yDims.push(heap64[yAt / 8 + i]);
    return yDims;
  });
  putDims(heap(runtime).f64, yAt, yDims);
  return yDims;
}

// Y = GridSample(X, grid) on WebAssembly (runtime: loader.js's).
export function gridSampleWasm(runtime, x, grid, options) {
  const module = runtime.module;
  const { xt, gt, mode, paddingMode, alignCorners, layout, out, threads } =
      readSampleCall(runtime, x, grid, options);
  return withDims(runtime, [xt.dims, gt.dims], xt.dims.length, ([xDims, gridDims, yDimsAt]) => {
    const layoutValue = attribute(runtime, runtime.layouts, module.parseLayout, layout);
    const yDims = outputDims(runtime, xt.dims, gt.dims, layoutValue, xDims, gridDims, yDimsAt);
    checkLength('x', xt);
    checkLength('grid', gt);
    const modeValue = attribute(runtime, runtime.modes, module.parseMode, mode);
    const paddingValue = attribute(runtime, runtime.paddings, module.parsePadding, paddingMode);
    const call = { xt, gt, xDims, gridDims, yDims, yDimsAt, modeValue, paddingValue, alignCorners,
                   layoutValue, out, threads };
    if (xt.info.name === 'string') return sampleStrings(runtime, call);
    const handsOver = (threads) => out === undefined && callThreadSpare(runtime, threads) &&
        elementCount(yDims) * xt.info.size >= HAND_OVER_OUTPUT_BYTES;
    return sampleOnChosenThreads(
        runtime.threadChooser, call, runtime.threads,
        (way) => sampleNumbers(runtime, { ...call, threads: way.threads }, way.handOver),
        handsOver);
  });
}

// Whether the call thread runs and a call on `threads` (0: all of init's) leaves a core for the
// calling thread's own work beside it.
function callThreadSpare(runtime, threads) {
  return runtime.callThread && (threads || runtime.threads) < runtime.cores;
}

// X of strings: the glue returns Y as indices into X's strings (see GridSampleStringsJs), so
// only the grid and those indices are on the heap, beside the core's own small stand-ins.
function sampleStrings(runtime, { xt, gt, xDims, gridDims, yDims, modeValue, paddingValue,
                                  alignCorners, layoutValue, out, threads }) {
  const module = runtime.module;
  checkStringOutput(out);
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
  const gridPtr = allocate(runtime, alignUp(gridBytes) + indexBytes,
                           'the grid and the output indices');
  try {
    const indexPtr = gridPtr + alignUp(gridBytes);
    heap(runtime).u8.set(gt.bytes, gridPtr);
    const code = module.gridSampleStrings(xDims, xt.dims.length, gridPtr, gt.info.id, gridDims,
                                          gt.dims.length, indexPtr, modeValue, paddingValue,
                                          alignCorners, layoutValue, threads);
    if (code !== runtime.ok) throw errorOf(runtime, code);
    const tags = heap(runtime).u32.subarray(indexPtr / 4, indexPtr / 4 + yCount);
    return { data: stringsOfTags(xt.strings, tags), dims: yDims, type: 'string' };
  } finally {
    module._free(gridPtr);
  }
}

// `handOver`: sampled on the call thread while this thread makes the fresh output (sampleWhole).
function sampleNumbers(runtime, { xt, gt, yDims, out, threads, ...call }, handOver) {
  const yCount = elementCount(yDims) * xt.info.parts;
  if (out !== undefined) checkOut(out, xt, yCount, yDims);
  const xBytes = xt.bytes.byteLength;
  const gridBytes = gt.bytes.byteLength;
  const yBytes = yCount / xt.info.parts * xt.info.size;
  const total = alignUp(xBytes) + alignUp(gridBytes) + yBytes;
  if (total > MAX_HEAP_BYTES) {
    throw new RangeError(`gridsample: the tensors need ${total} bytes, more than the ` +
                         `WebAssembly heap holds (${MAX_HEAP_BYTES})`);
  }
  // Work for the calling thread while the call samples on the call thread: only where a core is
  // left for it, else it slows the call's own (docs/javascript.md, "Threads").
  const spare = callThreadSpare(runtime, threads);
  const items = spare && out !== undefined ? itemsPerPiece(xt.dims[0], yBytes) : 0;
  const fresh = () => newOutputArray(xt.array, yCount, 'the output');
  const ptr = allocate(runtime, total, 'the tensors');
  try {
    const at = { x: ptr, grid: ptr + alignUp(xBytes) };
    at.y = at.grid + alignUp(gridBytes);
    const tensors = { xt, gt, yDims, out, threads, at, yBytes, fresh };
    if (items > 0) return sampleInPieces(runtime, call, tensors, items);
    return sampleWhole(runtime, call, tensors, handOver);
  } finally {
    runtime.module._free(ptr);
  }
}

// The core's call (`sample`: module.gridSample, or module.startGridSample for the call thread)
// on X, the grid and Y at `at` ({ x, grid, y }) on the heap, with the dims the call wrote there
// (withDims).
function callCore(sample, xt, gt, call, at, threads) {
  const { xDims, gridDims, yDimsAt, modeValue, paddingValue, alignCorners, layoutValue } = call;
  return sample(at.x, xt.info.id, xDims, xt.dims.length, at.grid, gt.info.id, gridDims,
                gt.dims.length, at.y, yDimsAt, modeValue, paddingValue, alignCorners, layoutValue,
                threads);
}

// work() on this thread while the core's call that module.startGridSample began runs on the call
// thread; then the call's result, an error if it failed. The call is finished even where work()
// throws: the heap block it reads is freed only after it.
function whileSampling(runtime, work) {
  let code;
  try {
    work();
  } finally {
    code = runtime.module.finishGridSample();
  }
  if (code !== runtime.ok) throw errorOf(runtime, code);
}

// The core's call for the whole of Y, on the heap at `at` ({ x, grid, y }: X and the grid copied
// in here). `handOver` (fresh outputs only): on the call thread, while this thread allocates the
// fresh output and copies into it each part of Y the call has finished (PartsCopier): the
// output's new pages and the copy then leave the call's critical path but for its last part.
// A call on several threads that is not handed over samples here, on this thread and the pool's,
// and this thread copies the parts finished so far between its own and while it waits for the
// other threads: again the copy overlaps the sampling.
function sampleWhole(runtime, call, { xt, gt, yDims, out, threads, at, yBytes, fresh },
                     handOver) {
  const module = runtime.module;
  let y = out?.target;
  let yView = out?.bytes;
  const output = () => {
    y = fresh();
    yView = bytesOf('y', y);
  };
  if (out === undefined && !handOver) output();
  // Views are taken after _malloc (heap()): a memory growth gives the heap a new buffer. X and
  // the grid are copied in before Y is written, so `out` may alias them.
  const { u8 } = heap(runtime);
  u8.set(xt.bytes, at.x);
  u8.set(gt.bytes, at.grid);
  let copied = false;  // Y already copied out, part by part as the call finished them
  if (handOver) {
    const parts = module.resetFinishedParts();
    callCore(module.startGridSampleReporting, xt, gt, call, at, threads);
    whileSampling(runtime, () => {
      output();
      const copier = new PartsCopier(runtime, parts, at.y, yView, true);
      while (!copier.callDone()) copier.step();
      copied = copier.finish();
    });
  } else if ((threads || runtime.threads) > 1 && threadsMatter(yDims)) {
    const copier = new PartsCopier(runtime, module.resetFinishedParts(), at.y, yView,
                                   out === undefined);
    module.copyFinishedParts = () => copier.step();
    let code;
    try {
      code = callCore(module.gridSampleCopying, xt, gt, call, at, threads);
    } finally {
      module.copyFinishedParts = undefined;
    }
    if (code !== runtime.ok) throw errorOf(runtime, code);
    copied = copier.finish();
  } else {
    const code = callCore(module.gridSample, xt, gt, call, at, threads);
    if (code !== runtime.ok) throw errorOf(runtime, code);
  }
  // The call may have grown the memory.
  if (!copied) yView.set(heap(runtime).u8.subarray(at.y, at.y + yBytes));
  return { data: y, dims: yDims, type: xt.info.name };
}

// The layout of the finished parts (FinishedParts in gridsample_embind.cc), in 32-bit words:
// its header's words, then `slots` records of RECORD_WORDS words (Y's byte address, bytes, runs,
// stride: `runs` runs of `bytes`, `stride` apart; then the record's number + 1 once it is whole).
const PARTS = { written: 0, read: 1, lost: 2, done: 3, slots: 4, records: 5 };
const RECORD_WORDS = 5;

// Copies each part of Y that a reporting call has finished (FinishedParts at heap address
// `parts`) from the heap at `yAt` into yView, as the call publishes them; with `mapPages`
// (yView a fresh output), while no part waits, maps yView's next page (new memory, which the
// system would otherwise map page by page as the copies first write it).
class PartsCopier {
  constructor(runtime, parts, yAt, yView, mapPages) {
    this.runtime = runtime;
    this.base = parts / 4;  // in 32-bit words
    this.yAt = yAt;
    this.yView = yView;
    this.read = 0;
    this.copied = 0;
    this.page = mapPages ? 0 : yView.length;
    this.whole = true;  // every part inside Y
    this.failed = false;
  }

  // Copies the parts published so far, or else maps a page; returns whether it did either. It
  // may run inside the core's call (CopyFinishedParts in gridsample_embind.cc), so it throws
  // nothing: a failure stops the copying, and the caller copies Y whole (finish()).
  step() {
    if (this.failed) return false;
    try {
      return this.copyPublished() || this.mapPage();
    } catch {
      this.failed = true;
      return false;
    }
  }

  copyPublished() {
    // Views again each time: the call may grow the memory.
    const { u8, u32 } = heap(this.runtime);
    const { base, yAt, yView } = this;
    const written = Atomics.load(u32, base + PARTS.written);
    const slots = u32[base + PARTS.slots];
    const first = this.read;
    for (; this.read < written && slots > 0; ++this.read) {
      const at = base + PARTS.records + (this.read % slots) * RECORD_WORDS;
      // Numbered but not yet whole: a later step copies it.
      if (Atomics.load(u32, at + 4) !== this.read + 1) break;
      const bytes = u32[at + 1];
      const runs = u32[at + 2];
      const stride = u32[at + 3];
      const offset = u32[at] - yAt;
      if (offset < 0 || offset + (runs - 1) * stride + bytes > yView.length) {
        this.whole = false;
        continue;
      }
      for (let run = 0; run < runs; ++run) {
        const from = yAt + offset + run * stride;
        yView.set(u8.subarray(from, from + bytes), offset + run * stride);
      }
      this.copied += runs * bytes;
    }
    Atomics.store(u32, base + PARTS.read, this.read);
    return this.read > first;
  }

  mapPage() {
    if (this.page >= this.yView.length) return false;
    // Rewrites the byte as it is: the part copied there, if any, stays.
    this.yView[this.page] |= 0;
    this.page += OS_PAGE_BYTES;
    return true;
  }

  // Whether the call has returned: every part it reports is published by then.
  callDone() {
    return Atomics.load(heap(this.runtime).u32, this.base + PARTS.done) !== 0;
  }

  // Once the call has returned: copies its last published parts and says whether the parts
  // copied were all of Y (else the caller copies Y whole: one of many small tiles may run out
  // of slots).
  finish() {
    this.step();
    const lost = Atomics.load(heap(this.runtime).u32, this.base + PARTS.lost);
    return !this.failed && this.whole && this.copied === this.yView.length && !lost;
  }
}

// The batch items of each piece of a call sampled in pieces (sampleInPieces), or 0 for a call
// sampled whole: up to PIECES pieces of PIECE_BYTES of Y or more each, so that each piece's own
// call and hand-over stay small beside its sampling; 0 where that leaves one piece.
function itemsPerPiece(batch, yBytes) {
  if (yBytes < 2 * PIECE_BYTES || batch < 2) return 0;
  const items = Math.max(Math.ceil(batch / PIECES), Math.ceil(PIECE_BYTES * batch / yBytes));
  return items < batch ? items : 0;
}

// The core's call into `out` in pieces of `items` batch items each (the last may have fewer),
// on the call thread one after another, while this thread copies the next piece's grid into the
// heap and the last piece's Y out. A batch item's outputs read only its own X and grid, so the
// pieces do the whole call's work, no part of it twice, and give its bits; the copies leave the
// critical path. Batch is the outermost axis of every tensor in either layout, so a piece is
// one run of bytes in each, on the heap where the whole call would have them.
function sampleInPieces(runtime, call, { xt, gt, yDims, out, threads, at, yBytes }, items) {
  const module = runtime.module;
  const batch = xt.dims[0];
  const xItem = xt.bytes.byteLength / batch;
  const gridItem = gt.bytes.byteLength / batch;
  const yItem = yBytes / batch;
  // An `out` over the grid's memory is written only once the whole grid is on the heap.
  const gridFirst = out.bytes.buffer === gt.bytes.buffer;
  const copyGrid = (first, count) => {
    heap(runtime).u8.set(gt.bytes.subarray(first * gridItem, (first + count) * gridItem),
                         at.grid + first * gridItem);
  };
  // A piece's dims are the call's (withDims wrote them to the heap for it) with `count` items.
  const start = (first, count) => {
    const f64 = heap(runtime).f64;
    for (const dims of [call.xDims, call.gridDims, call.yDimsAt]) f64[dims / 8] = count;
    callCore(module.startGridSample, xt, gt, call, {
      x: at.x + first * xItem, grid: at.grid + first * gridItem, y: at.y + first * yItem,
    }, threads);
  };
  const copyOut = (first, count) => {
    out.bytes.set(heap(runtime).u8.subarray(at.y + first * yItem,
                                            at.y + (first + count) * yItem), first * yItem);
  };
  heap(runtime).u8.set(xt.bytes, at.x);
  copyGrid(0, gridFirst ? batch : items);
  let copied = 0;  // the items whose Y is in `out`
  for (let first = 0; first < batch; first += items) {
    const count = Math.min(items, batch - first);
    start(first, count);
    whileSampling(runtime, () => {
      copyOut(copied, first - copied);
      copied = first;
      const next = first + count;
      if (next < batch && !gridFirst) copyGrid(next, Math.min(items, batch - next));
    });
  }
  copyOut(copied, batch - copied);
  return { data: out.target, dims: yDims, type: xt.info.name };
}
