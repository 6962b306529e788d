// A sharded checkpoint as one model: its index, every shard opened (open_shards.js), the
// checks across shards, and getTensor/describe over the whole.
import { initSafetensors } from '../core/modules.js';
import { SafetensorsError, tensorNotFound } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';
import { writeHeaderTable } from '../header/header_table_writer.js';
import { cardOnce } from '../card/model_card.js';
import { cardObject } from '../card/card_table.js';
import { withKvCache } from '../card/kv_cache.js';
import { configOnce } from './model_config.js';
import { locateModel } from './shard_sources.js';
import { checkShards } from './shard_checks.js';
import { inFlightLimits, openShards } from './open_shards.js';

/** @typedef {import('../index.js').Finding} Finding */
/** @typedef {import('../index.js').SafetensorsFile} SafetensorsFile */

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
 * @param {import('./open_shards.js').OpenShardFile} openFile
 * @returns {Promise<import('../index.js').ShardedModel>}
 */
export async function openShardedModel(source, options, openFile) {
  const { signal, fetch, headers } = options;
  const limits = inFlightLimits(options); // checked before anything is read
  throwIfAborted(signal);
  const loading = initSafetensors(); // loads while the index and the shards are read
  loading.catch(() => {}); // told by the await below once they are
  const files = await locateModel(source, { fetch, headers, signal });
  const severityOf = loading.then((c) => (/** @type {string} */ code) => c.severity(code));
  severityOf.catch(() => {});
  const opened = await openShards(files, options, limits, severityOf, openFile);
  const core = await loading;
  const severity = await severityOf;
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
