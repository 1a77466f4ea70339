// The element types the GPU path takes, and how its shader reads and writes each: the one table
// the argument checks, the buffer sizes and the WGSL are made from. Every type is held in the
// GPUBuffer as the CPU holds it (row-major, little-endian, narrow types packed 4 or 2 to a u32
// word), and computed as the CPU computes it (docs/semantics.md, Types):
//
//   float   interpolated in float32, rounded once to the type on the way back (src/convert.h's
//           FromCompute). float16 and bfloat16 are converted by their bits, so no device feature
//           is needed: the CPU computes them in float32 too, which shader-f16's float16
//           arithmetic would not.
//   exact   integers and bool: the truncation of an exact fixed-point sum (exact.js), bit for
//           bit the CPU's.
//
// The types left out are those the CPU computes in float64 or as strings: WGSL has no 64-bit
// arithmetic to match it with.

// The fraction bits of an exact type's fixed-point weights: convert.h's kFixedBits, by element
// size.
const FIXED_BITS = { 1: 16, 2: 24 };

// f32 bits of a float16's bits: convert.h's F32FromF16Bits. A subnormal half is mantissa * 2^-24,
// a normal float32 (exact).
const F16_TO_F32 = /* wgsl */ `
  let sign = (raw & 0x8000u) << 16u;
  let exponent = (raw >> 10u) & 0x1fu;
  let mantissa = raw & 0x3ffu;
  if (exponent == 0u) {
    return sign | bitcast<u32>(f32(mantissa) * 0x1p-24f);
  }
  if (exponent == 31u) {
    return sign | 0x7f800000u | (mantissa << 13u);
  }
  return sign | ((exponent + 112u) << 23u) | (mantissa << 13u);`;

// float16 bits of f32 bits, to nearest even: convert.h's F16BitsFromF32, on the bits, since WGSL
// may assume that no float is NaN or infinite.
const F32_TO_F16 = /* wgsl */ `
  let sign = (bits >> 16u) & 0x8000u;
  let magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) {
    return sign | 0x7e00u | ((magnitude >> 13u) & 0x3ffu);
  }
  if (magnitude >= 0x477ff000u) {
    return sign | 0x7c00u;
  }
  if (magnitude < 0x38800000u) {
    // A half subnormal: the count of 2^-24 units, rounded half to even (WGSL's round).
    return sign | u32(round(bitcast<f32>(magnitude) * 16777216.0));
  }
  let rounded = magnitude + 0xfffu + ((magnitude >> 13u) & 1u);
  return sign | ((rounded - (112u << 23u)) >> 13u);`;

// bfloat16 bits of f32 bits, to nearest even: convert.h's BF16BitsFromF32.
const F32_TO_BF16 = /* wgsl */ `
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    return (bits >> 16u) | 0x40u;
  }
  return (bits + 0x7fffu + ((bits >> 16u) & 1u)) >> 16u;`;

// name → { bytes, kind, grid (whether a grid may have it), fixedBits (exact kinds), wgsl }, where
// wgsl holds the bodies of the shader's per-type functions (shader.js):
//   float: toF32(raw: u32) -> u32 (the value's f32 bits), fromF32(bits: u32) -> u32 (Y's element),
//          nan: Y's element for a non-finite grid value (FromCompute of a quiet NaN)
//   exact: toInt(raw: u32) -> i32 (the tap as convert.h's ExactTap has it), lowest and highest
//          (the saturation bounds of FromExact; bool: none, any nonzero sum is true)
function floatFormat(bytes, toF32, fromF32, nan) {
  return { bytes, kind: 'float', grid: true, wgsl: { toF32, fromF32, nan } };
}
function exactFormat(bytes, toInt, lowest, highest) {
  return { bytes, kind: 'exact', grid: false, fixedBits: FIXED_BITS[bytes],
           wgsl: { toInt, lowest, highest } };
}
const SIGN_EXTEND_8 = 'return bitcast<i32>(raw << 24u) >> 24u;';
const SIGN_EXTEND_16 = 'return bitcast<i32>(raw << 16u) >> 16u;';
const ZERO_EXTEND = 'return i32(raw);';

export const FORMATS = {
  float32: floatFormat(4, 'return raw;', 'return bits;', '0x7fc00000u'),
  float16: floatFormat(2, F16_TO_F32, F32_TO_F16, '0x7e00u'),
  bfloat16: floatFormat(2, 'return raw << 16u;', F32_TO_BF16, '0x7fc0u'),
  uint8: exactFormat(1, ZERO_EXTEND, 0, 255),
  int8: exactFormat(1, SIGN_EXTEND_8, -128, 127),
  uint16: exactFormat(2, ZERO_EXTEND, 0, 65535),
  int16: exactFormat(2, SIGN_EXTEND_16, -32768, 32767),
  // Any nonzero byte is true (convert.h's ExactTap and CopyValue).
  bool: exactFormat(1, 'return select(0, 1, raw != 0u);', null, null),
};

// How elements of `bytes` bytes sit in a u32 word, as WGSL literals: { packed (more than one
// to a word), count (to a word), bits and mask (of one element) }.
export function lanesOf(bytes) {
  return { packed: bytes < 4, count: `${4 / bytes}u`, bits: `${8 * bytes}u`,
           mask: `${2 ** (8 * bytes) - 1}u` };
}

// The bytes of `count` elements of `type`, and the bytes a binding of them takes: a storage
// binding is whole 4-byte words.
export function bytesOf(type, count) {
  const bytes = count * FORMATS[type].bytes;
  return { bytes, words: Math.ceil(bytes / 4) * 4 };
}
