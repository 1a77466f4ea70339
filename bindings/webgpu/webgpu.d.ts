// The public API of gridsample/webgpu: GridSample and AffineGrid on a WebGPU device.
/// <reference types="@webgpu/types" />

/**
 * The element types of X and Y on WebGPU: float32, float16 and bfloat16 (their bits, in float32
 * arithmetic as on the CPU: no device feature needed) within a stated bound of the CPU's,
 * integers and bool bit for bit the CPU's (docs/semantics.md). The others (float64, 32- and
 * 64-bit integers, complex, string) are a TypeError naming the CPU gridSample of 'gridsample'.
 */
export type GpuTensorType =
    'float32' | 'float16' | 'bfloat16' | 'uint8' | 'int8' | 'uint16' | 'int16' | 'bool';
/** The grid's types on WebGPU (a float64 grid is a TypeError naming the CPU gridSample). */
export type GpuGridType = 'float32' | 'float16' | 'bfloat16';

/**
 * A tensor whose data are in a GPUBuffer, as onnxruntime-web's GPU tensors hold them; T: its
 * types (a grid's: GpuGridType).
 */
export interface GpuTensorLike<T extends string = GpuTensorType> {
  /**
   * The elements, row-major, from byte 0, as the CPU API's typed array holds them (bool: one
   * byte each, any nonzero byte true); the buffer may be larger, and holds whole 4-byte words
   * (a binding's unit: 5 uint8 elements need a buffer of 8 bytes). Its usage must include
   * GPUBufferUsage.STORAGE, and it must be unmapped when gridSample is called.
   */
  buffer: GPUBuffer;
  readonly dims: readonly number[];
  type: T;
}

/**
 * An onnxruntime-web Tensor on the GPU, as it is (Tensor.fromGpuBuffer, or a session's output of
 * location 'gpu-buffer'): its gpuBuffer is read as the buffer. Another location is a TypeError.
 */
export interface OrtGpuTensorLike {
  readonly location: string;
  readonly gpuBuffer: GPUBuffer;
  readonly dims: readonly number[];
  /** A GpuTensorType (or GpuGridType for the grid), as for GpuTensorLike. */
  readonly type: string;
}

export interface GpuGridSampleOptions {
  /** The device of the buffers, on whose queue the pass is submitted. */
  device: GPUDevice;
  /** Interpolation (opset 16's names too). Default "linear". */
  mode?: 'linear' | 'nearest' | 'cubic' | 'bilinear' | 'bicubic';
  /** Values outside X. Default "zeros". */
  paddingMode?: 'zeros' | 'border' | 'reflection';
  /** Default false. */
  alignCorners?: boolean | 0 | 1;
  /**
   * "channels-first" (ONNX's, the default) or "channels-last": X (N, D1..Dr, C) and Y
   * (N, D1_out..Dr_out, C), such as a canvas's RGBA bytes (1, H, W, 4) of uint8.
   */
  layout?: 'channels-first' | 'channels-last';
  /**
   * Where Y goes: a buffer of at least Y's bytes rounded up to whole 4-byte words, with STORAGE
   * usage, other than X's and the grid's; the bytes past Y are left as they are. Default: a new
   * buffer of usage STORAGE | COPY_SRC | COPY_DST.
   */
  out?: { buffer: GPUBuffer };
}

/**
 * Y = GridSample(X, grid) of docs/semantics.md, X (N, C, D1..Dr) with 1 to 5 spatial axes and the
 * grid (N, D1_out..Dr_out, r), or channels-last (options.layout); Y has X's type. Every argument
 * is checked first (TypeError, RangeError, the CPU API's messages where the rule is the same);
 * then one compute pass is submitted on device.queue and Y returned at once, ready for the GPU
 * work queued after it.
 */
export function gridSample(x: GpuTensorLike | OrtGpuTensorLike,
                           grid: GpuTensorLike<GpuGridType> | OrtGpuTensorLike,
                           options: GpuGridSampleOptions):
    { buffer: GPUBuffer; dims: number[]; type: GpuTensorType };

/**
 * affineGrid's size, (N, C, H, W) or (N, C, D, H, W), in the forms the CPU affineGrid takes (its
 * AffineGridSize): integers, a BigInt64Array, or an int64 tensor on the CPU.
 */
export type GpuAffineGridSize = readonly (number | bigint)[] | BigInt64Array | {
  readonly data: readonly (number | bigint)[] | BigInt64Array;
  readonly dims?: readonly number[];
  readonly type?: 'int64';
};

export interface GpuAffineGridOptions {
  /** The device of theta's buffer, on whose queue the pass is submitted. */
  device: GPUDevice;
  /** Default false. */
  alignCorners?: boolean | 0 | 1;
  /**
   * Where the grid goes: a buffer of at least its bytes rounded up to whole 4-byte words, with
   * STORAGE usage, other than theta's. Default: a new buffer of usage STORAGE | COPY_SRC |
   * COPY_DST.
   */
  out?: { buffer: GPUBuffer };
}

/**
 * grid = AffineGrid(theta, size) as the CPU affineGrid of 'gridsample' computes it, bit for bit:
 * theta (N, 2, 3) or (N, 3, 4) in a GPUBuffer, of float32, float16 or bfloat16 (float64 is a
 * TypeError naming the CPU affineGrid); `size` as the CPU affineGrid takes it, on the CPU. The
 * grid (N, H, W, 2) or (N, D, H, W, 3), in theta's type, is computed in float64 (emulated in u32
 * arithmetic, as WGSL has no float64) and rounded once, ready for gridSample. Checks and returns
 * as gridSample does.
 */
export function affineGrid(theta: GpuTensorLike<GpuGridType> | OrtGpuTensorLike,
                           size: GpuAffineGridSize, options: GpuAffineGridOptions):
    { buffer: GPUBuffer; dims: number[]; type: GpuGridType };
