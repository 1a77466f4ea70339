// grid = AffineGrid(theta, size) on the caller's GPUDevice: every argument read and checked
// first (theta on the GPU, size and alignCorners as the CPU's affineGrid reads them), then one
// compute pass (affine_shader.js) recorded and submitted on device.queue. Returns at once: the
// grid's buffer is ready for the GPU work queued after it, gridSample's first.
import { readSize } from '../js/arguments.js';

import { checkBufferSize, checkOut, readGpuAffineOptions, readGpuTensor } from './arguments.js';
import { AFFINE_HEADER_WORDS, affineGridWgsl } from './affine_shader.js';
import { bytesOf } from './formats.js';
import { outputBuffer, submitPass, workgroups } from './pass.js';
import { pipelineFor } from './pipelines.js';
import { affineShape } from './shape.js';
import { WORKGROUP_SIZE } from './shader.js';

// Base coordinate i of an axis of n, src/affine_grid.cc's BaseCoordinate: one float64 division
// of integers (exact below 2^53), which JavaScript rounds as C++ does.
function baseCoordinate(i, n, alignCorners) {
  if (alignCorners) return n === 1 ? -1 : (2 * i - (n - 1)) / (n - 1);
  return (2 * i + 1 - n) / n;
}

// The shader's parameter words (affine_shader.js): the header, then the base coordinates of W,
// H and D as float64 bits.
function paramWords(shape, alignCorners, row) {
  const [width, height, depth = 1] = [...shape.extents].reverse();
  const coordinates = [width, height, depth].flatMap(
      (n) => Array.from({ length: n }, (_, i) => baseCoordinate(i, n, alignCorners)));
  const words = new Uint32Array(AFFINE_HEADER_WORDS + 2 * coordinates.length);
  words.set([shape.rank, shape.gridCount / shape.rank, row, depth, height, width]);
  words.set(new Uint32Array(Float64Array.from(coordinates).buffer), AFFINE_HEADER_WORDS);
  return words;
}

function readCall(theta, size, options) {
  const tt = readGpuTensor('theta', theta);
  const sizeValues = readSize(size);
  const read = readGpuAffineOptions(options);
  const shape = affineShape(tt.dims, sizeValues);
  const limit = read.device.limits.maxStorageBufferBindingSize;
  const bytes = { theta: bytesOf(tt.type, shape.thetaCount),
                  grid: bytesOf(tt.type, shape.gridCount) };
  checkBufferSize('theta.buffer', tt, bytes.theta, tt.dims, tt.type, limit);
  checkOut(read.out, bytes.grid, shape.gridDims, tt.type, limit, [tt.buffer], "theta's buffer");
  const dispatch = shape.gridCount > 0 ?
      workgroups(read.device, shape.gridCount / shape.rank, 'grid locations') : null;
  return { ...read, tt, shape, bytes, dispatch };
}

export function affineGrid(theta, size, options) {
  const { tt, shape, bytes, alignCorners, device, out, dispatch } =
      readCall(theta, size, options);
  const grid = outputBuffer(device, out, bytes.grid.words, 'affinegrid grid');
  const result = { buffer: grid, dims: shape.gridDims, type: tt.type };
  if (dispatch === null) return result;  // an empty grid: nothing to bind

  const name = `affinegrid ${tt.type}`;
  const pipeline = pipelineFor(device, name, () => affineGridWgsl(tt.type), {});
  submitPass(device, name, pipeline, {
    0: { buffer: tt.buffer, size: bytes.theta.words },
    2: { buffer: grid, size: bytes.grid.words },
  }, paramWords(shape, alignCorners, dispatch[0] * WORKGROUP_SIZE), dispatch);
  return result;
}
