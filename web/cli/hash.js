// safetensors-wasm hash: each FILE's SHA-256 as sha256sum prints it, the other hashes of
// model sites, and the check of every hash its metadata claims.
import { openSafetensors, validateSafetensors, SafetensorsError } from '../index.js';
import { hashLines, printable } from './text.js';
import { unreadable, withFile } from './files.js';

/** @typedef {import('../index.js').HashResult} HashResult */
/**
 * One file's entry in hash's output: its hashes, or why it could not be read.
 * @typedef {(HashResult & { file: string, loadable: boolean, error?: undefined }) | { file: string, error: string }} HashEntry
 */

/**
 * A file's hashes: with --tensors through the opened file (a rejected file gets the rest).
 * @param {string} path
 * @param {boolean} tensors
 * @param {((done: number, total: number) => void) | undefined} onProgress
 * @returns {Promise<HashEntry>}
 */
async function hashPath(path, tensors, onProgress) {
  try {
    return await withFile(path, async (handle) => {
      if (tensors) {
        try {
          const st = await openSafetensors(handle);
          return { file: path, loadable: true, ...(await st.hash({ tensors: true, onProgress })) };
        } catch (error) {
          if (!(error instanceof SafetensorsError && error.report)) throw error;
        }
      }
      const report = await validateSafetensors(handle, { hash: true, onProgress });
      return { file: path, loadable: report.loadable, .../** @type {HashResult} */ (report.hashes) }; // asked for
    });
  } catch (error) {
    return { file: path, error: unreadable(path, error).findings[0].message };
  }
}

/**
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function hash(parsed, term) {
  const results = [];
  for (const file of parsed.files)
    results.push(
      await term.withProgress(`hashing ${printable(file)}`, (onProgress) =>
        hashPath(file, parsed.has('--tensors'), onProgress),
      ),
    );
  if (parsed.has('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      if (r.error) {
        console.error(r.error);
        continue;
      }
      // An entry without `error` is a file's hashes.
      console.log(`${/** @type {HashResult} */ (r).sha256}  ${r.file}`);
      for (const line of hashLines(/** @type {HashResult} */ (r))) console.log(`  ${line}`);
    }
  }
  return results.every((r) => !r.error && /** @type {HashResult} */ (r).checks.every((c) => c.match)) ? 0 : 1;
}
