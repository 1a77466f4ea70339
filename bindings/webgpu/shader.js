// The WGSL of GridSample for X and grid types of formats.js, either layout, any rank up to
// MAX_RANK spatial axes: one invocation per output location (batch item and pixel), whose taps
// are planned once and read for every channel, as the CPU's plan does. A module is generated
// per mode, and for a float X per rank too, so that its planning and its sums are straight-line
// code over fixed taps (writtenOutForm says why). The coordinate code
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

// The ids of the modes (a module's, generated in) and paddings (a pipeline's override constant).
export const MODE_IDS = { linear: 0, nearest: 1, cubic: 2 };
export const PADDING_IDS = { zeros: 0, border: 1, reflection: 2 };

// The layout of the parameter buffer (u32 words), written by params.js and read here as a
// uniform buffer of vec4<u32>: the header's two, then one per axis.
export const PARAM_HEADER_WORDS = 8;  // rank, C, out plane, in plane, locations, zero, row, flags
export const PARAM_AXIS_WORDS = 4;    // extent, stride, f32(extent), f32(extent - 1)
const PARAM_VECTORS = (PARAM_HEADER_WORDS + MAX_RANK * PARAM_AXIS_WORDS) / 4;
// The flags word's bits.
export const FLAG_ALIGN_CORNERS = 1;
export const FLAG_CHANNELS_LAST = 2;

// The planning of a location's taps: every type's.
const coordinatesWgsl = (modeId) => /* wgsl */ `
const MODE: u32 = ${modeId}u;
override PADDING: u32;

const MAX_RANK: u32 = ${MAX_RANK}u;
const HEADER: u32 = ${PARAM_HEADER_WORDS / 4}u;
const LINEAR: u32 = ${MODE_IDS.linear}u;
const NEAREST: u32 = ${MODE_IDS.nearest}u;
const CUBIC: u32 = ${MODE_IDS.cubic}u;
const ZEROS: u32 = ${PADDING_IDS.zeros}u;
const BORDER: u32 = ${PADDING_IDS.border}u;
const REFLECTION: u32 = ${PADDING_IDS.reflection}u;
// coords.h's kFarMargin.
const FAR_MARGIN: f32 = 8.0;
const EXPONENT_BITS: u32 = 0x7f800000u;

@group(0) @binding(3) var<uniform> params: array<vec4<u32>, ${PARAM_VECTORS}>;

struct Axis {
  extent: u32,
  stride: u32,
  s: f32,     // f32(extent), rounded as the CPU's static_cast<float>
  last: f32,  // f32(extent - 1)
}

fn axis_at(a: u32) -> Axis {
  let words = params[HEADER + a];
  return Axis(words.x, words.y, bitcast<f32>(words.z), bitcast<f32>(words.w));
}

// The header's zero word and flags, read once per invocation (main). Alignment and layout are
// parameters, not override constants like the padding: they change a few operations, and as
// constants they would multiply the pipelines to compile (on SwiftShader a quarter of a second
// each) by four.
var<private> zero_bits: u32;
var<private> align_corners: bool;
var<private> channels_last: bool;

fn opaque(v: f32) -> f32 {
  return bitcast<f32>(bitcast<u32>(v) ^ zero_bits);
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
  return 2.0 * select(ax.s, ax.last, align_corners);
}

// coords.h's Reflect.
fn reflect(p: f32, ax: Axis) -> f32 {
  let period = reflection_period(ax);
  if (align_corners) {
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
  if (align_corners) {
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
  if (align_corners) {
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

// The taps of one axis: element offsets along the axis (the tap's index times its stride), or -1
// for a tap outside under zeros padding, and their weights; the first TAPS[mode] are used.
// Vectors, not arrays, so that a compiler keeps them in registers.
struct AxisTaps {
  offset: vec4<i32>,
  weight: vec4<f32>,
}

fn tap_offset(index: f32, ax: Axis) -> i32 {
  let inside = index >= 0.0 && index <= ax.last;
  return select(-1, i32(u32(max(index, 0.0)) * ax.stride), inside);
}

// coords.h's AxisTaps for the unnormalised coordinate p.
fn plan_axis(p_in: f32, ax: Axis) -> AxisTaps {
  if (MODE == NEAREST) {
    let index = clamp_far(pad_coordinate(round(p_in), ax), ax.last);
    return AxisTaps(vec4<i32>(tap_offset(index, ax), -1, -1, -1), vec4<f32>(1.0, 0.0, 0.0, 0.0));
  }
  if (MODE == LINEAR) {
    let p = clamp_far(pad_coordinate(p_in, ax), ax.last);
    let x0 = floor(p);
    let t = p - x0;
    return AxisTaps(vec4<i32>(tap_offset(x0, ax), tap_offset(x0 + 1.0, ax), -1, -1),
                    vec4<f32>(1.0 - t, t, 0.0, 0.0));
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
  return AxisTaps(vec4<i32>(tap_offset(pad_coordinate(x0 - 1.0, ax), ax),
                            tap_offset(pad_coordinate(x0, ax), ax),
                            tap_offset(pad_coordinate(x0 + 1.0, ax), ax),
                            tap_offset(pad_coordinate(x0 + 2.0, ax), ax)),
                  vec4<f32>(cubic_weight(t + 1.0), cubic_weight(t), cubic_weight(1.0 - t),
                            cubic_weight(2.0 - t)));
}

// The taps of every axis, axis a's at a * 4, for the sums that loop over the combinations
// (elementWgsl, exact.js), which pick taps at computed indices.
var<private> tap_offsets: array<i32, ${MAX_RANK * 4}>;
var<private> tap_weights: array<f32, ${MAX_RANK * 4}>;

fn keep_taps(a: u32, taps: AxisTaps) {
  for (var j = 0u; j < 4u; j++) {
    tap_offsets[a * 4u + j] = taps.offset[j];
    tap_weights[a * 4u + j] = taps.weight[j];
  }
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

// The sampling of one output element by a loop over the planned taps, for X's kind: float kinds
// sum in float32, exact ones exactly (exact.js). mainWgsl uses it where it does not write the
// sum straight-line.
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
fn x_value(e: u32) -> f32 {
  return bitcast<f32>(x_f32_bits(x_raw(e)));
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
    sum += weight * x_value(x_base + offset * x_step);
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

// Taps per axis, by mode.
const TAPS = { [MODE_IDS.linear]: 2, [MODE_IDS.nearest]: 1, [MODE_IDS.cubic]: 4 };
// The most combinations of taps a float X's sum is written out for (linear to rank 5, cubic to
// rank 3); above it (cubic from rank 4: 256 and more) the sum is elementWgsl's loop.
const MAX_WRITTEN_OUT = 64;

// The taps of every combination of one tap per axis, the last axis fastest: [[j of axis 0, ...]].
function combinations(rank, taps) {
  let all = [[]];
  const js = [...Array(taps).keys()];
  for (let a = 0; a < rank; a++) all = all.flatMap((picks) => js.map((j) => [...picks, j]));
  return all;
}

// What main() does before the channel loop and in it, written out for `rank` spatial axes: the
// grid read and the taps planned axis by axis, the indices constant, and each combination's
// offset, weight and whether it is inside computed once; per channel then what the CPU's
// planned kernels do, a load, a select and a multiply-add per combination, straight-line. As a
// loop (loopForm) the sum costs several times as much per channel on SwiftShader: a division
// and a remainder per axis per combination, and private arrays at computed indices, which it
// keeps in memory. A combination outside the input (zeros padding) adds w * 0, which is the
// CPU's skipping it (the sum starts at +0).
function writtenOutForm(rank, taps) {
  const axes = [...Array(rank).keys()];
  const before = [];
  for (const a of axes) {
    // grid[..., 0] indexes the last axis: spatial axis a reads component rank - 1 - a.
    before.push(`  let g${a} = grid_f32_bits(location * ${rank}u + ${rank - 1 - a}u);`);
  }
  const finite = axes.map((a) => `(g${a} & EXPONENT_BITS) != EXPONENT_BITS`).join(' &&\n      ');
  before.push(`  if (!(${finite})) {
    store_nonfinite(y_at, y_channel, channels);
    return;
  }`);
  for (const a of axes) {
    before.push(`  let ax${a} = axis_at(${a}u);`,
                `  let t${a} = plan_axis(unnormalize_axis(bitcast<f32>(g${a}), ax${a}), ax${a});`);
  }
  const tap = (a, j) => `t${a}.offset[${j}]`;
  const all = combinations(rank, taps);
  all.forEach((picks, k) => before.push(
    `  let o${k} = (${picks.map((j, a) => `u32(max(${tap(a, j)}, 0))`).join(' + ')}) * step;`,
    `  let in${k} = ${picks.map((j, a) => `${tap(a, j)} >= 0`).join(' && ')};`,
    `  let w${k} = ${picks.map((j, a) => `t${a}.weight[${j}]`).join(' * ')};`));
  if (taps === 1) {
    return { before, channel: ['    y_store(y_at, select(0u, copied(x_base + o0), in0));'] };
  }
  return {
    before,
    channel: ['    var sum = 0.0;',
              ...all.map((_, k) =>
                `    sum += w${k} * select(0.0, x_value(x_base + o${k}), in${k});`),
              '    y_store(y_at, y_of_f32_bits(bitcast<u32>(sum)));'],
  };
}

// The same as a loop over the axes and the combinations, for any rank (the header's): for
// integer X, whose exact sum (exact.js) is a loop in any case, and for sums too long to write
// out.
function loopForm(taps) {
  const before = [`  let rank = header.x;
  for (var a = 0u; a < rank; a++) {
    // grid[..., 0] indexes the last axis: spatial axis a reads component rank - 1 - a.
    let bits = grid_f32_bits(location * rank + (rank - 1u - a));
    if ((bits & EXPONENT_BITS) == EXPONENT_BITS) {
      store_nonfinite(y_at, y_channel, channels);
      return;
    }
    let ax = axis_at(a);
    keep_taps(a, plan_axis(unnormalize_axis(bitcast<f32>(bits), ax), ax));
  }`];
  if (taps === 1) {
    before.push(`  var offset = 0u;
  var inside = true;
  for (var a = 0u; a < rank; a++) {
    let tap = tap_offsets[a * 4u];
    inside = inside && tap >= 0;
    offset += u32(max(tap, 0));
  }
  offset *= step;`);
    return { before, channel: ['    y_store(y_at, select(0u, copied(x_base + offset), inside));'] };
  }
  return { before, channel: [`    y_store(y_at, interpolated(x_base, step, rank, ${taps}u));`] };
}

// The rank a module for X of `format`, `rank` spatial axes and mode `modeId` is generated for:
// null where one module takes every rank (loopForm).
function moduleRank(format, rank, modeId) {
  const taps = TAPS[modeId];
  return format.kind === 'float' && taps ** rank <= MAX_WRITTEN_OUT ? rank : null;
}

// main(): the location's planning, then the channel loop, of writtenOutForm or loopForm.
function mainWgsl(format, rank, modeId) {
  const taps = TAPS[modeId];
  const { before, channel } = rank === null ? loopForm(taps) : writtenOutForm(rank, taps);
  return /* wgsl */ `
fn store_nonfinite(y_first: u32, y_channel: u32, channels: u32) {
  for (var c = 0u; c < channels; c++) {
    y_store(y_first + c * y_channel, NONFINITE_ELEMENT);
  }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let header = params[0];
  let channels = header.y;
  let out_plane = header.z;
  let in_plane = header.w;
  let more = params[1];
  zero_bits = more.y;
  align_corners = (more.w & ${FLAG_ALIGN_CORNERS}u) != 0u;
  channels_last = (more.w & ${FLAG_CHANNELS_LAST}u) != 0u;
  let location = id.y * more.z + id.x;
  if (location >= more.x) {
    return;
  }
  let n = location / out_plane;
  let l = location - n * out_plane;
  // Channel c of pixel p of batch item n is element base + p * step: in its channel's plane
  // (channels-first) or beside the pixel's other channels (channels-last); the next channel's
  // is x_channel (y_channel) further.
  let step = select(1u, channels, channels_last);
  let x_channel = select(in_plane, 1u, channels_last);
  let y_channel = select(out_plane, 1u, channels_last);
  var x_base = n * channels * in_plane;
  var y_at = n * channels * out_plane + l * step;
${before.join('\n')}
  for (var c = 0u; c < channels; c++) {
${channel.join('\n')}
    x_base += x_channel;
    y_at += y_channel;
  }
}
`;
}

// The shader module GridSample needs for X of type xType, a grid of gridType (names of
// formats.js), `rank` spatial axes and mode `modeId` (MODE_IDS): { name (one per module),
// code() (its WGSL) }. Its override constant is PADDING.
export function gridSampleModule(xType, gridType, rank, modeId) {
  const x = FORMATS[xType];
  const generatedRank = moduleRank(x, rank, modeId);
  const name = `gridsample ${xType} ${gridType} mode ${modeId} rank ${generatedRank ?? 'any'}`;
  const code = () => [
    coordinatesWgsl(modeId),
    '@group(0) @binding(0) var<storage, read> x: array<u32>;',
    '@group(0) @binding(1) var<storage, read> grid: array<u32>;',
    yWgsl(x.bytes),
    packedRead('x_raw', 'x', x.bytes),
    decodeWgsl('grid', 'grid', FORMATS[gridType]),
    elementWgsl(x),
    mainWgsl(x, generatedRank, modeId),
  ].join('\n');
  return { name, code };
}
