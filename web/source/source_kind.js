// What a source names, before it is opened: a sharded model (an index URL or path, picked
// files, a folder in Node, { index, resolve }), or one file (a path, a URL, a Blob, bytes, a
// reader: what openSafetensors takes).
import { isHttpUrl } from './http_fetch.js';
import { isFileList } from './file_list.js';
import { isNode } from '../core/platform.js';
import { nodeFiles } from './node_import.js';

/**
 * @param {unknown} source
 * @returns {Promise<'model' | 'file'>} (a path to nothing is a file: opening it gives the ReadError)
 */
export async function sourceKind(source) {
  if (isHttpUrl(source)) return new URL(String(source)).pathname.endsWith('.json') ? 'model' : 'file';
  if (isFileList(source)) return 'model';
  if (source !== null && typeof source === 'object' && 'index' in source && 'resolve' in source) return 'model';
  if (typeof source === 'string' && isNode()) {
    if (source.endsWith('.json')) return 'model';
    const what = await (await nodeFiles()).describePath(source).catch(() => null);
    return what?.folder ? 'model' : 'file';
  }
  return 'file';
}
