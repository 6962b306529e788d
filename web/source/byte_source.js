// Every input kind becomes one interface: { size, read(offset, length) -> Uint8Array,
// chunks(offset, length) -> async iterable of Uint8Array }. Offsets are byte positions
// in the file as JS numbers (exact up to 2^53). A chunk is valid until its consumer asks
// for the next one (a Blob's chunks are views of reused buffers): consumers copy what they keep.
import { errorText, readError } from '../core/errors.js';
import { fromUrl, isHttpUrl } from './http_source.js';
import { fromBlob } from './blob_source.js';
import { isNode } from '../core/platform.js';
import { nodeFiles } from './node_import.js';

/**
 * A source as every reader sees it (toByteSource's result). `read` resolves to exactly
 * `length` bytes; `chunks` yields them in order. Only URLs use `signal`.
 * @typedef {object} ByteSource
 * @property {number} size
 * @property {(offset: number, length: number, signal?: AbortSignal) => Promise<Uint8Array>} read
 * @property {(offset: number, length: number, signal?: AbortSignal) => AsyncIterable<Uint8Array>} chunks
 */
/** @typedef {import('../index.js').ByteReader} ByteReader */
/** @typedef {import('../index.js').FileHandleLike} FileHandleLike */

/** Bytes per read when streaming from sources that have no stream of their own. */
export const READ_CHUNK_BYTES = 4 << 20;

/**
 * Chunks through positional reads, the next read already under way while the consumer works
 * on the current chunk (at most two chunks alive).
 * @param {(offset: number, length: number) => Promise<Uint8Array>} read
 * @param {number} offset
 * @param {number} length
 */
async function* readAhead(read, offset, length) {
  const end = offset + length;
  const next = (/** @type {number} */ at) => (at < end ? read(at, Math.min(READ_CHUNK_BYTES, end - at)) : null);
  let pending = next(offset);
  for (let at = offset; pending !== null;) {
    const chunk = await pending;
    at += chunk.byteLength;
    pending = next(at);
    // A read we no longer wait for must not reject unhandled if the consumer stops.
    pending?.catch(() => {});
    yield chunk;
  }
}

/**
 * @param {Uint8Array} bytes
 * @returns {ByteSource}
 */
function fromBytes(bytes) {
  return {
    size: bytes.byteLength,
    read: async (offset, length) => bytes.subarray(offset, offset + length),
    async *chunks(offset, length) {
      for (let at = offset; at < offset + length; at += READ_CHUNK_BYTES) {
        yield bytes.subarray(at, Math.min(at + READ_CHUNK_BYTES, offset + length));
      }
    },
  };
}

/**
 * @param {FileHandleLike} handle
 * @returns {Promise<ByteSource>}
 */
async function fromFileHandle(handle) {
  let size;
  try {
    ({ size } = await handle.stat());
  } catch (cause) {
    throw readError(`could not stat the file: ${errorText(cause)}`, cause);
  }
  return {
    size,
    /** @this {ByteSource} */
    chunks(offset, length) {
      return readAhead((at, n) => this.read(at, n), offset, length);
    },
    async read(offset, length) {
      const out = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        let bytesRead;
        try {
          ({ bytesRead } = await handle.read(out, filled, length - filled, offset + filled));
        } catch (cause) {
          throw readError(`could not read at offset ${offset + filled}: ${errorText(cause)}`, cause);
        }
        if (bytesRead === 0) {
          throw readError(
            `the file ended at offset ${offset + filled}, before the ${size} bytes it had when opened; it changed while being read`,
          );
        }
        filled += bytesRead;
      }
      return out;
    },
  };
}

/**
 * @param {ByteReader} source
 * @returns {ByteSource}
 */
function fromReader(source) {
  const { size } = source;
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new TypeError(`source.size must be a non-negative safe integer, got ${size}`);
  }
  return {
    size,
    chunks(offset, length) {
      return readAhead((at, n) => this.read(at, n), offset, length);
    },
    async read(offset, length) {
      let bytes;
      try {
        bytes = await source.read(offset, length);
      } catch (cause) {
        throw readError(`source.read(${offset}, ${length}) failed: ${errorText(cause)}`, cause);
      }
      if (!(bytes instanceof Uint8Array) || bytes.byteLength !== length) {
        throw readError(
          `source.read(${offset}, ${length}) must resolve to a Uint8Array of ${length} bytes, got ${describe(bytes)}`,
        );
      }
      return bytes;
    },
  };
}

/** @param {unknown} value what a source's read resolved to */
function describe(value) {
  if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
  return value === null ? 'null' : typeof value;
}

/**
 * Node: a path, or a file: URL (string or URL), read through node_files.js (a variable
 * specifier keeps bundlers from following it into node:fs). The file is opened for each read:
 * nothing is left open, so nothing needs closing.
 * @param {string | URL} location
 * @returns {Promise<ByteSource>}
 */
async function fromPath(location) {
  const node = await nodeFiles();
  const text = String(location);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !text.startsWith('file:'))
    throw new TypeError(`expected a path, a file: URL or an http(s) URL, got ${JSON.stringify(text.slice(0, 100))}`);
  const path = text.startsWith('file:') ? node.fileURLToPath(text) : text;
  let reader;
  try {
    reader = await node.pathSource(path);
  } catch (cause) {
    throw readError(`cannot read ${path}: ${errorText(cause)}`, cause);
  }
  const { size, read } = reader;
  return { size, read, chunks: (offset, length) => readAhead(read, offset, length) };
}

/**
 * @param {{ fd?: unknown, stat?: unknown, read?: unknown }} source
 * @returns {source is FileHandleLike}
 */
function isFileHandle(source) {
  return typeof source.fd === 'number' && typeof source.stat === 'function' && typeof source.read === 'function';
}

/**
 * Wraps a Blob/File, ArrayBuffer, typed array, Node FileHandle, http(s) URL, Node path (or
 * file: URL) or { size, read(offset, length) } object as a byte source. Sources take an optional
 * AbortSignal as the last argument of read() and chunks() (only URLs use it).
 * @param {unknown} source
 * @param {Parameters<typeof fromUrl>[1]} [remote] options for URLs (fetch, headers, signal, firstRead)
 * @returns {Promise<ByteSource>}
 * @throws {TypeError} for anything else
 */
export async function toByteSource(source, remote = {}) {
  if (isHttpUrl(source)) return fromUrl(/** @type {string | URL} */ (source), remote);
  if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) {
    if (isNode()) return fromPath(source);
    throw new TypeError(
      `expected an http:// or https:// URL, got ${JSON.stringify(String(source).slice(0, 100))} (read local files as a Blob or File)`,
    );
  }
  if (source === null || (typeof source !== 'object' && typeof source !== 'function')) {
    throw new TypeError(
      `expected a Blob, File, ArrayBuffer, Uint8Array, FileHandle, path (Node), http(s) URL or { size, read } source, got ${source === null ? 'null' : typeof source}`,
    );
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) return fromBlob(source);
  if (source instanceof ArrayBuffer) return fromBytes(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) return fromBytes(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  const other = /** @type {any} */ (source); // any: an object of the caller's, its fields tested one by one
  if (isFileHandle(other)) return fromFileHandle(other);
  if (typeof other.read === 'function' && 'size' in other) return fromReader(other);
  throw new TypeError(
    'expected a Blob, File, ArrayBuffer, Uint8Array, FileHandle, path (Node), http(s) URL or { size, read } source',
  );
}
