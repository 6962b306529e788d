// getTensors (issue 12): many tensors in one pass, adjacent ones as one stream; the same
// arrays as getTensor, fewer reads, typed errors before any read.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSafetensors, openSafetensorsIndex, serializeSafetensors } from '../../web/index.js';
import { RUN_BYTES } from '../../web/tensors/batch.js';
import { HAVE_REAL, REAL_DIR, recordingSource, rejection } from './fixtures.js';

const digest = (a) =>
  createHash('sha256')
    .update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    .digest('hex');
const bytesOf = async (blob) => new Uint8Array(await blob.arrayBuffer());

describe('getTensors', () => {
  test.skipIf(!HAVE_REAL)(
    "the kohya LoKr (1,750 tensors): every array equals getTensor's, native and float32",
    async () => {
      const st = await openSafetensors(
        new Blob([await readFile(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors'))]),
      );
      for (const as of ['native', 'float32']) {
        const all = await st.getTensors(undefined, { as });
        expect([...all.keys()]).toEqual(st.tensors.map((t) => t.name));
        for (const t of st.tensors) {
          const one = await st.getTensor(t.name, { as });
          const batch = all.get(t.name);
          expect(batch.constructor, t.name).toBe(one.constructor);
          expect(digest(batch), `${t.name} ${as}`).toBe(digest(one));
        }
      }
    },
  );

  test('adjacent tensors are one read; the Map follows the names given; progress ends at the total', async () => {
    const tensors = Array.from({ length: 100 }, (_, i) => ({
      name: `t${String(i).padStart(3, '0')}`,
      dtype: 'F16',
      shape: [3],
      data: Uint16Array.from([i, i + 1, 0x3c00]),
    }));
    const bytes = await bytesOf(await serializeSafetensors(tensors));
    const source = recordingSource(bytes);
    const st = await openSafetensors(source);
    const opened = source.reads.length;
    const progress = [];
    const some = await st.getTensors(['t050', 't002', 't050', 't099'], {
      as: 'raw',
      onProgress: (d, t) => progress.push([d, t]),
    });
    expect([...some.keys()]).toEqual(['t050', 't002', 't099']);
    expect([...some.get('t002')]).toEqual([2, 0, 3, 0, 0x00, 0x3c]);
    expect(progress.at(-1)).toEqual([18, 18]);
    source.reads.length = opened;
    const all = await st.getTensors();
    expect(source.reads.length - opened).toBe(1); // 100 adjacent tensors, one read
    const loopReads = source.reads.length;
    for (const t of st.tensors) expect(digest(await st.getTensor(t.name))).toBe(digest(all.get(t.name)));
    expect(source.reads.length - loopReads).toBe(100);
  });

  test('runs of at most 16 MiB are read a few at a time with the same results', async () => {
    const count = Math.floor((RUN_BYTES / 4) * 0.4); // 6.4 MiB each: 2 per run, 5 runs for 10 tensors
    const tensors = Array.from({ length: 10 }, (_, k) => ({
      name: `w${k}`,
      dtype: 'F32',
      shape: [count],
      data: Float32Array.from({ length: count }, (_, i) => i * (k + 1)),
    }));
    const st = await openSafetensors(await serializeSafetensors(tensors));
    const one = await st.getTensors(undefined, { concurrency: 1 });
    const four = await st.getTensors(undefined, { concurrency: 4 });
    for (const t of tensors) {
      expect(digest(one.get(t.name))).toBe(digest(t.data));
      expect(digest(four.get(t.name))).toBe(digest(t.data));
    }
  });

  test('unknown names, conversions a tensor cannot take and bad options fail before any read; abort rejects with the reason', async () => {
    const bytes = await bytesOf(
      await serializeSafetensors({
        a: { dtype: 'F32', shape: [2], data: new Float32Array(2) },
        p: { dtype: 'F6_E2M3', shape: [4], data: new Uint8Array(3) },
      }),
    );
    const source = recordingSource(bytes);
    const st = await openSafetensors(source);
    const opened = source.reads.length;
    expect((await rejection(st.getTensors(['a', 'nope']))).code).toBe('TensorNotFound');
    expect((await rejection(st.getTensors(undefined, { as: 'float32' }))).code).toBe('UnsupportedConversion');
    await expect(st.getTensors('a')).rejects.toThrow(TypeError);
    await expect(st.getTensors(undefined, { concurrency: 0 })).rejects.toThrow(TypeError);
    expect(source.reads.length).toBe(opened);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    expect((await rejection(st.getTensors(['a'], { signal: controller.signal }))).message).toBe('stop');
  });

  test.skipIf(!HAVE_REAL)('a sharded model: every tensor from its shard, as getTensor gives it', async () => {
    const model = await openSafetensorsIndex(join(REAL_DIR, 'sharded'));
    const progress = [];
    const all = await model.getTensors(undefined, { as: 'raw', onProgress: (d, t) => progress.push([d, t]) });
    expect([...all.keys()]).toEqual(model.tensors.map((t) => t.name));
    for (const t of model.tensors)
      expect(digest(all.get(t.name)), t.name).toBe(digest(await model.getTensor(t.name, { as: 'raw' })));
    const total = model.tensors.reduce((s, t) => s + t.byteLength, 0);
    expect(progress.at(-1)).toEqual([total, total]);
    expect((await rejection(model.getTensors(['nope']))).code).toBe('TensorNotFound');
  });
});

describe('getTensors over HTTP', () => {
  test('adjacent tensors of a remote file cost one Range request per run, not one per tensor', async () => {
    const { startServer } = await import('./http_server.js');
    const server = await startServer();
    try {
      const tensors = Array.from({ length: 100 }, (_, i) => ({
        name: `t${String(i).padStart(3, '0')}`,
        dtype: 'U8',
        shape: [8192],
        data: new Uint8Array(8192).fill(i),
      }));
      server.files.set('/m.safetensors', { bytes: await bytesOf(await serializeSafetensors(tensors)), etag: '"m"' });
      const st = await openSafetensors(server.url('/m.safetensors'));
      const opened = server.log.length;
      const all = await st.getTensors();
      expect(all.get('t042')[100]).toBe(42);
      const ranges = server.log.slice(opened).map((l) => l.range);
      expect(ranges.length, ranges.join(' ')).toBeLessThanOrEqual(1); // 800 KB in one run: one request past the first read
      server.log.length = 0;
      for (const name of ['t010', 't050', 't090']) await st.getTensor(name);
      expect(server.log.length).toBe(2); // t010 lies in the first read; the others cost one each
    } finally {
      await server.close();
    }
  });
});
