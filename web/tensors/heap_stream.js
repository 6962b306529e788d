// The one way tensor data is read: a byte range of a source streamed chunk by chunk into
// a sink, through heap buffers allocated for the run. Decoding and the data scan use it
// (and hashing, through readRanges; remote reads and streamed decoding will).
import { chunksUntilAborted, throwIfAborted } from '../core/abort.js';

/**
 * @typedef {{ push(chunk: Uint8Array): void }} Sink
 *   push: takes the next chunk (any length; the sink carries values split between chunks)
 */

/**
 * Streams bytes [offset, offset + length) of `source` into the sink `open` makes from the
 * heap buffers allocated for it, as readRanges does (abort, progress). Allocation failure is
 * OutOfMemory; the sink runs through the core's trap guard; buffers are freed however the
 * run ends.
 * @param {import('../core/modules.js').Core} core
 * @param {{ chunks(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> }} source
 * @param {{ offset: number, length: number, heap?: { bytes: number, what: string }[] }} range
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @param {(buffers: number[]) => Sink} open
 */
export async function streamThroughHeap(core, source, range, options, open) {
  throwIfAborted(options.signal);
  const buffers = [];
  try {
    for (const { bytes, what } of range.heap ?? []) buffers.push(core.malloc(bytes, what));
    const sink = core.call(() => open(buffers));
    await readRanges(source, [[range.offset, range.length]], options, (chunk) => core.call(() => sink.push(chunk)));
  } finally {
    for (const ptr of buffers) core.free(ptr);
  }
}

/**
 * Streams the byte ranges ([offset, length] pairs, in file order) of `source` chunk by chunk
 * to `consume(chunk, at)` (`at`: the chunk's file offset), awaiting it before the next chunk.
 * Every wait on the source is abortable (rejects with the signal's reason);
 * `onProgress(done, total)` follows each chunk, and comes once as (0, 0) when there is
 * nothing to read.
 * @param {{ chunks(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> }} source
 * @param {[number, number][]} ranges
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @param {(chunk: Uint8Array, at: number) => void | Promise<void>} consume
 */
export async function readRanges(source, ranges, options, consume) {
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  const total = ranges.reduce((sum, [, length]) => sum + length, 0);
  if (total === 0) {
    onProgress?.(0, 0);
    return;
  }
  let done = 0;
  for (const [offset, length] of ranges) {
    if (length === 0) continue;
    let at = offset;
    for await (const chunk of chunksUntilAborted(source.chunks(offset, length, signal), signal)) {
      throwIfAborted(signal);
      await consume(chunk, at);
      at += chunk.byteLength;
      done += chunk.byteLength;
      onProgress?.(done, total);
      throwIfAborted(signal); // before asking for (and reading ahead) the next chunk
    }
  }
  throwIfAborted(signal);
}
