// The WGSL of GridSample for X and grid types of formats.js, either layout, any rank up to
// MAX_RANK spatial axes: one invocation per output location (batch item and pixel), whose taps
// are planned once and read for every channel, as the CPU's plan does. The coordinate code
// follows src/coords.h operation by operation (docs/semantics.md), with three changes WGSL
// forces:
//
// - WGSL may assume that no value is NaN or infinite, so non-finite grid values are found by
//   their bits, X and Y are read and written as bits (nearest copies them exactly, NaN payloads
//   included), and no coordinate is ever allowed to overflow: where the CPU's float32
//   unnormalisation overflows and it recomputes in float64, the shader substitutes what that
//   recomputation resolves to (unnormalizeAxis below says why that is exact).
// - WGSL's `%` on floats is x - y * trunc(x / y), which rounds; reflection needs C's exact fmod,
//   built here from exact subtractions.
// - A compiler may fuse a product into the addition that follows it, which rounds once where
//   the CPU rounds twice: the products that decide tap indices and weights pass through
//   opaque(), an XOR with a zero the compiler cannot see, so that their rounding is the CPU's.
//   So the planned weights are the CPU's to the last bit, which integer outputs need
//   (exact.js). The float sums are left to fuse (the tests' tolerance covers them; see
//   tests/js/webgpu.test.mjs).
//
// Narrow types are packed in u32 words. Invocations write Y's elements of their own locations,
// and neighbours may share a word: a Y of 1- or 2-byte elements is written by atomic AND and OR
// of each element's own bits, which leave the rest of the word, whoever writes it, as it is.
import { exactWgsl } from './exact.js';
import { FORMATS, lanesOf } from './formats.js';

export const WORKGROUP_SIZE = 64;
export const MAX_RANK = 5;

// The override constants' values: the pipeline of each mode × padding × alignment is made once.
export const MODE_IDS = { linear: 0, nearest: 1, cubic: 2 };
export const PADDING_IDS = { zeros: 0, border: 1, reflection: 2 };

// The layout of the parameter buffer (u32 words), written by params.js and read here.
export const PARAM_HEADER_WORDS = 8;  // rank, C, out plane, in plane, locations, zero, row, -
export const PARAM_AXIS_WORDS = 4;    // extent, stride, f32(extent), f32(extent - 1)

// The planning of a location's taps: every type's.
const COORDINATES_WGSL = /* wgsl */ `
override MODE: u32;
override PADDING: u32;
override ALIGN_CORNERS: bool;
override CHANNELS_LAST: bool;

const MAX_RANK: u32 = ${MAX_RANK}u;
const HEADER: u32 = ${PARAM_HEADER_WORDS}u;
const AXIS_WORDS: u32 = ${PARAM_AXIS_WORDS}u;
const LINEAR: u32 = ${MODE_IDS.linear}u;
const NEAREST: u32 = ${MODE_IDS.nearest}u;
const CUBIC: u32 = ${MODE_IDS.cubic}u;
const ZEROS: u32 = ${PADDING_IDS.zeros}u;
const BORDER: u32 = ${PADDING_IDS.border}u;
const REFLECTION: u32 = ${PADDING_IDS.reflection}u;
// coords.h's kFarMargin.
const FAR_MARGIN: f32 = 8.0;
const EXPONENT_BITS: u32 = 0x7f800000u;

@group(0) @binding(3) var<storage, read> params: array<u32>;

struct Axis {
  extent: u32,
  stride: u32,
  s: f32,     // f32(extent), rounded as the CPU's static_cast<float>
  last: f32,  // f32(extent - 1)
}

fn axis_at(a: u32) -> Axis {
  let at = HEADER + a * AXIS_WORDS;
  return Axis(params[at], params[at + 1u], bitcast<f32>(params[at + 2u]),
              bitcast<f32>(params[at + 3u]));
}

fn opaque(v: f32) -> f32 {
  return bitcast<f32>(bitcast<u32>(v) ^ params[5]);
}

// C's fmod(a, b) for a >= 0 and b > 0, exactly: each step subtracts from r the largest b * 2^k
// not above it, which lies in [r / 2, r] and so subtracts exactly, and lowers r's exponent. The
// bound on the steps is past the exponent range.
fn fmod_positive(a: f32, b: f32) -> f32 {
  var r = a;
  let eb = frexp(b).exp;
  for (var step = 0u; step < 300u && r >= b; step++) {
    let k = frexp(r).exp - eb;
    var d = ldexp(b, k);
    if (d > r) {
      d = ldexp(b, k - 1);
    }
    r = r - d;
  }
  return r;
}

fn fmod_signed(a: f32, b: f32) -> f32 {
  let m = fmod_positive(abs(a), b);
  return select(m, -m, a < 0.0);
}

fn clamp_to_axis(q: f32, last: f32) -> f32 {
  return min(max(q, 0.0), last);
}

fn clamp_far(q: f32, last: f32) -> f32 {
  return min(max(q, -FAR_MARGIN), last + FAR_MARGIN);
}

fn reflection_period(ax: Axis) -> f32 {
  return 2.0 * select(ax.s, ax.last, ALIGN_CORNERS);
}

// coords.h's Reflect.
fn reflect(p: f32, ax: Axis) -> f32 {
  let period = reflection_period(ax);
  if (ALIGN_CORNERS) {
    if (period == 0.0) {
      return 0.0;
    }
    var q = fmod_positive(abs(p), period);
    if (q > ax.last) {
      q = period - q;
    }
    return clamp_to_axis(q, ax.last);
  }
  var u = abs(fmod_signed(p, period) + 0.5);
  u = fmod_positive(u, period);
  if (u > ax.s) {
    u = period - u;
  }
  return clamp_to_axis(u - 0.5, ax.last);
}

fn pad_coordinate(q: f32, ax: Axis) -> f32 {
  if (PADDING == BORDER) {
    return clamp_to_axis(q, ax.last);
  }
  if (PADDING == REFLECTION) {
    return reflect(q, ax);
  }
  return q;
}

// Whether |m| * factor rounds past the largest float32, computed without overflowing: scaling by
// 2^-64 is exact and commutes with the rounding, and |m| * factor overflows exactly when its
// rounding reaches 2^128.
fn product_overflows(m: f32, factor: f32) -> bool {
  return (abs(m) * 0x1p-64f) * factor >= 0x1p64f;
}

// coords.h's Unnormalize of grid value g (finite), in its operation order. Where that overflows
// float32, the CPU recomputes in float64, and what follows resolves the same for every such
// value: zeros and border padding see a coordinate far outside the axis on g's side, which
// +-2^100 stands for; reflection folds it to 0, because the overflow needs |g| >= 2^99 (axes
// have fewer than 2^29 elements, params.js checks it), so the float64 coordinate g * s / 2 or
// g / 2 * (s - 1) is exact and g / 4 periods long, a whole number of them.
fn unnormalize_axis(g: f32, ax: Axis) -> f32 {
  var m: f32;
  var factor: f32;
  if (ALIGN_CORNERS) {
    m = (g + 1.0) * 0.5;
    factor = ax.s - 1.0;
  } else {
    m = g + 1.0;
    factor = ax.s;
  }
  if (product_overflows(m, factor)) {
    if (PADDING == REFLECTION) {
      return 0.0;
    }
    return select(0x1p100f, -0x1p100f, g < 0.0);
  }
  if (ALIGN_CORNERS) {
    return opaque(m * factor);
  }
  return opaque(opaque(m * factor) - 1.0) * 0.5;
}

// coords.h's CubicWeight (A = -0.75), in its factored form and its operation order.
fn cubic_weight(t_in: f32) -> f32 {
  let t = abs(t_in);
  if (t <= 1.0) {
    return (t - 1.0) * (opaque(1.25 * t * t) - t - 1.0);
  }
  if (t < 2.0) {
    return -0.75 * (t - 1.0) * (t - 2.0) * (t - 2.0);
  }
  return 0.0;
}

// The taps of every axis of the location: element offsets along the axis (the tap's index times
// its stride), or -1 for a tap outside under zeros padding, and their weights.
var<private> tap_offsets: array<i32, ${MAX_RANK * 4}>;
var<private> tap_weights: array<f32, ${MAX_RANK * 4}>;

fn emit(a: u32, j: u32, index: f32, weight: f32, ax: Axis) {
  let inside = index >= 0.0 && index <= ax.last;
  tap_offsets[a * 4u + j] = select(-1, i32(u32(max(index, 0.0)) * ax.stride), inside);
  tap_weights[a * 4u + j] = weight;
}

// coords.h's AxisTaps for the unnormalised coordinate p.
fn plan_axis(a: u32, p_in: f32, ax: Axis) {
  if (MODE == NEAREST) {
    emit(a, 0u, clamp_far(pad_coordinate(round(p_in), ax), ax.last), 1.0, ax);
    return;
  }
  if (MODE == LINEAR) {
    let p = clamp_far(pad_coordinate(p_in, ax), ax.last);
    let x0 = floor(p);
    let t = p - x0;
    emit(a, 0u, x0, 1.0 - t, ax);
    emit(a, 1u, x0 + 1.0, t, ax);
    return;
  }
  var x0 = floor(p_in);
  let t = p_in - x0;
  let period = reflection_period(ax);
  if (PADDING == REFLECTION && period > 0.0) {
    x0 = fmod_signed(x0, period);
  }
  if (PADDING == ZEROS) {
    x0 = clamp_far(x0, ax.last);
  }
  let weights = array<f32, 4>(cubic_weight(t + 1.0), cubic_weight(t), cubic_weight(1.0 - t),
                              cubic_weight(2.0 - t));
  for (var j = 0u; j < 4u; j++) {
    emit(a, j, pad_coordinate(x0 + (f32(j) - 1.0), ax), weights[j], ax);
  }
}

fn taps_per_axis() -> u32 {
  if (MODE == NEAREST) {
    return 1u;
  }
  return select(4u, 2u, MODE == LINEAR);
}
`;

// Element e of a tensor of `bytes`-byte elements packed in the u32 words of `array`.
function packedRead(name, array, bytes) {
  const lanes = lanesOf(bytes);
  if (!lanes.packed) return `fn ${name}(e: u32) -> u32 {\n  return ${array}[e];\n}\n`;
  return /* wgsl */ `fn ${name}(e: u32) -> u32 {
  return (${array}[e / ${lanes.count}] >> ((e % ${lanes.count}) * ${lanes.bits})) & ${lanes.mask};
}
`;
}

// Y's binding and its writer: a plain store of whole words, or atomic AND and OR of an
// element's own bits in the word it shares (the file's head says why).
export function yWgsl(bytes) {
  const lanes = lanesOf(bytes);
  if (!lanes.packed) {
    return /* wgsl */ `@group(0) @binding(2) var<storage, read_write> y: array<u32>;
fn y_store(e: u32, element: u32) {
  y[e] = element;
}
`;
  }
  return /* wgsl */ `@group(0) @binding(2) var<storage, read_write> y: array<atomic<u32>>;
fn y_store(e: u32, element: u32) {
  let shift = (e % ${lanes.count}) * ${lanes.bits};
  atomicAnd(&y[e / ${lanes.count}], ~(${lanes.mask} << shift));
  atomicOr(&y[e / ${lanes.count}], element << shift);
}
`;
}

// The sampling of one output element from the planned taps, for X's kind: nearest copies the
// tap's element (a bool normalised to 0 or 1), float kinds sum in float32, exact ones
// exactly (exact.js).
function elementWgsl(format) {
  if (format.kind === 'exact') {
    return /* wgsl */ `
fn x_tap(e: u32) -> i32 {
  let raw = x_raw(e);
  ${format.wgsl.toInt}
}
const NONFINITE_ELEMENT: u32 = 0u;
fn copied(e: u32) -> u32 {
  return bitcast<u32>(x_tap(e)) & ${lanesOf(format.bytes).mask};
}
${exactWgsl(format)}
fn interpolated(x_base: u32, x_step: u32, rank: u32, taps: u32) -> u32 {
  return exact_element(exact_sum(x_base, x_step, rank, taps));
}
`;
  }
  return /* wgsl */ `
fn x_f32_bits(raw: u32) -> u32 {
  ${format.wgsl.toF32}
}
${encodeWgsl(format)}
const NONFINITE_ELEMENT: u32 = ${format.wgsl.nan};
fn copied(e: u32) -> u32 {
  return x_raw(e);
}
// Every combination of one tap per axis, the last axis fastest, each weight the product of its
// taps' in axis order (the reference's order).
fn interpolated(x_base: u32, x_step: u32, rank: u32, taps: u32) -> u32 {
  var combinations = 1u;
  for (var a = 0u; a < rank; a++) {
    combinations *= taps;
  }
  var sum = 0.0;
  for (var k = 0u; k < combinations; k++) {
    var picks: array<u32, MAX_RANK>;
    var rest = k;
    for (var b = 0u; b < rank; b++) {
      picks[rank - 1u - b] = rest % taps;
      rest = rest / taps;
    }
    var offset = 0u;
    var inside = true;
    var weight = 1.0;
    for (var a = 0u; a < rank; a++) {
      let tap = tap_offsets[a * 4u + picks[a]];
      inside = inside && tap >= 0;
      offset += u32(max(tap, 0));
      weight *= tap_weights[a * 4u + picks[a]];
    }
    if (!inside) {
      continue;
    }
    sum += weight * bitcast<f32>(x_f32_bits(x_raw(x_base + offset * x_step)));
  }
  return y_of_f32_bits(bitcast<u32>(sum));
}
`;
}

// y_of_f32_bits(): Y's element of f32 bits, for a float format.
export function encodeWgsl(format) {
  return `fn y_of_f32_bits(bits: u32) -> u32 {\n  ${format.wgsl.fromF32}\n}\n`;
}

// NAME_f32_bits(e): element e of the tensor in `array` of a float format, as f32 bits (exact).
export function decodeWgsl(name, array, format) {
  return `${packedRead(`${name}_raw`, array, format.bytes)}
fn ${name}_f32_bits(e: u32) -> u32 {
  let raw = ${name}_raw(e);
  ${format.wgsl.toF32}
}
`;
}

const MAIN_WGSL = /* wgsl */ `
@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let rank = params[0];
  let channels = params[1];
  let out_plane = params[2];
  let in_plane = params[3];
  let location = id.y * params[6] + id.x;
  if (location >= params[4]) {
    return;
  }
  let n = location / out_plane;
  let l = location - n * out_plane;

  var finite = true;
  for (var a = 0u; a < rank; a++) {
    // grid[..., 0] indexes the last axis: spatial axis a reads component rank - 1 - a.
    let bits = grid_f32_bits(location * rank + (rank - 1u - a));
    if ((bits & EXPONENT_BITS) == EXPONENT_BITS) {
      finite = false;
      break;
    }
    let ax = axis_at(a);
    plan_axis(a, unnormalize_axis(bitcast<f32>(bits), ax), ax);
  }

  // Channel c of pixel p of batch item n is element base + p * step: in its channel's plane
  // (channels-first) or beside the pixel's other channels (channels-last).
  let step = select(1u, channels, CHANNELS_LAST);
  let taps = taps_per_axis();
  for (var c = 0u; c < channels; c++) {
    let y_at = select((n * channels + c) * out_plane, n * out_plane * channels + c,
                      CHANNELS_LAST) + l * step;
    if (!finite) {
      y_store(y_at, NONFINITE_ELEMENT);
      continue;
    }
    let x_base = select((n * channels + c) * in_plane, n * in_plane * channels + c,
                        CHANNELS_LAST);
    if (MODE == NEAREST) {
      var offset = 0u;
      var inside = true;
      for (var a = 0u; a < rank; a++) {
        let tap = tap_offsets[a * 4u];
        inside = inside && tap >= 0;
        offset += u32(max(tap, 0));
      }
      y_store(y_at, select(0u, copied(x_base + offset * step), inside));
      continue;
    }
    y_store(y_at, interpolated(x_base, step, rank, taps));
  }
}
`;

// The whole shader for X of type xType and a grid of gridType (names of formats.js).
export function gridSampleWgsl(xType, gridType) {
  const x = FORMATS[xType];
  return [
    COORDINATES_WGSL,
    '@group(0) @binding(0) var<storage, read> x: array<u32>;',
    '@group(0) @binding(1) var<storage, read> grid: array<u32>;',
    yWgsl(x.bytes),
    packedRead('x_raw', 'x', x.bytes),
    decodeWgsl('grid', 'grid', FORMATS[gridType]),
    elementWgsl(x),
    MAIN_WGSL,
  ].join('\n');
}
