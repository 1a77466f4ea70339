// Y = GridSample(X, grid) on the caller's GPUDevice: every argument read and checked first, then
// one compute pass recorded and submitted on device.queue. Returns at once: Y's buffer is ready
// for the GPU work queued after it.
import {
  checkBufferSize, checkOut, parseLayout, parseMode, parsePadding, readGpuOptions, readGpuTensor,
} from './arguments.js';
import { bytesOf } from './formats.js';
import { paramWords } from './params.js';
import { outputBuffer, submitPass, workgroups } from './pass.js';
import { pipelineFor } from './pipelines.js';
import { outputShape } from './shape.js';
import { gridSampleModule, WORKGROUP_SIZE } from './shader.js';

function readCall(x, grid, options) {
  const xt = readGpuTensor('x', x);
  const gt = readGpuTensor('grid', grid);
  const read = readGpuOptions(options);
  const channelsLast = parseLayout(read.layout);
  const shape = outputShape(xt.dims, gt.dims, channelsLast);
  const limit = read.device.limits.maxStorageBufferBindingSize;
  const bytes = { x: bytesOf(xt.type, shape.xCount), grid: bytesOf(gt.type, shape.gridCount),
                  y: bytesOf(xt.type, shape.yCount) };
  checkBufferSize('x.buffer', xt, bytes.x, xt.dims, xt.type, limit);
  checkBufferSize('grid.buffer', gt, bytes.grid, gt.dims, gt.type, limit);
  const modeId = parseMode(read.mode);
  const paddingId = parsePadding(read.paddingMode);
  checkOut(read.out, bytes.y, shape.yDims, xt.type, limit, [xt.buffer, gt.buffer],
           "x's or the grid's buffer");
  const dispatch =
      shape.yCount > 0 ? workgroups(read.device, shape.locations, 'output locations') : null;
  return { ...read, xt, gt, shape, bytes, modeId, paddingId, channelsLast, dispatch };
}

export function gridSample(x, grid, options) {
  const { xt, gt, shape, bytes, modeId, paddingId, alignCorners, channelsLast, device, out,
          dispatch } = readCall(x, grid, options);
  const y = outputBuffer(device, out, bytes.y.words, 'gridsample y');
  const result = { buffer: y, dims: shape.yDims, type: xt.type };
  if (dispatch === null) return result;  // an empty Y: nothing to bind (a binding has bytes)

  const { name, code } = gridSampleModule(xt.type, gt.type, shape.inExtents.length, modeId);
  const pipeline = pipelineFor(device, name, code, { PADDING: paddingId });
  submitPass(device, name, pipeline, {
    0: { buffer: xt.buffer, size: bytes.x.words },
    1: { buffer: gt.buffer, size: bytes.grid.words },
    2: { buffer: y, size: bytes.y.words },
  }, paramWords(shape, { alignCorners, channelsLast }, dispatch[0] * WORKGROUP_SIZE), dispatch);
  return result;
}
