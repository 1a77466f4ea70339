// Y = GridSample(X, grid) for the API (see index.d.ts): the arguments read and checked first
// (arguments.js), then Y's shape from the core, then one heap block for the tensors, the core's
// call, and Y copied out. Tensors of strings take a path of their own (sampleStrings), as the
// heap holds only their indices.
import { cachedOutputShape, checkLength, elementCount } from './arguments.js';
import { checkOut, checkStringOutput, readSampleCall } from './call_arguments.js';
import { alignUp, allocate, attribute, errorOf, heap, putDims, withDims } from './heap.js';
import { MAX_HEAP_BYTES } from './limits.js';
import { sampleOnChosenThreads } from './thread_choice.js';
import { bytesOf, newOutputArray, stringsOfTags } from './typed_arrays.js';

// Fresh outputs of at least this many bytes are allocated, and their pages touched, while the
// call samples on the call thread (sampleNumbers): below it, faulting the pages in as the copy
// out writes them costs less than handing the call over.
const BACKGROUND_OUTPUT_BYTES = 256 * 1024;
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
    return sampleOnChosenThreads(runtime.threadChooser, call,
                                 (chosen) => sampleNumbers(runtime, { ...call, threads: chosen }));
  });
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

function sampleNumbers(runtime, { xt, gt, xDims, gridDims, yDims, yDimsAt, modeValue,
                                  paddingValue, alignCorners, layoutValue, out, threads }) {
  const module = runtime.module;
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
  // A large fresh output is allocated while the call samples on the call thread, and its pages
  // touched: new memory, which the system would otherwise map page by page as the copy out
  // first writes it. Only where a core is left for this thread: else it slows the call's own
  // (docs/javascript.md, "Threads").
  const background = out === undefined && runtime.callThread &&
                     yBytes >= BACKGROUND_OUTPUT_BYTES &&
                     (threads || runtime.threads) < runtime.cores;
  const fresh = () => newOutputArray(xt.array, yCount, 'the output');
  let y;
  let yView;
  if (out !== undefined) {
    y = out.target;
    yView = out.bytes;
  } else if (!background) {
    y = fresh();
    yView = bytesOf('y', y);
  }
  const ptr = allocate(runtime, total, 'the tensors');
  try {
    // Views are taken after _malloc (heap()): a memory growth gives the heap a new buffer. X
    // and the grid are copied in before Y is written, so `out` may alias them.
    const xPtr = ptr;
    const gridPtr = xPtr + alignUp(xBytes);
    const yPtr = gridPtr + alignUp(gridBytes);
    const { u8 } = heap(runtime);
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
    if (code !== runtime.ok) throw errorOf(runtime, code);
    // The call may have grown the memory.
    yView.set(heap(runtime).u8.subarray(yPtr, yPtr + yBytes));
  } finally {
    module._free(ptr);
  }
  return { data: y, dims: yDims, type: xt.info.name };
}
