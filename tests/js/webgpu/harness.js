// The GPU side of the WebGPU suites (tests/js/webgpu*.test.mjs): a GPUDevice, and calls of
// gridsample/webgpu on it for the tests in Node.js, which send the tensors, read the results back
// and judge them. It runs in the page (page.js, in Chromium) or in Node.js itself (through Dawn:
// webgpu_page.mjs), on the `gpu` (a navigator.gpu) and the entry `webgpu` (gridsample/webgpu)
// each gives, and `loadTensor`, which resolves to onnxruntime-common's Tensor.
const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, STORAGE: 0x80 };

// Resolves to the harness's methods once the device is there, or to { error } saying why there
// is none.
export async function startHarness(gpu, { affineGrid, gridSample }, loadTensor) {
  if (!gpu) return { error: 'navigator.gpu is missing' };
  const adapter = await gpu.requestAdapter();
  if (!adapter) return { error: 'no WebGPU adapter' };
  const device = await adapter.requestDevice();
  const gpuErrors = [];
  device.addEventListener('uncapturederror', (event) => gpuErrors.push(event.error.message));

  // Buffers hold whole 4-byte words (writeBuffer's unit), the bytes past a tensor's zero.
  const uploadBytes = (bytes, usage = USAGE.STORAGE | USAGE.COPY_DST) => {
    const padded = new Uint8Array(Math.max(4, Math.ceil(bytes.length / 4) * 4));
    padded.set(bytes);
    const buffer = device.createBuffer({ size: padded.byteLength, usage });
    device.queue.writeBuffer(buffer, 0, padded);
    return buffer;
  };
  const upload = (data, usage) =>
    uploadBytes(new Uint8Array(Float32Array.from(data).buffer), usage);
  const tensor = ({ data, dims }) => ({ buffer: upload(data), dims, type: 'float32' });
  // The first `count` bytes of a buffer.
  const downloadBytes = async (buffer, count) => {
    const size = Math.ceil(count / 4) * 4;
    const read = device.createBuffer({ size: Math.max(4, size),
                                       usage: USAGE.MAP_READ | USAGE.COPY_DST });
    const encoder = device.createCommandEncoder();
    if (count > 0) encoder.copyBufferToBuffer(buffer, 0, read, 0, size);
    device.queue.submit([encoder.finish()]);
    await read.mapAsync(USAGE.MAP_READ);
    const bytes = Array.from(new Uint8Array(read.getMappedRange().slice(0, count)));
    read.destroy();
    return bytes;
  };
  // A tensor of the page's form ({ bytes, dims, type }) in a GPUBuffer.
  const gpuTensor = ({ bytes, dims, type }) => ({ buffer: uploadBytes(bytes), dims, type });
  // { dims, type, bytes (the first `count` of its buffer) } of a result, once the GPU is done;
  // the result's and the inputs' buffers are destroyed then.
  const readBack = async (result, count, inputs) => {
    const bytes = await downloadBytes(result.buffer, count);
    for (const { buffer } of [...inputs, result]) buffer.destroy();
    return { dims: result.dims, type: result.type, bytes };
  };
  const download = async (buffer, count) =>
    Array.from(new Float32Array(Uint8Array.from(await downloadBytes(buffer, count * 4)).buffer));

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
    // [{ x: { bytes, dims, type }, grid: (likewise), options, elementBytes, out }] → [{ dims,
    // type, bytes }]: the tensors' elements as bytes (plain arrays), of any type, Y's of
    // elementBytes each. Y goes into a buffer of `out` bytes, each 0xA5 before the call, where a
    // case gives `out`, and all of them come back.
    async sample(cases) {
      // Every call queued first, then Y read back: one wait for the GPU, not one per case.
      return Promise.all(cases.map(({ x, grid, options, elementBytes, out }) => {
        const outBuffer = out === undefined ? undefined :
            uploadBytes(new Uint8Array(out).fill(0xa5), USAGE.STORAGE | USAGE.COPY_SRC |
                                                         USAGE.COPY_DST);
        const inputs = [gpuTensor(x), gpuTensor(grid)];
        const y = gridSample(...inputs, { device, ...options,
                                          ...(outBuffer ? { out: { buffer: outBuffer } } : {}) });
        return readBack(y, out ?? y.dims.reduce((a, b) => a * b, 1) * elementBytes, inputs);
      }));
    },
    // [{ theta: { bytes, dims, type }, size, options, elementBytes }] → [{ dims, type, bytes }]
    // of affineGrid, the grid's elements of elementBytes each.
    async affine(cases) {
      return Promise.all(cases.map(({ theta, size, options, elementBytes }) => {
        const inputs = [gpuTensor(theta)];
        const grid = affineGrid(inputs[0], size, { device, ...options });
        return readBack(grid, grid.dims.reduce((a, b) => a * b, 1) * elementBytes, inputs);
      }));
    },
    // affineGrid's grid of { theta, size, options } straight into gridSample of X (each as in
    // `sample`) with sampleOptions, on the GPU: { dims, type, bytes } of Y.
    async affineThenSample({ theta, size, options, x, sampleOptions, elementBytes }) {
      const [thetaTensor, xTensor] = [gpuTensor(theta), gpuTensor(x)];
      const grid = affineGrid(thetaTensor, size, { device, ...options });
      const y = gridSample(xTensor, grid, { device, ...sampleOptions });
      return readBack(y, y.dims.reduce((a, b) => a * b, 1) * elementBytes,
                      [thetaTensor, xTensor, grid]);
    },
    // [{ theta: { dims, type }, size, options }] → each affineGrid call's error and the device
    // methods it called, on a theta buffer of 64 bytes.
    affineRefusals(cases) {
      return cases.map(({ theta, size, options }) => outcome((proxy) => affineGrid(
          { buffer: uploadBytes(new Uint8Array(64)), dims: theta.dims, type: theta.type }, size,
          { device: proxy, ...options })));
    },
    // [{ x: { dims }, grid: { dims }, options }] → each call's error (class, message) and the
    // device methods it called, on buffers of 4 floats.
    refusals(cases) {
      return cases.map(({ x, grid, options }) => outcome((proxy) => gridSample(
          { buffer: upload(new Float32Array(4)), dims: x.dims, type: 'float32' },
          { buffer: upload(new Float32Array(4)), dims: grid.dims, type: 'float32' },
          { device: proxy, ...options })));
    },
    // The GPU path's own refusals, each built here (GPU buffers exist only in the page), X of
    // each type in CPU_ONLY among them: name → outcome.
    gpuRefusals(CPU_ONLY) {
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
        'x of uint8 in 5 bytes': [{ buffer: device.createBuffer({ size: 5, usage: USAGE.STORAGE }),
                                    dims: [1, 1, 1, 5], type: 'uint8' }, grid, {}],
        ...Object.fromEntries(CPU_ONLY.map((type) => [`x.type ${type}`,
                                                      [{ ...x, type }, grid, {}]])),
        'grid.type float64': [x, { ...grid, type: 'float64' }, {}],
        'grid.type uint8': [x, { ...grid, type: 'uint8' }, {}],
        'x.type unknown': [{ ...x, type: 'float' }, grid, {}],
        'x.type missing': [{ ...x, type: undefined }, grid, {}],
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
      const Tensor = await loadTensor();
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
