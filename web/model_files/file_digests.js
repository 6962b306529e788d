// Digests of the model's files as the signature's serialization computes them: the whole file
// ("files"), or each shard [start, end) of shard_size bytes ("shards", the last one shorter,
// none for an empty file), named "path:start:end" (sigstore/model-transparency,
// src/model_signing/_serialization/file_shard.py). SHA-256 is web/hashing's; files are read a
// few at a time, each once.
import { openHashPass } from '../hashing/hash_pass.js';
import { readRanges } from '../source/read_ranges.js';
import { throwIfAborted } from '../core/abort.js';

/** Files read at once: reads of one overlap another's hashing. */
export const FILE_CONCURRENCY = 4;

/**
 * The shards of a file of `size` bytes, as [start, end) pairs.
 * @param {number} size
 * @param {number} shardSize
 * @returns {[number, number][]}
 */
export function shardsOf(size, shardSize) {
  /** @type {[number, number][]} */
  const shards = [];
  for (let start = 0; start < size; start += shardSize) shards.push([start, Math.min(start + shardSize, size)]);
  return shards;
}

/**
 * @typedef {{ entry: import('./model_files.js').ModelEntry, shards: [number, number][] | null }} HashJob
 *   shards: null for the whole file
 */

/**
 * SHA-256 of one file, or of each of its shards (in order).
 * @param {import('../source/byte_source.js').ByteSource} source
 * @param {[number, number][] | null} shards
 * @param {{ signal?: AbortSignal }} options
 * @param {(bytes: number) => void} advance
 * @returns {Promise<string[]>}
 */
async function digestsOf(source, shards, options, advance) {
  const plan = shards
    ? {
        size: source.size,
        dataStart: 0,
        file: false,
        data: false,
        tensors: shards.map(([begin, end]) => ({ name: `${begin}`, begin, end })),
      }
    : { size: source.size, dataStart: 0, file: true, data: false, tensors: null };
  const pass = await openHashPass(plan);
  try {
    let done = 0;
    const onProgress = (/** @type {number} */ now) => {
      advance(now - done);
      done = now;
    };
    await readRanges(source, pass.ranges, { signal: options.signal, onProgress }, (chunk, at) => pass.push(chunk, at));
    const hashes = await pass.finish();
    return shards
      ? shards.map(([begin]) => /** @type {Record<string, string>} */ (hashes.tensors)[`${begin}`])
      : [/** @type {string} */ (hashes.sha256)];
  } finally {
    pass.close();
  }
}

/**
 * Runs `jobs` FILE_CONCURRENCY at a time; each result is its digests or the error reading it.
 * @param {HashJob[]} jobs
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @returns {Promise<(string[] | Error)[]>}
 */
export async function hashJobs(jobs, options) {
  const total = jobs.reduce((sum, job) => sum + job.entry.size, 0);
  /** @type {(string[] | Error)[]} */
  const results = new Array(jobs.length);
  let done = 0;
  const advance = (/** @type {number} */ bytes) => {
    done += bytes;
    if (bytes > 0) options.onProgress?.(done, total);
  };
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      throwIfAborted(options.signal);
      let source = null;
      try {
        source = await jobs[i].entry.open();
        results[i] = await digestsOf(source, jobs[i].shards, options, advance);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        results[i] = error instanceof Error ? error : new Error(String(error));
      } finally {
        await /** @type {any} */ (source)?.close?.();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILE_CONCURRENCY, jobs.length) }, lane));
  options.onProgress?.(total, total);
  return results;
}
