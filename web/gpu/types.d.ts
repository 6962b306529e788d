// Types of toGPU: the few members of WebGPU's GPUDevice it uses (so no WebGPU typings are
// needed; a GPUDevice from @webgpu/types fits), its options and the buffers it gives.
// Re-exported by web/index.d.ts.
import type { Dtype } from '../core/types.js';

/** The members of a WebGPU `GPUDevice` toGPU uses; pass a real GPUDevice. */
export interface GpuDeviceLike<Buffer extends GpuBufferLike = GpuBufferLike> {
  readonly limits: { readonly maxBufferSize: number; readonly maxStorageBufferBindingSize: number };
  readonly queue: {
    writeBuffer(buffer: Buffer, bufferOffset: number, data: Uint8Array, dataOffset?: number, size?: number): void;
    onSubmittedWorkDone(): Promise<unknown>;
  };
  readonly lost: Promise<{ reason?: string; message?: string }>;
  createBuffer(descriptor: { size: number; usage: number; label?: string }): Buffer;
  pushErrorScope(filter: 'validation' | 'out-of-memory'): void;
  popErrorScope(): Promise<{ message: string } | null>;
}

/** The members of a WebGPU `GPUBuffer` toGPU uses. */
export interface GpuBufferLike {
  readonly size: number;
  destroy(): void;
}

export interface ToGpuOptions {
  /** Tensors to upload, in this order (the Map's); default: every tensor, in file order. */
  names?: string[];
  /**
   * 'float32': what `getTensor(name, { as: 'float32' })` gives, bit for bit (F16, BF16, the F8
   * kinds and F4 converted by the WASM SIMD kernels on the way; F64 and integers rounded; F6
   * kinds refuse with "UnsupportedConversion"). 'native': the tensor's bytes as stored (F16
   * stays F16, for `shader-f16` or `unpack2x16float`), zero-padded to a multiple of 4 bytes.
   * Default, per tensor: 'float32' for float kinds (F16, BF16, F8, F4, F32, F64, C64), 'native'
   * for integers, BOOL (its bytes as stored, not normalized to 0/1) and the packed F6 kinds.
   */
  as?: 'float32' | 'native';
  /** GPUBufferUsage flags of every buffer; must include COPY_DST. Default STORAGE | COPY_DST. */
  usage?: number;
  /** Aborts at once; the buffers made so far are destroyed and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called after each chunk with bytes read from the file so far (over all tensors) and their total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** Bytes read (and converted) per step, the only tensor memory in the page; default 1,048,576. */
  chunkBytes?: number;
}

/** One tensor on the GPU. */
export interface GpuTensor<Buffer extends GpuBufferLike = GpuBufferLike> {
  buffer: Buffer;
  dtype: Dtype;
  shape: number[];
  /** What the buffer holds (see ToGpuOptions.as). */
  as: 'float32' | 'native';
  /** The buffer's size: float32, 4 bytes an element; native, the tensor's bytes padded to a multiple of 4. */
  byteLength: number;
  /**
   * The buffer is larger than the device's maxStorageBufferBindingSize (128 MiB by default):
   * bind it in parts (offset and size), or request a device with a higher limit.
   */
  overBindingLimit: boolean;
}

/** What uploads tensors to the GPU: a file, a sharded model, a pipeline's component. */
export interface GpuUploader {
  /**
   * Streams tensors into new GPU buffers, a chunk at a time (no tensor is ever whole in page
   * memory), and resolves once the queue has done the writes. Every tensor is checked before
   * any buffer is made: one over `device.limits.maxBufferSize` rejects the call with
   * SafetensorsError "TensorTooLarge" (naming the limit and the size). Also rejects with
   * "TensorNotFound", "UnsupportedConversion", "DeviceLost" (the device was lost before or
   * during the upload), "OutOfMemory" (the device could not make a buffer), "ReadError"; on
   * any rejection the buffers made so far are destroyed. In a dedicated Worker it works the
   * same, on the worker's own device.
   */
  toGPU<Buffer extends GpuBufferLike>(
    device: GpuDeviceLike<Buffer>,
    options?: ToGpuOptions,
  ): Promise<Map<string, GpuTensor<Buffer>>>;
}
