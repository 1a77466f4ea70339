// One compute pass of a shader of this path: its dispatch size, its parameter words in a
// buffer of their own (binding 3), and its submission on the device's queue.
import { USAGE } from './arguments.js';
import { WORKGROUP_SIZE } from './shader.js';

// The workgroups of `invocations`, as a grid within the device's per-dimension limit: [x, y].
// The shaders number an invocation id.y * (x * WORKGROUP_SIZE) + id.x.
export function workgroups(device, invocations, what) {
  const groups = Math.ceil(invocations / WORKGROUP_SIZE);
  const most = device.limits.maxComputeWorkgroupsPerDimension;
  const x = Math.min(groups, most);
  const y = Math.ceil(groups / x);
  if (y > most) {
    throw new RangeError(`gridsample: ${invocations} ${what} need more workgroups than the ` +
                         'device dispatches');
  }
  return [x, y];
}

// Records and submits the pass: `buffers` are the bindings below 3 ({ buffer, size } by binding
// number), `params` the parameter words.
export function submitPass(device, label, pipeline, buffers, params, dispatch) {
  const paramBuffer = device.createBuffer({
    label: `${label} params`,
    size: params.byteLength,
    // GridSample's shader reads them as a uniform buffer (a fixed array of vec4s: its header
    // and axes; no faster than storage on SwiftShader), AffineGrid's, as long as its batch, as
    // storage.
    usage: USAGE.UNIFORM | USAGE.STORAGE | USAGE.COPY_DST,
  });
  device.queue.writeBuffer(paramBuffer, 0, params);
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      ...Object.entries(buffers).map(([binding, { buffer, size }]) =>
        ({ binding: Number(binding), resource: { buffer, size } })),
      { binding: 3, resource: { buffer: paramBuffer } },
    ],
  });
  const encoder = device.createCommandEncoder({ label });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(dispatch[0], dispatch[1]);
  pass.end();
  device.queue.submit([encoder.finish()]);
  // Freed once the submitted pass is done with it.
  paramBuffer.destroy();
}

// The buffer a pass writes its result to: `out`'s (readGpuOptions' view of options.out), else a
// new one of `bytes` (whole words) that the caller may copy from, read with further passes, or
// overwrite.
export function outputBuffer(device, out, bytes, label) {
  if (out !== undefined) return out.buffer;
  return device.createBuffer({ label, size: bytes,
                               usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST });
}
