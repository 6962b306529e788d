// Sharded models from { index, resolve } (issue 11): a tensor in two shards, tensor order, unsafe
// shard names, aggregated findings, concurrency and abort, unusable indexes and bad arguments.
// The real sharded model: sharded.test.js; over HTTP: sharded_http.test.js.
import { describe, expect, test } from 'vitest';
import { openSafetensorsIndex, SafetensorsError } from '../../web/index.js';
import { parseIndex, shardUrl, unsafeShardReason } from '../../web/sharded/shard_index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { rejection } from './fixtures.js';

const f32 = (...values) => new Uint8Array(new Float32Array(values).buffer);

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
    for (const maxBytesInFlight of [0, 1.5, '64'])
      await expect(openSafetensorsIndex({ index: { weight_map: {} }, resolve }, { maxBytesInFlight })).rejects.toThrow(
        /maxBytesInFlight must be a positive integer/,
      );
  });
});
