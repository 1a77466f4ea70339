// The WGSL of AffineGrid for a theta type of formats.js (float32, float16, bfloat16): one
// invocation per grid location (batch item, depth, row, column), which computes its 2 or 3
// components as src/affine_grid.cc does, in float64 (float64.js), bit for bit: in 2-D
// ((t[k][0] * x + t[k][1] * y) + t[k][2]), in 3-D (((t[k][0] * x + t[k][1] * y) + t[k][2] * z)
// + t[k][3]), each operation rounded to nearest even, then rounded once to theta's type. The
// base coordinates x, y, z are float64 divisions of integers, which JavaScript computes as the
// CPU does (affine_grid.js) and the parameter words carry as bits.
import { FLOAT64_WGSL } from './float64.js';
import { FORMATS } from './formats.js';
import { decodeWgsl, encodeWgsl, WORKGROUP_SIZE, yWgsl } from './shader.js';

// The layout of the parameter buffer (u32 words), written by affine_grid.js and read here:
// rank, locations, invocations per row of workgroups, D, H, W (D 1 in 2-D), then the base
// coordinates' float64 bits (low word, high word): W of x, H of y, D of z.
export const AFFINE_HEADER_WORDS = 8;

export function affineGridWgsl(thetaType) {
  const format = FORMATS[thetaType];
  return [
    FLOAT64_WGSL,
    '@group(0) @binding(0) var<storage, read> theta: array<u32>;',
    yWgsl(format.bytes),
    '@group(0) @binding(3) var<storage, read> params: array<u32>;',
    decodeWgsl('theta', 'theta', format),
    encodeWgsl(format),
    /* wgsl */ `
const HEADER: u32 = ${AFFINE_HEADER_WORDS}u;
// float32 takes the float64 rounded to nearest even; a narrower type takes it rounded to odd
// first, then rounds that as it would the float64 (src/convert.h's F16BitsFromF64).
const ROUND_TO_ODD: bool = ${format.bytes < 4};

fn theta_at(e: u32) -> F64 {
  return f64_from_f32(theta_f32_bits(e));
}

// Base coordinate i of the parameter words.
fn base(i: u32) -> F64 {
  return f64_from_bits(params[HEADER + 2u * i], params[HEADER + 2u * i + 1u]);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let rank = params[0];
  let location = id.y * params[2] + id.x;
  if (location >= params[1]) {
    return;
  }
  let depth = params[3];
  let height = params[4];
  let width = params[5];
  let w = location % width;
  let h = (location / width) % height;
  let d = (location / (width * height)) % depth;
  let n = location / (width * height * depth);
  let x = base(w);
  let y_base = base(width + h);
  let z = base(width + height + d);
  let columns = rank + 1u;
  for (var k = 0u; k < rank; k++) {
    let row = (n * rank + k) * columns;
    var value = f64_add(f64_mul(theta_at(row), x), f64_mul(theta_at(row + 1u), y_base));
    if (rank == 3u) {
      value = f64_add(value, f64_mul(theta_at(row + 2u), z));
    }
    value = f64_add(value, theta_at(row + rank));
    y_store(location * rank + k, y_of_f32_bits(f64_to_f32_bits(value, ROUND_TO_ODD)));
  }
}
`,
  ].join('\n');
}
