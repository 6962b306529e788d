// Types of writing .safetensors files. Re-exported by web/index.d.ts.
import type { Dtype } from '../core/types.js';

/** A tensor to write: `data` is a typed array of the dtype's own kind (Uint16Array for F16/BF16 bits), a Uint8Array of raw bytes, or a Blob. */
export interface TensorToWrite {
  dtype: Dtype;
  shape: number[];
  data: ArrayBufferView | Blob;
}
