// The public API of the gridsample package (the ONNX GridSample operator in WebAssembly).

/**
 * Loads a backend and starts its threads; gridSample() may be called once the promise resolves.
 * In Node.js on a platform the package has an addon for, the native backend (the C++ core
 * through Node-API); elsewhere, or where the addon does not load, the WebAssembly module, whose
 * .wasm beside the package's JS is read from disk (Node.js) or fetched relative to the module
 * (browsers, workers, bundlers). The instance is cached: later calls resolve at once (their
 * options are ignored) and concurrent calls share one load.
 */
export function init(options?: {
  /**
   * Where the file named `file` is: a URL, or a path in Node.js. Asked for "gridsample.wasm",
   * and in browsers with threads for "gridsample_thread.mjs" (a same-origin module script with
   * gridsample_glue.mjs beside it).
   */
  locateFile?: (file: string) => string;
  /** A module compiled beforehand (e.g. shared with a worker). */
  wasmModule?: WebAssembly.Module;
  /** The .wasm's bytes. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Threads, the calling one included: a whole number from 1 to 64. Default: every logical CPU
   * in Node.js; in browsers min(4, navigator.hardwareConcurrency). Where workers cannot share
   * memory (a page that is not cross-origin isolated, a runtime without SharedArrayBuffer or
   * Worker) the package runs on one thread, without an error.
   */
  numThreads?: number;
  /**
   * "native": the C++ core through Node-API, in Node.js on a platform the package has an addon
   * for (linux-x64, linux-arm64; glibc 2.34 or later), with the same API, results and errors,
   * several times as fast; "wasm": the WebAssembly module. By default native where its addon
   * loads, else wasm; locateFile, wasmModule or wasmBinary ask for wasm (with "native" they
   * are a TypeError). Native asked for where it is not available: init() rejects with an
   * Error saying why.
   */
  backend?: 'native' | 'wasm';
}): Promise<void>;

/**
 * The package's version, "MAJOR.MINOR.PATCH" (its package.json's), available before init(). The
 * C++ library of the same version has it as GRIDSAMPLE_VERSION_STRING; what a major, a minor
 * and a patch release may change is in the README, "Versions".
 */
export const version: string;

/**
 * The threads gridSample() may use: what init() started (1 where threads are unavailable), or 0
 * before init() resolves.
 */
export function numThreads(): number;

/** The backend init() loaded, "native" or "wasm"; null before init() resolves. */
export function backend(): 'native' | 'wasm' | null;

/** The tensor types (dist/ lists them from the core's registry, src/gridsample/dtypes.inc). */
export type DataType = /* @registry dtypes */ 'float32' | 'float64' | 'float16' | 'bfloat16' |
  'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'bool' |
  'complex64' | 'complex128' | 'string';

/**
 * Shaped like onnxruntime-web's Tensor, so an ort.Tensor can be passed as is. Without `type`,
 * the array says it: Float32Array float32, Float64Array float64, Int8Array int8, Uint8Array or
 * Uint8ClampedArray (a canvas's ImageData.data) uint8, Int16Array int16, Uint16Array uint16, Int32Array int32, Uint32Array uint32,
 * BigInt64Array int64, BigUint64Array uint64, string[] string. float16 and bfloat16 are
 * Uint16Array bits (or a Float16Array where the runtime has one), bool a Uint8Array,
 * complex64/complex128 interleaved Float32Array/Float64Array with dims not counting the pair.
 * Any view works: a subarray at any offset, over a SharedArrayBuffer or a resizable buffer, of
 * another realm. Inputs are only read (once, at the start of the call).
 */
export interface TensorLike {
  data: ArrayBufferView | readonly string[];
  dims: readonly number[];
  type?: DataType;
}

/** Other property names are a TypeError (a misspelt option is never silently ignored). */
export interface GridSampleOptions {
  /**
   * Default 'linear'; 'bilinear' and 'bicubic' are the opset-16 names (dist/ lists them from the
   * core's registry, src/gridsample/modes.inc).
   */
  mode?: /* @registry modes */ 'linear' | 'nearest' | 'cubic' | 'bilinear' | 'bicubic';
  /** Default 'zeros'. */
  paddingMode?: /* @registry paddings */ 'zeros' | 'border' | 'reflection';
  /** Default false. */
  alignCorners?: boolean | 0 | 1;
  /**
   * Where the channels sit in X and Y (the grid is the same): 'channels-first' (the default,
   * ONNX's: X (N, C, D1..Dr)) or 'channels-last' (X (N, D1..Dr, C), Y (N, D1_out..Dr_out, C):
   * interleaved pixels, such as an ImageData's RGBA bytes, dims [1, height, width, 4]).
   */
  layout?: 'channels-first' | 'channels-last';
  /**
   * Reuse an output buffer: an array of X's kind with exactly the output's length. It may be
   * X's or the grid's own memory (the inputs are copied before Y is written); it is left
   * untouched when the call throws.
   */
  out?: ArrayBufferView;
  /**
   * Threads for this call, at most, a whole number from 1: default, all of init()'s; more than
   * init() started are as many as it started. A call of more than 1 is also timed on 1 thread,
   * for calls like it, and runs there where that was faster. Results are the same, bit for
   * bit, for every count.
   */
  numThreads?: number;
}

/**
 * Y = GridSample(X, grid) as ONNX defines it. X is (N, C, D1..Dr), grid (N, D1_out..Dr_out, r)
 * of float32, float64, float16 or bfloat16; Y is (N, C, D1_out..Dr_out) of X's type, in X's kind
 * of array (a Uint8ClampedArray for a Uint8ClampedArray X, so that `new ImageData(y.data,
 * width, height)` takes a channels-last RGBA Y as it is). With layout 'channels-last', X is
 * (N, D1..Dr, C) and Y (N, D1_out..Dr_out, C).
 * Throws, naming the argument and the value: a TypeError for wrong JS types (not a tensor, an
 * array that does not hold `type`, an option of the wrong type or an unknown option name, a
 * detached buffer); a RangeError for bad shapes and values (the core's message) and for
 * tensors that do not fit the WebAssembly heap (2 GiB); an Error before init() resolves. The
 * heap is left as it was, so the next call works.
 */
export function gridSample(x: TensorLike, grid: TensorLike, options?: GridSampleOptions):
  { data: ArrayBufferView | string[]; dims: number[]; type: DataType };

/** Other property names are a TypeError (a misspelt option is never silently ignored). */
export interface AffineGridOptions {
  /**
   * Default false: -1 and 1 are the outer edges of the corner pixels; true: their centres. Pass
   * gridSample the same value to sample the pixels the grid names.
   */
  alignCorners?: boolean | 0 | 1;
}

/**
 * AffineGrid's `size`, the shape of the image the grid samples into: (N, C, H, W) for a 2-D grid,
 * (N, C, D, H, W) for a 3-D one, as numbers or bigints (safe integers, non-negative), a
 * BigInt64Array, or an int64 tensor such as the ort.Tensor an ONNX model takes.
 */
export type AffineGridSize = readonly (number | bigint)[] | BigInt64Array | TensorLike;

/**
 * grid = AffineGrid(theta, size) as ONNX (opset 20) defines it: for each of the N affine
 * matrices of theta, (N, 2, 3) or (N, 3, 4), the sampling grid (N, H, W, 2) or (N, D, H, W, 3)
 * of its map applied to the base coordinates of `size`, in theta's type (float32, float64,
 * float16 or bfloat16) and kind of array: ready for gridSample. Values are computed in float64
 * and rounded once. Throws as gridSample does; before init() resolves, an Error.
 */
export function affineGrid(theta: TensorLike, size: AffineGridSize, options?: AffineGridOptions):
  { data: ArrayBufferView; dims: number[]; type: 'float32' | 'float64' | 'float16' | 'bfloat16' };
