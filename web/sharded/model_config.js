// The config.json beside a model's weights, read when its card is first asked for: parsed, or
// why it could not be (a ConfigUnreadable finding of the model); its absence is no problem.
import { errorText } from '../core/errors.js';

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
 * A config.json's bytes from disk (Node).
 * @param {typeof import('../source/node_files.js')} node
 * @param {string} path
 */
export async function readConfigFile(node, path) {
  const info = await node.describePath(path);
  if (info.folder) return null;
  if (info.size > CONFIG_LIMIT_BYTES) throw configTooLarge(info.size);
  return node.readWhole(path);
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
