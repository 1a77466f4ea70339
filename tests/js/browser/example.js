// The spec's first example (ONNX GridSample-16): X 1x1x4x4 = 0..15, a 6x6 grid, bilinear,
// zeros, align_corners 0. Returns Y's dims and values (rounded to 4 decimals).
export function runExample(gridSample) {
  const steps = [-1, -0.6, -0.2, 0.2, 0.6, 1];
  const grid = [];
  for (const y of steps) for (const x of steps) grid.push(x, y);
  const y = gridSample(
      { data: Float32Array.from({ length: 16 }, (_, i) => i), dims: [1, 1, 4, 4] },
      { data: new Float32Array(grid), dims: [1, 6, 6, 2] },
      { mode: 'bilinear', paddingMode: 'zeros', alignCorners: false });
  return { dims: y.dims, type: y.type, data: Array.from(y.data, (v) => Math.round(v * 1e4) / 1e4) };
}

// The threads init() started, and whether a call large enough to spread over them (3x160x150
// float32, a 170x140 grid, cubic) gives the bits it gives on one thread.
export function runThreads(gridSample, numThreads) {
  const x = Float32Array.from({ length: 3 * 160 * 150 }, (_, i) => Math.sin(i * 0.37) * 8);
  const grid = Float32Array.from({ length: 170 * 140 * 2 }, (_, i) => Math.cos(i * 1.3) * 1.1);
  const call = (threads) => gridSample({ data: x, dims: [1, 3, 160, 150] },
                                       { data: grid, dims: [1, 170, 140, 2] },
                                       { mode: 'cubic', numThreads: threads });
  const one = new Uint8Array(call(1).data.buffer);
  const all = new Uint8Array(call(numThreads()).data.buffer);
  const same = one.length === all.length && one.every((byte, i) => byte === all[i]);
  return { threads: numThreads(), same };
}
