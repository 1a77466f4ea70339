// The public API of gridsample/webgpu: GridSample on a WebGPU device (float32, channels-first).
/// <reference types="@webgpu/types" />

/** A tensor whose data are in a GPUBuffer, as onnxruntime-web's GPU tensors hold them. */
export interface GpuTensorLike {
  /**
   * The elements, row-major, from byte 0; the buffer may be larger. Its usage must include
   * GPUBufferUsage.STORAGE, and it must be unmapped when gridSample is called.
   */
  buffer: GPUBuffer;
  readonly dims: readonly number[];
  /** Only float32 yet: other types are a TypeError naming the CPU gridSample of 'gridsample'. */
  type: 'float32';
}

/**
 * An onnxruntime-web Tensor on the GPU, as it is (Tensor.fromGpuBuffer, or a session's output of
 * location 'gpu-buffer'): its gpuBuffer is read as the buffer. Another location is a TypeError.
 */
export interface OrtGpuTensorLike {
  readonly location: string;
  readonly gpuBuffer: GPUBuffer;
  readonly dims: readonly number[];
  /** Only "float32" yet, as for GpuTensorLike. */
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
  /** Only "channels-first" yet; "channels-last" is a RangeError. */
  layout?: 'channels-first' | 'channels-last';
  /**
   * Where Y goes: a buffer of at least Y's bytes, with STORAGE usage, other than X's and the
   * grid's. Default: a new buffer of usage STORAGE | COPY_SRC | COPY_DST.
   */
  out?: { buffer: GPUBuffer };
}

/**
 * Y = GridSample(X, grid) of docs/semantics.md, X (N, C, D1..Dr) with 1 to 5 spatial axes and the
 * grid (N, D1_out..Dr_out, r), both float32. Every argument is checked first (TypeError,
 * RangeError, the CPU API's messages where the rule is the same); then one compute pass is
 * submitted on device.queue and Y returned at once, ready for the GPU work queued after it.
 */
export function gridSample(x: GpuTensorLike | OrtGpuTensorLike,
                           grid: GpuTensorLike | OrtGpuTensorLike, options: GpuGridSampleOptions):
    { buffer: GPUBuffer; dims: number[]; type: 'float32' };
