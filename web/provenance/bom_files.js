// The files of a model for its bill of materials, each named by its path in the model ("a/b.bin"):
// a Node path (a folder, walked, or a file), a Map from relative name to any openSafetensors
// source, picked or dropped Files (a folder pick's webkitRelativePath loses the folder's name),
// a FileSystemDirectoryHandle, or one openSafetensors source (a file named by its own name).
import { isNode } from '../core/platform.js';
import { toByteSource } from '../source/byte_source.js';

/**
 * @typedef {{ name: string, source: unknown }} BomFile  source: anything toByteSource takes
 * @typedef {{ modelName: string, files: BomFile[] }} BomModel
 */

/** @param {unknown} v */
const isFileLike = (v) => typeof Blob !== 'undefined' && v instanceof Blob;

/**
 * @param {ArrayLike<File>} picked
 * @returns {BomModel}
 */
function fromPicked(picked) {
  const list = Array.from(picked);
  const paths = list.map((f) => /** @type {{ webkitRelativePath?: string }} */ (f).webkitRelativePath || f.name);
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const folder = tops.size === 1 && !tops.has('') ? [...tops][0] : '';
  return {
    modelName: folder || (list.length === 1 ? list[0].name : 'model'),
    files: list.map((f, i) => ({ name: folder ? paths[i].slice(folder.length + 1) : paths[i], source: f })),
  };
}

/**
 * @param {FileSystemDirectoryHandle} dir
 * @param {string} prefix
 * @param {BomFile[]} out
 */
async function walkHandle(dir, prefix, out) {
  for await (const entry of /** @type {any} */ (dir).values()) {
    const name = `${prefix}${entry.name}`;
    if (entry.kind === 'directory') await walkHandle(entry, `${name}/`, out);
    else out.push({ name, source: await entry.getFile() });
  }
}

/**
 * A Node path: a file, or a folder walked (symbolic links are not followed).
 * @param {string} path
 * @returns {Promise<BomModel>}
 */
async function fromPath(path) {
  const fsName = 'node:fs/promises';
  const pathName = 'node:path';
  /** @type {typeof import('node:fs/promises')} */
  const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
  /** @type {typeof import('node:path')} */
  const { basename, join } = await import(/* @vite-ignore */ /* webpackIgnore: true */ pathName);
  const info = await fs.stat(path);
  if (!info.isDirectory()) return { modelName: basename(path), files: [{ name: basename(path), source: path }] };
  /** @type {BomFile[]} */
  const files = [];
  const walk = async (/** @type {string} */ dir, /** @type {string} */ prefix) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${name}/`);
      else if (entry.isFile()) files.push({ name, source: join(dir, entry.name) });
    }
  };
  await walk(path, '');
  return { modelName: basename(path.replace(/[\\/]+$/, '')) || path, files };
}

/**
 * The model's files, sorted by name.
 * @param {unknown} model
 * @returns {Promise<BomModel>}
 */
export async function listBomFiles(model) {
  /** @type {BomModel} */
  let listed;
  if (typeof model === 'string' && isNode() && !/^https?:\/\//i.test(model)) listed = await fromPath(model);
  else if (model instanceof Map) {
    listed = { modelName: 'model', files: [...model].map(([name, source]) => ({ name: String(name), source })) };
  } else if (typeof FileList !== 'undefined' && model instanceof FileList) listed = fromPicked(model);
  else if (Array.isArray(model) && model.length > 0 && model.every(isFileLike)) listed = fromPicked(model);
  else if (model && typeof model === 'object' && /** @type {any} */ (model).kind === 'directory') {
    const dir = /** @type {FileSystemDirectoryHandle} */ (model);
    /** @type {BomFile[]} */
    const files = [];
    await walkHandle(dir, '', files);
    listed = { modelName: dir.name, files };
  } else {
    const name =
      isFileLike(model) && /** @type {File} */ (model).name ? /** @type {File} */ (model).name : 'model.safetensors';
    listed = { modelName: name, files: [{ name, source: model }] };
  }
  if (listed.files.length === 0) throw new TypeError('the model has no files');
  listed.files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return listed;
}

/**
 * The byte source of a listed file (a Node path is opened; `close` releases it).
 * @param {BomFile} file
 * @returns {Promise<{ bytes: import('../source/byte_source.js').ByteSource, close(): Promise<void> }>}
 */
export async function openBomFile(file) {
  if (typeof file.source === 'string' && isNode() && !/^https?:\/\//i.test(file.source)) {
    const fsName = 'node:fs/promises';
    /** @type {typeof import('node:fs/promises')} */
    const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
    const handle = await fs.open(file.source, 'r');
    try {
      return { bytes: await toByteSource(handle), close: () => handle.close() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return { bytes: await toByteSource(file.source), close: async () => {} };
}
