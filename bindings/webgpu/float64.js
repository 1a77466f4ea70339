// IEEE float64 multiplication and addition in WGSL, which has no float64, from u32 words
// (wide.js), each correctly rounded to nearest even, and the one rounding of a float64 to float32
// (or to odd, for float16 and bfloat16 after it: src/convert.h's RoundToOddF32). Enough for
// AffineGrid's sums of products (src/affine_grid.cc), bit for bit the CPU's.
//
// No subnormal float64 arises there, so none is handled: theta's values are float32 (at least
// 2^-149 in magnitude) and the base coordinates at least 2^-31, so a product is at least 2^-180,
// and a sum of such values is zero or a multiple of a unit at least 2^-233. Nor does an overflow:
// every product and sum stays below 2^131.
import { WIDE_WGSL } from './wide.js';

export const FLOAT64_WGSL = /* wgsl */ `${WIDE_WGSL}
const F64_FINITE: u32 = 0u;
const F64_ZERO: u32 = 1u;
const F64_INF: u32 = 2u;
const F64_NAN: u32 = 3u;

// A float64: its kind and sign, and for a finite nonzero one the mantissa M (high:low, its bit 63
// set, the 11 bits below the 53 of float64 zero) and exponent e of the value M * 2^(e - 63).
struct F64 {
  kind: u32,
  negative: bool,
  exponent: i32,
  high: u32,
  low: u32,
}

fn f64_special(kind: u32, negative: bool) -> F64 {
  return F64(kind, negative, 0, 0u, 0u);
}

// The float64 of float32 bits (exact).
fn f64_from_f32(bits: u32) -> F64 {
  let negative = (bits >> 31u) == 1u;
  let exponent = (bits >> 23u) & 0xffu;
  let mantissa = bits & 0x7fffffu;
  if (exponent == 255u) {
    return f64_special(select(F64_INF, F64_NAN, mantissa != 0u), negative);
  }
  if (exponent == 0u) {
    if (mantissa == 0u) {
      return f64_special(F64_ZERO, negative);
    }
    // A subnormal, mantissa * 2^-149: its leading bit moves to bit 63.
    let lead = firstLeadingBit(mantissa);
    return F64(F64_FINITE, negative, i32(lead) - 149, mantissa << (31u - lead), 0u);
  }
  return F64(F64_FINITE, negative, i32(exponent) - 127, (mantissa | 0x800000u) << 8u, 0u);
}

// The float64 of its bits (low word, high word), zero or normal.
fn f64_from_bits(low: u32, high: u32) -> F64 {
  let negative = (high >> 31u) == 1u;
  let exponent = (high >> 20u) & 0x7ffu;
  if (exponent == 0u) {
    return f64_special(F64_ZERO, negative);
  }
  return F64(F64_FINITE, negative, i32(exponent) - 1023,
             (((high & 0xfffffu) | 0x100000u) << 11u) | (low >> 21u), low << 11u);
}

// M (high:low, bit 63 set) rounded to float64's 53 bits, to nearest even. Bit 0 holds the sticky
// bit of anything below M: the half-way point is bit 10, so folding the rest into bit 0 moves no
// value across it or onto it.
fn f64_round(negative: bool, exponent: i32, high: u32, low: u32) -> F64 {
  let rest = low & 0x7ffu;
  var m = vec2<u32>(low & ~0x7ffu, high);
  var e = exponent;
  if (rest > 0x400u || (rest == 0x400u && (m.x & 0x800u) != 0u)) {
    m = wide_add(m, vec2<u32>(0x800u, 0u));
    if (m.y == 0u) {
      m = vec2<u32>(0u, 0x80000000u);
      e += 1;
    }
  }
  return F64(F64_FINITE, negative, e, m.y, m.x);
}

// A 128-bit value whose leading bit is bit 127, as a float64 of that leading bit's exponent e.
fn f64_of_128(negative: bool, e: i32, v: vec4<u32>) -> F64 {
  return f64_round(negative, e, v.w, v.z | select(0u, 1u, (v.y | v.x) != 0u));
}

fn f64_mul(a: F64, b: F64) -> F64 {
  let negative = a.negative != b.negative;
  if (a.kind == F64_NAN || b.kind == F64_NAN) {
    return f64_special(F64_NAN, false);
  }
  if (a.kind == F64_INF || b.kind == F64_INF) {
    if (a.kind == F64_ZERO || b.kind == F64_ZERO) {
      return f64_special(F64_NAN, false);
    }
    return f64_special(F64_INF, negative);
  }
  if (a.kind == F64_ZERO || b.kind == F64_ZERO) {
    return f64_special(F64_ZERO, negative);
  }
  // The 128-bit product of the mantissas, in [2^126, 2^128).
  let low_low = wide_mul(a.low, b.low);
  let low_high = wide_mul(a.low, b.high);
  let high_low = wide_mul(a.high, b.low);
  let high_high = wide_mul(a.high, b.high);
  let product = add_128(add_128(vec4<u32>(low_low, 0u, 0u), vec4<u32>(0u, low_high, 0u)),
                        add_128(vec4<u32>(0u, high_low, 0u), vec4<u32>(0u, 0u, high_high)));
  let shift = leading_zeros_128(product);
  return f64_of_128(negative, a.exponent + b.exponent + 1 - i32(shift),
                    shift_128(product, shift, true));
}

// M << 63 in 128 bits: the leading bit at 126, room above it for a carry.
fn f64_frame(v: F64) -> vec4<u32> {
  return vec4<u32>(0u, v.low << 31u, (v.high << 31u) | (v.low >> 1u), v.high >> 1u);
}

fn f64_add(a: F64, b: F64) -> F64 {
  if (a.kind == F64_NAN || b.kind == F64_NAN) {
    return f64_special(F64_NAN, false);
  }
  if (a.kind == F64_INF) {
    if (b.kind == F64_INF && a.negative != b.negative) {
      return f64_special(F64_NAN, false);
    }
    return a;
  }
  if (b.kind == F64_INF) {
    return b;
  }
  if (a.kind == F64_ZERO) {
    if (b.kind == F64_ZERO) {
      // -0 + -0 is -0, every other sum of zeros +0 (round to nearest).
      return f64_special(F64_ZERO, a.negative && b.negative);
    }
    return b;
  }
  if (b.kind == F64_ZERO) {
    return a;
  }
  let b_larger = b.exponent > a.exponent || (b.exponent == a.exponent &&
                 (b.high > a.high || (b.high == a.high && b.low > a.low)));
  var big = a;
  var small = b;
  if (b_larger) {
    big = b;
    small = a;
  }
  let distance = u32(big.exponent - small.exponent);
  // Past this distance the smaller is below an eighth of big's unit, and big is the sum
  // rounded, even where big is a power of two whose lower neighbour is half a unit away.
  if (distance > 55u) {
    return big;
  }
  // Aligned in 128 bits with no bit lost: small's lowest bit (11) lands at or above bit 19.
  let aligned = shift_128(f64_frame(small), distance, false);
  var sum: vec4<u32>;
  if (big.negative == small.negative) {
    sum = add_128(f64_frame(big), aligned);
  } else {
    sum = add_128(f64_frame(big), negate_128(aligned));
  }
  if (all(sum == vec4<u32>(0u))) {
    return f64_special(F64_ZERO, false);
  }
  let shift = leading_zeros_128(sum);
  // big's leading bit was bit 126 of the frame.
  return f64_of_128(big.negative, big.exponent + 1 - i32(shift), shift_128(sum, shift, true));
}

// v rounded to float32 bits: to nearest even, or where odd is true to odd (the float32 toward
// zero, its last bit set when inexact), which a narrower type then rounds as it would v. Past the
// float32 range: infinity, or the largest float32 (odd).
fn f64_to_f32_bits(v: F64, odd: bool) -> u32 {
  let sign = select(0u, 0x80000000u, v.negative);
  if (v.kind == F64_NAN) {
    return 0x7fc00000u;
  }
  if (v.kind == F64_ZERO) {
    return sign;
  }
  if (v.kind == F64_INF) {
    return sign | 0x7f800000u;
  }
  if (v.exponent >= 128) {
    return sign | select(0x7f800000u, 0x7f7fffffu, odd);
  }
  let normal = v.exponent >= -126;
  // The bits float32 keeps: 24, fewer for a subnormal, none below half its least.
  let keep = select(v.exponent + 150, 24, normal);
  var truncated = 0u;
  var above = false;
  var tie = false;
  var inexact = true;
  if (keep > 0) {
    let drop = 32u - u32(keep);
    truncated = v.high >> drop;
    let rest = v.high & ((1u << drop) - 1u);
    let half = 1u << (drop - 1u);
    above = rest > half || (rest == half && v.low != 0u);
    tie = rest == half && v.low == 0u;
    inexact = rest != 0u || v.low != 0u;
    if (normal) {
      truncated = (u32(v.exponent + 127) << 23u) | (truncated & 0x7fffffu);
    }
  } else if (keep == 0) {
    // Between half the least subnormal and the least: compared with the half.
    tie = v.high == 0x80000000u && v.low == 0u;
    above = !tie;
  }
  if (odd) {
    return sign | truncated | select(0u, 1u, inexact);
  }
  // A carry out of the mantissa moves to the next exponent, and past the largest to infinity.
  return sign | (truncated + select(0u, 1u, above || (tie && (truncated & 1u) == 1u)));
}
`;
