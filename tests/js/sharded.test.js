// Sharded checkpoints (issue 11): an index and its shards opened as one model, from a path,
// picked files, a URL or { index, resolve }; broken copies of the real sharded model show
// every cross-shard finding. More of { index, resolve }: sharded_resolve.test.js; servers that
// fail: sharded_http.test.js.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, openSafetensorsIndex, SafetensorsError } from '../../web/index.js';
import { INDEX_NAME, writeShardCases } from '../../tools/shard_cases.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';
import { startServer } from './http_server.js';

const SHARDED = join(REAL_DIR, 'sharded');

/** A folder's files as File objects, as a multi-file pick gives them. */
async function picked(dir) {
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (name) => new File([await readFile(join(dir, name))], name)));
}

/** Serves every file of `dir` under `/prefix/`. */
async function serveFolder(server, dir, prefix) {
  for (const name of await readdir(dir))
    server.files.set(`/${prefix}/${name}`, {
      bytes: new Uint8Array(await readFile(join(dir, name))),
      etag: `"${name}"`,
    });
}

const prod = (shape) => shape.reduce((a, b) => a * b, 1);

describe.skipIf(!HAVE_REAL)('the real sharded model (../shared/fixtures/real/sharded)', () => {
  let server;
  let work;
  let cases;
  beforeAll(async () => {
    server = await startServer();
    await serveFolder(server, SHARDED, 'real');
    work = await mkdtemp(join(tmpdir(), 'st-shards-'));
    cases = await writeShardCases(SHARDED, join(work, 'cases'));
    for (const c of cases) await serveFolder(server, c.dir, c.code);
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  test('opened from its folder, its index, picked files and a URL: the same model, tensors in index order', async () => {
    const index = JSON.parse(await readFile(join(SHARDED, INDEX_NAME), 'utf8'));
    const progress = [];
    const fromFolder = await openSafetensorsIndex(SHARDED, {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 6]));
    expect(fromFolder.findings).toEqual([]);
    expect(fromFolder.loadable).toBe(true);
    expect(fromFolder.metadata).toEqual(index.metadata);
    expect(fromFolder.tensors.map((t) => [t.name, t.shard])).toEqual(Object.entries(index.weight_map));
    expect(fromFolder.shards.map((s) => [s.name, s.report.loadable, s.tensors.length])).toEqual(
      [...new Set(Object.values(index.weight_map))].map((name) => [
        name,
        true,
        Object.values(index.weight_map).filter((v) => v === name).length,
      ]),
    );
    expect(fromFolder.tensors.reduce((sum, t) => sum + t.byteLength, 0)).toBe(index.metadata.total_size);
    server.log.length = 0;
    const others = [
      await openSafetensorsIndex(join(SHARDED, INDEX_NAME)),
      await openSafetensorsIndex(await picked(SHARDED)),
      await openSafetensorsIndex(server.url(`/real/${INDEX_NAME}`)),
      await openSafetensorsIndex(new URL(server.url(`/real/${INDEX_NAME}`)), { concurrency: 1 }),
    ];
    // Over HTTP: one request for the index, one for config.json beside it (none here), one per
    // shard: each first read is sized from the index (names and count), a few KiB instead of
    // 256 KiB, and holds the whole header.
    expect(server.log.length).toBe(2 * 8);
    expect(server.log.filter((l) => l.path === '/real/config.json')).toHaveLength(2);
    const shardReads = server.log
      .filter((l) => l.path.endsWith('.safetensors'))
      .map((l) => Number(/^bytes=0-(\d+)$/.exec(l.range)?.[1]) + 1);
    for (const bytes of shardReads) expect(bytes % 1024 === 0 && bytes <= 4096, String(bytes)).toBe(true);
    for (const model of others) {
      expect(model.findings).toEqual([]);
      expect(model.tensors).toEqual(fromFolder.tensors);
    }
  });

  test('getTensor reads from the shard the index names; describe() counts every shard', async () => {
    const model = await openSafetensorsIndex(server.url(`/real/${INDEX_NAME}`));
    for (const t of model.tensors) {
      const shard = await openSafetensors(new Uint8Array(await readFile(join(SHARDED, t.shard))));
      expect(await model.getTensor(t.name, { as: 'raw' }), t.name).toEqual(
        await shard.getTensor(t.name, { as: 'raw' }),
      );
    }
    const error = await rejection(model.getTensor('nope'));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe('TensorNotFound');
    const card = await model.describe();
    expect(card.parameters.total).toBe(model.tensors.reduce((sum, t) => sum + prod(t.shape), 0));
    expect(card.modules.tensors).toBe(36);
    expect(Object.keys(card.parameters.byDtype).sort()).toEqual([...new Set(model.tensors.map((t) => t.dtype))].sort());
  });

  /** What each broken copy must give: its one finding, on which shard and tensor. */
  const expected = {
    IndexTensorMissing: {
      shard: 'model-00001-of-00006.safetensors',
      tensor: 'model.not_there.weight',
      loadable: false,
    },
    UnindexedTensor: { shard: 'model-00004-of-00006.safetensors', tensor: 'int8_357', loadable: true },
    TensorInSeveralShards: { shard: 'model-extra.safetensors', tensor: 'float32_357', loadable: false },
    ShardMissing: { shard: 'model-00004-of-00006.safetensors', loadable: false },
    ShardNotLoadable: { shard: 'model-00005-of-00006.safetensors', loadable: false },
    UnsafeShardName: { shard: '../outside.safetensors', loadable: false },
    IndexTotalSizeMismatch: { loadable: true },
    ShardNotReferenced: { shard: 'model-old.safetensors', loadable: true },
  };

  test('every cross-shard finding on its broken copy, from a folder, from picked files and over HTTP', async () => {
    expect(cases.map((c) => c.code).sort()).toEqual(Object.keys(expected).sort());
    for (const { code, dir } of cases) {
      const want = expected[code];
      server.log.length = 0;
      const sources = { folder: dir, files: await picked(dir), url: server.url(`/${code}/${INDEX_NAME}`) };
      for (const [how, source] of Object.entries(sources)) {
        const model = await openSafetensorsIndex(source);
        // A URL cannot list the folder: files next to the index are not seen.
        const codes = how === 'url' && code === 'ShardNotReferenced' ? [] : [code];
        expect(
          model.findings.map((f) => f.code),
          `${code} from ${how}`,
        ).toEqual(codes);
        if (codes.length === 0) continue;
        const [finding] = model.findings;
        expect(finding.severity).toBe(want.loadable ? (code === 'ShardNotReferenced' ? 'info' : 'warning') : 'error');
        expect(finding.shard).toBe(want.shard);
        expect(finding.tensor).toBe(want.tensor);
        expect(finding.message.length, finding.message).toBeGreaterThan(40);
        expect(model.loadable).toBe(want.loadable);
      }
      // The unsafe shard is never asked for.
      expect(server.log.map((r) => r.path).filter((p) => p.includes('outside'))).toEqual([]);
    }
  });

  test('a broken copy: the tensors that can be had, and a typed error for those that cannot', async () => {
    const dir = (code) => cases.find((c) => c.code === code).dir;
    const missing = await openSafetensorsIndex(dir('ShardMissing'));
    expect(missing.shards[3].report).toMatchObject({ loadable: false, referenceError: null, tensors: 0 });
    expect(missing.tensors.some((t) => t.shard === missing.shards[3].name)).toBe(false);
    expect((await rejection(missing.getTensor('uint8_357'))).code).toBe('ShardMissing');
    expect(await missing.getTensor('float16_3')).toHaveLength(3);

    const rejected = await openSafetensorsIndex(dir('ShardNotLoadable'));
    expect(rejected.shards[4].report).toMatchObject({ loadable: false, referenceError: 'MetadataIncompleteBuffer' });
    expect(rejected.findings[0].message).toContain('MetadataIncompleteBuffer');
    expect((await rejection(rejected.getTensor('bfloat16_3'))).code).toBe('ShardNotLoadable');

    const unindexed = await openSafetensorsIndex(dir('UnindexedTensor'));
    expect(unindexed.tensors.at(-1)).toMatchObject({ name: 'int8_357', shard: 'model-00004-of-00006.safetensors' });
    expect(await unindexed.getTensor('int8_357')).toBeInstanceOf(Int8Array);
  });

  test('a folder without an index: every .safetensors file is a shard, in name order', async () => {
    const files = (await picked(SHARDED)).filter((f) => f.name !== INDEX_NAME);
    const model = await openSafetensorsIndex(files);
    expect(model.metadata).toBeNull();
    expect(model.findings).toEqual([]);
    expect(model.shards.map((s) => s.name)).toEqual(files.map((f) => f.name));
    expect(model.tensors).toHaveLength(36);
  });
});
