// The WGSL of integer and bool outputs, the CPU's exactly (docs/semantics.md, Types): the
// fixed-point weights of src/convert.h's SplitFixedWeights from the float32 weights the shader
// plans (to the last bit the CPU's: shader.js), the exact sum of weights times taps, and
// FromExact's truncation and saturation. WGSL has no 64-bit integers: the sum is a pair of u32
// words (wide.js), so no bit is lost whatever the weights and taps.

import { lanesOf } from './formats.js';
import { WIDE_WGSL } from './wide.js';

// The functions for an exact format of formats.js (its fixedBits, bytes and wgsl.lowest and
// .highest); they read shader.js's tap_offsets, tap_weights and x_tap().
export function exactWgsl(format) {
  const { fixedBits, bytes, wgsl } = format;
  const element = wgsl.lowest === null ?
    '  return select(0u, 1u, any(sum != vec2<u32>(0u)));' : /* wgsl */ `
  let negative = (sum.y >> 31u) == 1u;
  let magnitude = select(sum, wide_negate(sum), negative);
  // The quotient by 2^FIXED_BITS where it fits 31 bits; past that, beyond every type's range.
  var quotient = 0x7fffffffu;
  if ((magnitude.y >> (FIXED_BITS - 1u)) == 0u) {
    quotient = (magnitude.x >> FIXED_BITS) | (magnitude.y << (32u - FIXED_BITS));
  }
  let value = clamp(select(i32(quotient), -i32(quotient), negative), ${wgsl.lowest},
                    ${wgsl.highest});
  return bitcast<u32>(value) & ${lanesOf(bytes).mask};`;
  return /* wgsl */ `${WIDE_WGSL}
const FIXED_BITS: u32 = ${fixedBits}u;

// a * b, exactly, as a wide integer (wide.js).
fn wide_product(a: i32, b: i32) -> vec2<u32> {
  let product = wide_mul(bitcast<u32>(abs(a)), bitcast<u32>(abs(b)));
  return select(product, wide_negate(product), (a < 0) != (b < 0));
}

// The float32 nearest an integer, ties to even, as the CPU's static_cast<float> of a part: WGSL
// leaves the rounding of f32(i32) to the implementation, so the integer is split into two halves
// that convert exactly, and one addition rounds.
fn f32_nearest(v: i32) -> f32 {
  let high = (v >> 8u) << 8u;
  return f32(high) + f32(v - high);
}

// A tap's share of a part: round(part * w), the product in float32, then to the nearest integer,
// ties to even (C's nearbyint, WGSL's round).
fn tap_share(part: i32, w: f32) -> i32 {
  return i32(round(f32_nearest(part) * w));
}

// Whether every tap of axis a is inside the input or weighs 0, so that the axis's weights must
// sum to exactly one.
fn axis_complete(a: u32, taps: u32) -> bool {
  for (var j = 0u; j < taps; j++) {
    if (tap_offsets[a * 4u + j] < 0 && tap_weights[a * 4u + j] != 0.0) {
      return false;
    }
  }
  return true;
}

// Tap j's share of a part on axis a (SplitFixedWeights): round(part * w), except that on a
// complete axis tap x0 (linear: the first, cubic: the second) takes what the others leave.
fn axis_share(part: i32, a: u32, j: u32, taps: u32) -> i32 {
  let rest = select(0u, 1u, taps == 4u);
  if (j != rest || !axis_complete(a, taps)) {
    return tap_share(part, tap_weights[a * 4u + j]);
  }
  var left = part;
  for (var i = 0u; i < taps; i++) {
    if (i != rest) {
      left -= tap_share(part, tap_weights[a * 4u + i]);
    }
  }
  return left;
}

// The exact sum, in units of 2^-FIXED_BITS, of every combination of one tap per axis (the last
// axis fastest) inside the input: its fixed-point weight, split from the whole axis by axis,
// times the tap. parts[a] is the part the picks of the axes before a leave; only the parts below
// the axis whose pick changed are split again.
fn exact_sum(x_base: u32, x_step: u32, rank: u32, taps: u32) -> vec2<u32> {
  var picks: array<u32, MAX_RANK>;
  var parts: array<i32, MAX_RANK + 1u>;
  parts[0] = 1 << FIXED_BITS;
  var sum = vec2<u32>(0u);
  var changed = 0u;
  loop {
    for (var a = changed; a < rank; a++) {
      parts[a + 1u] = axis_share(parts[a], a, picks[a], taps);
    }
    var offset = 0u;
    var inside = true;
    for (var a = 0u; a < rank; a++) {
      let tap = tap_offsets[a * 4u + picks[a]];
      inside = inside && tap >= 0;
      offset += u32(max(tap, 0));
    }
    if (inside) {
      sum = wide_add(sum, wide_product(parts[rank], x_tap(x_base + offset * x_step)));
    }
    var carry = true;
    var b = rank;
    while (carry && b > 0u) {
      b--;
      picks[b]++;
      carry = picks[b] == taps;
      if (carry) {
        picks[b] = 0u;
      }
    }
    if (carry) {
      break;
    }
    changed = b;
  }
  return sum;
}

// Y's element of an exact sum: FromExact, the sum / 2^FIXED_BITS truncated toward zero and
// saturated to the type's range (bool: any nonzero sum is true).
fn exact_element(sum: vec2<u32>) -> u32 {
${element}
}
`;
}
