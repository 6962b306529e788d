// Raw bytes of a stretch of an opened file's data section, for diff's batched data comparison
// (many small tensors read as one range). Kept off the public SafetensorsFile: a WeakMap keyed
// by the file object, filled by openFile; other checkpoints (sharded, remote) have none.

/** @typedef {(begin: number, end: number, signal?: AbortSignal) => Promise<Uint8Array>} DataReader */

/** @type {WeakMap<object, DataReader>} */
const readers = new WeakMap();

/**
 * @param {object} file an opened file
 * @param {DataReader} read bytes [begin, end) of its data section (offsets as in dataOffsets)
 */
export function setDataReader(file, read) {
  readers.set(file, read);
}

/**
 * The data reader of `side`, or null when it is not a file opened here.
 * @param {unknown} side
 * @returns {DataReader | null}
 */
export function dataReaderOf(side) {
  return (typeof side === 'object' && side !== null && readers.get(side)) || null;
}
