// Reading and checking gridSample's arguments on WebGPU, before any GPU work: the tensors'
// dims, types and buffers, the device and the options. What the CPU API checks too is checked by
// its code (bindings/js/arguments.js) or with its messages (shape.js); what is particular to
// GPU buffers, and the types this path takes (formats.js), is here.
import {
  checkOptionNames, describe, quote, readAffineOptions, readDims, readSampleAttributes, shapeText,
  shownSpelling,
} from '../js/arguments.js';
import { ARRAYS_OF_TYPE } from '../js/typed_arrays.js';

import { FORMATS } from './formats.js';
import { MODE_IDS, PADDING_IDS } from './shader.js';

const OPTION_NAMES = ['device', 'mode', 'paddingMode', 'alignCorners', 'layout', 'out'];
const AFFINE_OPTION_NAMES = ['device', 'alignCorners', 'out'];

// GPUBufferUsage's flags (the WebGPU spec's values: the global is not there in every runtime).
export const USAGE = { COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 };

// The spellings the core parses (its registries, which bindings/js/assemble.mjs writes in), and
// its messages for the others (src/api.cc), so that a bad attribute fails alike on every
// backend.
const MODES = /* @registry modeOfSpelling */ {};
const PADDINGS = /* @registry paddingOfSpelling */ {};
const LAYOUTS = ['channels-first', 'channels-last'];

function parseAttribute(what, spelling, known) {
  if (Object.hasOwn(known, spelling)) return known[spelling];
  const names = Object.keys(known);
  const expected = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  throw new RangeError(`gridsample: ${what}: unknown value "${shownSpelling(spelling)}"; ` +
                       `expected ${expected}`);
}

export function parseMode(spelling) {
  return MODE_IDS[parseAttribute('mode', spelling, MODES)];
}

export function parsePadding(spelling) {
  return PADDING_IDS[parseAttribute('padding_mode', spelling, PADDINGS)];
}

// Whether the layout is channels-last (else channels-first).
export function parseLayout(spelling) {
  parseAttribute('layout', spelling, Object.fromEntries(LAYOUTS.map((name) => [name, name])));
  return spelling === 'channels-last';
}

const X_TYPES = Object.keys(FORMATS);
const GRID_TYPES = X_TYPES.filter((type) => FORMATS[type].grid);

// The types each tensor argument takes on WebGPU, and what the CPU takes beyond them: the X
// types it computes in float64 or as strings, which WGSL cannot match, and float64 grids and
// thetas, whose coordinates it computes in float64.
const TAKEN = {
  x: { types: X_TYPES, kind: 'computed', cpu: "the CPU gridSample of 'gridsample' takes it" },
  grid: { types: GRID_TYPES, kind: 'a grid type',
          cpu: "the CPU gridSample of 'gridsample' takes float64 grids too" },
  theta: { types: GRID_TYPES, kind: 'a theta type',
           cpu: "the CPU affineGrid of 'gridsample' takes float64 too" },
};

function notTaken(name, type) {
  const { types, kind, cpu } = TAKEN[name];
  return new TypeError(`gridsample: ${name}.type: ${type} is not ${kind} on WebGPU, which ` +
                       `takes ${types.join(', ')}; ${cpu}`);
}

function isObject(value) {
  return value !== null && typeof value === 'object';
}

// A GPUBuffer, told apart by what this code uses of it: size, usage and mapState.
function readBuffer(what, buffer) {
  if (!isObject(buffer) || typeof buffer.size !== 'number' || typeof buffer.usage !== 'number') {
    throw new TypeError(`gridsample: ${what} must be a GPUBuffer, got ${describe(buffer)}`);
  }
  const { size, usage, mapState } = buffer;
  if ((usage & USAGE.STORAGE) === 0) {
    throw new TypeError(`gridsample: ${what}: its usage (0x${usage.toString(16)}) lacks ` +
                        'GPUBufferUsage.STORAGE, which the shader binds it with');
  }
  if (mapState !== undefined && mapState !== 'unmapped') {
    throw new TypeError(`gridsample: ${what} is ${mapState}; a GPU pass needs it unmapped`);
  }
  return { buffer, size };
}

// Reads a tensor argument once: { dims, type, buffer, size }, its type one this path takes for
// the argument `name` ('x', 'grid' or 'theta'). An onnxruntime-web Tensor on the GPU
// (its location 'gpu-buffer') passes as it is: its buffer is its gpuBuffer.
export function readGpuTensor(name, tensor) {
  if (!isObject(tensor) || (tensor.buffer === undefined && tensor.dims === undefined)) {
    throw new TypeError(`gridsample: ${name} must be a tensor { buffer, dims, type }, got ` +
                        describe(tensor));
  }
  const { location } = tensor;
  if (location !== undefined && location !== 'gpu-buffer') {
    throw new TypeError(`gridsample: ${name}: a tensor of location ${describe(location)}; on ` +
                        "WebGPU its data must be a GPUBuffer (location 'gpu-buffer'), and the " +
                        "CPU gridSample of 'gridsample' takes tensors on the CPU");
  }
  const buffer = location === 'gpu-buffer' ? tensor.gpuBuffer : tensor.buffer;
  const { dims, type } = tensor;
  const extents = readDims(name, dims);
  if (typeof type !== 'string') {
    throw new TypeError(`gridsample: ${name}.type must be a string, got ${describe(type)}`);
  }
  if (!Object.hasOwn(ARRAYS_OF_TYPE, type)) {
    throw new TypeError(`gridsample: ${name}.type: unknown type ${quote(type)}; expected one ` +
                        `of ${Object.keys(ARRAYS_OF_TYPE).join(', ')}`);
  }
  if (!TAKEN[name].types.includes(type)) throw notTaken(name, type);
  return { dims: extents, type, ...readBuffer(`${name}.buffer`, buffer) };
}

function checkDevice(device) {
  if (!isObject(device) || !isObject(device.queue) ||
      typeof device.createComputePipeline !== 'function') {
    throw new TypeError('gridsample: options.device must be the GPUDevice of the buffers, got ' +
                        describe(device));
  }
}

// The device and options.out of a call's checked options: { device, out } with out undefined or
// readBuffer's { buffer, size } of options.out.buffer.
function readDeviceAndOut({ device, out }) {
  checkDevice(device);
  if (out === undefined) return { device, out };
  if (!isObject(out)) {
    throw new TypeError(`gridsample: options.out must be { buffer }, got ${describe(out)}`);
  }
  return { device, out: readBuffer('options.out.buffer', out.buffer) };
}

// Reads gridSample's options argument once: { device, mode, paddingMode, alignCorners, layout,
// out } (readDeviceAndOut's out).
export function readGpuOptions(options) {
  const checked = checkOptionNames(options, OPTION_NAMES);
  const attributes = readSampleAttributes(checked);
  return { ...readDeviceAndOut(checked), ...attributes };
}

// Reads affineGrid's options argument once: { device, alignCorners, out } (readDeviceAndOut's
// out), alignCorners read as the CPU's affineGrid reads it.
export function readGpuAffineOptions(options) {
  const checked = checkOptionNames(options, AFFINE_OPTION_NAMES);
  const { alignCorners } = readAffineOptions({ alignCorners: checked.alignCorners });
  return { ...readDeviceAndOut(checked), alignCorners };
}

// A buffer against the bytes its tensor of `type` needs ({ bytes, words }: formats.js's bytesOf):
// it may be larger (allocators round sizes up), and the pass binds the first whole words.
export function checkBufferSize(what, view, { bytes, words }, dims, type, limit) {
  const need = `dims ${shapeText(dims)} of ${type} need ${bytes}`;
  if (view.size < bytes) {
    throw new RangeError(`gridsample: ${what} has ${view.size} bytes, but ${need}`);
  }
  if (view.size < words) {
    throw new RangeError(`gridsample: ${what} has ${view.size} bytes; ${need}, and a binding ` +
                         `takes whole 4-byte words: ${words}`);
  }
  if (words > limit) {
    throw new RangeError(`gridsample: ${what}: ${need} bytes, more than the device binds ` +
                         `(maxStorageBufferBindingSize ${limit})`);
  }
}

// options.out (readDeviceAndOut's view, or undefined) against the result's { bytes, words }, and
// against the buffers the pass reads (`inputs`, named by `what`).
export function checkOut(out, bytes, dims, type, limit, inputs, what) {
  if (out === undefined) return;
  checkBufferSize('options.out.buffer', out, bytes, dims, type, limit);
  if (inputs.includes(out.buffer)) {
    throw new RangeError(`gridsample: options.out.buffer is ${what}; a pass cannot write a ` +
                         'buffer it reads');
  }
}
