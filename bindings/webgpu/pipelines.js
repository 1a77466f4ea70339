// The compute pipelines of a device: a shader module for each kind of shader (GridSample of an X
// type × grid type × rank × mode, AffineGrid of a theta type), and a pipeline for each set of
// its override constants (GridSample's padding), made on first use and kept while the device
// is.
// GPUDevice → Map(name → { module, pipelines: Map(key → pipeline) })
const cache = new WeakMap();

// The pipeline of the shader `name` (whose WGSL makeCode() gives) with `constants`.
export function pipelineFor(device, name, makeCode, constants) {
  let modules = cache.get(device);
  if (modules === undefined) {
    modules = new Map();
    cache.set(device, modules);
  }
  let entry = modules.get(name);
  if (entry === undefined) {
    entry = { module: device.createShaderModule({ label: name, code: makeCode() }),
              pipelines: new Map() };
    modules.set(name, entry);
  }
  const key = JSON.stringify(constants);
  let pipeline = entry.pipelines.get(key);
  if (pipeline === undefined) {
    pipeline = device.createComputePipeline({
      label: `${name} ${key}`,
      layout: 'auto',
      compute: { module: entry.module, entryPoint: 'main', constants },
    });
    entry.pipelines.set(key, pipeline);
  }
  return pipeline;
}
