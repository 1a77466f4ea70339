// The page side of tests/js/webgpu.test.mjs: a GPUDevice, and calls of gridsample/webgpu on it
// for the test in Node.js, which sends the tensors, reads the results back and judges them.
// window.harness resolves once the device is there (or to the reason there is none).
import { gridSample } from '/gridsample/webgpu.js';

const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, STORAGE: 0x80 };

async function start() {
  if (!navigator.gpu) return { error: 'navigator.gpu is missing' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return { error: 'no WebGPU adapter' };
  const device = await adapter.requestDevice();
  const gpuErrors = [];
  device.addEventListener('uncapturederror', (event) => gpuErrors.push(event.error.message));

  const upload = (data, usage = USAGE.STORAGE | USAGE.COPY_DST) => {
    const bytes = Float32Array.from(data);
    const buffer = device.createBuffer({ size: Math.max(4, bytes.byteLength), usage });
    device.queue.writeBuffer(buffer, 0, bytes);
    return buffer;
  };
  const tensor = ({ data, dims }) => ({ buffer: upload(data), dims, type: 'float32' });
  const download = async (buffer, count) => {
    const read = device.createBuffer({ size: Math.max(4, count * 4),
                                       usage: USAGE.MAP_READ | USAGE.COPY_DST });
    const encoder = device.createCommandEncoder();
    if (count > 0) encoder.copyBufferToBuffer(buffer, 0, read, 0, count * 4);
    device.queue.submit([encoder.finish()]);
    await read.mapAsync(USAGE.MAP_READ);
    const values = Array.from(new Float32Array(read.getMappedRange().slice(0, count * 4)));
    read.destroy();
    return values;
  };

  // A device that records what is asked of it: a refused call must not have touched it.
  const watched = () => {
    const calls = [];
    const proxy = new Proxy(device, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args) => {
          calls.push(String(key));
          return value.apply(target, args);
        };
      },
    });
    return { proxy, calls };
  };
  const outcome = (call) => {
    const { proxy, calls } = watched();
    try {
      const y = call(proxy);
      return { dims: y.dims, type: y.type, calls };
    } catch (error) {
      return { error: error.constructor.name, message: error.message, calls };
    }
  };

  return {
    // [{ x: { data, dims }, grid: { data, dims }, options }] → [{ dims, data }] (float32 X and
    // grid, as plain arrays; NaN and infinities cross as they are).
    async sample(cases) {
      const results = [];
      for (const { x, grid, options } of cases) {
        const [xt, gt] = [tensor(x), tensor(grid)];
        const y = gridSample(xt, gt, { device, ...options });
        const count = y.dims.reduce((a, b) => a * b, 1);
        results.push({ dims: y.dims, type: y.type, data: await download(y.buffer, count) });
        for (const buffer of [xt.buffer, gt.buffer, y.buffer]) buffer.destroy();
      }
      return results;
    },
    // [{ x: { dims }, grid: { dims }, options }] → each call's error (class, message) and the
    // device methods it called, on buffers of 4 floats.
    refusals(cases) {
      return cases.map(({ x, grid, options }) => outcome((proxy) => gridSample(
          { buffer: upload(new Float32Array(4)), dims: x.dims, type: 'float32' },
          { buffer: upload(new Float32Array(4)), dims: grid.dims, type: 'float32' },
          { device: proxy, ...options })));
    },
    // The GPU path's own refusals, each built here (GPU buffers exist only in the page): name →
    // outcome.
    gpuRefusals() {
      const x = tensor({ data: [1, 2, 3, 4], dims: [1, 1, 2, 2] });
      const grid = tensor({ data: [0, 0], dims: [1, 1, 1, 2] });
      const tried = {
        'a Float32Array as x.buffer': [{ ...x, buffer: new Float32Array(4) }, grid, {}],
        'x.buffer too small': [{ ...x, buffer: upload([0, 0]) }, grid, {}],
        'grid.buffer without STORAGE': [x, { ...grid, buffer: upload([0, 0], USAGE.COPY_DST) },
                                        {}],
        'out.buffer too small': [x, tensor({ data: [0, 0, 0, 0], dims: [1, 2, 1, 2] }),
                                 { out: { buffer: upload([0]) } }],
        "out.buffer is x's": [x, grid, { out: { buffer: x.buffer } }],
        'out a GPUBuffer, not { buffer }': [x, grid, { out: x.buffer }],
        'x.type float16': [{ ...x, type: 'float16' }, grid, {}],
        'grid.type float64': [x, { ...grid, type: 'float64' }, {}],
        'x.type uint8': [{ ...x, type: 'uint8' }, grid, {}],
        'x.type unknown': [{ ...x, type: 'float' }, grid, {}],
        'x.type missing': [{ ...x, type: undefined }, grid, {}],
        'channels-last': [x, grid, { layout: 'channels-last' }],
        'numThreads': [x, grid, { numThreads: 2 }],
        '6 spatial axes': [{ ...x, dims: [1, 1, 1, 1, 1, 1, 1, 2] },
                           { ...grid, dims: [1, 1, 1, 1, 1, 1, 1, 6] }, {}],
      };
      const outcomes = Object.fromEntries(Object.entries(tried).map(
          ([name, [xt, gt, options]]) => [name, outcome(
              (proxy) => gridSample(xt, gt, { device: proxy, ...options }))]));
      // Calls without the device, which the watched one then sees nothing of.
      outcomes['no device'] = outcome(() => gridSample(x, grid));
      outcomes['a plain object'] = outcome(() => gridSample(x, grid, { device: {} }));
      return outcomes;
    },
    // The spec's first example with X and the grid as onnxruntime-web Tensors on the GPU
    // (Tensor.fromGpuBuffer), Y read back; and the error of a disposed one.
    async ortTensors() {
      const { Tensor } = await import('/ort-common/index.js');
      const steps = [-1, -0.6, -0.2, 0.2, 0.6, 1];
      const g = steps.flatMap((gy) => steps.flatMap((gx) => [gx, gy]));
      const x = Tensor.fromGpuBuffer(upload(Array.from({ length: 16 }, (_, i) => i)),
                                     { dataType: 'float32', dims: [1, 1, 4, 4] });
      const grid = Tensor.fromGpuBuffer(upload(g), { dataType: 'float32', dims: [1, 6, 6, 2] });
      const y = gridSample(x, grid, { device });
      const data = await download(y.buffer, 36);
      grid.dispose();
      const disposed = outcome((proxy) => gridSample(x, grid, { device: proxy }));
      return { location: x.location, dims: y.dims, data, disposed };
    },
    // Y into a given buffer, and an empty Y: { into, intoData, empty }.
    async outAndEmpty() {
      const x = tensor({ data: [1, 2, 3, 4], dims: [1, 1, 2, 2] });
      const grid = tensor({ data: [0, 0, -1, -1], dims: [1, 2, 1, 2] });
      const out = device.createBuffer({ size: 64, usage: USAGE.STORAGE | USAGE.COPY_SRC });
      const y = gridSample(x, grid, { device, out: { buffer: out } });
      const empty = gridSample(x, tensor({ data: [], dims: [1, 0, 3, 2] }), { device });
      return { same: y.buffer === out, data: await download(out, 2),
               empty: [empty.dims, empty.type, empty.buffer.size] };
    },
    gpuErrors,
  };
}

window.harness = start().catch(
    (error) => ({ error: `${error.constructor.name}: ${error.message}` }));
