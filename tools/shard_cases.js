// Broken copies of a real sharded model (../shared/fixtures/real/sharded), one folder per
// cross-shard finding, for the library, CLI and demo tests: each shows a finding at work on a
// model another tool wrote, changed in one way only.
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSafetensors } from './write_safetensors.js';

export const INDEX_NAME = 'model.safetensors.index.json';

const f32 = (...values) => new Uint8Array(new Float32Array(values).buffer);

/**
 * code -> how to break the model: `index(json)` edits the index in place; `files(dir, shards)`
 * changes the folder (shards: the shard file names in order).
 */
const CASES = {
  IndexTensorMissing: {
    index: (json) => {
      json.weight_map['model.not_there.weight'] = json.weight_map.float16_3;
    },
  },
  UnindexedTensor: {
    index: (json) => {
      delete json.weight_map.int8_357;
    },
  },
  TensorInSeveralShards: {
    // A seventh shard holding a tensor of its own and a copy of one from shard 2.
    async files(dir, shards, json) {
      const name = 'model-extra.safetensors';
      await writeFile(
        join(dir, name),
        writeSafetensors(
          [
            { name: 'extra.weight', dtype: 'F32', shape: [2], data: f32(1, 2) },
            { name: 'float32_357', dtype: 'F32', shape: [1], data: f32(3) },
          ],
          { format: 'pt' },
        ),
      );
      json.weight_map['extra.weight'] = name;
      json.metadata.total_size += 8;
    },
  },
  ShardMissing: { files: (dir, shards) => rm(join(dir, shards[3])) },
  ShardNotLoadable: {
    // Shard 5 cut short by one byte: the reference rejects it (MetadataIncompleteBuffer).
    async files(dir, shards) {
      const path = join(dir, shards[4]);
      const bytes = await readFile(path);
      await writeFile(path, bytes.subarray(0, bytes.byteLength - 1));
    },
  },
  UnsafeShardName: {
    // A shard of the same name one folder up, which must never be read.
    async files(dir, shards, json) {
      await copyFile(join(dir, shards[0]), join(dir, '..', 'outside.safetensors'));
      json.weight_map['model.outside.weight'] = '../outside.safetensors';
    },
  },
  IndexTotalSizeMismatch: {
    index: (json) => {
      json.metadata.total_size += 1000;
    },
  },
  ShardNotReferenced: { files: (dir, shards) => copyFile(join(dir, shards[0]), join(dir, 'model-old.safetensors')) },
};

/**
 * Writes one folder per case under `outDir` (copies of the shards in `realDir` and an edited
 * index) and returns [{ code, dir }].
 * @param {string} realDir
 * @param {string} outDir
 */
export async function writeShardCases(realDir, outDir) {
  const shards = (await readdir(realDir)).filter((f) => f.endsWith('.safetensors')).sort();
  const original = await readFile(join(realDir, INDEX_NAME), 'utf8');
  const out = [];
  for (const [code, change] of Object.entries(CASES)) {
    const dir = join(outDir, code);
    await mkdir(dir, { recursive: true });
    for (const shard of shards) await copyFile(join(realDir, shard), join(dir, shard));
    const json = JSON.parse(original);
    if ('index' in change) change.index(json);
    if ('files' in change) await change.files(dir, shards, json);
    await writeFile(join(dir, INDEX_NAME), JSON.stringify(json, null, 2));
    out.push({ code, dir });
  }
  return out;
}
