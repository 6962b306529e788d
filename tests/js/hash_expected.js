// Shared by the hash tests: a crafted file of random tensor data, and what every hash of a file
// must be, worked out with node:crypto from the definitions (AutoV1's window, AutoV2, AutoV3).
import { createHash } from 'node:crypto';
import { AUTOV1_WINDOW } from '../../web/hashing/hash_pass.js';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A file of `n` random bytes of tensor data in three tensors (one empty), with metadata. */
export function craftedFile(n, metadata = null) {
  const data = pseudoRandomBytes(n, n);
  const third = Math.floor(n / 3 / 4) * 4;
  const tensors = [
    { name: 'a', dtype: 'F32', shape: [third / 4], data: data.subarray(0, third) },
    { name: 'empty', dtype: 'F16', shape: [0], data: new Uint8Array(0) },
    { name: 'b', dtype: 'U8', shape: [n - third], data: data.subarray(third) },
  ];
  return writeSafetensors(tensors, metadata);
}

/** What every hash of `file` must be, from node:crypto and the definitions. */
export function expected(file) {
  const dataStart = 8 + Number(new DataView(file.buffer, file.byteOffset).getBigUint64(0, true));
  const whole = sha256(file);
  const data = sha256(file.subarray(dataStart));
  const { offset, length } = AUTOV1_WINDOW;
  return {
    sha256: whole,
    autoV2: whole.slice(0, 10),
    autoV1: file.byteLength >= offset + length ? sha256(file.subarray(offset, offset + length)).slice(0, 8) : null,
    dataSha256: data,
    autoV3: data.slice(0, 12),
  };
}
