// How the CLI opens what it is given: a path as a FileHandle (Node 20's openAsBlob truncates
// sizes past 4 GiB), an http(s) URL through the library's Range requests; a file that cannot be
// read gets a report of its own.
import { open } from 'node:fs/promises';
import { openSafetensors, SafetensorsError } from '../index.js';
import { isHttpUrl } from '../source/http_source.js';
import { printable } from './text.js';

/**
 * A path is opened as a FileHandle; an http(s) URL is read by the library (Range requests).
 * @template T
 * @param {string} path
 * @param {(source: string | import('node:fs/promises').FileHandle) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withFile(path, fn) {
  if (isHttpUrl(path)) return fn(path);
  const handle = await open(path, 'r');
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

/**
 * A file we cannot read gets a report too, so --json output stays one entry per argument.
 * @param {string} path
 * @param {unknown} error what was thrown
 * @returns {import('../index.js').ValidationReport}
 */
export function unreadable(path, error) {
  const code = error instanceof SafetensorsError ? error.code : 'ReadError';
  return {
    loadable: false,
    referenceError: null,
    findings: [{ code, severity: 'error', message: `cannot read ${path}: ${/** @type {Error} */ (error).message}` }],
    tensors: 0,
  };
}

/**
 * Opens FILE (a FileHandle) and runs `fn(st)`; a file that cannot be read or used, or a
 * failure of `fn`, is printed and exits 1.
 * @param {string} command for messages
 * @param {string} file
 * @param {(st: import('../index.js').SafetensorsFile) => Promise<void>} fn
 */
export async function withInput(command, file, fn) {
  const handle = await open(file, 'r').catch((error) => {
    console.error(`cannot read ${file}: ${error.message}`);
    return null;
  });
  if (!handle) return 1;
  try {
    await fn(await openSafetensors(handle));
    return 0;
  } catch (error) {
    console.error(printable(`${command}: ${error instanceof Error ? error.message : error}`));
    return 1;
  } finally {
    await handle.close();
  }
}
