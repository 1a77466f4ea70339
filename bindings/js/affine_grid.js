// grid = AffineGrid(theta, size) for the API (see index.d.ts): the arguments read and checked
// first (arguments.js), then the grid's shape from the core, then one heap block for theta and
// the grid, the core's call, and the grid copied out in theta's type, ready for gridSample.
import { checkLength, elementCount, shapeText } from './arguments.js';
import { readAffineCall } from './call_arguments.js';
import { alignUp, allocate, errorOf, heap, withDims } from './heap.js';
import { MAX_HEAP_BYTES } from './limits.js';
import { bytesOf, newOutputArray } from './typed_arrays.js';

// grid = AffineGrid(theta, size) on WebAssembly (runtime: loader.js's).
export function affineGridWasm(runtime, theta, size, options) {
  const module = runtime.module;
  const { tt, sizeValues, alignCorners } = readAffineCall(runtime, theta, size, options);
  const thetaRank = tt.dims.length;
  const gridRank = sizeValues.length;
  return withDims(runtime, [tt.dims, sizeValues], gridRank, ([thetaDims, sizeAt, gridDimsAt]) => {
    let code = module.affineGridShape(thetaDims, thetaRank, sizeAt, gridRank, gridDimsAt);
    if (code !== runtime.ok) throw errorOf(runtime, code);
    const gridDims =
        Array.from(heap(runtime).f64.subarray(gridDimsAt / 8, gridDimsAt / 8 + gridRank));
    checkLength('theta', tt);
    const gridCount = elementCount(gridDims);
    const gridBytes = gridCount * tt.info.size;
    const total = alignUp(tt.byteLength) + gridBytes;
    if (total > MAX_HEAP_BYTES) {
      throw new RangeError(`gridsample: theta and the grid ${shapeText(gridDims)} need ${total} ` +
                           `bytes, more than the WebAssembly heap holds (${MAX_HEAP_BYTES})`);
    }
    const grid = newOutputArray(tt.array, gridCount, 'the grid');
    const ptr = allocate(runtime, total, 'theta and the grid');
    try {
      const gridPtr = ptr + alignUp(tt.byteLength);
      heap(runtime).u8.set(tt.bytes, ptr);
      code = module.affineGrid(ptr, tt.info.id, thetaDims, thetaRank, sizeAt, gridRank, gridPtr,
                               gridDimsAt, gridRank, alignCorners);
      if (code !== runtime.ok) throw errorOf(runtime, code);
      bytesOf('grid', grid).set(heap(runtime).u8.subarray(gridPtr, gridPtr + gridBytes));
    } finally {
      module._free(ptr);
    }
    return { data: grid, dims: gridDims, type: tt.info.name };
  });
}
