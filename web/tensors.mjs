// Between canvas pixels and GridSample tensors, and the figures the page shows. Plain
// functions (no DOM), so the browser test can turn the package's output into pixels in Node
// exactly as the page does.

/**
 * The data the demo offers for X (and so Y), by name: the canvas's RGBA bytes as they are
 * (uint8, channels-last), or the RGB channels as planes (NCHW), float32 in 0..1 or uint8.
 */
export const DATA_TYPES = ['rgba', 'float32', 'uint8'];

/** The GridSample layout of X and Y for a data type of DATA_TYPES. */
export function layoutOf(type) {
  return type === 'rgba' ? 'channels-last' : 'channels-first';
}

/**
 * X for canvas pixels (`rgba`, width × height × 4 bytes, e.g. an ImageData's data):
 * { data, dims, type }. 'rgba': the bytes themselves, [1, height, width, 4] of uint8
 * (channels-last); 'float32' and 'uint8': the RGB channels in NCHW, [1, 3, height, width],
 * float32 values byte / 255 or uint8 bytes, alpha dropped.
 */
export function imageToTensor(rgba, width, height, type) {
  if (!DATA_TYPES.includes(type)) {
    throw new RangeError(`type must be one of ${DATA_TYPES.join(', ')}, got ${type}`);
  }
  const plane = width * height;
  if (rgba.length !== plane * 4) {
    throw new RangeError(`rgba: ${rgba.length} bytes for ${width} × ${height} pixels`);
  }
  if (type === 'rgba') return { data: rgba, dims: [1, height, width, 4], type: 'uint8' };
  const data = type === 'float32' ? new Float32Array(plane * 3) : new Uint8Array(plane * 3);
  const scale = type === 'float32' ? 1 / 255 : 1;
  for (let c = 0; c < 3; ++c) {
    for (let i = 0; i < plane; ++i) data[c * plane + i] = rgba[i * 4 + c] * scale;
  }
  return { data, dims: [1, 3, height, width], type };
}

/**
 * Canvas pixels (a Uint8ClampedArray, width × height × 4) for a tensor such as imageToTensor's
 * in `layout`: channels-last RGBA bytes are the pixels as they are (a Uint8ClampedArray X gives
 * a Uint8ClampedArray Y); of an NCHW tensor of 3 channels the pixels are opaque, float32 values
 * are scaled by 255, and the clamped array rounds them half to even and clamps them to 0..255
 * (NaN becomes 0); uint8 values are copied.
 */
export function tensorToImage({ data, dims }, layout = 'channels-first') {
  if (layout === 'channels-last') {
    if (dims.length !== 4 || dims[3] !== 4 || !(data instanceof Uint8ClampedArray)) {
      throw new RangeError('tensorToImage: expects RGBA bytes in a Uint8ClampedArray, dims ' +
                           `[N, H, W, 4], got [${dims.join(', ')}]`);
    }
    return data;
  }
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
