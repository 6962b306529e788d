// diff's data comparison of small tensors, many at a time: each side reads a batch's bytes as
// one range per stretch of (nearly) adjacent tensors, and the tensors are compared in place;
// only those whose bytes differ get arrays, two hashes and an element-by-element comparison.
// A stream and two hashes per tensor cost over half a millisecond each, and an array per
// tensor of both files cost more than the rest of diff: a million one-byte tensors took minutes.
import { newSha256 } from '../hashing/sha256_lane.js';
import { dataReaderOf } from '../file/data_range.js';
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
 * Whether a small tensor still fits in a batch of `count` tensors and `bytes` bytes.
 * @param {number} count
 * @param {number} bytes
 * @param {{ byteLength: number }} tensor
 */
export function fitsBatch(count, bytes, tensor) {
  return count < BATCH_TENSORS && bytes + tensor.byteLength <= BATCH_BYTES;
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

/** Tensors of one side this close (in bytes) are read as one range, the bytes between them too. */
const SPAN_GAP_BYTES = 64 << 10;

/**
 * One side's bytes of a batch in one array: tensor i's are at `at[i]`, `tensors[i].byteLength` long.
 * Files opened here read a range per stretch of tensors; other checkpoints go through getTensors.
 * @param {BatchSide} side
 * @param {import('../index.js').TensorInfo[]} tensors this side's entries, in batch order
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<{ bytes: Uint8Array, at: Float64Array }>}
 */
async function sideBytes(side, tensors, signal) {
  const at = new Float64Array(tensors.length);
  const read = dataReaderOf(side);
  if (read === null) {
    const arrays = await side.getTensors(
      tensors.map((t) => t.name),
      { as: 'raw', signal },
    );
    const bytes = new Uint8Array(tensors.reduce((sum, t) => sum + t.byteLength, 0));
    let end = 0;
    tensors.forEach((t, i) => {
      bytes.set(/** @type {Uint8Array} */ (arrays.get(t.name)), end); // getTensors answers every name
      at[i] = end;
      end += t.byteLength;
    });
    return { bytes, at };
  }
  const order = tensors.map((_, i) => i).sort((i, j) => tensors[i].dataOffsets[0] - tensors[j].dataOffsets[0]);
  /** @type {{ begin: number, end: number, to: number }[]} `to`: where the span starts in the result */
  const spans = [];
  let size = 0;
  for (const i of order) {
    const [begin, end] = tensors[i].dataOffsets;
    let span = spans.at(-1);
    if (span === undefined || begin > span.end + SPAN_GAP_BYTES) {
      span = { begin, end, to: size };
      spans.push(span);
    } else span.end = Math.max(span.end, end);
    size = span.to + (span.end - span.begin);
    at[i] = span.to + (begin - span.begin);
  }
  if (spans.length === 1) return { bytes: await read(spans[0].begin, spans[0].end, signal), at };
  const bytes = new Uint8Array(size);
  for (const span of spans) bytes.set(await read(span.begin, span.end, signal), span.to);
  return { bytes, at };
}

/**
 * Whether x[i, i + n) and y[j, j + n) hold the same bytes.
 * @param {Uint8Array} x
 * @param {number} i
 * @param {Uint8Array} y
 * @param {number} j
 * @param {number} n
 */
function sameStretch(x, i, y, j, n) {
  if (n > 64) return sameBytes(x.subarray(i, i + n), y.subarray(j, j + n));
  for (let k = 0; k < n; k++) if (x[i + k] !== y[j + k]) return false;
  return true;
}

/**
 * The data diff of each tensor of a batch (null where the bytes are equal), in its order.
 * @param {BatchSide} a
 * @param {BatchSide} b
 * @param {import('../index.js').TensorInfo[]} lefts the batch's tensors in a
 * @param {import('../index.js').TensorInfo[]} rights the same tensors in b (same dtype and shape)
 * @param {(dtype: string) => string} storageOf a dtype's storage (the core's dtype table)
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<(import('../index.js').DiffData | null)[]>}
 */
export async function batchDataDiff(a, b, lefts, rights, storageOf, signal) {
  const [xs, ys] = await Promise.all([sideBytes(a, lefts, signal), sideBytes(b, rights, signal)]);
  /** @type {import('../hashing/sha256.js').Sha256 | null} */
  let hasher = null;
  /** @type {(import('../index.js').DiffData | null)[]} */
  const out = new Array(lefts.length).fill(null);
  for (let i = 0; i < lefts.length; i++) {
    const tensor = lefts[i];
    const n = tensor.byteLength;
    if (sameStretch(xs.bytes, xs.at[i], ys.bytes, ys.at[i], n)) continue;
    const x = xs.bytes.subarray(xs.at[i], xs.at[i] + n);
    const y = ys.bytes.subarray(ys.at[i], ys.at[i] + n);
    hasher ??= await newSha256();
    hasher.update(x);
    const left = hasher.digest();
    hasher.update(y);
    /** @type {[string, string]} */
    const sha256 = [left, hasher.digest()];
    const storage = storageOf(tensor.dtype);
    if (!FLOAT_STORAGES.has(storage)) {
      out[i] = { equal: false, sha256, maxAbsDiff: null, differentElements: null };
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
    out[i] = { equal: false, sha256, ...values.result() };
  }
  return out;
}
