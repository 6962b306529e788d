// Where a diffusers pipeline's files come from: the URL of its model_index.json, picked files
// (a folder pick), or a path in Node (the folder or its model_index.json). Each becomes one
// shape: the parsed model_index.json and, per component folder, its file list (null over
// HTTP, which cannot list folders) and the sources to open its checkpoint with.
import { isNode } from '../core/platform.js';
import { errorText } from '../core/errors.js';
import { fetchWhole, isHttpUrl } from '../source/http_source.js';
import { isFileList } from '../source/file_list.js';
import { INDEX_LIMIT_BYTES, indexTooLarge, invalidIndex, shardUrl } from './shard_index.js';
import { nodeFiles } from '../source/node_import.js';

export const PIPELINE_INDEX = 'model_index.json';

/** model_index.json is a few hundred bytes; anything this large is not one. */
const PIPELINE_INDEX_LIMIT_BYTES = 16 << 20;
const tooLarge = (/** @type {number} */ bytes) =>
  invalidIndex(
    `${PIPELINE_INDEX} is ${bytes} bytes, over the ${PIPELINE_INDEX_LIMIT_BYTES}-byte limit; real ones are a few hundred bytes`,
  );

/**
 * @typedef {object} PipelineFiles
 * @property {string} where the pipeline's model_index.json, for messages
 * @property {Record<string, unknown>} config model_index.json, parsed
 * @property {(folder: string) => Promise<string[] | null>} list a component folder's file names (null: cannot list)
 * @property {(path: string) => SafetensorsSource | Promise<SafetensorsSource>} file a source for openSafetensors (path relative to the pipeline folder)
 * @property {(path: string) => IndexSource | Promise<IndexSource>} index a source for openSafetensorsIndex
 * @property {(path: string) => File | string} configAt a component's config.json, as openSafetensors' config option takes it
 */
/** @typedef {import('../index.js').SafetensorsSource} SafetensorsSource */
/** @typedef {import('../index.js').IndexSource} IndexSource */

/**
 * @param {Uint8Array | string} value
 * @param {string} where
 * @returns {Record<string, unknown>}
 */
function parseConfig(value, where) {
  let config;
  try {
    config = JSON.parse(typeof value === 'string' ? value : new TextDecoder('utf-8', { fatal: true }).decode(value));
  } catch (cause) {
    throw invalidIndex(`${where} is not JSON: ${errorText(cause)}`, cause);
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw invalidIndex(`${where} is not a JSON object`);
  return config;
}

/**
 * @param {string | URL} url
 * @param {import('../source/http_fetch.js').FetchOptions} options
 * @returns {Promise<PipelineFiles>}
 */
function fromUrl(url, options) {
  const href = String(url);
  const at = (/** @type {string} */ path) => shardUrl(path, href);
  return (async () => ({
    where: href,
    config: parseConfig(await fetchWhole(href, options, PIPELINE_INDEX_LIMIT_BYTES, tooLarge), href),
    list: async () => null,
    file: at,
    index: at,
    configAt: at,
  }))();
}

/**
 * Picked files: the one model_index.json (the shallowest) marks the pipeline folder.
 * @param {File[]} files
 * @returns {Promise<PipelineFiles>}
 */
async function fromFiles(files) {
  /** @type {Map<string, File>} */
  const byPath = new Map();
  for (const file of files) byPath.set(file.webkitRelativePath || file.name, file);
  const found = [...byPath.keys()].filter((p) => p === PIPELINE_INDEX || p.endsWith(`/${PIPELINE_INDEX}`));
  const where = found.sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const root = where.slice(0, where.length - PIPELINE_INDEX.length);
  const indexFile = /** @type {File} */ (byPath.get(where));
  if (indexFile.size > PIPELINE_INDEX_LIMIT_BYTES) throw tooLarge(indexFile.size);
  const get = (/** @type {string} */ path) => {
    const file = byPath.get(root + path);
    if (!file) throw new Error(`${root + path} is not among the picked files (pick the whole pipeline folder)`);
    return file;
  };
  return {
    where,
    config: parseConfig(new Uint8Array(await indexFile.arrayBuffer()), where),
    async list(folder) {
      const prefix = `${root}${folder}/`;
      return [...byPath.keys()]
        .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        .map((p) => p.slice(prefix.length));
    },
    file: get,
    configAt: get,
    index(path) {
      const folder = path.slice(0, path.lastIndexOf('/') + 1);
      return { index: get(path), resolve: (/** @type {string} */ name) => get(folder + name) };
    },
  };
}

/**
 * @param {string} path
 * @returns {Promise<PipelineFiles>}
 */
async function fromPath(path) {
  const node = await nodeFiles();
  const what = await node.describePath(path).catch((/** @type {unknown} */ cause) => {
    throw invalidIndex(`cannot read ${path}: ${errorText(cause)}`, cause);
  });
  const root = what.folder ? path : node.join(path, '..');
  const where = node.join(root, PIPELINE_INDEX);
  const size = async (/** @type {string} */ file) => {
    const info = await node.describePath(file).catch((/** @type {unknown} */ cause) => {
      throw invalidIndex(`cannot read ${file}: ${errorText(cause)}`, cause);
    });
    return info.folder ? Infinity : info.size;
  };
  if ((await size(where)) > PIPELINE_INDEX_LIMIT_BYTES) throw tooLarge(await size(where));
  return {
    where,
    config: parseConfig(await node.readWhole(where), where),
    async list(folder) {
      const listing = await node.describePath(node.join(root, folder)).catch(() => null);
      return listing?.folder ? listing.files : [];
    },
    file: (/** @type {string} */ p) => node.pathSource(node.join(root, p)),
    configAt: (/** @type {string} */ p) => node.join(root, p),
    // The index's bytes and its shards, not its path: a folder holding two variants' shards
    // would otherwise report the other variant's as not referenced.
    async index(/** @type {string} */ p) {
      const bytes = await size(node.join(root, p));
      if (bytes > INDEX_LIMIT_BYTES) throw indexTooLarge(bytes);
      const folder = p.slice(0, p.lastIndexOf('/') + 1);
      return {
        index: await node.readWhole(node.join(root, p)),
        resolve: (/** @type {string} */ name) => node.pathSource(node.join(root, folder + name)),
      };
    },
  };
}

/**
 * Whether picked files hold a model_index.json: then they are a pipeline, not one model.
 * @param {File[]} files
 */
export function holdsPipeline(files) {
  return files.some((f) => (f.webkitRelativePath || f.name).split('/').pop() === PIPELINE_INDEX);
}

/**
 * Whether `source` names a diffusers pipeline: a model_index.json URL, picked files holding
 * one, or (in Node) a path to one or to a folder holding one.
 * @param {unknown} source
 */
export async function isPipelineSource(source) {
  if (isHttpUrl(source)) return new URL(String(source)).pathname.endsWith(`/${PIPELINE_INDEX}`);
  if (isFileList(source)) return holdsPipeline([.../** @type {Iterable<File>} */ (source)]);
  if (typeof source === 'string' && isNode()) {
    const node = await nodeFiles();
    if (source.endsWith(PIPELINE_INDEX)) return true;
    const what = await node.describePath(source).catch(() => null);
    return Boolean(what?.folder && what.files.includes(PIPELINE_INDEX));
  }
  return false;
}

/**
 * @param {unknown} source see openSafetensorsPipeline
 * @param {import('../source/http_fetch.js').FetchOptions} options
 * @returns {Promise<PipelineFiles>}
 */
export async function locatePipeline(source, options) {
  if (isHttpUrl(source)) return fromUrl(/** @type {string | URL} */ (source), options);
  if (isFileList(source)) {
    const files = [.../** @type {Iterable<File>} */ (source)];
    if (!files.every((f) => f instanceof Blob && typeof f.name === 'string'))
      throw new TypeError('every picked file must be a File');
    if (!holdsPipeline(files))
      throw invalidIndex(`the picked files hold no ${PIPELINE_INDEX}; pick a diffusers pipeline folder`);
    return fromFiles(files);
  }
  if (typeof source === 'string' && isNode()) return fromPath(source);
  throw new TypeError(`expected the URL of a ${PIPELINE_INDEX}, picked files (FileList or File[]) or a path (Node)`);
}
