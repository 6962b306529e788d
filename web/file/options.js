// The checks every public call makes of its options object before it reads anything.

/**
 * `options` when it is an object whose `signal` and `onProgress` (when given) have the right
 * types; a TypeError otherwise.
 * @template {object} T
 * @param {T} options
 * @returns {T & { signal?: AbortSignal, onProgress?: (done: number, total: number) => void }}
 */
export function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { signal, onProgress } = /** @type {{ signal?: unknown, onProgress?: unknown }} */ (options);
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new TypeError('options.signal must be an AbortSignal');
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError('options.onProgress must be a function');
  return /** @type {T & { signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} */ (options);
}

/**
 * A TypeError when `options[name]` is given and is not a boolean.
 * @param {object} options
 * @param {string} name
 */
export function checkBoolean(options, name) {
  const value = /** @type {Record<string, unknown>} */ (options)[name];
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`options.${name} must be a boolean`);
}
