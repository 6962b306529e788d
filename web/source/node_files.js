// Files by path, in Node only: imported by shard_sources.js when openSafetensorsIndex is given
// a path, so that browsers and bundles never load node:fs.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SafetensorsError, errorText, readError } from '../core/errors.js';

/**
 * A file as a { size, read } source that opens the file for each read, so that a model of
 * hundreds of shards holds no file descriptors between reads.
 * @param {string} path
 */
export async function pathSource(path) {
  const { size } = await stat(path);
  return {
    size,
    async read(/** @type {number} */ offset, /** @type {number} */ length) {
      const out = new Uint8Array(length);
      const handle = await open(path, 'r');
      try {
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(out, filled, length - filled, offset + filled);
          if (bytesRead === 0)
            throw readError(
              `${path} ended at byte ${offset + filled}, before the ${size} bytes it had when opened; it changed while being read`,
            );
          filled += bytesRead;
        }
      } catch (cause) {
        throw cause instanceof SafetensorsError
          ? cause
          : readError(`could not read ${path}: ${errorText(cause)}`, cause);
      } finally {
        await handle.close();
      }
      return out;
    },
  };
}

/**
 * What a path is: a folder (with the names of its files) or a file (with its size).
 * @param {string} path
 * @returns {Promise<{ folder: true, files: string[] } | { folder: false, size: number }>}
 */
export async function describePath(path) {
  const info = await stat(path);
  if (!info.isDirectory()) return { folder: false, size: info.size };
  const entries = await readdir(path, { withFileTypes: true });
  return {
    folder: true,
    files: entries
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort(),
  };
}

/**
 * The bytes of a (small) file.
 * @param {string} path
 */
export async function readWhole(path) {
  const { size } = await stat(path);
  return (await pathSource(path)).read(0, size);
}

export { join };
export { fileURLToPath } from 'node:url';
