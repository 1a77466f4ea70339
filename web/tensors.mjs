// Between canvas pixels and GridSample tensors, and the figures the page shows. Plain
// functions (no DOM), so the browser test can turn the package's output into pixels in Node
// exactly as the page does.

/** The data types the demo offers for X (and so Y): float32 in 0..1, or the bytes as they are. */
export const DATA_TYPES = ['float32', 'uint8'];

/**
 * X for the RGB channels of canvas pixels (`rgba`, width × height × 4 bytes, e.g. an
 * ImageData's data): { data, dims: [1, 3, height, width], type } in NCHW, float32 values
 * byte / 255 or uint8 bytes. Alpha is dropped.
 */
export function imageToTensor(rgba, width, height, type) {
  if (!DATA_TYPES.includes(type)) {
    throw new RangeError(`type must be one of ${DATA_TYPES.join(', ')}, got ${type}`);
  }
  const plane = width * height;
  if (rgba.length !== plane * 4) {
    throw new RangeError(`rgba: ${rgba.length} bytes for ${width} × ${height} pixels`);
  }
  const data = type === 'float32' ? new Float32Array(plane * 3) : new Uint8Array(plane * 3);
  const scale = type === 'float32' ? 1 / 255 : 1;
  for (let c = 0; c < 3; ++c) {
    for (let i = 0; i < plane; ++i) data[c * plane + i] = rgba[i * 4 + c] * scale;
  }
  return { data, dims: [1, 3, height, width], type };
}

/**
 * Opaque canvas pixels (a Uint8ClampedArray, width × height × 4) for an NCHW tensor of 3
 * channels such as imageToTensor's: float32 values are scaled by 255, and the clamped array
 * rounds them half to even and clamps them to 0..255 (NaN becomes 0); uint8 values are copied.
 */
export function tensorToImage({ data, dims }) {
  const [, channels, height, width] = dims;
  if (dims.length !== 4 || channels !== 3) {
    throw new RangeError(`tensorToImage: expects dims [N, 3, H, W], got [${dims.join(', ')}]`);
  }
  const plane = width * height;
  const rgba = new Uint8ClampedArray(plane * 4);
  const scale = data instanceof Float32Array ? 255 : 1;
  for (let c = 0; c < 3; ++c) {
    for (let i = 0; i < plane; ++i) rgba[i * 4 + c] = data[c * plane + i] * scale;
  }
  for (let i = 0; i < plane; ++i) rgba[i * 4 + 3] = 255;
  return rgba;
}

/**
 * The largest |a[i] - b[i]|; NaN in both places counts as equal, NaN in one as Infinity.
 * Arrays of different lengths differ by Infinity.
 */
export function maxAbsDifference(a, b) {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let i = 0; i < a.length; ++i) {
    const d = Math.abs(a[i] - b[i]);
    if (d > max) max = d;
    else if (Number.isNaN(d) && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return Infinity;
  }
  return max;
}

/** The median of a list of numbers (the mean of the middle two for an even count), NaN if empty. */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
