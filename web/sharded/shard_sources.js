// Where a sharded model's index and shards come from: an index URL, picked files (a folder or
// several files), a path in Node, or { index, resolve }. Each becomes one shape: the parsed
// index (or none: then every .safetensors file is a shard) and resolve(shard name) -> a source
// for openSafetensors. Only the index is read here, and a config.json given by URL (or beside an
// index URL) is asked for at once, beside it.
import { isNode } from '../core/platform.js';
import { fetchWhole, isHttpUrl } from '../source/http_source.js';
import { isFileList } from '../source/file_list.js';
import { INDEX_LIMIT_BYTES, indexTooLarge, invalidIndex, parseIndex, shardUrl } from './shard_index.js';
import { PIPELINE_INDEX, holdsPipeline } from './pipeline_files.js';
import { CONFIG, blobBytes, configReader, prefetched, readConfigFile } from './model_config.js';
import { nodeFiles } from '../source/node_import.js';

const isPipeline = (/** @type {string} */ where) =>
  invalidIndex(
    `${where} is a diffusers pipeline (it holds ${PIPELINE_INDEX}): open it with openSafetensorsPipeline, which opens each component's checkpoint`,
  );

const INDEX_SUFFIX = '.safetensors.index.json';
const SHARD_SUFFIX = '.safetensors';

/** @typedef {import('../index.js').SafetensorsSource} SafetensorsSource */
/** @typedef {(name: string) => SafetensorsSource | Promise<SafetensorsSource>} Resolve  a shard's source, by its name in the index */
/** @typedef {Extract<import('../index.js').IndexSource, { index: unknown }>} IndexParts  the index, and resolve for its shards */

/**
 * @typedef {object} ModelFiles
 * @property {string} where the index (or folder) for messages
 * @property {import('./shard_index.js').ShardIndex | null} index null when there is none
 * @property {string[]} shards the shards to open: the index's, or every .safetensors file
 * @property {Resolve} resolve a shard's source (throws when it cannot be had)
 * @property {string[]} unreferenced picked or listed .safetensors files no index entry names
 * @property {() => Promise<Uint8Array | null>} [config] the config.json beside the weights (null: none)
 */

/**
 * Which of `names` is the index: the one ending in .safetensors.index.json; null for none.
 * @param {string[]} names
 * @param {string} where
 */
function pickIndex(names, where) {
  const found = names.filter((n) => n.endsWith(INDEX_SUFFIX));
  if (found.length > 1)
    throw invalidIndex(`${where} holds ${found.length} indexes (${found.join(', ')}); pick the files of one model`);
  return found[0] ?? null;
}

/**
 * Shards named by the index, then the model's .safetensors files it does not name.
 * @param {string} where
 * @param {import('./shard_index.js').ShardIndex} index
 * @param {Resolve} resolve
 * @param {string[]} files the files beside the index (none known: [])
 * @returns {ModelFiles}
 */
function withIndex(where, index, resolve, files) {
  const named = new Set(index.shards);
  return {
    where,
    index,
    shards: index.shards,
    resolve,
    unreferenced: files.filter((f) => f.endsWith(SHARD_SUFFIX) && !named.has(f)),
  };
}

/**
 * No index: every .safetensors file is a shard, in name order.
 * @param {string} where
 * @param {string[]} files
 * @param {Resolve} resolve
 * @returns {ModelFiles}
 */
function withoutIndex(where, files, resolve) {
  const shards = files.filter((f) => f.endsWith(SHARD_SUFFIX)).sort();
  if (shards.length === 0) throw invalidIndex(`${where} holds no ${INDEX_SUFFIX} and no .safetensors files`);
  return { where, index: null, shards, resolve, unreferenced: [] };
}

/**
 * @param {string | URL} url
 * @param {import('../source/http_fetch.js').FetchOptions} options
 */
async function fromUrl(url, options) {
  const href = String(url);
  // config.json is asked for beside the index, in the same round trip.
  const config = prefetched(configReader(shardUrl(CONFIG, href), options));
  const bytes = await fetchWhole(href, options, INDEX_LIMIT_BYTES, indexTooLarge);
  const index = parseIndex(bytes, href);
  return { ...withIndex(href, index, (/** @type {string} */ name) => shardUrl(name, href), []), config };
}

/**
 * Picked files (a FileList or File[]): named by their path in a picked folder, else by name.
 * @param {File[]} files as picked (checked here)
 */
async function fromFiles(files) {
  if (holdsPipeline(files)) throw isPipeline('the picked folder');
  /** @type {Map<string, File>} */
  const byPath = new Map();
  for (const file of files) {
    if (!(file instanceof Blob) || typeof file.name !== 'string')
      throw new TypeError('every picked file must be a File');
    const { webkitRelativePath, name } = file;
    byPath.set(webkitRelativePath || name, file);
  }
  const paths = [...byPath.keys()];
  const indexPath = pickIndex(paths, 'the picked files');
  const configIn = (/** @type {string} */ folder) => {
    const file = byPath.get(folder + CONFIG);
    return async () => (file ? blobBytes(file) : null);
  };
  if (indexPath === null) {
    const found = withoutIndex('the picked files', paths, (name) => /** @type {File} */ (byPath.get(name)));
    const first = found.shards[0];
    return { ...found, config: configIn(first.slice(0, first.lastIndexOf('/') + 1)) };
  }
  const indexFile = /** @type {File} */ (byPath.get(indexPath));
  if (indexFile.size > INDEX_LIMIT_BYTES) throw indexTooLarge(indexFile.size);
  const index = parseIndex(new Uint8Array(await indexFile.arrayBuffer()), indexPath);
  const folder = indexPath.slice(0, indexPath.lastIndexOf('/') + 1);
  const inFolder = paths.filter((p) => p.startsWith(folder)).map((p) => p.slice(folder.length));
  const found = withIndex(
    indexPath,
    index,
    (name) => {
      const file = byPath.get(folder + name);
      if (!file)
        throw new Error(
          `it is not among the picked files (pick the folder that holds ${indexPath}, or every file of the model)`,
        );
      return file;
    },
    inFolder,
  );
  return { ...found, config: configIn(folder) };
}

/**
 * @param {string} path
 * @returns {Promise<ModelFiles>}
 */
async function fromPath(path) {
  const node = await nodeFiles();
  let what;
  try {
    what = await node.describePath(path);
  } catch (cause) {
    throw invalidIndex(`cannot read ${path}: ${cause instanceof Error ? cause.message : cause}`, cause);
  }
  const inFolder = (/** @type {string} */ folder) => (/** @type {string} */ name) =>
    node.pathSource(node.join(folder, name));
  const configIn = (/** @type {string} */ folder, /** @type {string[]} */ files) => async () =>
    files.includes(CONFIG) ? readConfigFile(node, node.join(folder, CONFIG)) : null;
  if (what.folder) {
    if (what.files.includes(PIPELINE_INDEX)) throw isPipeline(path);
    const indexName = pickIndex(what.files, path);
    if (indexName === null)
      return { ...withoutIndex(path, what.files, inFolder(path)), config: configIn(path, what.files) };
    return fromPath(node.join(path, indexName));
  }
  if (what.size > INDEX_LIMIT_BYTES) throw indexTooLarge(what.size);
  const index = parseIndex(await node.readWhole(path), path);
  const folder = node.join(path, '..');
  const listing = await node.describePath(folder);
  const files = listing.folder ? listing.files : [];
  return { ...withIndex(path, index, inFolder(folder), files), config: configIn(folder, files) };
}

/**
 * @param {IndexParts} source as the caller gave it (checked here)
 * @param {import('../source/http_fetch.js').FetchOptions} options
 * @returns {Promise<ModelFiles>}
 */
function fromParts(source, options) {
  const { index, resolve } = source;
  if (typeof resolve !== 'function')
    throw new TypeError('source.resolve must be a function (shard name -> a source openSafetensors takes)');
  const reader = configReader(source.config, options);
  const config = isHttpUrl(source.config) ? prefetched(reader) : reader; // beside the shards
  return (async () => {
    let value = index;
    if (typeof Blob !== 'undefined' && index instanceof Blob) {
      if (index.size > INDEX_LIMIT_BYTES) throw indexTooLarge(index.size);
      value = new Uint8Array(await index.arrayBuffer());
    } else if (index === null || (typeof index !== 'object' && typeof index !== 'string')) {
      throw new TypeError('source.index must be the index as an object, a JSON string or a Blob');
    }
    return { ...withIndex('the index', parseIndex(value, 'the index'), resolve, []), config };
  })();
}

/**
 * @param {unknown} source see openSafetensorsIndex
 * @param {import('../source/http_fetch.js').FetchOptions} options
 * @returns {Promise<ModelFiles>}
 */
export async function locateModel(source, options) {
  if (isHttpUrl(source)) return fromUrl(/** @type {string | URL} */ (source), options);
  if (isFileList(source)) return fromFiles([.../** @type {Iterable<File>} */ (source)]);
  if (typeof source === 'string') {
    if (!isNode())
      throw new TypeError(
        `expected an http:// or https:// URL of an index, got ${JSON.stringify(source.slice(0, 100))}`,
      );
    return fromPath(source);
  }
  if (source !== null && typeof source === 'object' && 'index' in source)
    return fromParts(/** @type {IndexParts} */ (source), options);
  throw new TypeError(
    'expected the URL of a .safetensors.index.json, picked files (FileList or File[]), a path (Node) or { index, resolve }',
  );
}
