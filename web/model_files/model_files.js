// What a model is read from, as one list of files named by their path in the model ("a/b.bin"),
// or one file (named "." as model_signing names a single-file model). Sources: a Node path
// (folder or file), a Map from relative name to any source, picked or dropped Files (a folder
// pick: webkitRelativePath), a FileSystemDirectoryHandle, or any single openSafetensors source
// (an http(s) URL among them). Signature checks and bills of materials both list models here.
import { isNode } from '../core/platform.js';
import { toByteSource } from '../source/byte_source.js';
import { isFileList } from '../source/file_list.js';
import { isHttpUrl } from '../source/http_fetch.js';
import { posixName } from '../signing/statement.js';

/**
 * @typedef {{ name: string, size: number, origin?: unknown, open(): Promise<import('../source/byte_source.js').ByteSource & { close?(): Promise<void> }> }} ModelEntry
 *   origin: the object the caller gave for this file (a File, a Map's value)
 * @typedef {{ modelName: string, single: boolean, entries: ModelEntry[], symlinks: string[] }} ModelFiles
 *   symlinks: names of symbolic links met (Node paths), which model_signing refuses unless allowed
 */

/**
 * An entry for any openSafetensors source (opened now: its size is needed to plan the reads).
 * @param {string} name
 * @param {unknown} source
 * @returns {Promise<ModelEntry>}
 */
async function entryOf(name, source) {
  const bytes = await toByteSource(source);
  return { name, size: bytes.size, origin: source, open: async () => bytes };
}

/**
 * Picked files: a folder pick's paths lose their first part (the folder's name, the model's).
 * @param {File[]} files
 * @returns {ModelFiles}
 */
function fromFiles(files) {
  const paths = files.map((f) => /** @type {any} */ (f).webkitRelativePath || '');
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : null)));
  const folder = tops.size === 1 && !tops.has(null) ? /** @type {string} */ ([...tops][0]) : null;
  const entries = files.map((file, i) => ({
    name: posixName(folder !== null ? paths[i].slice(folder.length + 1) : paths[i] || file.name),
    size: file.size,
    origin: file,
    open: () => toByteSource(file),
  }));
  const modelName = folder ?? (files.length === 1 ? files[0].name : '');
  return { modelName, single: false, entries, symlinks: [] };
}

/**
 * @param {any} dir a FileSystemDirectoryHandle
 * @param {(name: string) => boolean} ignored
 * @param {string} prefix
 * @param {ModelEntry[]} entries
 */
async function walkHandle(dir, ignored, prefix, entries) {
  for await (const [name, handle] of dir.entries()) {
    const path = prefix + name;
    if (ignored(path)) continue;
    if (handle.kind === 'directory') await walkHandle(handle, ignored, `${path}/`, entries);
    else {
      const file = await handle.getFile();
      entries.push({ name: path, size: file.size, open: () => toByteSource(file) });
    }
  }
}

/**
 * The Node-only part (paths), loaded on first use. A variable specifier keeps bundlers from
 * following this import into node:fs.
 * @returns {Promise<typeof import('./node_model_files.js')>}
 */
export function nodeModelFiles() {
  const module = './node_model_files.js';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ module);
}

/**
 * The model's files, those under an ignored path left out (folders are not entered).
 * @param {unknown} model
 * @param {(name: string) => boolean} ignored
 * @param {{ allowSymlinks: boolean }} options
 * @returns {Promise<ModelFiles>}
 * @throws {TypeError} for what is not a model
 */
export async function listModel(model, ignored, options) {
  if (typeof model === 'string' && isNode() && !isHttpUrl(model)) {
    const { listPath } = await nodeModelFiles();
    return listPath(model, ignored, options);
  }
  if (model instanceof Map) {
    const entries = [];
    for (const [name, source] of model) {
      if (typeof name !== 'string') throw new TypeError('a model Map is keyed by file names (strings)');
      if (!ignored(posixName(name))) entries.push(await entryOf(posixName(name), source));
    }
    return { modelName: '', single: false, entries, symlinks: [] };
  }
  if (isFileList(model)) {
    const files = Array.from(/** @type {ArrayLike<File>} */ (model));
    if (!files.every((f) => typeof Blob !== 'undefined' && f instanceof Blob))
      throw new TypeError('a model given as a list holds File objects');
    const listed = fromFiles(files);
    return { ...listed, entries: listed.entries.filter((e) => !ignored(e.name)) };
  }
  const handle = /** @type {any} */ (model);
  if (handle && handle.kind === 'directory' && typeof handle.entries === 'function') {
    /** @type {ModelEntry[]} */
    const entries = [];
    await walkHandle(handle, ignored, '', entries);
    return { modelName: String(handle.name ?? ''), single: false, entries, symlinks: [] };
  }
  if (handle && handle.kind === 'file' && typeof handle.getFile === 'function') {
    const entry = await entryOf('.', await handle.getFile());
    return { modelName: String(handle.name ?? ''), single: true, entries: [entry], symlinks: [] };
  }
  const entry = await entryOf('.', model); // a TypeError for what is not a source
  const name = typeof File !== 'undefined' && model instanceof File ? model.name : '';
  return { modelName: name, single: true, entries: [entry], symlinks: [] };
}
