// The config.json beside a model's weights, read when its card is first asked for (over HTTP,
// beside the index): parsed, or why it could not be (a ConfigUnreadable finding of the model);
// its absence is no problem.
import { errorText } from '../core/errors.js';
import { isNode } from '../core/platform.js';
import { fetchWhole, isHttpUrl } from '../source/http_source.js';
import { nodeFiles } from '../source/node_import.js';

/** transformers' config file, beside the weights (CONFIG_NAME in its utils/constants). */
export const CONFIG = 'config.json';

/** config.json files are a few KB; a larger one is refused unread. */
export const CONFIG_LIMIT_BYTES = 4 << 20;

export const configTooLarge = (/** @type {number} */ bytes) =>
  new RangeError(`it is ${bytes} bytes, over the ${CONFIG_LIMIT_BYTES}-byte limit for a config.json`);

/** A picked config.json's bytes. @param {Blob} blob */
export async function blobBytes(blob) {
  if (blob.size > CONFIG_LIMIT_BYTES) throw configTooLarge(blob.size);
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * A config.json's bytes from disk (Node); with `missingIsNone`, null when there is no such file.
 * @param {typeof import('../source/node_files.js')} node
 * @param {string} path
 */
export async function readConfigFile(node, path, missingIsNone = false) {
  const info = missingIsNone ? await node.describePath(path).catch(() => null) : await node.describePath(path);
  if (info === null || info.folder) return null;
  if (info.size > CONFIG_LIMIT_BYTES) throw configTooLarge(info.size);
  return node.readWhole(path);
}

/**
 * The reader of a config.json given as openSafetensors' `config` option (or `config` beside
 * `{ index, resolve }`): a Blob (a picked File), its bytes, an http(s) URL (a 404 or other error
 * status: none) or, in Node, a path. Undefined for undefined or null (none); a TypeError for
 * anything else.
 * @param {unknown} config
 * @param {import('../source/http_fetch.js').FetchOptions} options for a URL
 * @returns {(() => Promise<Uint8Array | null>) | undefined}
 */
export function configReader(config, options) {
  if (config === undefined || config === null) return undefined;
  if (typeof Blob !== 'undefined' && config instanceof Blob) return () => blobBytes(config);
  if (config instanceof Uint8Array)
    return async () => {
      if (config.byteLength > CONFIG_LIMIT_BYTES) throw configTooLarge(config.byteLength);
      return config;
    };
  if (isHttpUrl(config))
    return () =>
      fetchWhole(String(config), options, CONFIG_LIMIT_BYTES, configTooLarge).catch((error) => {
        if (error?.code === 'HttpError') return null; // none at that address
        throw error;
      });
  if (typeof config === 'string' && isNode()) return async () => readConfigFile(await nodeFiles(), config);
  throw new TypeError(
    "options.config must be the model's config.json as a Blob or File, its bytes, an http(s) URL or (in Node) its path",
  );
}

/**
 * `read` started now, beside other requests, rather than on the first describe(): the first
 * call gets that read, a later one reads again (configOnce calls again after an abort). Its
 * failure is told by the call that gets it.
 * @param {(() => Promise<Uint8Array | null>) | undefined} read
 * @returns {(() => Promise<Uint8Array | null>) | undefined}
 */
export function prefetched(read) {
  if (!read) return undefined;
  /** @type {Promise<Uint8Array | null> | null} */
  let started = read();
  started.catch(() => {});
  return () => {
    const answer = started ?? read();
    started = null;
    return answer;
  };
}

/**
 * In Node, for a file opened by its path: the config.json in the same folder, when there is one.
 * @param {unknown} input what openSafetensors was given
 * @returns {(() => Promise<Uint8Array | null>) | undefined}
 */
export function configBesidePath(input) {
  if (typeof input !== 'string' || isHttpUrl(input) || !isNode()) return undefined;
  return async () => {
    const node = await nodeFiles();
    return readConfigFile(node, node.join(input, '..', CONFIG), true);
  };
}

/**
 * The parsed config.json (null when there is none or it cannot be used), and the problem with it.
 * @param {(() => Promise<Uint8Array | null>) | undefined} read
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<{ config: unknown, problem: string | null }>}
 */
export async function readModelConfig(read, signal) {
  if (!read) return { config: null, problem: null };
  let bytes;
  try {
    bytes = await read();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return { config: null, problem: `the config.json beside the weights cannot be read (${errorText(error)})` };
  }
  if (bytes === null) return { config: null, problem: null };
  try {
    return { config: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), problem: null };
  } catch (error) {
    return {
      config: null,
      problem: `the config.json beside the weights is not valid JSON (${errorText(error)}); the card has no KV cache estimate`,
    };
  }
}

/**
 * readModelConfig() once: the first call reads, later ones get its answer; `onProblem` hears of
 * a problem once. An aborted read is tried again by the next call.
 * @param {(() => Promise<Uint8Array | null>) | undefined} read
 * @param {(problem: string) => void} onProblem
 * @returns {(signal?: AbortSignal) => Promise<unknown>}
 */
export function configOnce(read, onProblem) {
  /** @type {Promise<unknown> | null} */
  let config = null;
  return (signal) =>
    (config ??= readModelConfig(read, signal).then(
      ({ config: parsed, problem }) => {
        if (problem) onProblem(problem);
        return parsed;
      },
      (/** @type {unknown} */ aborted) => {
        config = null;
        throw aborted;
      },
    ));
}
