// The compute pipelines of a device: a shader module for each X type × grid type, and a pipeline
// for each mode × padding × alignment × layout (the shader's override constants), made on first
// use and kept while the device is.
import { gridSampleWgsl } from './shader.js';

const cache = new WeakMap();  // GPUDevice → Map(types → { module, pipelines: Map(key → pipeline) })

export function pipelineFor(device, { xType, gridType, mode, padding, alignCorners, channelsLast }) {
  let modules = cache.get(device);
  if (modules === undefined) {
    modules = new Map();
    cache.set(device, modules);
  }
  const types = `${xType} ${gridType}`;
  let entry = modules.get(types);
  if (entry === undefined) {
    entry = {
      module: device.createShaderModule({ label: `gridsample ${types}`,
                                          code: gridSampleWgsl(xType, gridType) }),
      pipelines: new Map(),
    };
    modules.set(types, entry);
  }
  const key = `${mode} ${padding} ${alignCorners} ${channelsLast}`;
  let pipeline = entry.pipelines.get(key);
  if (pipeline === undefined) {
    pipeline = device.createComputePipeline({
      label: `gridsample ${types} ${key}`,
      layout: 'auto',
      compute: {
        module: entry.module,
        entryPoint: 'main',
        constants: { MODE: mode, PADDING: padding, ALIGN_CORNERS: alignCorners ? 1 : 0,
                     CHANNELS_LAST: channelsLast ? 1 : 0 },
      },
    });
    entry.pipelines.set(key, pipeline);
  }
  return pipeline;
}
