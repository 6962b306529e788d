// Every input kind becomes one interface: { size, read(offset, length) -> Uint8Array,
// chunks(offset, length) -> async iterable of Uint8Array }. Offsets are byte positions
// in the file as JS numbers (exact up to 2^53). A chunk is valid until its consumer asks
// for the next one (a Blob's chunks are views of reused buffers): consumers copy what they keep.
import { errorText, readError } from '../core/errors.js';
import { isNode } from '../core/platform.js';
import { fromUrl, isHttpUrl } from './http_source.js';

/** Bytes per read when streaming from sources that have no stream of their own. */
export const READ_CHUNK_BYTES = 4 << 20;

// Chunks through positional reads, the next read already under way while the
// consumer works on the current chunk (at most two chunks alive).
async function* readAhead(read, offset, length) {
  const end = offset + length;
  const next = (at) => (at < end ? read(at, Math.min(READ_CHUNK_BYTES, end - at)) : null);
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

function fromBytes(bytes) {
  return {
    size: bytes.byteLength,
    read: async (offset, length) => bytes.subarray(offset, offset + length),
    async* chunks(offset, length) {
      for (let at = offset; at < offset + length; at += READ_CHUNK_BYTES) {
        yield bytes.subarray(at, Math.min(at + READ_CHUNK_BYTES, offset + length));
      }
    },
  };
}

/**
 * Bytes per read of a Blob's stream where it takes a BYOB reader: each stream reads into two
 * buffers of this size (or of its length, if less), one being filled while the consumer works
 * on the other.
 */
export const BLOB_READ_BYTES = 2 << 20;

// The Blob slice, stream and reader of every BYOB read under way. Chromium 156 can leave such
// a read pending for good when they are collected while it waits: a page reading 300 fresh
// slices of a 32 MiB file hung in 5 of 10 runs, and in none of 8 while it held them
// (BENCHMARKS.md, "BYOB reads"). An entry leaves when its read settles, so a stream its
// consumer abandons holds nothing here.
const PENDING_READS = new Set();

/**
 * Whether Blob streams are read with a BYOB reader where they take one. In Chromium a BYOB
 * read into a reused buffer costs the page's thread about half the CPU of a default reader's
 * new chunk, time the conversion uses while the browser reads on; Node's BYOB reads copy
 * chunks that its default reader hands over as they are (decoding about 10% slower there).
 * See BENCHMARKS.md, "BYOB reads".
 */
const BYOB_READS = !isNode();

/**
 * The stream of `blob`'s bytes [offset, offset + length) as `next()` steps. With `byob`, and
 * where the stream takes a BYOB reader, it reads into two reused buffers: a chunk's buffer is
 * read into again once the consumer asks for the chunk after it.
 */
function blobSteps(blob, offset, length, useByob) {
  const slice = blob.slice(offset, offset + length);
  const stream = slice.stream();
  /** @type {ReadableStreamBYOBReader | null} */
  let byob = null;
  if (useByob) {
    try {
      byob = stream.getReader({ mode: 'byob' });
    } catch {
      // Not a byte stream here: a default reader, a new chunk per read.
    }
  }
  const reader = byob ?? stream.getReader();
  const size = Math.max(1, Math.min(BLOB_READ_BYTES, length));
  const held = { slice, stream, reader };
  return {
    /** @param {Uint8Array | null} last the chunk the consumer is done with (its buffer is reused) */
    next(last) {
      let step;
      if (byob) {
        // The consumer's last chunk's buffer, unless there is none yet (or it was transferred).
        const buffer = last && last.buffer.byteLength === size ? last.buffer : new ArrayBuffer(size);
        PENDING_READS.add(held);
        step = byob.read(new Uint8Array(buffer));
        step.then(() => PENDING_READS.delete(held), () => PENDING_READS.delete(held));
      } else step = /** @type {ReadableStreamDefaultReader<Uint8Array>} */ (reader).read();
      step.catch(() => {}); // handled where awaited; not unhandled if the consumer stops first
      return step;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/**
 * The chunks of `blob`'s bytes [offset, offset + length). blob.slice().stream() reads ahead
 * by itself and is the fastest way through a Blob in Chromium (see BENCHMARKS.md); a short
 * stream means the file changed under us. Exported for tests, which choose `byob`.
 */
export async function* blobChunks(blob, offset, length, byob = BYOB_READS) {
  let steps;
  try {
    steps = blobSteps(blob, offset, length, byob);
  } catch (cause) {
    throw readError(`could not read bytes ${offset} to ${offset + length} of the file: ${errorText(cause)}`, cause);
  }
  let received = 0;
  let finished = false;
  try {
    // One read always in flight, so the source reads the next chunk while this one converts.
    let pending = steps.next(null);
    let last = null;
    for (;;) {
      let step;
      try {
        step = await pending;
      } catch (cause) {
        throw readError(`reading the file failed at offset ${offset + received}: ${errorText(cause)}`, cause);
      }
      if (step.done) break;
      received += step.value.byteLength;
      if (received > length) break;
      pending = steps.next(last);
      last = step.value;
      yield step.value;
    }
    finished = true;
  } finally {
    if (!finished) steps.cancel();
  }
  if (received !== length) {
    throw readError(`the file returned ${received} of ${length} bytes at offset ${offset}; it changed size while being read`);
  }
}

function fromBlob(blob) {
  return {
    size: blob.size,
    async read(offset, length) {
      let buffer;
      try {
        buffer = await blob.slice(offset, offset + length).arrayBuffer();
      } catch (cause) {
        throw readError(`could not read bytes ${offset} to ${offset + length} of the file: ${errorText(cause)}`, cause);
      }
      if (buffer.byteLength !== length) {
        throw readError(`the file returned ${buffer.byteLength} of ${length} bytes at offset ${offset}; it changed size while being read`);
      }
      return new Uint8Array(buffer);
    },
    chunks: (offset, length) => blobChunks(blob, offset, length),
  };
}

async function fromFileHandle(handle) {
  let size;
  try {
    ({ size } = await handle.stat());
  } catch (cause) {
    throw readError(`could not stat the file: ${errorText(cause)}`, cause);
  }
  return {
    size,
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
          throw readError(`the file ended at offset ${offset + filled}, before the ${size} bytes it had when opened; it changed while being read`);
        }
        filled += bytesRead;
      }
      return out;
    },
  };
}

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
        throw readError(`source.read(${offset}, ${length}) must resolve to a Uint8Array of ${length} bytes, got ${describe(bytes)}`);
      }
      return bytes;
    },
  };
}

function describe(value) {
  if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
  return value === null ? 'null' : typeof value;
}

function isFileHandle(source) {
  return typeof source.fd === 'number' && typeof source.stat === 'function' && typeof source.read === 'function';
}

/**
 * Wraps a Blob/File, ArrayBuffer, typed array, Node FileHandle, http(s) URL or
 * { size, read(offset, length) } object as a byte source. Sources take an optional
 * AbortSignal as the last argument of read() and chunks() (only URLs use it).
 * @param {unknown} source
 * @param {Parameters<typeof fromUrl>[1]} [remote] options for URLs (fetch, headers, signal, firstRead)
 * @throws {TypeError} for anything else
 */
export async function toByteSource(source, remote = {}) {
  if (isHttpUrl(source)) return fromUrl(/** @type {string | URL} */ (source), remote);
  if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) {
    throw new TypeError(`expected an http:// or https:// URL, got ${JSON.stringify(String(source).slice(0, 100))} (read local files as a Blob, File or FileHandle)`);
  }
  if (source === null || (typeof source !== 'object' && typeof source !== 'function')) {
    throw new TypeError(`expected a Blob, File, ArrayBuffer, Uint8Array, FileHandle, http(s) URL or { size, read } source, got ${source === null ? 'null' : typeof source}`);
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) return fromBlob(source);
  if (source instanceof ArrayBuffer) return fromBytes(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) return fromBytes(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  const other = /** @type {any} */ (source);
  if (isFileHandle(other)) return fromFileHandle(other);
  if (typeof other.read === 'function' && 'size' in other) return fromReader(other);
  throw new TypeError('expected a Blob, File, ArrayBuffer, Uint8Array, FileHandle, http(s) URL or { size, read } source');
}
