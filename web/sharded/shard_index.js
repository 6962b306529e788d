// The index of a sharded checkpoint, as transformers writes it (model.safetensors.index.json):
// { "metadata": { "total_size": <data bytes>, ... }, "weight_map": { tensor: shard file, ... } }.
// Shard names are file names relative to the index's folder; one that could leave it is unsafe.
import { SafetensorsError } from '../core/errors.js';
import { scanIndex } from './index_scan.js';

/** Indexes larger than this are refused (the largest seen in the wild is 60 MB, 497,000 tensors). */
export const INDEX_LIMIT_BYTES = 256 << 20;

/**
 * The error for an index that cannot be used at all (a bad model only gets findings).
 * @param {string} message
 * @param {unknown} [cause]
 */
export function invalidIndex(message, cause) {
  return new SafetensorsError('InvalidIndex', message, { cause });
}

export const indexTooLarge = (/** @type {number} */ bytes) =>
  invalidIndex(
    `the index is ${bytes} bytes, over the ${INDEX_LIMIT_BYTES}-byte limit; real indexes are at most tens of MB`,
  );

/**
 * @typedef {object} ShardIndex
 * @property {Record<string, unknown> | null} metadata the index's metadata object
 * @property {string[]} names tensor names in index order (distinct: an object's keys)
 * @property {Uint32Array} shardOf for each name, its shard's position in `shards`
 * @property {string[]} shards shard names in order of first mention
 */

/**
 * Parses an index from its text, bytes or an already parsed object.
 * @param {string | Uint8Array | object} value
 * @param {string} where what the index is, for messages (a URL, a file name)
 * @returns {ShardIndex}
 */
export function parseIndex(value, where) {
  let json = value;
  if (value instanceof Uint8Array) {
    if (value.byteLength > INDEX_LIMIT_BYTES) throw indexTooLarge(value.byteLength);
    try {
      json = new TextDecoder('utf-8', { fatal: true }).decode(value);
    } catch (cause) {
      throw invalidIndex(`${where} is not UTF-8 text`, cause);
    }
  }
  if (typeof json === 'string') {
    const scanned = scanIndex(json);
    if (scanned !== null) {
      const { names, shardOf, shards } = scanned.weightMap;
      return { metadata: indexMetadata(scanned.json, where), names, shardOf, shards };
    }
    try {
      json = JSON.parse(json);
    } catch (cause) {
      throw invalidIndex(`${where} is not JSON: ${cause instanceof Error ? cause.message : cause}`, cause);
    }
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw invalidIndex(`${where} is not a JSON object`);
  const { weight_map: weightMap } = /** @type {{ weight_map?: unknown }} */ (json);
  if (weightMap === null || typeof weightMap !== 'object' || Array.isArray(weightMap)) {
    throw invalidIndex(
      `${where} has no "weight_map" object (tensor name -> shard file name); is it a sharded checkpoint's index?`,
    );
  }
  const metadata = indexMetadata(json, where);
  const names = Object.keys(weightMap);
  const shardOf = new Uint32Array(names.length);
  /** @type {Map<string, number>} */
  const position = new Map();
  for (let i = 0; i < names.length; i++) {
    const shard = /** @type {Record<string, unknown>} */ (weightMap)[names[i]];
    if (typeof shard !== 'string')
      throw invalidIndex(`${where}: the shard of ${JSON.stringify(names[i])} is not a string`);
    let at = position.get(shard);
    if (at === undefined) position.set(shard, (at = position.size));
    shardOf[i] = at;
  }
  return { metadata, names, shardOf, shards: [...position.keys()] };
}

/**
 * The index's "metadata" member: an object, or null when there is none.
 * @param {object} json the parsed index
 * @param {string} where
 */
function indexMetadata(json, where) {
  const { metadata = null } = /** @type {{ metadata?: unknown }} */ (json);
  if (metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata)))
    throw invalidIndex(`${where}: "metadata" is not an object`);
  return /** @type {Record<string, unknown> | null} */ (metadata);
}

/**
 * Why a shard name is unsafe to resolve next to its index, or null when it is a plain relative
 * path: no `..` segment, no absolute path, no backslash, no scheme or drive, no control characters.
 * @param {string} name
 */
export function unsafeShardReason(name) {
  if (name === '') return 'it is empty';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'it holds control characters';
  if (name.startsWith('/')) return 'it is an absolute path';
  if (name.includes('\\')) return 'it holds a backslash (a Windows path separator)';
  if (/^[a-z][a-z0-9+.-]*:/i.test(name)) return 'it starts with a scheme or drive (another origin or an absolute path)';
  if (name.split('/').includes('..')) return 'it climbs out of the index folder (..)';
  return null;
}

/**
 * The URL of a (safe) shard next to the index at `indexUrl`: each path segment is
 * percent-encoded, so that `?`, `#` and `%2e%2e` in a name stay part of the file name.
 * @param {string} name
 * @param {string} indexUrl
 */
export function shardUrl(name, indexUrl) {
  return new URL(name.split('/').map(encodeURIComponent).join('/'), indexUrl).href;
}
