// A model given as a path, in Node only (imported by model_files.js for strings, so browsers
// and bundles never load node:fs): a folder walked recursively, or one file named ".".
import { lstat, open, readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { toByteSource } from '../source/byte_source.js';
import { MAX_BUNDLE_BYTES } from '../signing/bundle.js';
import { NotVerified } from '../signing/errors.js';

/**
 * @param {string} path
 * @returns {import('./model_files.js').ModelEntry['open']}
 */
function opener(path) {
  return async () => {
    const handle = await open(path, 'r');
    try {
      return Object.assign(await toByteSource(handle), { close: () => handle.close() });
    } catch (error) {
      await handle.close();
      throw error;
    }
  };
}

/**
 * @param {string} root
 * @param {string} prefix
 * @param {(name: string) => boolean} ignored
 * @param {{ allowSymlinks: boolean }} options
 * @param {import('./model_files.js').ModelFiles} out
 */
async function walk(root, prefix, ignored, options, out) {
  const dirents = await readdir(join(root, prefix), { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of dirents) {
    const name = prefix + dirent.name;
    if (ignored(name)) continue;
    const path = join(root, name);
    if (dirent.isSymbolicLink()) {
      out.symlinks.push(name);
      if (!options.allowSymlinks) continue;
    }
    if (dirent.isDirectory()) {
      await walk(root, `${name}/`, ignored, options, out);
      continue;
    }
    const info = await stat(path);
    if (info.isDirectory()) await walk(root, `${name}/`, ignored, options, out);
    else if (info.isFile()) out.entries.push({ name, size: info.size, open: opener(path) });
  }
}

/**
 * @param {string} path a folder or a file
 * @param {(name: string) => boolean} ignored
 * @param {{ allowSymlinks: boolean }} options
 * @returns {Promise<import('./model_files.js').ModelFiles>}
 */
export async function listPath(path, ignored, options) {
  const info = await lstat(path);
  const modelName = basename(resolve(path));
  /** @type {import('./model_files.js').ModelFiles} */
  const out = { modelName, single: false, entries: [], symlinks: [] };
  const target = info.isSymbolicLink() ? await stat(path) : info;
  if (info.isSymbolicLink()) out.symlinks.push('.');
  if (!target.isDirectory()) {
    if (!info.isSymbolicLink() || options.allowSymlinks)
      out.entries.push({ name: '.', size: target.size, open: opener(path) });
    return { ...out, single: true };
  }
  await walk(path, '', ignored, options, out);
  return out;
}

/**
 * The signature file at `path` (relative to the current directory, as model_signing's CLI
 * resolves it), and its name in the model at `model` when it lies inside it.
 * @param {string} path
 * @param {string} model
 * @returns {Promise<{ bundle: string, name: string | null }>}
 */
export async function readSignatureFile(path, model) {
  let text;
  try {
    if ((await stat(path)).size > MAX_BUNDLE_BYTES)
      throw new NotVerified('MalformedBundle', `the signature is larger than ${MAX_BUNDLE_BYTES} bytes`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof NotVerified) throw error;
    throw new NotVerified('ReadError', `could not read the signature ${path}: ${/** @type {Error} */ (error).message}`);
  }
  const inside = relative(resolve(model), resolve(path));
  const outside = inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || resolve(inside) === inside;
  return { bundle: text, name: outside ? null : inside.split(sep).join('/') };
}
