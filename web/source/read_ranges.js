// Byte ranges of a source read in file order, chunk by chunk, each chunk awaited by its
// consumer before the next is asked for: the data scan's and the hashes' one read.
import { chunksUntilAborted, throwIfAborted } from '../core/abort.js';

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
