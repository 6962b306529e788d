// The model against the signed manifest, as model_signing compares them (sigstore/model-transparency,
// src/model_signing/verifying.py and manifest.py): every resource must be there with the same
// digest (its algorithm name included), and nothing else may be. Each file gets a status: ok,
// modified, missing, or unexpected (present but not signed); files in the order the manifest
// lists them, then the unexpected ones by name.
import { expect } from './errors.js';
import { hashJobs, shardsOf } from '../model_files/file_digests.js';

/** The content hashes this verifier computes (web/hashing). */
const HASH_TYPES = ['sha256'];

/**
 * @typedef {import('./types.js').FileStatus} FileStatus
 * @typedef {{ key: string, algorithm: string, digest: string }} Expected
 */

/**
 * The algorithm name a resource carries: the hash type for files, "TYPE-sharded-SIZE" for
 * shards (model_signing's ShardedFileHasher.digest_name).
 * @param {import('./statement.js').Serialization} s
 */
export function resourceAlgorithm(s) {
  return s.method === 'shards' ? `${s.hashType}-sharded-${s.shardSize}` : s.hashType;
}

/**
 * The manifest's resources by file, in listed order; a key listed twice keeps its last digest.
 * @param {import('./statement.js').Manifest} manifest
 * @returns {Map<string, Map<string, Expected>>}
 */
function expectedByFile(manifest) {
  /** @type {Map<string, Map<string, Expected>>} */
  const files = new Map();
  for (const r of manifest.resources) {
    const key = r.start === null ? r.path : `${r.path}:${r.start}:${r.end}`;
    if (!files.has(r.path)) files.set(r.path, new Map());
    /** @type {Map<string, Expected>} */ (files.get(r.path)).set(key, {
      key,
      algorithm: r.algorithm,
      digest: r.digest,
    });
  }
  return files;
}

/**
 * @param {import('./statement.js').Manifest} manifest
 * @param {import('../model_files/model_files.js').ModelFiles} model
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @returns {Promise<{ files: { name: string, status: FileStatus }[], readError: string | null }>}
 */
export async function compareModel(manifest, model, options) {
  const s = manifest.serialization;
  expect(
    HASH_TYPES.includes(s.hashType),
    'UnsupportedHash',
    `the model was signed with ${JSON.stringify(s.hashType)} digests; this verifier computes ${HASH_TYPES.join(', ')}`,
  );
  const algorithm = resourceAlgorithm(s);
  const expected = expectedByFile(manifest);
  const present = new Map(model.entries.map((e) => [e.name, e]));
  /** @type {Map<string, FileStatus>} */
  const status = new Map();
  /** @type {{ name: string, wanted: Expected[], job: import('../model_files/file_digests.js').HashJob }[]} */
  const planned = [];
  for (const [name, resources] of expected) {
    const entry = present.get(name);
    const wanted = [...resources.values()];
    if (!entry) {
      status.set(name, 'missing');
      continue;
    }
    const shards = s.method === 'shards' ? shardsOf(entry.size, /** @type {number} */ (s.shardSize)) : null;
    const keys = shards ? shards.map(([a, b]) => `${name}:${a}:${b}`) : [name];
    const sameLayout = keys.length === wanted.length && keys.every((k) => resources.has(k));
    if (!sameLayout || wanted.some((r) => r.algorithm !== algorithm)) status.set(name, 'modified');
    else
      planned.push({
        name,
        wanted: keys.map((k) => /** @type {Expected} */ (resources.get(k))),
        job: { entry, shards },
      });
  }
  const results = await hashJobs(
    planned.map((p) => p.job),
    options,
  );
  let readError = null;
  planned.forEach(({ name, wanted }, i) => {
    const digests = results[i];
    if (digests instanceof Error) {
      readError ??= `${name}: ${digests.message}`;
      status.set(name, 'missing');
    } else status.set(name, wanted.every((r, j) => r.digest === digests[j]) ? 'ok' : 'modified');
  });
  const files = [...expected.keys()].map((name) => ({ name, status: /** @type {FileStatus} */ (status.get(name)) }));
  // An empty file has no shards: a shard manifest cannot list it, nor miss it.
  const extra = model.entries
    .filter((e) => !expected.has(e.name) && !(s.method === 'shards' && e.size === 0))
    .map((e) => e.name)
    .sort();
  for (const name of extra) files.push({ name, status: 'unexpected' });
  return { files, readError };
}
