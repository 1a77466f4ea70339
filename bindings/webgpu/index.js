// gridsample/webgpu: GridSample on the caller's GPUDevice and GPUBuffers (see webgpu.d.ts). An
// entry of its own, so that users of the CPU entry load no GPU code. Its parts, one concern each:
//
//   arguments.js   reading and checking the arguments (the CPU API's code where the rule is the
//                  same: bindings/js/arguments.js)
//   shape.js       Y's shape, with the core's checks and messages
//   formats.js     the element types it takes, and their WGSL
//   shader.js      the WGSL, from the types' parts
//   exact.js       the WGSL of exact integer outputs
//   wide.js        the WGSL of 64- and 128-bit integers
//   params.js      the shader's parameter words of a call
//   pipelines.js   the compute pipelines of each device
//   pass.js        a call's compute pass
//   grid_sample.js the call: checks, then one compute pass
//   float64.js     the WGSL of float64 arithmetic, for AffineGrid
//   affine_shader.js, affine_grid.js  AffineGrid's WGSL, and its call
//
// bindings/js/assemble.mjs bundles this file and its imports into dist/webgpu.js and .cjs.
export { affineGrid } from './affine_grid.js';
export { gridSample } from './grid_sample.js';
