// The native backend, for Node.js: the C++ core as a Node-API addon (bindings/node/), where a
// prebuilt one fits the platform (dist/native/PLATFORM/gridsample.node). The arguments are read
// and checked by arguments.js, in the same order as the WebAssembly backend reads them, so that
// the same call fails with the same error on both; the core reads X and the grid where they are
// and writes Y straight into the output.
import {
  cachedAttribute, cachedOutputShape, checkLength, coreError, elementCount,
} from './arguments.js';
import {
  checkOut, checkStringOutput, readAffineCall, readSampleCall,
} from './call_arguments.js';
import { sampleOnChosenThreads, ThreadChooser } from './thread_choice.js';
import { bytesOf, newOutputArray, stringsOfTags, typesOf } from './typed_arrays.js';

// The runtime of the native backend (loader.js keeps it): the addon, the dtypes it has, and the
// threads a call may use (init's numThreads, at most the hardware's).
export function nativeRuntime(addon, requestedThreads) {
  const types = typesOf(addon.dtypes());
  const hardware = addon.hardwareThreads();
  const threads = Math.min(requestedThreads ?? hardware, hardware);
  return {
    backend: 'native',
    addon,
    types,
    threads,
    // The threads of calls without numThreads (thread_choice.js): on one machine a fresh
    // output's page faults, taken by every thread at once, make a second thread cost more than
    // it saves, on another not; null on one thread.
    threadChooser: threads > 1 ? new ThreadChooser() : null,
    typeMismatch: addon.StatusCode.kTypeMismatch,
    modes: new Map(),
    paddings: new Map(),
    layouts: new Map(),
    lastShapes: null,  // cachedOutputShape's
  };
}

function fail(runtime, code) {
  return coreError(runtime.addon.lastMessage(), code === runtime.typeMismatch);
}

// What the addon returned: `result` itself, or the error of its StatusCode.
function checked(runtime, result) {
  if (typeof result === 'number') throw fail(runtime, result);
  return result;
}

// The core's value of an attribute spelling (cachedAttribute).
function attribute(runtime, cache, parse, spelling) {
  return cachedAttribute(cache, spelling, (shown) => {
    const value = parse(shown);
    if (value < 0) throw fail(runtime, runtime.addon.StatusCode.kInvalidArgument);
    return value;
  });
}

// Whether two byte views share memory: the core would read an input the call is writing.
function overlaps(a, b) {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength &&
         b.byteOffset < a.byteOffset + a.byteLength;
}

export function gridSampleNative(runtime, x, grid, options) {
  const { addon } = runtime;
  const { xt, gt, mode, paddingMode, alignCorners, layout, out, threads } =
      readSampleCall(runtime, x, grid, options);
  const layoutValue = attribute(runtime, runtime.layouts, addon.parseLayout, layout);
  const yDims = cachedOutputShape(runtime, xt.dims, gt.dims, layoutValue,
                                 () => checked(runtime, addon.outputShape(xt.dims, gt.dims,
                                                                          layoutValue)));
  checkLength('x', xt);
  checkLength('grid', gt);
  const modeValue = attribute(runtime, runtime.modes, addon.parseMode, mode);
  const paddingValue = attribute(runtime, runtime.paddings, addon.parsePadding, paddingMode);
  const numThreads = threads || runtime.threads;
  if (xt.info.name === 'string') {
    checkStringOutput(out);
    const tagCount = elementCount(yDims);
    const tags = newOutputArray('Uint32Array', tagCount, 'the output strings\' tags');
    const code = addon.gridSampleStrings(xt.dims, gt.bytes, gt.info.id, gt.dims, yDims, tags,
                                         modeValue, paddingValue, alignCorners, layoutValue,
                                         numThreads);
    if (code !== 0) throw fail(runtime, code);
    return { data: stringsOfTags(xt.strings, tags), dims: yDims, type: 'string' };
  }
  const yCount = elementCount(yDims) * xt.info.parts;
  let y;
  let yBytes;
  if (out !== undefined) {
    checkOut(out, xt, yCount, yDims);
    y = out.target;
    yBytes = out.bytes;
  } else {
    y = newOutputArray(xt.array, yCount, 'the output');
    yBytes = bytesOf('y', y);
  }
  // `out` may share memory with X or the grid, which the core must read as they were.
  const xBytes = overlaps(xt.bytes, yBytes) ? xt.bytes.slice() : xt.bytes;
  const gridBytes = overlaps(gt.bytes, yBytes) ? gt.bytes.slice() : gt.bytes;
  const call = { xt, gt, yDims, modeValue, paddingValue, alignCorners, layoutValue, out,
                 threads };
  const code = sampleOnChosenThreads(runtime.threadChooser, call, runtime.threads,
                                    (way) => addon.gridSample(
      xBytes, xt.info.id, xt.dims, gridBytes, gt.info.id, gt.dims, yBytes, yDims, modeValue,
      paddingValue, alignCorners, layoutValue, way.threads || runtime.threads));
  if (code !== 0) throw fail(runtime, code);
  return { data: y, dims: yDims, type: xt.info.name };
}

export function affineGridNative(runtime, theta, size, options) {
  const { addon } = runtime;
  const { tt, sizeValues, alignCorners } = readAffineCall(runtime, theta, size, options);
  const gridDims = checked(runtime, addon.affineGridShape(tt.dims, sizeValues));
  checkLength('theta', tt);
  const gridCount = elementCount(gridDims);
  const grid = newOutputArray(tt.array, gridCount, 'the grid');
  const code = addon.affineGrid(tt.bytes, tt.info.id, tt.dims, sizeValues, bytesOf('grid', grid),
                                gridDims, alignCorners);
  if (code !== 0) throw fail(runtime, code);
  return { data: grid, dims: gridDims, type: tt.info.name };
}
