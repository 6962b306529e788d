// openInWorker (issue 12) in Node worker threads: the same results as openSafetensors on this
// thread, errors of the same kind and code, abort, several workers.
import { describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSafetensors, SafetensorsError, serializeSafetensors } from '../../web/index.js';
import { openInWorker } from '../../web/worker.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';

describe('openInWorker', () => {
  test('the same tensors, arrays, pieces, card and hashes as on this thread; two workers share getTensors', async () => {
    const n = 50_000;
    const tensors = {
      a: { dtype: 'F16', shape: [n], data: Uint16Array.from({ length: n }, (_, i) => i & 0x7bff) },
      b: { dtype: 'F32', shape: [100, 10], data: Float32Array.from({ length: 1000 }, (_, i) => i / 3) },
      c: { dtype: 'I64', shape: [3], data: BigInt64Array.from([1n, -2n, 3n]) },
    };
    const blob = await serializeSafetensors(tensors, { metadata: { format: 'pt', 'modelspec.title': 'in a worker' } });
    const here = await openSafetensors(blob);
    const remote = await openInWorker(blob, { concurrency: 2 });
    try {
      expect(remote.tensors).toEqual(here.tensors);
      expect(remote.metadata).toEqual(here.metadata);
      expect(remote.report).toEqual(here.report);
      const progress = [];
      expect(await remote.getTensor('a', { as: 'float32', onProgress: (d, t) => progress.push([d, t]) })).toEqual(
        await here.getTensor('a', { as: 'float32' }),
      );
      expect(progress.at(-1)).toEqual([2 * n, 2 * n]);
      expect(await remote.getTensor('b', { rows: [10, 20] })).toEqual(await here.getTensor('b', { rows: [10, 20] }));
      const all = await remote.getTensors();
      expect([...all.keys()]).toEqual(here.tensors.map((t) => t.name)); // file order
      for (const name of ['a', 'b', 'c']) expect(all.get(name)).toEqual(await here.getTensor(name));
      const pieces = [];
      for await (const { offset, values } of remote.streamTensor('a', { as: 'float32', chunkBytes: 4096 }))
        pieces.push([offset, values]);
      expect(pieces.length).toBe(Math.ceil((2 * n) / 4096));
      const joined = new Float32Array(n);
      for (const [offset, values] of pieces) joined.set(values, offset);
      expect(joined).toEqual(await here.getTensor('a', { as: 'float32' }));
      expect((await remote.describe()).title).toBe('in a worker');
      expect(await remote.hash()).toEqual(await here.hash());
      // Leaving a stream early stops it; the worker goes on serving.
      for await (const piece of remote.streamTensor('a', { chunkBytes: 1024 })) if (piece.offset >= 0) break;
      expect(await remote.getTensor('c')).toEqual(BigInt64Array.from([1n, -2n, 3n]));
    } finally {
      remote.close();
    }
  });

  test('errors keep their kind and code; abort rejects with the reason; a closed file rejects', async () => {
    const blob = await serializeSafetensors({ w: { dtype: 'F32', shape: [4], data: new Float32Array(4) } });
    const remote = await openInWorker(blob);
    const missing = await rejection(remote.getTensor('nope'));
    expect(missing).toBeInstanceOf(SafetensorsError);
    expect([missing.code, missing.tensor]).toEqual(['TensorNotFound', 'nope']);
    await expect(remote.getTensor('w', { rows: [3, 9] })).rejects.toThrow(RangeError);
    await expect(remote.getTensor('w', { into: new Float32Array(4) })).rejects.toThrow(TypeError);
    const reason = new Error('stop');
    expect(await rejection(remote.getTensor('w', { signal: AbortSignal.abort(reason) }))).toBe(reason);
    remote.close();
    const bad = new Uint8Array(await blob.arrayBuffer()).slice(0, 40);
    const rejected = await rejection(openInWorker(bad));
    expect(rejected).toBeInstanceOf(SafetensorsError);
    expect(rejected.report.loadable).toBe(false);
  });

  test('Node sources a worker cannot be sent: a Blob from fs.openAsBlob, a FileHandle, a { size, read } (issue 30, 2)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'st-worker-'));
    const path = join(dir, 'm.safetensors');
    const bytes = new Uint8Array(
      await (
        await serializeSafetensors({
          a: { dtype: 'F32', shape: [1000], data: Float32Array.from({ length: 1000 }, (_, i) => i) },
          b: { dtype: 'I64', shape: [2], data: BigInt64Array.from([5n, -6n]) },
        })
      ).arrayBuffer(),
    );
    await writeFile(path, bytes);
    const here = await openSafetensors(bytes);
    const expected = { a: await here.getTensor('a'), b: await here.getTensor('b'), sha256: (await here.hash()).sha256 };
    const handle = await open(path);
    try {
      const sources = [
        await openAsBlob(path),
        handle,
        { size: bytes.byteLength, read: async (offset, length) => bytes.subarray(offset, offset + length) },
        path,
      ];
      for (const source of sources) {
        const remote = await openInWorker(source, { concurrency: 2 });
        try {
          const all = await remote.getTensors();
          expect({ a: all.get('a'), b: all.get('b'), sha256: (await remote.hash()).sha256 }).toEqual(expected);
        } finally {
          remote.close();
        }
      }
      // The caller's bytes are copied, never moved away.
      expect(bytes.byteLength).toBeGreaterThan(0);
      // What no source can be: a TypeError before any worker starts; a read that fails: a ReadError.
      for (const bad of [null, 42, { nope: 1 }, () => {}]) await expect(openInWorker(bad)).rejects.toThrow(TypeError);
      const failing = { size: bytes.byteLength, read: async () => Promise.reject(new Error('disk gone')) };
      const failed = await rejection(openInWorker(failing));
      expect([failed.code, failed.message]).toEqual(['ReadError', expect.stringContaining('disk gone')]);
    } finally {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a script that never calls close() still exits once its reads are done', async () => {
    const worker = fileURLToPath(new URL('../../web/worker.js', import.meta.url));
    const script = `
      import { openInWorker } from ${JSON.stringify(worker)};
      const bytes = new Uint8Array(16); new DataView(bytes.buffer).setBigUint64(0, 8n, true);
      bytes.set(new TextEncoder().encode('{}      '), 8);
      const remote = await openInWorker(bytes, { concurrency: 2 });
      console.log(remote.tensors.length, (await remote.hash()).sha256.length);`;
    const dir = await mkdtemp(join(tmpdir(), 'st-worker-exit-'));
    try {
      await writeFile(join(dir, 'forgets_close.mjs'), script);
      // Killed after 20 s: a script the workers keep alive fails here with a timeout.
      const result = await new Promise((resolve) => {
        execFile(process.execPath, [join(dir, 'forgets_close.mjs')], { timeout: 20_000 }, (error, stdout, stderr) =>
          resolve({ error, stdout, stderr }),
        );
      });
      expect(result.error, result.stderr).toBeNull();
      expect(result.stdout.trim()).toBe('0 64');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test.skipIf(!HAVE_REAL)('the kohya LoKr opened in a worker: its card', async () => {
    const bytes = new Uint8Array(await readFile(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors')));
    const remote = await openInWorker(new Blob([bytes]));
    try {
      expect((await remote.describe({ readAlpha: true })).adapter?.type).toBe(
        (await (await openSafetensors(bytes)).describe({ readAlpha: true })).adapter?.type,
      );
    } finally {
      remote.close();
    }
  });
});
