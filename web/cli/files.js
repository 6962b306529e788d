// How the CLI opens what it is given: a path as a FileHandle (Node 20's openAsBlob truncates
// sizes past 4 GiB), an http(s) URL through the library's Range requests, - as standard input
// read whole; a file that cannot be read gets a report of its own.
import { open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SafetensorsError } from '../core/errors.js';
import { isHttpUrl } from '../source/http_source.js';
import { printable } from './text.js';

/**
 * The whole library (web/index.js), imported on first need: a verb's common path imports only
 * the modules it uses, so that a cold `validate` or `inspect` of one file loads little.
 */
export const library = () => import('../index.js');

/** @type {Promise<Uint8Array> | null} standard input, read once */
let stdin = null;

/**
 * Standard input, read whole (on the first call; later calls get the same bytes).
 * @param {AsyncIterable<Uint8Array>} [stream]
 */
export function readStdin(stream = process.stdin) {
  stdin ??= (async () => {
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    return new Uint8Array(Buffer.concat(chunks));
  })();
  return stdin;
}

/**
 * A path is opened as a FileHandle; an http(s) URL is read by the library (Range requests);
 * - is standard input, read whole.
 * @template T
 * @param {string} path
 * @param {(source: string | Uint8Array | import('node:fs/promises').FileHandle) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withFile(path, fn) {
  if (isHttpUrl(path)) return fn(path);
  if (path === '-') return fn(await readStdin());
  const handle = await open(path, 'r');
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Whether ARG surely names one file: standard input, or a path to a regular file that does not
 * end in .json. Then the checks for a pipeline, a sharded model and a folder of files (and their
 * code) are skipped; anything else (a URL, a folder, an index, a path to nothing) takes them.
 * @param {string} arg
 */
export async function isOneFile(arg) {
  if (arg === '-') return true;
  if (isHttpUrl(arg) || arg.endsWith('.json')) return false;
  return (await stat(arg).catch(() => null))?.isFile() ?? false;
}

/**
 * The config.json in the folder of a file given by its path, when there is one (the card's KV
 * cache comes from it); undefined for a URL, standard input or a folder without one.
 * @param {string} path
 */
export async function configBeside(path) {
  if (isHttpUrl(path) || path === '-') return undefined;
  const config = join(dirname(path), 'config.json');
  return (await stat(config).catch(() => null))?.isFile() ? config : undefined;
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
 * Opens FILE (a path, a URL or - for standard input) and runs `fn(st)`; a file that cannot be
 * read or used, or a failure of `fn`, is printed and exits 1.
 * @param {string} command for messages
 * @param {string} file
 * @param {(st: import('../index.js').SafetensorsFile) => Promise<void>} fn
 */
export async function withInput(command, file, fn) {
  try {
    const { openSafetensors } = await library();
    await withFile(file, async (source) => fn(await openSafetensors(source)));
    return 0;
  } catch (error) {
    console.error(printable(`${command}: ${error instanceof Error ? error.message : error}`));
    return 1;
  }
}
