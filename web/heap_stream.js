// The one way tensor data is read: a byte range of a source streamed chunk by chunk into
// a sink, through heap buffers allocated for the run. Decoding and the data scan use it
// (and hashing, remote reads and streamed decoding will).
import { chunksUntilAborted, throwIfAborted } from './abort.js';

/**
 * @typedef {{ push(chunk: Uint8Array): void }} Sink
 *   push: takes the next chunk (any length; the sink carries values split between chunks)
 */

/**
 * Streams bytes [offset, offset + length) of `source` into the sink `open` makes from the
 * heap buffers allocated for it. Allocation failure is OutOfMemory; every wait on the source
 * is abortable (rejects with the signal's reason); `onProgress(done, total)` follows each
 * chunk, and comes once as (0, 0) for an empty range; the sink runs through the core's trap
 * guard; buffers are freed however the run ends.
 * @param {import('./core.js').Core} core
 * @param {{ chunks(offset: number, length: number): AsyncIterable<Uint8Array> }} source
 * @param {{ offset: number, length: number, heap?: { bytes: number, what: string }[] }} range
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @param {(buffers: number[]) => Sink} open
 */
export async function streamThroughHeap(core, source, range, options, open) {
  const { signal, onProgress } = options;
  const { offset, length } = range;
  throwIfAborted(signal);
  const buffers = [];
  try {
    for (const { bytes, what } of range.heap ?? []) buffers.push(core.malloc(bytes, what));
    const sink = core.call(() => open(buffers));
    if (length === 0) {
      onProgress?.(0, 0);
      return;
    }
    let done = 0;
    for await (const chunk of chunksUntilAborted(source.chunks(offset, length), signal)) {
      throwIfAborted(signal);
      core.call(() => sink.push(chunk));
      done += chunk.byteLength;
      onProgress?.(done, length);
      throwIfAborted(signal); // before asking for (and reading ahead) the next chunk
    }
    throwIfAborted(signal);
  } finally {
    for (const ptr of buffers) core.free(ptr);
  }
}
