// Every shard of a sharded model opened: all at once as far as the in-flight limits allow
// (in_flight.js), each through the file opener with a first read sized from the index, and what
// went wrong with each as a finding of the model.
import { SafetensorsError, errorText } from '../core/errors.js';
import { FIRST_READ_BYTES } from '../source/http_source.js';
import { unsafeShardReason } from './shard_index.js';
import { InFlight } from './in_flight.js';

/**
 * Shards opened at once unless `concurrency` says otherwise: every shard of the models seen
 * (Llama 3.1 405B has 191), so that their headers cost one round trip. Node's fetch (undici)
 * and HTTP/2 put no cap on requests to one host; a browser over HTTP/1.1 queues past six
 * connections to a host by itself; local reads are cheap. 256 is the most sockets Chromium
 * keeps for a whole profile (net/socket/client_socket_pool_manager.cc).
 */
export const SHARD_CONCURRENCY = 256;

/** Header bytes read at once unless `maxBytesInFlight` says otherwise. */
export const BYTES_IN_FLIGHT = 64 << 20;

/**
 * Header bytes per tensor beyond its name, and for the rest (the length prefix, `{}`, a
 * `__metadata__` such as transformers' {"format":"pt"}). Measured on real files written by
 * transformers, PEFT, diffusers, kohya, candle, mlx, burn and tinygrad: 52 to 79 bytes per entry
 * beyond its quoted name (`:{"dtype":"BF16","shape":[a,b],"data_offsets":[b,e]},`); 128 leaves
 * room for long offsets and more dimensions.
 */
const ENTRY_BYTES = 128;
const HEADER_EXTRA_BYTES = 1024;

/**
 * Each shard's first read, from what the index says it holds: its header's likely size (names
 * plus ENTRY_BYTES each), so that a shard opens with one request without downloading 256 KiB of
 * tensor data with it. A shard whose header is longer (large metadata) costs a second request.
 * Capped at the single-file default.
 * @param {import('./shard_index.js').ShardIndex} index
 * @returns {number[]} by shard position
 */
export function shardFirstReads(index) {
  const bytes = new Float64Array(index.shards.length).fill(8 + HEADER_EXTRA_BYTES);
  for (let i = 0; i < index.names.length; i++) bytes[index.shardOf[i]] += index.names[i].length + ENTRY_BYTES;
  return Array.from(bytes, (b) => Math.min(FIRST_READ_BYTES, Math.ceil(b / 1024) * 1024));
}

/** @typedef {import('../index.js').Finding} Finding */
/** @typedef {import('../index.js').SafetensorsFile} SafetensorsFile */
/**
 * Opens one shard's source; `admitHeader(bytes)` is awaited before its header's `bytes` (the
 * length prefix included) are read.
 * @typedef {(source: import('../index.js').SafetensorsSource, options: import('../index.js').ReadOptions,
 *   admitHeader: (bytes: number) => Promise<void>) => Promise<SafetensorsFile>} OpenShardFile
 */
/**
 * @typedef {object} OpenedShard
 * @property {SafetensorsFile | null} file
 * @property {import('../index.js').ValidationReport} report
 * @property {Finding | null} problem why it cannot be used, as a finding of the model
 */

/**
 * Opens one shard: its file, or why it cannot be had (a finding of the model).
 * @param {string} name the shard's file name, as the index gives it
 * @param {import('./shard_sources.js').ModelFiles} files
 * @param {import('../index.js').ReadOptions} options
 * @param {Promise<(code: string) => Finding['severity']>} severity a finding code's severity (the
 *   core's table, once the core is loaded: the shards' reads do not wait for it)
 * @param {(source: import('../index.js').SafetensorsSource) => Promise<SafetensorsFile>} open
 * @returns {Promise<OpenedShard>}
 */
async function openShard(name, files, options, severity, open) {
  const fail = async (
    /** @type {string} */ code,
    /** @type {string} */ message,
    /** @type {import('../index.js').ValidationReport | null} */ report = null,
  ) => {
    const problem = { code, severity: (await severity)(code), message, shard: name };
    return {
      file: null,
      report: report ?? { loadable: false, referenceError: null, findings: [problem], tensors: 0 },
      problem,
    };
  };
  const unsafe = unsafeShardReason(name);
  if (unsafe !== null)
    return fail('UnsafeShardName', `the index names shard ${JSON.stringify(name)}, which was not read: ${unsafe}`);
  try {
    const file = await open(await files.resolve(name));
    return { file, report: file.report, problem: null };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof TypeError) throw error; // a resolve() that gives no source is a bug to see
    if (error instanceof SafetensorsError && error.report) {
      const { referenceError, findings } = error.report;
      // A shard that is another format altogether (a Git LFS pointer, most often) says so.
      const why = findings.find((f) => f.code === 'NotSafetensors')?.message ?? error.message;
      return fail(
        'ShardNotLoadable',
        `the reference loader rejects shard ${JSON.stringify(name)} (${referenceError}): ${why}`,
        error.report,
      );
    }
    return fail('ShardMissing', `shard ${JSON.stringify(name)} cannot be read: ${errorText(error)}`);
  }
}

/**
 * A positive integer option, or its default; a TypeError otherwise.
 * @param {Record<string, unknown>} options
 * @param {string} name
 * @param {number} fallback
 */
function positiveInteger(options, name, fallback) {
  const value = options[name] ?? fallback;
  if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < 1)
    throw new TypeError(`options.${name} must be a positive integer`);
  return /** @type {number} */ (value);
}

/**
 * The in-flight limits of `options`, checked (before anything is read).
 * @param {import('../index.js').IndexOptions} options
 */
export function inFlightLimits(options) {
  return {
    concurrency: positiveInteger(/** @type {any} */ (options), 'concurrency', SHARD_CONCURRENCY),
    maxBytesInFlight: positiveInteger(/** @type {any} */ (options), 'maxBytesInFlight', BYTES_IN_FLIGHT),
  };
}

/**
 * Opens every shard of `files`, all at once within the in-flight limits; `onProgress` hears of
 * each as it is answered. Aborting rejects at once and stops every read in flight.
 * @param {import('./shard_sources.js').ModelFiles} files
 * @param {import('../index.js').IndexOptions} options
 * @param {ReturnType<typeof inFlightLimits>} limits the options' in-flight limits, checked
 * @param {Promise<(code: string) => Finding['severity']>} severity see openShard
 * @param {OpenShardFile} openFile
 * @returns {Promise<OpenedShard[]>} in the order of `files.shards`
 */
export async function openShards(files, options, { concurrency, maxBytesInFlight }, severity, openFile) {
  const { signal, onProgress, fetch, headers, firstRead } = options;
  const firstReads = firstRead === undefined && files.index ? shardFirstReads(files.index) : null;
  const inFlight = new InFlight(concurrency, maxBytesInFlight);
  const total = files.shards.length;
  let done = 0;
  return Promise.all(
    files.shards.map(async (name, i) => {
      const shardOptions = { fetch, headers, signal, firstRead: firstReads?.[i] ?? firstRead };
      let held = shardOptions.firstRead ?? FIRST_READ_BYTES;
      await inFlight.admit(held, signal);
      /** @param {number} bytes */
      const admitHeader = async (bytes) => {
        const was = held;
        held = 0; // held again once recharged (an abort while waiting holds nothing)
        await inFlight.recharge(was, bytes, signal);
        held = bytes;
      };
      try {
        const shard = await openShard(name, files, shardOptions, severity, (source) =>
          openFile(source, shardOptions, admitHeader),
        );
        onProgress?.(++done, total);
        return shard;
      } finally {
        inFlight.release(held);
      }
    }),
  );
}
