// diff's data comparison of small tensors, many at a time: each side reads a batch with one
// getTensors (runs of adjacent tensors as one read each), and only the tensors whose bytes
// differ are hashed and compared element by element. A stream and two hashes per tensor cost
// over half a millisecond each: a million one-byte tensors took minutes.
import { newSha256 } from '../hashing/sha256_lane.js';
import { elementDiff, sameBytes } from './lockstep.js';

/** Storages whose values diff compares as numbers: floats, read as float32 or float64. */
export const FLOAT_STORAGES = new Map([
  ['Float32', 'native'],
  ['Float64', 'native'],
  ['narrow-float', 'float32'],
]);

/** Tensors of at most this many bytes are compared in batches. */
export const BATCH_TENSOR_BYTES = 1 << 20;
/** A batch ends once it holds this many bytes (per side) or this many tensors. */
export const BATCH_BYTES = 16 << 20;
export const BATCH_TENSORS = 1 << 16;

/** @typedef {import('./diff.js').Checkpoint & Pick<import('../index.js').TensorReader, 'getTensors' | 'getTensor'>} BatchSide */

/**
 * Whether a small tensor still fits in the batch `batch`.
 * @param {unknown[]} batch
 * @param {number} bytes the batch's bytes so far
 * @param {{ byteLength: number }} tensor
 */
export function fitsBatch(batch, bytes, tensor) {
  return batch.length < BATCH_TENSORS && bytes + tensor.byteLength <= BATCH_BYTES;
}

/**
 * A view of `bytes` as float values (a copy when they are not aligned for the array).
 * @param {Uint8Array} bytes
 * @param {Float32ArrayConstructor | Float64ArrayConstructor} ArrayType
 */
function floatsOf(bytes, ArrayType) {
  const aligned = bytes.byteOffset % ArrayType.BYTES_PER_ELEMENT === 0 ? bytes : bytes.slice();
  return new ArrayType(
    /** @type {ArrayBuffer} */ (aligned.buffer),
    aligned.byteOffset,
    aligned.byteLength / ArrayType.BYTES_PER_ELEMENT,
  );
}

/**
 * The data diff of each tensor of `batch` (null where the bytes are equal), in its order.
 * @param {BatchSide} a
 * @param {BatchSide} b
 * @param {import('../index.js').TensorInfo[]} batch same dtype and shape on both sides
 * @param {(dtype: string) => string} storageOf a dtype's storage (the core's dtype table)
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<(import('../index.js').DiffData | null)[]>}
 */
export async function batchDataDiff(a, b, batch, storageOf, signal) {
  const names = batch.map((t) => t.name);
  const [xs, ys] = await Promise.all([
    a.getTensors(names, { as: 'raw', signal }),
    b.getTensors(names, { as: 'raw', signal }),
  ]);
  /** @type {import('../hashing/sha256.js').Sha256 | null} */
  let hasher = null;
  const out = [];
  for (const tensor of batch) {
    const x = /** @type {Uint8Array} */ (xs.get(tensor.name)); // getTensors answers every name
    const y = /** @type {Uint8Array} */ (ys.get(tensor.name));
    if (sameBytes(x, y)) {
      out.push(null);
      continue;
    }
    hasher ??= await newSha256();
    hasher.update(x);
    const left = hasher.digest();
    hasher.update(y);
    /** @type {[string, string]} */
    const sha256 = [left, hasher.digest()];
    const storage = storageOf(tensor.dtype);
    if (!FLOAT_STORAGES.has(storage)) {
      out.push({ equal: /** @type {const} */ (false), sha256, maxAbsDiff: null, differentElements: null });
      continue;
    }
    const values = elementDiff();
    if (storage === 'Float32' || storage === 'Float64') {
      const ArrayType = storage === 'Float64' ? Float64Array : Float32Array;
      values.add(floatsOf(x, ArrayType), floatsOf(y, ArrayType));
    } else {
      const [fx, fy] = await Promise.all([
        a.getTensor(tensor.name, { as: 'float32', signal }),
        b.getTensor(tensor.name, { as: 'float32', signal }),
      ]);
      values.add(/** @type {Float32Array} */ (fx), /** @type {Float32Array} */ (fy));
    }
    out.push({ equal: /** @type {const} */ (false), sha256, ...values.result() });
  }
  return out;
}
