// Sharded checkpoints (issue 11): an index and its shards opened as one model, from a path,
// picked files, a URL or { index, resolve }; broken copies of the real sharded model show
// every cross-shard finding.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, openSafetensorsIndex, SafetensorsError } from '../../web/index.js';
import { parseIndex, shardUrl, unsafeShardReason } from '../../web/sharded/shard_index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { INDEX_NAME, writeShardCases } from '../../tools/shard_cases.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';
import { startServer } from './http_server.js';

const SHARDED = join(REAL_DIR, 'sharded');
const f32 = (...values) => new Uint8Array(new Float32Array(values).buffer);

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
    // Over HTTP: one request for the index, one per shard: each first read is sized from the
    // index (names and count), a few KiB instead of 256 KiB, and holds the whole header.
    expect(server.log.length).toBe(2 * 7);
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

describe('sharded models from { index, resolve }', () => {
  const shardA = writeSafetensors([
    { name: 'a.weight', dtype: 'F32', shape: [2], data: f32(1, 2) },
    { name: 'shared', dtype: 'F32', shape: [1], data: f32(7) },
  ]);
  const shardB = writeSafetensors([
    { name: 'b.weight', dtype: 'F32', shape: [1], data: f32(3) },
    { name: 'shared', dtype: 'F32', shape: [1], data: f32(8) },
  ]);
  const files = { 'a.safetensors': shardA, 'b.safetensors': shardB };

  test('a tensor in two shards: TensorInSeveralShards, and getTensor reads the copy the index names', async () => {
    const index = {
      metadata: { total_size: 16 },
      weight_map: { 'a.weight': 'a.safetensors', 'b.weight': 'b.safetensors', shared: 'b.safetensors' },
    };
    const model = await openSafetensorsIndex({ index: JSON.stringify(index), resolve: (name) => files[name] });
    expect(model.findings.map((f) => [f.code, f.shard, f.tensor])).toEqual([
      ['TensorInSeveralShards', 'b.safetensors', 'shared'],
    ]);
    expect(Array.from(await model.getTensor('shared'))).toEqual([8]);
    expect(model.tensors.map((t) => t.name)).toEqual(['a.weight', 'b.weight', 'shared']);
  });

  test("shards that list their tensors in the index's order or in another: the same model, in index order", async () => {
    const three = writeSafetensors(
      ['c', 'd', 'e'].map((name, i) => ({ name, dtype: 'F32', shape: [1], data: f32(i) })),
    );
    const shards = { 'a.safetensors': shardA, 'c.safetensors': three };
    // Shard a in its data order (a.weight, shared); shard c listed backwards (its data order is c, d, e).
    const index = {
      metadata: { total_size: 24 },
      weight_map: {
        'a.weight': 'a.safetensors',
        e: 'c.safetensors',
        shared: 'a.safetensors',
        d: 'c.safetensors',
        c: 'c.safetensors',
      },
    };
    const model = await openSafetensorsIndex({ index: JSON.stringify(index), resolve: (name) => shards[name] });
    expect(model.findings).toEqual([]);
    expect(model.tensors.map((t) => [t.name, t.shard])).toEqual([
      ['a.weight', 'a.safetensors'],
      ['e', 'c.safetensors'],
      ['shared', 'a.safetensors'],
      ['d', 'c.safetensors'],
      ['c', 'c.safetensors'],
    ]);
    expect(Array.from(await model.getTensor('e'))).toEqual([2]);
    // The same shards under an index that puts d in the wrong shard and forgets e.
    const wrong = {
      weight_map: { 'a.weight': 'a.safetensors', shared: 'a.safetensors', d: 'a.safetensors', c: 'c.safetensors' },
    };
    const broken = await openSafetensorsIndex({ index: JSON.stringify(wrong), resolve: (name) => shards[name] });
    expect(broken.findings.map((f) => [f.code, f.shard, f.tensor])).toEqual([
      ['IndexTensorMissing', 'a.safetensors', 'd'],
      ['UnindexedTensor', 'c.safetensors', 'd'],
    ]);
    expect(broken.findings[1].message).toContain('2 tensors');
    expect(broken.tensors.map((t) => t.name)).toEqual(['a.weight', 'shared', 'c', 'd', 'e']);
  });

  test('unsafe shard names are never resolved; safe names resolve next to the index, percent-encoded', async () => {
    const unsafe = [
      '../x.safetensors',
      'a/../../x.safetensors',
      '/etc/passwd',
      'C:\\models\\x.safetensors',
      'https://evil.example/x.safetensors',
      'file:///etc/passwd',
      '//evil.example/x.safetensors',
      'a\\..\\x.safetensors',
      '',
      'x\u0000.safetensors',
    ];
    for (const name of unsafe) expect(unsafeShardReason(name), JSON.stringify(name)).not.toBeNull();
    for (const name of [
      'model-00001-of-00002.safetensors',
      'sub/dir/x.safetensors',
      '%2e%2e/x.safetensors',
      'a?b#c.safetensors',
    ]) {
      expect(unsafeShardReason(name), name).toBeNull();
      expect(
        shardUrl(name, 'https://host/org/model/resolve/main/model.safetensors.index.json').startsWith(
          'https://host/org/model/resolve/main/',
        ),
      ).toBe(true);
    }
    expect(shardUrl('a?b#c.safetensors', 'https://h/m/i.json')).toBe('https://h/m/a%3Fb%23c.safetensors');
    expect(shardUrl('%2e%2e/x.safetensors', 'https://h/m/i.json')).toBe('https://h/m/%252e%252e/x.safetensors');
    const asked = [];
    const weightMap = Object.fromEntries(unsafe.map((name, i) => [`t${i}`, name]));
    const model = await openSafetensorsIndex({
      index: { weight_map: { ...weightMap, 'a.weight': 'a.safetensors' } },
      resolve: (name) => {
        asked.push(name);
        return files[name];
      },
    });
    expect(asked).toEqual(['a.safetensors']);
    expect(model.findings.filter((f) => f.code === 'UnsafeShardName').map((f) => f.shard)).toEqual(unsafe);
    expect(model.findings.map((f) => f.code)).toEqual([...unsafe.map(() => 'UnsafeShardName'), 'UnindexedTensor']);
  });

  test('findings of one code and shard are aggregated: 10,000 missing tensors give one finding', async () => {
    const weightMap = { 'a.weight': 'a.safetensors', shared: 'a.safetensors' };
    for (let i = 0; i < 10_000; i++) weightMap[`gone.${i}`] = 'a.safetensors';
    const model = await openSafetensorsIndex({ index: { weight_map: weightMap }, resolve: (name) => files[name] });
    expect(model.findings).toHaveLength(1);
    expect(model.findings[0]).toMatchObject({ code: 'IndexTensorMissing', tensor: 'gone.0', shard: 'a.safetensors' });
    expect(model.findings[0].message).toContain('10000 tensors');
    expect(model.findings[0].message).toContain('"gone.0", "gone.1", "gone.2" and 9997 more');
  });

  test('shards open at most `concurrency` at a time; abort rejects with the reason', async () => {
    const weightMap = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, `s${i}.safetensors`]));
    let open = 0;
    let most = 0;
    const resolve = (/** @type {string} */ name) => {
      const one = writeSafetensors([{ name: `t${name.slice(1, -12)}`, dtype: 'F32', shape: [1], data: f32(1) }]);
      return {
        size: one.byteLength,
        async read(offset, length) {
          most = Math.max(most, ++open);
          await new Promise((r) => setTimeout(r, 5));
          open--;
          return one.subarray(offset, offset + length);
        },
      };
    };
    const model = await openSafetensorsIndex({ index: { weight_map: weightMap }, resolve }, { concurrency: 3 });
    expect(most).toBe(3);
    expect(model.findings).toEqual([]);
    expect(model.tensors.map((t) => t.name)).toEqual(Object.keys(weightMap));
    const controller = new AbortController();
    const opening = openSafetensorsIndex(
      { index: { weight_map: weightMap }, resolve },
      { signal: controller.signal, onProgress: (done) => done === 2 && controller.abort(new Error('stop')) },
    );
    expect((await rejection(opening)).message).toBe('stop');
  });

  test('an index that cannot be used is an InvalidIndex error; bad arguments are TypeErrors', async () => {
    const resolve = () => shardA;
    for (const index of [
      '{',
      '[]',
      '{"metadata":{}}',
      '{"weight_map":[]}',
      '{"weight_map":{"a":1}}',
      '{"weight_map":{},"metadata":"x"}',
      new Blob(['\xff']),
    ]) {
      const error = await rejection(openSafetensorsIndex({ index, resolve }));
      expect(error, String(index)).toBeInstanceOf(SafetensorsError);
      expect(error.code).toBe('InvalidIndex');
    }
    const bytes = new Uint8Array([0xff, 0xfe]);
    expect(() => parseIndex(bytes, 'x')).toThrow(/not UTF-8/);
    const two = [new File(['{}'], 'a.safetensors.index.json'), new File(['{}'], 'b.safetensors.index.json')];
    expect((await rejection(openSafetensorsIndex(two))).message).toContain('2 indexes');
    expect((await rejection(openSafetensorsIndex([new File(['x'], 'notes.txt')]))).code).toBe('InvalidIndex');
    expect((await rejection(openSafetensorsIndex('/no/such/folder'))).code).toBe('InvalidIndex');
    await expect(openSafetensorsIndex(42)).rejects.toThrow(TypeError);
    await expect(openSafetensorsIndex({ index: {} })).rejects.toThrow(TypeError);
    await expect(openSafetensorsIndex({ index: { weight_map: {} }, resolve }, { concurrency: 0 })).rejects.toThrow(
      TypeError,
    );
  });
});

describe('sharded models over HTTP', () => {
  let server;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('an index the server refuses is an HttpError; one too large is stopped at its Content-Length', async () => {
    const missing = await rejection(openSafetensorsIndex(server.url('/none/model.safetensors.index.json')));
    expect(missing.code).toBe('HttpError');
    expect(missing.status).toBe(404);
    let sent = 0;
    server.answer = (req, res) => {
      res.writeHead(200, { 'Content-Length': String(300 << 20) });
      res.write(new Uint8Array(1 << 16), () => {
        sent++;
      });
      return true;
    };
    const large = await rejection(openSafetensorsIndex(server.url('/big/model.safetensors.index.json')));
    server.answer = null;
    expect(large.code).toBe('InvalidIndex');
    expect(large.message).toContain('limit');
    expect(sent).toBeLessThanOrEqual(1);
  });

  test('a shard whose header is longer than the index suggests (large metadata) opens with a second request', async () => {
    const big = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [1], data: f32(5) }], {
      notes: 'x'.repeat(20_000),
    });
    const small = writeSafetensors([{ name: 'v', dtype: 'F32', shape: [1], data: f32(6) }]);
    server.files.set('/b/big.safetensors', { bytes: big, etag: '"b"' });
    server.files.set('/b/small.safetensors', { bytes: small, etag: '"s"' });
    server.files.set('/b/model.safetensors.index.json', {
      bytes: new TextEncoder().encode(JSON.stringify({ weight_map: { w: 'big.safetensors', v: 'small.safetensors' } })),
      etag: '"i"',
    });
    server.log.length = 0;
    const model = await openSafetensorsIndex(server.url('/b/model.safetensors.index.json'));
    expect(model.findings).toEqual([]);
    expect(model.shards[0].tensors[0].name).toBe('w');
    expect(server.log.filter((r) => r.path === '/b/big.safetensors')).toHaveLength(2);
    expect(server.log.filter((r) => r.path === '/b/small.safetensors')).toHaveLength(1);
    expect(Array.from(await model.getTensor('w'))).toEqual([5]);
  });

  test('a shard the server does not have is ShardMissing with its status in the message', async () => {
    server.files.set('/m/model.safetensors.index.json', {
      bytes: new TextEncoder().encode(JSON.stringify({ weight_map: { w: 'gone.safetensors' } })),
      etag: '"i"',
    });
    const model = await openSafetensorsIndex(server.url('/m/model.safetensors.index.json'));
    expect(model.findings).toHaveLength(1);
    expect(model.findings[0]).toMatchObject({ code: 'ShardMissing', shard: 'gone.safetensors', severity: 'error' });
    expect(model.findings[0].message).toContain('404');
  });
});
