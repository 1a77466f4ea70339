// Wide integers in WGSL, which has none past 32 bits: 64-bit ones as vec2(low word, high word)
// and 128-bit ones as vec4 (lowest word first), two's complement, every operation exact. Used by
// the exact sums of integer outputs (exact.js) and the float64 arithmetic of AffineGrid
// (float64.js).
export const WIDE_WGSL = /* wgsl */ `
// a * b, exactly: the 16-bit halves multiplied crosswise.
fn wide_mul(a: u32, b: u32) -> vec2<u32> {
  let low_low = (a & 0xffffu) * (b & 0xffffu);
  let cross_a = (a & 0xffffu) * (b >> 16u);
  let cross_b = (a >> 16u) * (b & 0xffffu);
  let middle = cross_a + cross_b;
  let low = low_low + (middle << 16u);
  let high = (a >> 16u) * (b >> 16u) + (middle >> 16u) +
             select(0u, 0x10000u, middle < cross_a) + select(0u, 1u, low < low_low);
  return vec2<u32>(low, high);
}

fn wide_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let low = a.x + b.x;
  return vec2<u32>(low, a.y + b.y + select(0u, 1u, low < a.x));
}

fn wide_negate(a: vec2<u32>) -> vec2<u32> {
  let low = ~a.x + 1u;
  return vec2<u32>(low, ~a.y + select(0u, 1u, low == 0u));
}

fn add_128(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  let low = wide_add(a.xy, b.xy);
  // The low half wrapped exactly where it came out below a's.
  let carry = select(0u, 1u, low.y < a.y || (low.y == a.y && low.x < a.x));
  return vec4<u32>(low, wide_add(wide_add(a.zw, b.zw), vec2<u32>(carry, 0u)));
}

fn negate_128(a: vec4<u32>) -> vec4<u32> {
  return add_128(~a, vec4<u32>(1u, 0u, 0u, 0u));
}

fn leading_zeros_128(a: vec4<u32>) -> u32 {
  if (a.w != 0u) {
    return countLeadingZeros(a.w);
  }
  if (a.z != 0u) {
    return 32u + countLeadingZeros(a.z);
  }
  if (a.y != 0u) {
    return 64u + countLeadingZeros(a.y);
  }
  return 96u + countLeadingZeros(a.x);
}

// a shifted by n bits (below 128), toward the high words where left, else the low ones.
fn shift_128(a: vec4<u32>, n: u32, left: bool) -> vec4<u32> {
  var words = array<u32, 4>(a.x, a.y, a.z, a.w);
  var out = array<u32, 4>(0u, 0u, 0u, 0u);
  let step = n / 32u;
  let bits = n % 32u;
  for (var i = 0u; i < 4u; i++) {
    // Output word i takes bits of input words i -/+ step and the next one beyond it.
    var near = 0u;
    var far = 0u;
    if (left) {
      if (i >= step) {
        near = words[i - step] << bits;
        if (bits != 0u && i >= step + 1u) {
          far = words[i - step - 1u] >> (32u - bits);
        }
      }
    } else if (i + step < 4u) {
      near = words[i + step] >> bits;
      if (bits != 0u && i + step + 1u < 4u) {
        far = words[i + step + 1u] << (32u - bits);
      }
    }
    out[i] = near | far;
  }
  return vec4<u32>(out[0], out[1], out[2], out[3]);
}
`;
