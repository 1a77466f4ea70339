// The compute pipelines of a device: one shader module, and a pipeline for each mode × padding ×
// alignment (the shader's override constants), made on first use and kept while the device is.
import { GRID_SAMPLE_WGSL } from './shader.js';

const cache = new WeakMap();  // GPUDevice → { module, pipelines: Map(key → pipeline) }

export function pipelineFor(device, mode, padding, alignCorners) {
  let entry = cache.get(device);
  if (entry === undefined) {
    entry = {
      module: device.createShaderModule({ label: 'gridsample', code: GRID_SAMPLE_WGSL }),
      pipelines: new Map(),
    };
    cache.set(device, entry);
  }
  const key = `${mode} ${padding} ${alignCorners}`;
  let pipeline = entry.pipelines.get(key);
  if (pipeline === undefined) {
    pipeline = device.createComputePipeline({
      label: `gridsample ${key}`,
      layout: 'auto',
      compute: {
        module: entry.module,
        entryPoint: 'main',
        constants: { MODE: mode, PADDING: padding, ALIGN_CORNERS: alignCorners ? 1 : 0 },
      },
    });
    entry.pipelines.set(key, pipeline);
  }
  return pipeline;
}
