// The shader's parameter words (layout: shader.js) for a call's shape.
import {
  FLAG_ALIGN_CORNERS, FLAG_CHANNELS_LAST, MAX_RANK, PARAM_AXIS_WORDS, PARAM_HEADER_WORDS,
} from './shader.js';

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
// A number's float32 bits, rounded to nearest even as the CPU's static_cast<float> rounds.
function bitsOf(value) {
  f32[0] = value;
  return f32Bits[0];
}

// shape: outputShape's; row: the locations of one row of workgroups.
export function paramWords(shape, { alignCorners, channelsLast }, row) {
  const { inExtents, strides } = shape;
  const words = new Uint32Array(PARAM_HEADER_WORDS + MAX_RANK * PARAM_AXIS_WORDS);
  // The sixth word stays 0: the shader's opaque() XORs with it.
  const flags = (alignCorners ? FLAG_ALIGN_CORNERS : 0) | (channelsLast ? FLAG_CHANNELS_LAST : 0);
  words.set([inExtents.length, shape.channels, shape.outPlane, shape.inPlane, shape.locations, 0,
             row, flags]);
  inExtents.forEach((extent, a) => {
    words.set([extent, strides[a], bitsOf(extent), bitsOf(extent - 1)],
              PARAM_HEADER_WORDS + a * PARAM_AXIS_WORDS);
  });
  return words;
}
