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
