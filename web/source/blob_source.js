// A Blob or File as a byte source: positional reads through slice().arrayBuffer(), chunks
// through its stream, in browsers with a BYOB reader into two reused buffers.
import { errorText, readError } from '../core/errors.js';
import { isNode } from '../core/platform.js';

/**
 * Bytes per read of a Blob's stream where it takes a BYOB reader: each stream reads into two
 * buffers of this size (or of its length, if less), one being filled while the consumer works
 * on the other.
 */
export const BLOB_READ_BYTES = 2 << 20;

// The Blob slice, stream and reader of every BYOB read under way. Chromium 156 can leave such
// a read pending for good when they are collected while it waits: a page reading 300 fresh
// slices of a 32 MiB file hung in 5 of 10 runs, and in none of 8 while it held them
// (BENCHMARKS.md, "Decoding tensors"). An entry leaves when its read settles, so a stream its
// consumer abandons holds nothing here.
const PENDING_READS = new Set();

/**
 * Whether Blob streams are read with a BYOB reader where they take one. In Chromium a BYOB
 * read into a reused buffer costs the page's thread about half the CPU of a default reader's
 * new chunk, time the conversion uses while the browser reads on; Node's BYOB reads copy
 * chunks that its default reader hands over as they are (decoding about 10% slower there).
 * See BENCHMARKS.md, "Decoding tensors".
 */
const BYOB_READS = !isNode();

/**
 * The stream of `blob`'s bytes [offset, offset + length) as `next()` steps. With `byob`, and
 * where the stream takes a BYOB reader, it reads into two reused buffers: a chunk's buffer is
 * read into again once the consumer asks for the chunk after it.
 * @param {Blob} blob
 * @param {number} offset
 * @param {number} length
 * @param {boolean} useByob
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
        step.then(
          () => PENDING_READS.delete(held),
          () => PENDING_READS.delete(held),
        );
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
 * @param {Blob} blob
 * @param {number} offset
 * @param {number} length
 * @returns {AsyncGenerator<Uint8Array, void, undefined>}
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
    throw readError(
      `the file returned ${received} of ${length} bytes at offset ${offset}; it changed size while being read`,
    );
  }
}

/**
 * A Blob or File as a byte source.
 * @param {Blob} blob
 * @returns {import('./byte_source.js').ByteSource}
 */
export function fromBlob(blob) {
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
        throw readError(
          `the file returned ${buffer.byteLength} of ${length} bytes at offset ${offset}; it changed size while being read`,
        );
      }
      return new Uint8Array(buffer);
    },
    chunks: (offset, length) => blobChunks(blob, offset, length),
  };
}
