// Y = GridSample(X, grid) on the caller's GPUDevice: every argument read and checked first, then
// one compute pass recorded and submitted on device.queue. Returns at once: Y's buffer is ready
// for the GPU work queued after it.
import { checkBufferSize, parseLayout, parseMode, parsePadding, readGpuOptions, readGpuTensor,
         USAGE } from './arguments.js';
import { bytesOf } from './formats.js';
import { paramWords } from './params.js';
import { pipelineFor } from './pipelines.js';
import { outputShape } from './shape.js';
import { WORKGROUP_SIZE } from './shader.js';

// The workgroups of `locations` invocations, as a grid within the device's per-dimension limit:
// [x, y].
function workgroups(device, locations) {
  const groups = Math.ceil(locations / WORKGROUP_SIZE);
  const most = device.limits.maxComputeWorkgroupsPerDimension;
  const x = Math.min(groups, most);
  const y = Math.ceil(groups / x);
  if (y > most) {
    throw new RangeError(`gridsample: ${locations} output locations need more workgroups than ` +
                         'the device dispatches');
  }
  return [x, y];
}

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
  if (read.out !== undefined) {
    checkBufferSize('options.out.buffer', read.out, bytes.y, shape.yDims, xt.type, limit);
    if (read.out.buffer === xt.buffer || read.out.buffer === gt.buffer) {
      throw new RangeError("gridsample: options.out.buffer is x's or the grid's buffer; a pass " +
                           'cannot write a buffer it reads');
    }
  }
  const dispatch = shape.yCount > 0 ? workgroups(read.device, shape.locations) : null;
  return { ...read, xt, gt, shape, bytes, modeId, paddingId, channelsLast, dispatch };
}

export function gridSample(x, grid, options) {
  const { xt, gt, shape, bytes, modeId, paddingId, alignCorners, channelsLast, device, out,
          dispatch } = readCall(x, grid, options);
  const y = out !== undefined ? out.buffer : device.createBuffer({
    label: 'gridsample y',
    size: bytes.y.words,
    usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST,
  });
  const result = { buffer: y, dims: shape.yDims, type: xt.type };
  if (dispatch === null) return result;  // an empty Y: nothing to bind (a binding has bytes)

  const pipeline = pipelineFor(device, { xType: xt.type, gridType: gt.type, mode: modeId,
                                         padding: paddingId, alignCorners, channelsLast });
  const words = paramWords(shape, shape.channels, dispatch[0] * WORKGROUP_SIZE);
  const params = device.createBuffer({
    label: 'gridsample params',
    size: words.byteLength,
    usage: USAGE.STORAGE | USAGE.COPY_DST,
  });
  device.queue.writeBuffer(params, 0, words);
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: xt.buffer, size: bytes.x.words } },
      { binding: 1, resource: { buffer: gt.buffer, size: bytes.grid.words } },
      { binding: 2, resource: { buffer: y, size: bytes.y.words } },
      { binding: 3, resource: { buffer: params } },
    ],
  });
  const encoder = device.createCommandEncoder({ label: 'gridsample' });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(dispatch[0], dispatch[1]);
  pass.end();
  device.queue.submit([encoder.finish()]);
  // Freed once the submitted pass is done with it.
  params.destroy();
  return result;
}
