// Shared by the package's node:test suites: the test-vector reader (format: tests/data/README.md),
// typed arrays per dtype, the comparison with a tolerance per dtype, the spec's first example,
// a way to the embind module (the heap probes, the check that an error left the heap as it
// was), and scenarios in a Node.js process of their own (for what the cached instance hides).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { gridSample } from 'gridsample';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// The backend of the suites that run on both (vectors, affine_grid, api, hostile):
// GRIDSAMPLE_TEST_BACKEND, "wasm" by default; scripts/test.sh runs them once more with "native"
// where the package has an addon for this platform. Their init() takes initOptions. What only
// the WebAssembly backend has (its heap and its limits) is checked in the wasm run: `wasmOnly`
// is the reason such a test gives for not running on the native one.
export const testBackend = process.env.GRIDSAMPLE_TEST_BACKEND ?? 'wasm';
export const initOptions = { backend: testBackend };
export const wasmOnly = testBackend === 'wasm' ? false :
    'the WebAssembly heap and its limits: checked in the wasm run';
export const dataDir = path.join(repo, 'tests', 'data');

const require = createRequire(import.meta.url);
// The package's dist/ as `import 'gridsample'` finds it: the repository's own (the package
// names itself), or an installed copy for suites run from a project it is installed in
// (pack.test.mjs).
export const distDir = path.dirname(require.resolve('gridsample'));

// `import 'gridsample'` and `require('gridsample')` in Node share the CommonJS core: its
// moduleForTesting() is the instance the API uses ({ module, memory, workers }).
export function instance() {
  return require(path.join(distDir, 'gridsample_core.cjs')).moduleForTesting();
}
export function embindModule() {
  return instance().module;
}

// Bytes malloc has handed out (mallinfo), and the size of the wasm memory (the memory's own
// buffer: a thread may have grown it since the glue last looked).
export function heapInUse() {
  return embindModule().heapInUse();
}
export function memoryBytes() {
  return instance().memory.buffer.byteLength;
}

// What a call must leave as it found it: the bytes in use, and the block malloc hands out for
// a small request (the same one unless a block was leaked, freed twice or overrun).
export function heapState() {
  const module = embindModule();
  const probe = module._malloc(64);
  module._free(probe);
  return { inUse: module.heapInUse(), probe };
}

// body(), which must leave the WebAssembly heap and memory as it found them (the native backend
// has neither); returns what body returns.
export function keepsHeap(body) {
  if (testBackend !== 'wasm') return body();
  const before = { ...heapState(), memory: memoryBytes() };
  const result = body();
  assert.deepEqual({ ...heapState(), memory: memoryBytes() }, before, 'the heap as it was');
  return result;
}

// `call` must throw an ErrorClass (exactly) whose message starts with "gridsample: " and
// matches `message`, leave the WebAssembly heap as it was (keepsHeap), and the next call must
// compute the spec's example.
export function assertRefused(call, ErrorClass, message) {
  keepsHeap(() => assert.throws(call, (error) => {
    assert.equal(error.constructor, ErrorClass, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, message);
    assert.match(error.message, /^gridsample: /);
    return true;
  }));
  const { x, grid, y } = specExample();
  assert.ok(closeTo(gridSample(x, grid).data, y), 'the next call computes the spec example');
}

// The registry as the wasm module reports it: Map(name → { name, size, computeSize, kind }).
export function registry() {
  return new Map(embindModule().dtypes().map((entry) => [entry.name, entry]));
}

// The typed array each dtype is written into by the readers below (bits for float16/bfloat16,
// interleaved parts for complex).
export const ARRAY_OF = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array, complex64: Float32Array, complex128: Float64Array, string: Array,
};

function parseReal(token) {
  if (token === 'nan') return NaN;
  if (token === 'inf') return Infinity;
  if (token === '-inf') return -Infinity;
  const value = Number(token);
  if (Number.isNaN(value)) throw new Error(`not a number: ${token}`);
  return value;
}

function parseValues(type, tokens) {
  const Array_ = ARRAY_OF[type];
  if (!Array_) throw new Error(`unknown dtype ${type}`);
  switch (type) {
    case 'string':
      return tokens.map((token) => JSON.parse(token));
    case 'float16':
    case 'bfloat16':
      return Uint16Array.from(tokens, (token) => {
        if (!/^0x[0-9a-f]{4}$/.test(token)) throw new Error(`not 4 hex digits: ${token}`);
        return parseInt(token.slice(2), 16);
      });
    case 'int64':
    case 'uint64':
      return Array_.from(tokens, (token) => BigInt(token));
    case 'complex64':
    case 'complex128':
      return Array_.from(tokens.flatMap((token) => token.split(',')), parseReal);
    default:
      return Array_.from(tokens, parseReal);
  }
}

export function parseTensor(line, name) {
  const tokens = line.split(' ');
  if (tokens[0] !== name) throw new Error(`expected a ${name} line, got: ${line.slice(0, 60)}`);
  const type = tokens[1];
  const rank = Number(tokens[2]);
  const dims = tokens.slice(3, 3 + rank).map(Number);
  if (tokens[3 + rank] !== ':') throw new Error(`no ':' after the dims of: ${line.slice(0, 60)}`);
  const data = parseValues(type, tokens.slice(4 + rank));
  const count = dims.reduce((a, b) => a * b, 1) * (type.startsWith('complex') ? 2 : 1);
  if (data.length !== count) throw new Error(`${name}: ${data.length} values for dims ${dims}`);
  return { type, dims, data };
}

// Reads a vector file: [{ name, attrs: { mode, padding, alignCorners }, x, grid, y }].
export function readVectors(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
  const cases = [];
  for (let i = 0; i < lines.length;) {
    const [keyword, name] = lines[i].split(' ');
    if (keyword !== 'case') throw new Error(`expected 'case', got: ${lines[i].slice(0, 60)}`);
    const attrs = Object.fromEntries(lines[i + 1].split(' ').slice(1).map((kv) => kv.split('=')));
    cases.push({
      name,
      attrs: { mode: attrs.mode, padding: attrs.padding,
               alignCorners: attrs.align_corners === '1' },
      x: parseTensor(lines[i + 2], 'x'),
      grid: parseTensor(lines[i + 3], 'grid'),
      y: parseTensor(lines[i + 4], 'y'),
    });
    if (lines[i + 5] !== 'end') throw new Error(`case ${name}: no 'end'`);
    i += 6;
  }
  return cases;
}

// IEEE binary16 and bfloat16 bits → number, by the textbook.
export function halfToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}
export function bfloat16ToNumber(b) {
  return new Float32Array(new Uint32Array([b << 16]).buffer)[0];
}

function near(a, b, rel) {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;  // the bound admits any value
  return Math.abs(a - b) <= rel * (1 + Math.max(Math.abs(a), Math.abs(b)));
}

// The tolerances the native suite allows between the fast path and the reference
// (AgreesWithReference in tests/any_tensor.h): the wasm build is a fast path, the vectors come
// from the reference.
// `exact` (nearest mode, which copies elements bit for bit) allows no difference at all.
// Returns the index of the first element that differs, or -1.
export function firstMismatch(info, actual, expected, exact = false) {
  if (actual.length !== expected.length) return 0;
  const eps = info.computeSize === 8 ? 1e-12 : 2e-5;
  for (let i = 0; i < expected.length; ++i) {
    const a = actual[i];
    const e = expected[i];
    let ok;
    switch (exact ? 'exact' : info.kind) {
      case 'exact':
        ok = a === e || (Number.isNaN(a) && Number.isNaN(e));
        break;
      case 'kFloat':
      case 'kComplex':
        ok = near(a, e, eps);
        break;
      case 'kHalf':
        ok = a === e || near(halfToNumber(a), halfToNumber(e), 1e-3);
        break;
      case 'kBFloat16':
        ok = a === e || near(bfloat16ToNumber(a), bfloat16ToNumber(e), 8e-3);
        break;
      default:  // integers (the truncation of an exact sum), bool and string agree exactly
        ok = a === e;
    }
    if (!ok) return i;
  }
  return -1;
}

// The data and dims of a channels-first tensor (N, C, D1..Dr) transposed to channels-last
// (N, D1..Dr, C), in an array of the same class; `parts` numbers per element (2 for complex).
export function toChannelsLast(data, dims, parts = 1) {
  const [batch, channels, ...spatial] = dims;
  const plane = spatial.reduce((a, b) => a * b, 1);
  const out = new data.constructor(data.length);
  for (let n = 0; n < batch; ++n) {
    for (let c = 0; c < channels; ++c) {
      for (let p = 0; p < plane; ++p) {
        for (let q = 0; q < parts; ++q) {
          out[((n * plane + p) * channels + c) * parts + q] =
              data[((n * channels + c) * plane + p) * parts + q];
        }
      }
    }
  }
  return { data: out, dims: [batch, ...spatial, channels] };
}

// Whether two arrays hold the same elements bit for bit (typed arrays by their bytes: NaN
// payloads and the sign of zero count).
export function sameBits(a, b) {
  if (a.length !== b.length || a.constructor !== b.constructor) return false;
  if (Array.isArray(a)) return a.every((v, i) => v === b[i]);
  const bytes = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return Buffer.compare(bytes(a), bytes(b)) === 0;
}

// The spec's first example (onnx-gridsample-16-with-examples.rst): bilinear, zeros, align 0.
export function specExample() {
  const steps = [-1, -0.6, -0.2, 0.2, 0.6, 1];
  const grid = [];
  for (const y of steps) for (const x of steps) grid.push(x, y);
  return {
    x: { data: Float32Array.from({ length: 16 }, (_, i) => i), dims: [1, 1, 4, 4] },
    grid: { data: new Float32Array(grid), dims: [1, 6, 6, 2] },
    y: [0, 0.15, 0.55, 0.95, 1.35, 0.75, 0.6, 1.5, 2.3, 3.1, 3.9, 2.1,
        2.2, 4.7, 5.5, 6.3, 7.1, 3.7, 3.8, 7.9, 8.7, 9.5, 10.3, 5.3,
        5.4, 11.1, 11.9, 12.7, 13.5, 6.9, 3, 6.15, 6.55, 6.95, 7.35, 3.75],
    yDims: [1, 1, 6, 6],
  };
}

export function closeTo(actual, expected, tol = 1e-5) {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < expected.length; ++i) {
    if (!(Math.abs(actual[i] - expected[i]) <= tol * (1 + Math.abs(expected[i])))) return false;
  }
  return true;
}

// A scenario in a Node.js process of its own (the instance and its init() state are per
// process): an ES module (or, with cjs, a CommonJS script) of `header`, then `example()`, which
// returns the spec example's first row (EXAMPLE_ROW) through the module bound to `gs`, then
// `body`, which prints one JSON value; returns that value. The process runs this one's node, or
// GRIDSAMPLE_TEST_NODE's where that cannot start itself (scripts/node_arm64.sh, under qemu).
export const EXAMPLE_ROW = [0, 0.15, 0.55, 0.95, 1.35, 0.75];
const EXAMPLE = `
  const steps = [-1, -0.6, -0.2, 0.2, 0.6, 1];
  const g = []; for (const y of steps) for (const x of steps) g.push(x, y);
  const example = () => Array.from(gs.gridSample(
      { data: Float32Array.from({ length: 16 }, (_, i) => i), dims: [1, 1, 4, 4] },
      { data: new Float32Array(g), dims: [1, 6, 6, 2] }).data.slice(0, 6), (v) => +v.toFixed(4));
`;
const run = promisify(execFile);
export async function scenario(header, body, { cjs = false } = {}) {
  const code = cjs ? `${header}\n${EXAMPLE}\n(async () => {\n${body}\n})().catch((e) => { ` +
                     `console.error(e); process.exit(1); });` :
      `${header}\n${EXAMPLE}\n${body}`;
  const args = cjs ? ['-e', code] : ['--input-type=module', '-e', code];
  const node = process.env.GRIDSAMPLE_TEST_NODE || process.execPath;
  const { stdout } = await run(node, args, { cwd: repo, timeout: 60000 });
  return JSON.parse(stdout);
}
