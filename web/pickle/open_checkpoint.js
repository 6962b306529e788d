// openCheckpoint: a PyTorch checkpoint's tensors, read without running its pickle. The pickle
// module lists the tensor records (storage key, dtype, storage offset, shape, stride) and where
// each storage's bytes are in the file; getTensor reads those bytes by range, gathers a strided
// view's elements in row-major order, and decodes them as getTensor of a .safetensors file does
// (through a one-tensor file in memory, so every dtype decodes the same way).
import { SafetensorsError, tensorNotFound } from '../core/errors.js';
import { toByteSource } from '../source/byte_source.js';
import { serializeSafetensors } from '../write/writer.js';
import { openFile } from '../file/open_file.js';
import { fileName, runScan } from './scan_pickle.js';
import { checkpointToSafetensors } from './checkpoint_convert.js';
import { littleEndianSource } from './byte_order.js';
import { checkpointDescribe } from './checkpoint_card.js';
import { inflatedRange, readInflated } from './storage_inflate.js';
import { contiguous, gathered, viewSpan } from './strided_view.js';

/** @typedef {import('./types.js').CheckpointTensor} CheckpointTensor */
/** @typedef {import('./types.js').Checkpoint} Checkpoint */
/**
 * A storage's record in the file: `bytes` at `offset` (compressed when not `stored`), `size`
 * and `crc32` those of its inflated bytes (the zip directory's).
 * @typedef {{ key: string, offset: number, bytes: number, stored: boolean, size: number, crc32: number }} StorageRecord
 */
/** @typedef {import('./checkpoint_convert.js').LazyBytes} LazyBytes */

/** The most bytes one tensor is read into (a view with stride 0 can claim far more than its storage). */
const MAX_TENSOR_BYTES = 2 ** 31;

/** The prefix unwrapped, as HF's convert script, ComfyUI and kohya do (`ckpt["state_dict"]`). */
const STATE_DICT = 'state_dict.';

/**
 * The entries under `state_dict`, prefix dropped.
 * @template {{ name: string }} T
 * @param {T[]} list
 * @returns {T[]}
 */
const underStateDict = (list) =>
  list.filter((t) => t.name.startsWith(STATE_DICT)).map((t) => ({ ...t, name: t.name.slice(STATE_DICT.length) }));

/** Bytes per piece of a view gathered for writing (a stride-0 view may claim far more than its storage). */
const GATHER_PIECE_BYTES = 4 << 20;

/**
 * A tensor's bytes in row-major order, read by range from the storage's bytes in the file (a
 * deflated storage is inflated as a stream, and checked: storage_inflate.js).
 * @param {import('../source/byte_source.js').ByteSource} bytes
 * @param {any} t the tensor record
 * @param {StorageRecord | undefined} storage
 * @param {((start: number, end: number) => Uint8Array | Blob) | null} slice the source's own
 *   slices (a Blob's, bytes'), used for a contiguous view so that nothing is read or copied
 * @param {boolean} [lazy] a contiguous view's bytes may be given as chunks read when iterated
 * @returns {Promise<Uint8Array | Blob | LazyBytes>}
 */
export async function tensorBytes(bytes, t, storage, slice = null, lazy = false) {
  const fail = (/** @type {string} */ why) =>
    new SafetensorsError('InvalidTensor', `tensor ${JSON.stringify(t.name)} cannot be read: ${why}`, {
      tensor: t.name,
    });
  if (!storage) throw fail(`its storage ${JSON.stringify(t.storage)} is not in the file`);
  const whole = (/** @type {unknown[]} */ list) => list.every((n) => Number.isSafeInteger(n));
  if (!whole(t.shape) || !whole(t.stride) || t.shape.some((/** @type {number} */ n) => n < 0)) {
    throw fail(`its shape [${t.shape}] or stride [${t.stride}] is not one torch writes`);
  }
  const size = t.elementSize;
  const { low, high } = viewSpan(t.shape, t.stride);
  if (high < low) return new Uint8Array(0);
  const first = t.storageOffset + low;
  const end = (t.storageOffset + high + 1) * size;
  if (first < 0 || end > storage.size) {
    throw fail(`its view reaches past its storage's ${storage.size} bytes`);
  }
  const dense = contiguous(t.shape, t.stride);
  /** @type {() => AsyncIterable<Uint8Array>} the span's bytes, in chunks */
  const chunks = storage.stored
    ? () => bytes.chunks(storage.offset + first * size, end - first * size)
    : () => inflatedRange(bytes, storage, first * size, end, t.name);
  if (dense && storage.stored && slice) return slice(storage.offset + first * size, storage.offset + end);
  const spanBytes = end - first * size;
  const read = () =>
    storage.stored
      ? bytes.read(storage.offset + first * size, spanBytes)
      : readInflated(bytes, storage, first * size, end, t.name);
  const length = t.shape.reduce((/** @type {number} */ a, /** @type {number} */ b) => a * b, size);
  if (dense && lazy) return { size: spanBytes, [Symbol.asyncIterator]: () => chunks()[Symbol.asyncIterator]() };
  // Held in memory from here on: the span, and the view whole unless it is written in pieces.
  const over = Math.max(length, spanBytes);
  if (over > MAX_TENSOR_BYTES) {
    throw new SafetensorsError(
      'TensorTooLarge',
      `tensor ${JSON.stringify(t.name)} is a view of ${length} bytes over ${spanBytes} bytes of its storage, more than one array holds here (${MAX_TENSOR_BYTES})`,
      { tensor: t.name },
    );
  }
  if (lazy && !dense) {
    const pieces = async function* () {
      yield* gathered(await read(), -low, t.shape, t.stride, size, GATHER_PIECE_BYTES);
    };
    return { size: length, [Symbol.asyncIterator]: () => pieces() };
  }
  const span = await read();
  if (dense) return span;
  return gathered(span, -low, t.shape, t.stride, size, length).next().value ?? new Uint8Array(0);
}

/**
 * For the CLI's --verify (web/cli/convert.js): a checkpoint's tensor as row-major chunks, read
 * while iterated (a view gathered in pieces from its span), so that comparing costs at most one
 * view's span in memory.
 * @type {WeakMap<Checkpoint, (name: string) => Promise<AsyncIterable<Uint8Array>>>}
 */
export const tensorChunks = new WeakMap();

/**
 * Opens a PyTorch checkpoint (the torch zip or the legacy format) without running it: its scan
 * (format, verdict, globals, findings), its tensors, and getTensor.
 * @param {unknown} source a File/Blob, bytes, http(s) URL (read by Range) or Node path
 * @returns {Promise<Checkpoint>}
 */
export async function openCheckpoint(source) {
  const bytes = await toByteSource(source);
  const slice =
    typeof Blob !== 'undefined' && source instanceof Blob
      ? (/** @type {number} */ a, /** @type {number} */ b) => source.slice(a, b)
      : source instanceof Uint8Array
        ? (/** @type {number} */ a, /** @type {number} */ b) => source.subarray(a, b)
        : null;
  const {
    tensors: records,
    storages,
    objects,
    objectsLeftOut,
    byteorder,
    unreadTensors: unread,
    ...scan
  } = await runScan(bytes, fileName(source), true);
  // A big-endian checkpoint's storages are read swapped, so never as slices of the source.
  /** @type {import('../source/byte_source.js').ByteSource | undefined} */
  let ordered;
  const storageBytes = () => (ordered ??= littleEndianSource(bytes, byteorder, records, storages));
  const sourceSlice = byteorder === 'big' ? null : slice;
  /** @type {Map<string, StorageRecord>} */
  const byKey = new Map(storages.map((/** @type {StorageRecord} */ s) => [s.key, s]));
  // Every record, or only those under `state_dict` when any is (so too the tensors not read).
  const inner = underStateDict(/** @type {any[]} */ (records));
  const kept = inner.length ? inner : /** @type {any[]} */ (records);
  const byName = new Map(kept.map((t) => [t.name, t]));
  /** @type {CheckpointTensor[]} */
  const tensors = kept.map((t) => ({
    name: t.name,
    dtype: t.dtype,
    torchDtype: t.torchDtype,
    shape: t.shape,
    stride: t.stride,
    storage: t.storage,
    storageOffset: t.storageOffset,
  }));
  /** A tensor's record, checked: known, and of a dtype safetensors has. */
  const recordOf = (/** @type {string} */ name) => {
    const t = byName.get(name);
    if (!t) throw tensorNotFound(name, tensors, 'this checkpoint');
    if (!t.dtype) {
      throw new SafetensorsError(
        'UnsupportedConversion',
        `tensor ${JSON.stringify(name)} is torch.${t.torchDtype}, which safetensors has no dtype for`,
        { tensor: name },
      );
    }
    return t;
  };
  /** @type {Checkpoint} */
  const ckpt = {
    ...scan,
    tensors,
    objects,
    objectsLeftOut,
    unreadTensors: inner.length ? underStateDict(unread) : unread,
    async getTensor(name) {
      const t = recordOf(name);
      const data = /** @type {Uint8Array} */ (await tensorBytes(storageBytes(), t, byKey.get(t.storage)));
      const one = await serializeSafetensors([{ name, dtype: t.dtype, shape: t.shape, data }]);
      return (await openFile(one, {}, true)).getTensor(name);
    },
    describe: checkpointDescribe(tensors, objects),
    toSafetensors: /** @type {Checkpoint['toSafetensors']} */ (
      (/** @type {import('./types.js').CheckpointConvertOptions | undefined} */ options) =>
        checkpointToSafetensors(
          ckpt,
          (name) => {
            const t = recordOf(name);
            return tensorBytes(storageBytes(), t, byKey.get(t.storage), sourceSlice, true);
          },
          options,
        )
    ),
  };
  tensorChunks.set(ckpt, async (name) => {
    const t = recordOf(name);
    const part = await tensorBytes(storageBytes(), t, byKey.get(t.storage), null, true);
    if (!(part instanceof Uint8Array)) return /** @type {AsyncIterable<Uint8Array>} */ (part); // lazy: chunks or pieces
    return (async function* () {
      yield part;
    })();
  });
  return ckpt;
}
