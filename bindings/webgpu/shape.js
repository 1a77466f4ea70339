// Y's shape for X's and the grid's, in either layout, and AffineGrid's grid shape, with the
// core's checks and messages (CheckShapes and CheckAffineShapes in src/validate.cc: this path has
// no core to ask), and the limits of this path.
import { shapeText } from '../js/arguments.js';

import { MAX_RANK } from './shader.js';

// An axis of this many elements or more is refused: unnormalize_axis in shader.js relies on
// fewer (a float64 product of a float32 and an extent is exact below it).
export const MAX_EXTENT = 2 ** 29;

function invalid(message) {
  return new RangeError(`gridsample: ${message}`);
}

// The core's bound on an element count: a byte size must fit in a 64-bit ptrdiff_t. Counts are
// BigInts here, exact past 2^53 as the core's are (its messages print them); no GPU buffer
// holds such a tensor, which the buffers' sizes refuse later.
const MAX_COUNT = 2n ** 63n;

// The element count of `dims` (a BigInt), or the core's error.
function count(name, dims) {
  let product = 1n;
  for (let i = 0; i < dims.length; ++i) {
    if (dims[i] < 0) {
      throw invalid(`${name}: extent ${dims[i]} of axis ${i} in shape ${shapeText(dims)} is ` +
                    'negative');
    }
    product *= BigInt(dims[i]);
  }
  if (product >= MAX_COUNT) {
    throw invalid(`${name}: the element count of shape ${shapeText(dims)} overflows`);
  }
  return product;
}

// The core's LayoutNote and LayoutForm (src/validate.cc): how messages name the layout.
const layoutNote = (channelsLast) => (channelsLast ? ' (channels-last)' : '');
const layoutForm = (channelsLast) =>
  (channelsLast ? '(N, D1, ..., Dr, C) (channels-last)' : '(N, C, D1, ..., Dr)');

// { yDims, channels, xCount, gridCount, yCount, inExtents, strides (X's spatial ones, in
// pixels), inPlane, outPlane, locations (N × outPlane: the shader's invocations) } of a call, X
// channels-last where channelsLast is true.
export function outputShape(xDims, gridDims, channelsLast = false) {
  const xCount = count('x', xDims);
  const gridCount = count('grid', gridDims);
  const rank = xDims.length;
  if (rank < 3) {
    throw invalid(`x: rank ${rank} (shape ${shapeText(xDims)}) is below 3; X must be ` +
                  `${layoutForm(channelsLast)} with r >= 1`);
  }
  if (gridDims.length !== rank) {
    throw invalid(`grid: rank ${gridDims.length} (shape ${shapeText(gridDims)}) must equal ` +
                  `x's rank ${rank}; grid must be (N, D1_out, ..., Dr_out, r)`);
  }
  const r = rank - 2;
  if (gridDims[rank - 1] !== r) {
    throw invalid(`grid: last extent ${gridDims[rank - 1]} (shape ${shapeText(gridDims)}) ` +
                  `must equal the number of spatial axes of x, ${r}`);
  }
  if (gridDims[0] !== xDims[0]) {
    throw invalid(`grid: batch ${gridDims[0]} must equal x's batch ${xDims[0]}`);
  }
  const channels = channelsLast ? xDims[rank - 1] : xDims[1];
  const inExtents = channelsLast ? xDims.slice(1, -1) : xDims.slice(2);
  const outExtents = gridDims.slice(1, -1);
  // The planes on their own: with N or C of 0, x's and grid's counts bound nothing.
  const inPlane = count('x (spatial extents)', inExtents);
  const outPlane = count('grid (spatial extents)', outExtents);
  // The strides, products of trailing extents: an empty axis before them makes the plane empty,
  // not them small (x of shape [1, 1, 0, 2^40, 2^40]).
  const strides = new Array(r).fill(1n);
  for (let a = r - 1; a >= 1; --a) {
    strides[a - 1] = strides[a] * BigInt(inExtents[a]);
    if (strides[a - 1] >= MAX_COUNT) {
      throw invalid(`x: the spatial extents ${shapeText(inExtents)} of shape ` +
                    `${shapeText(xDims)}${layoutNote(channelsLast)} overflow the element ` +
                    `stride of spatial axis ${a - 1}`);
    }
  }
  const yDims = channelsLast ? [xDims[0], ...outExtents, channels] :
      [xDims[0], channels, ...outExtents];
  const yCount = count('y', yDims);
  if (yCount > 0n) {
    const empty = inExtents.indexOf(0);
    if (empty >= 0) {
      throw invalid(`x: spatial axis ${empty} of shape ${shapeText(xDims)}` +
                    `${layoutNote(channelsLast)} is empty, but the output samples ${yCount} ` +
                    'elements from it');
    }
  }
  if (r > MAX_RANK) {
    throw invalid(`x: ${r} spatial axes (shape ${shapeText(xDims)}); WebGPU takes 1 to ` +
                  `${MAX_RANK} yet, the CPU gridSample of 'gridsample' any number`);
  }
  const long = inExtents.findIndex((extent) => extent >= MAX_EXTENT);
  if (long >= 0) {
    throw invalid(`x: spatial axis ${long} of shape ${shapeText(xDims)} has ` +
                  `${inExtents[long]} elements; WebGPU takes fewer than ${MAX_EXTENT} yet`);
  }
  return { yDims, channels, xCount: Number(xCount), gridCount: Number(gridCount),
           yCount: Number(yCount), inExtents, strides: strides.map(Number),
           inPlane: Number(inPlane), outPlane: Number(outPlane),
           locations: Number(BigInt(xDims[0]) * outPlane) };
}

// { gridDims, thetaCount, gridCount, rank, batch, extents (D, H, W or H, W) } of affineGrid's
// theta dims and size values (readSize's: 4 or 5 integers).
export function affineShape(thetaDims, size) {
  const negative = size.findIndex((value) => value < 0);
  if (negative >= 0) {
    throw invalid(`size: value ${size[negative]} at index ${negative} of ${shapeText(size)} ` +
                  'is negative');
  }
  const thetaCount = count('theta', thetaDims);
  const r = size.length - 2;
  if (thetaDims.length !== 3 || thetaDims[1] !== r || thetaDims[2] !== r + 1) {
    throw invalid(`theta: shape ${shapeText(thetaDims)} must be (N, ${r}, ${r + 1}) for the ` +
                  `${r}-D size ${shapeText(size)}`);
  }
  if (thetaDims[0] !== size[0]) {
    throw invalid(`theta: batch ${thetaDims[0]} must equal N = ${size[0]} of size ` +
                  shapeText(size));
  }
  const extents = size.slice(2);
  const gridDims = [size[0], ...extents, r];
  const gridCount = count('grid', gridDims);
  return { gridDims, thetaCount: Number(thetaCount), gridCount: Number(gridCount), rank: r,
           batch: size[0], extents };
}
