// A side of a comparison given as a source: a sharded model when it is one (an index URL or
// path, picked files, a folder in Node, { index, resolve }), else one file (a Node path to a
// file is read through node_files.js, which bundles for browsers never load).
import { isHttpUrl } from '../source/http_fetch.js';
import { isFileList } from '../source/file_list.js';
import { isNode } from '../core/platform.js';

/** @returns {Promise<typeof import('../source/node_files.js')>} */
export function nodeFiles() {
  const path = '../source/node_files.js';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ path);
}

/**
 * @param {unknown} source
 * @returns {Promise<'model' | 'file' | 'path'>} path: a Node path to one file
 */
export async function kindOf(source) {
  if (isHttpUrl(source)) return new URL(String(source)).pathname.endsWith('.json') ? 'model' : 'file';
  if (isFileList(source)) return 'model';
  if (source !== null && typeof source === 'object' && 'index' in source && 'resolve' in source) return 'model';
  if (typeof source === 'string' && isNode()) {
    if (source.endsWith('.json')) return 'model';
    return (await (await nodeFiles()).describePath(source)).folder ? 'model' : 'path';
  }
  return 'file';
}

/**
 * @param {unknown} source
 * @param {object} options what openSafetensors or openSafetensorsIndex take
 * @param {{ openSafetensors: typeof import('../index.js').openSafetensors,
 *   openSafetensorsIndex: typeof import('../index.js').openSafetensorsIndex }} openers
 * @returns {Promise<import('./diff.js').Checkpoint>}
 */
export async function openSide(source, options, { openSafetensors, openSafetensorsIndex }) {
  const kind = await kindOf(source);
  if (kind === 'model') return openSafetensorsIndex(/** @type {any} */ (source), options);
  if (kind === 'path')
    return openSafetensors(await (await nodeFiles()).pathSource(/** @type {string} */ (source)), options);
  return openSafetensors(/** @type {any} */ (source), options);
}
