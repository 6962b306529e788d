// Types of tensors and of reading them: their facts, the arrays each dtype gives, read options,
// and the data scan's results. Re-exported by web/index.d.ts.
import type { Dtype, SafetensorsError } from '../core/types.js';

export interface TensorInfo {
  name: string;
  dtype: Dtype;
  /** Dimensions; [] for a scalar. A dimension above 2^53-1 (possible only when another is 0) is rounded: see exactShape. */
  shape: number[];
  /** Present only when a dimension is above 2^53-1: the exact shape. */
  exactShape?: bigint[];
  /** [begin, end) relative to dataStart. */
  dataOffsets: [number, number];
  byteLength: number;
}

/** What getTensor returns for each dtype with `as: 'native'` (the default). */
export interface NativeArrays {
  F32: Float32Array;
  F64: Float64Array;
  I8: Int8Array;
  U8: Uint8Array;
  BOOL: Uint8Array;
  I16: Int16Array;
  U16: Uint16Array;
  I32: Int32Array;
  U32: Uint32Array;
  I64: BigInt64Array;
  U64: BigUint64Array;
  /** Interleaved real, imaginary. */
  C64: Float32Array;
  F16: Float32Array;
  BF16: Float32Array;
  F8_E5M2: Float32Array;
  F8_E4M3: Float32Array;
  F8_E8M0: Float32Array;
  F8_E4M3FNUZ: Float32Array;
  F8_E5M2FNUZ: Float32Array;
  /** Two values per byte, first in the low nibble. */
  F4: Float32Array;
  /** The packed bytes: 6-bit floats have no conversion here. */
  F6_E2M3: Uint8Array;
  F6_E3M2: Uint8Array;
}

/** Any array getTensor can return. */
export type TensorArray = NativeArrays[Dtype];

export interface GetTensorOptions<As extends 'native' | 'float32' | 'raw' = 'native' | 'float32' | 'raw'> {
  /**
   * 'native' (default): the dtype's own array, or Float32Array for small floats and C64;
   * 'float32': a Float32Array for every dtype (F64 and 32/64-bit integers rounded to nearest
   * even; F6 kinds refuse with code "UnsupportedConversion"); 'raw': the bytes.
   */
  as?: As;
  /**
   * [start, end): only these indices of the first dimension; only their bytes are read.
   * TypeError when not two integers; RangeError when outside the tensor, on a scalar, or
   * splitting a byte (F4, F6).
   */
  rows?: [number, number];
  /** Aborts at once, even while a read is pending; the promise rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  /** Called after each chunk with bytes read so far and the total; the last call has done === total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** An array of the result's type and at least its length to fill instead of allocating; a view of it is returned. */
  into?: TensorArray;
}

/** What reads tensors: a file, or a sharded model. */
export interface TensorReader {
  /**
   * Reads one tensor (or `rows` of it) into a typed array, streaming only its bytes through a
   * bounded buffer. Rejects with SafetensorsError: "TensorNotFound", "TensorTooLarge" (more than
   * one array can hold: use rows), "UnsupportedConversion", "ReadError", "OutOfMemory",
   * "InternalError"; TypeError or RangeError for bad options (see GetTensorOptions.rows).
   */
  getTensor(name: string, options?: GetTensorOptions<'native'>): Promise<TensorArray>;
  getTensor(name: string, options: GetTensorOptions<'float32'>): Promise<Float32Array>;
  getTensor(name: string, options: GetTensorOptions<'raw'>): Promise<Uint8Array>;
  getTensor(name: string, options?: GetTensorOptions): Promise<TensorArray>;
  /**
   * Many tensors (every one without `names`) in one pass: the chosen tensors are read in file
   * order, adjacent ones as one stream (runs of up to 16 MiB), `concurrency` runs at a time
   * (default 4). The Map follows the order of `names` (else the file's). Same `as` and errors as
   * getTensor; `onProgress` counts bytes read over all of them.
   */
  /**
   * One tensor (or `rows` of it) as converted pieces, read and converted a chunk at a time
   * (`chunkBytes` of input, default 1 MiB): `offset` is the index of `values[0]` in the whole
   * tensor. `values` is a view on one reused array, valid until the next step: copy (`slice()`) or upload it before
   * continuing, and never transfer its buffer. Peak memory is one chunk, so tensors larger than
   * any array stream too.
   * Same `as`, `rows` and errors as getTensor. Finish or `break` the loop: that frees its buffers.
   */
  streamTensor(
    name: string,
    options?: StreamTensorOptions<'native'>,
  ): AsyncGenerator<{ offset: number; values: TensorArray }, void, undefined>;
  streamTensor(
    name: string,
    options: StreamTensorOptions<'float32'>,
  ): AsyncGenerator<{ offset: number; values: Float32Array }, void, undefined>;
  streamTensor(
    name: string,
    options: StreamTensorOptions<'raw'>,
  ): AsyncGenerator<{ offset: number; values: Uint8Array }, void, undefined>;
  streamTensor(
    name: string,
    options?: StreamTensorOptions,
  ): AsyncGenerator<{ offset: number; values: TensorArray }, void, undefined>;
  getTensors(names?: string[], options?: GetTensorsOptions<'native'>): Promise<Map<string, TensorArray>>;
  getTensors(names: string[] | undefined, options: GetTensorsOptions<'float32'>): Promise<Map<string, Float32Array>>;
  getTensors(names: string[] | undefined, options: GetTensorsOptions<'raw'>): Promise<Map<string, Uint8Array>>;
  getTensors(names?: string[], options?: GetTensorsOptions): Promise<Map<string, TensorArray>>;
}

export interface StreamTensorOptions<As extends 'native' | 'float32' | 'raw' = 'native' | 'float32' | 'raw'> {
  as?: As;
  rows?: [number, number];
  /** Input bytes per piece (default 1,048,576). */
  chunkBytes?: number;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface GetTensorsOptions<As extends 'native' | 'float32' | 'raw' = 'native' | 'float32' | 'raw'> {
  as?: As;
  /** Runs (or, in a sharded model, shards) read at once; default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** What the data scan found in one tensor. */
export interface TensorScan {
  name: string;
  dtype: Dtype;
  /** NaN values (C64: per component); 0 for integer, BOOL and F6 kinds. */
  nan: number;
  posInf: number;
  negInf: number;
  /** Every value is ±0 (false for empty tensors; NaN and infinities are not zero). */
  allZero: boolean;
}

export interface DataScan {
  /** Bytes of tensor data read. */
  bytes: number;
  /** One entry per tensor, in data order. */
  tensors: TensorScan[];
}
