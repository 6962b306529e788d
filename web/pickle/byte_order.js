// A checkpoint's storages in little-endian order, whatever machine wrote them. torch 2.x
// records the writer's sys.byteorder in the zip's `byteorder` record ("little" or "big", on
// s390x); torch.load refuses any other value, and byte-swaps every element of a "big" storage,
// each half of a complex on its own (pytorch/pytorch torch/serialization.py `_load`,
// torch/storage.py `byteswap`). A file without the record is little-endian. safetensors files
// are little-endian, so a big-endian checkpoint is read through a source that swaps its storages.
import { SafetensorsError } from '../core/errors.js';
import { READ_CHUNK_BYTES } from '../source/byte_source.js';

/** @typedef {import('../source/byte_source.js').ByteSource} ByteSource */
/** @typedef {{ offset: number, end: number, unit: number, stored: boolean }} SwapRegion */

/**
 * The bytes reversed as one unit: a torch dtype's element, or half of one for a complex dtype.
 * @param {string} torchDtype
 * @param {number} elementSize
 */
export function swapUnit(torchDtype, elementSize) {
  return torchDtype.startsWith('complex') ? Math.max(elementSize / 2, 1) : elementSize;
}

/**
 * `bytes` itself when the checkpoint is little-endian, else a source whose reads inside a
 * storage come back byte-swapped per element. Throws a typed error for a byte order torch.load
 * would refuse.
 * @param {ByteSource} bytes
 * @param {string | undefined} byteorder the `byteorder` record ("" when absent)
 * @param {{ storage: string, torchDtype: string, elementSize: number }[]} tensors
 * @param {{ key: string, offset: number, bytes: number, stored: boolean }[]} storages
 * @returns {ByteSource}
 */
export function littleEndianSource(bytes, byteorder, tensors, storages) {
  if (!byteorder || byteorder === 'little') return bytes;
  if (byteorder !== 'big') {
    throw new SafetensorsError(
      'InvalidTensor',
      `the checkpoint's byteorder record says ${JSON.stringify(byteorder)}; torch writes "little" or "big"`,
    );
  }
  const unitOf = new Map(tensors.map((t) => [t.storage, swapUnit(t.torchDtype, t.elementSize)]));
  /** @type {SwapRegion[]} */
  const regions = storages
    .filter((s) => (unitOf.get(s.key) ?? 1) > 1)
    .map((s) => ({
      offset: s.offset,
      end: s.offset + s.bytes,
      unit: /** @type {number} */ (unitOf.get(s.key)),
      stored: s.stored,
    }));
  return swappingSource(bytes, regions);
}

/**
 * @param {ByteSource} bytes
 * @param {SwapRegion[]} regions
 * @returns {ByteSource}
 */
function swappingSource(bytes, regions) {
  /** @type {ByteSource} */
  const source = {
    size: bytes.size,
    async read(offset, length, signal) {
      // Widened to whole units of every region it touches, swapped, then cut back.
      let from = offset;
      let to = offset + length;
      for (const r of regions) {
        if (r.end <= from || r.offset >= to) continue;
        if (!r.stored) {
          // Its elements are in the inflated bytes, not these: swapping them here would be wrong.
          throw new SafetensorsError(
            'UnsupportedConversion',
            'a big-endian checkpoint with deflated storages cannot be read: its elements would need swapping after inflating',
          );
        }
        if (from > r.offset) from = Math.max(r.offset, from - ((from - r.offset) % r.unit));
        if (to < r.end) to = Math.min(r.end, to + ((r.unit - ((to - r.offset) % r.unit)) % r.unit));
      }
      const data = (await bytes.read(from, to - from, signal)).slice();
      for (const r of regions) {
        const start = Math.max(r.offset, from);
        const stop = Math.min(r.end, to);
        for (let at = start; at + r.unit <= stop; at += r.unit) data.subarray(at - from, at - from + r.unit).reverse();
      }
      return data.subarray(offset - from, offset - from + length);
    },
    async *chunks(offset, length, signal) {
      for (let at = offset; at < offset + length; at += READ_CHUNK_BYTES) {
        yield await source.read(at, Math.min(READ_CHUNK_BYTES, offset + length - at), signal);
      }
    },
  };
  return source;
}
