// Writing files in Node (imported only there, by writer.js): parts are written one after
// another, Blobs and byte streams chunk by chunk (small pieces gathered into one write), so a
// file of any size is written in bounded memory. The file appears whole or not at all: it is written under a temporary name in the
// same folder and renamed over `path` at the end (so editing a file in place is safe too).
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SafetensorsError, errorText } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';

/** Parts smaller than a quarter of this are gathered and written together: a file of 1,751
 * small tensors was 1,751 writes, each a trip to libuv's thread pool. */
const GATHER_BYTES = 1 << 20;

/**
 * Writes to `handle` in order, gathering small pieces into one write. Each piece is copied
 * before the call returns (a piece may be a view its producer reuses).
 * @param {import('node:fs/promises').FileHandle} handle
 */
function gatheredWriter(handle) {
  /** @type {Uint8Array | null} */
  let gathered = null;
  let held = 0;
  const flush = async () => {
    if (held > 0) await handle.write(/** @type {Uint8Array} */ (gathered).subarray(0, held));
    held = 0;
  };
  return {
    flush,
    /** @param {Uint8Array} bytes */
    async write(bytes) {
      if (bytes.byteLength >= GATHER_BYTES / 4) {
        await flush();
        await handle.write(bytes);
        return;
      }
      if (held + bytes.byteLength > GATHER_BYTES) await flush();
      gathered ??= new Uint8Array(GATHER_BYTES);
      gathered.set(bytes, held);
      held += bytes.byteLength;
    },
  };
}

/**
 * @param {string} path
 * @param {(Uint8Array | Blob | AsyncIterable<Uint8Array>)[]} parts
 * @param {AbortSignal} [signal]
 */
export async function writeParts(path, parts, signal) {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.partial`);
  const handle = await open(temporary, 'wx').catch((/** @type {unknown} */ cause) => {
    throw new SafetensorsError('WriteError', `could not write ${path}: ${errorText(cause)}`, { cause });
  });
  let done = false;
  const out = gatheredWriter(handle);
  try {
    for (const part of parts) {
      throwIfAborted(signal);
      if (part instanceof Uint8Array) await out.write(part);
      else {
        const chunks = /** @type {AsyncIterable<Uint8Array>} */ (part instanceof Blob ? part.stream() : part);
        for await (const chunk of chunks) {
          throwIfAborted(signal);
          await out.write(chunk);
        }
      }
    }
    await out.flush();
    await handle.sync();
    await handle.close();
    await rename(temporary, path);
    done = true;
  } catch (cause) {
    if ((signal?.aborted && cause === signal.reason) || cause instanceof SafetensorsError) throw cause;
    throw new SafetensorsError('WriteError', `could not write ${path}: ${errorText(cause)}`, { cause });
  } finally {
    if (!done) {
      await handle.close().catch(() => {});
      await rm(temporary, { force: true });
    }
  }
}
