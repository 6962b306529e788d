// Writing files in Node (imported only there, by writer.js): parts are written one after
// another, Blobs and byte streams chunk by chunk, so a file of any size is written in bounded
// memory. The file appears whole or not at all: it is written under a temporary name in the
// same folder and renamed over `path` at the end (so editing a file in place is safe too).
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SafetensorsError, errorText } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';

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
  try {
    for (const part of parts) {
      throwIfAborted(signal);
      if (part instanceof Uint8Array) await handle.write(part);
      else {
        const chunks = /** @type {AsyncIterable<Uint8Array>} */ (part instanceof Blob ? part.stream() : part);
        for await (const chunk of chunks) {
          throwIfAborted(signal);
          await handle.write(chunk);
        }
      }
    }
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
