// A sharded checkpoint as one model: its index, every shard opened (a few at a time), the
// checks across shards, and getTensor/describe over the whole.
import { initSafetensors } from '../core/modules.js';
import { SafetensorsError, errorText, tensorNotFound } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';
import { writeHeaderTable } from '../header/header_table_writer.js';
import { cardOnce } from '../card/model_card.js';
import { cardObject } from '../card/card_table.js';
import { withKvCache } from '../card/kv_cache.js';
import { configOnce } from './model_config.js';
import { locateModel } from './shard_sources.js';
import { unsafeShardReason } from './shard_index.js';
import { checkShards } from './shard_checks.js';
import { FIRST_READ_BYTES } from '../source/http_source.js';

/** Shards opened at once unless `concurrency` says otherwise. */
export const SHARD_CONCURRENCY = 8;

/** Header bytes per tensor beyond its name (`"":{"dtype":"BF16","shape":[a,b,c],"data_offsets":[b,e]},` with long numbers), and for the rest. */
const ENTRY_BYTES = 128;
const HEADER_EXTRA_BYTES = 1024;

/**
 * Each shard's first read over HTTP, from what the index says it holds: its header's likely
 * size (names plus ENTRY_BYTES each), so that a shard opens with one request without
 * downloading 256 KiB of tensor data with it. A shard whose header is longer (large metadata)
 * costs a second request. Capped at the single-file default.
 * @param {import('./shard_index.js').ShardIndex} index
 * @returns {number[]} by shard position
 */
function shardFirstReads(index) {
  const bytes = new Float64Array(index.shards.length).fill(8 + HEADER_EXTRA_BYTES);
  for (let i = 0; i < index.names.length; i++) bytes[index.shardOf[i]] += index.names[i].length + ENTRY_BYTES;
  return Array.from(bytes, (b) => Math.min(FIRST_READ_BYTES, Math.ceil(b / 1024) * 1024));
}

/** @typedef {import('../index.js').Finding} Finding */
/** @typedef {import('../index.js').SafetensorsFile} SafetensorsFile */

/**
 * Opens one shard: its file, or why it cannot be had (a finding of the model).
 * @param {string} name the shard's file name, as the index gives it
 * @param {import('./shard_sources.js').ModelFiles} files
 * @param {import('../index.js').ReadOptions} options
 * @param {(code: string) => Finding['severity']} severity a finding code's severity (the core's table)
 * @param {typeof import('../index.js').openSafetensors} openSafetensors
 * @returns {Promise<{ file: SafetensorsFile | null, report: import('../index.js').ValidationReport, problem: Finding | null }>}
 */
async function openShard(name, files, options, severity, openSafetensors) {
  const fail = (
    /** @type {string} */ code,
    /** @type {string} */ message,
    /** @type {import('../index.js').ValidationReport | null} */ report = null,
  ) => {
    const problem = { code, severity: severity(code), message, shard: name };
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
    const source = await files.resolve(name);
    const file = await openSafetensors(source, options);
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
 * Runs `task(i)` for i in [0, count), at most `limit` at once; resolves to the results in order.
 * @template T
 * @param {number} count
 * @param {number} limit
 * @param {(i: number) => Promise<T>} task
 * @returns {Promise<T[]>}
 */
export async function pooled(count, limit, task) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/**
 * @param {unknown} source
 * @param {import('../index.js').IndexOptions} options
 * @param {typeof import('../index.js').openSafetensors} openSafetensors
 * @returns {Promise<import('../index.js').ShardedModel>}
 */
export async function openShardedModel(source, options, openSafetensors) {
  const { signal, onProgress, concurrency = SHARD_CONCURRENCY, fetch, headers, firstRead } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new TypeError('options.concurrency must be a positive integer');
  throwIfAborted(signal);
  const files = await locateModel(source, { fetch, headers, signal });
  const core = await initSafetensors();
  const severity = (/** @type {string} */ code) => core.severity(code);
  const firstReads = firstRead === undefined && files.index ? shardFirstReads(files.index) : null;
  let done = 0;
  const opened = await pooled(files.shards.length, concurrency, async (/** @type {number} */ i) => {
    const shardOptions = { fetch, headers, signal, firstRead: firstReads?.[i] ?? firstRead };
    const shard = await openShard(files.shards[i], files, shardOptions, severity, openSafetensors);
    onProgress?.(++done, files.shards.length);
    return shard;
  });
  throwIfAborted(signal);
  const checked = checkShards(
    files.index,
    files.shards.map((name, i) => ({ name, tensors: opened[i].file?.tensors ?? null })),
    severity,
  );
  /** @type {Finding[]} */
  const findings = [];
  for (const shard of opened) if (shard.problem) findings.push(shard.problem);
  findings.push(...checked.findings);
  for (const name of files.unreferenced) {
    findings.push({
      code: 'ShardNotReferenced',
      severity: severity('ShardNotReferenced'),
      message: `${JSON.stringify(name)} is next to the index, but no index entry names it; it is not part of the model`,
      shard: name,
    });
  }
  const shards = files.shards.map((name, i) => ({
    name,
    report: opened[i].report,
    tensors: opened[i].file?.tensors ?? [],
  }));
  const fileOf = new Map(files.shards.map((name, i) => [name, opened[i].file]));
  const firstMetadata = opened.find((s) => s.file)?.file?.metadata ?? null;
  /** @type {Map<string, import('./shard_checks.js').ShardTensor> | null} built on the first getTensor */
  let byName = null;
  /** @type {Map<string, number> | null} index name -> shard position, built on the first miss */
  let indexed = null;
  // One card for the whole model, built on the first describe() from a header table of every
  // tensor (what the card says depends on names, dtypes and shapes only), then kept.
  const card = cardOnce(
    () => writeHeaderTable(checked.tensors, firstMetadata, core.tables.dtypes),
    checked.tensors.length,
  );
  // config.json, read on the first describe(): a problem with it becomes a finding of the model.
  const readConfig = configOnce(files.config, (problem) =>
    findings.push({ code: 'ConfigUnreadable', severity: severity('ConfigUnreadable'), message: problem }),
  );
  const notFound = (/** @type {string} */ name) => {
    if (files.index) {
      const { names, shardOf } = files.index;
      indexed ??= new Map(names.map((n, i) => [n, shardOf[i]]));
      const problem = opened[indexed.get(name) ?? -1]?.problem;
      // A shard's problem code (ShardMissing, ShardNotLoadable, UnsafeShardName) is an error code too.
      if (problem)
        return new SafetensorsError(
          /** @type {import('../index.js').ErrorCode} */ (problem.code),
          `tensor ${JSON.stringify(name)} cannot be read: ${problem.message}`,
          { tensor: name },
        );
    }
    return tensorNotFound(name, checked.tensors, "this model's shards");
  };
  /** @type {import('../index.js').ShardedModel} */
  const model = {
    tensors: checked.tensors,
    metadata: files.index?.metadata ?? null,
    shards,
    findings,
    loadable: findings.every((f) => f.severity !== 'error'),
    async getTensor(name, tensorOptions = {}) {
      byName ??= new Map(checked.tensors.map((t) => [t.name, t]));
      const tensor = byName.get(name);
      if (tensor === undefined) throw notFound(name);
      const file = /** @type {SafetensorsFile} */ (fileOf.get(tensor.shard));
      return /** @type {any} */ (file.getTensor(name, tensorOptions));
    },
    /**
     * @param {string} name
     * @param {any} [streamOptions]
     * @returns {AsyncGenerator<any, void, undefined>}
     */
    async *streamTensor(name, streamOptions = {}) {
      byName ??= new Map(checked.tensors.map((t) => [t.name, t]));
      const tensor = byName.get(name);
      if (tensor === undefined) throw notFound(name);
      yield* /** @type {SafetensorsFile} */ (fileOf.get(tensor.shard)).streamTensor(name, streamOptions);
    },
    async getTensors(names, batchOptions = {}) {
      byName ??= new Map(checked.tensors.map((t) => [t.name, t]));
      const wanted = names ?? checked.tensors.map((t) => t.name);
      if (!Array.isArray(wanted) || !wanted.every((n) => typeof n === 'string'))
        throw new TypeError('names must be an array of tensor names');
      /** @type {Map<string, string[]>} shard -> its names */
      const perShard = new Map();
      for (const name of new Set(wanted)) {
        const tensor = byName.get(name);
        if (tensor === undefined) throw notFound(name);
        perShard.set(tensor.shard, [...(perShard.get(tensor.shard) ?? []), name]);
      }
      const total = [...new Set(wanted)].reduce((sum, n) => sum + /** @type {any} */ (byName).get(n).byteLength, 0);
      let done = 0;
      const { onProgress, concurrency = 4 } = batchOptions;
      const groups = [...perShard];
      const parts = await pooled(groups.length, concurrency, async (/** @type {number} */ i) => {
        const [shard, shardNames] = groups[i];
        let seen = 0;
        const progress = (/** @type {number} */ d) => {
          done += d - seen;
          seen = d;
          onProgress?.(done, total);
        };
        const file = /** @type {SafetensorsFile} */ (fileOf.get(shard));
        return file.getTensors(shardNames, { ...batchOptions, onProgress: progress });
      });
      const merged = new Map(parts.flatMap((m) => [...m]));
      return /** @type {any} */ (new Map(wanted.map((n) => [n, merged.get(n)])));
    },
    async describe(describeOptions = {}) {
      throwIfAborted(describeOptions.signal);
      return withKvCache(cardObject(await card()), readConfig, core.tables.dtypes, describeOptions.signal);
    },
    toGPU: async (device, gpuOptions) => (await import('../gpu/to_gpu.js')).toGPU(model, device, gpuOptions, notFound),
  };
  return model;
}
