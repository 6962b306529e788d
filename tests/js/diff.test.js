// diffSafetensors and `safetensors-wasm diff`: what changed between two checkpoints, by name,
// with the bytes compared (SHA-256 and the largest element difference) when asked; across
// shardings and over HTTP; the CLI's exit codes and text.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { diffSafetensors, openSafetensors, openSafetensorsIndex, serializeSafetensors } from '../../web/index.js';
import { compareStreams } from '../../web/compare/lockstep.js';
import { startServer } from './http_server.js';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';

const run = promisify(execFile);
const CLI = new URL('../../web/cli/main.js', import.meta.url).pathname;

const W1 = new Float32Array([1, 2, 3, 4, 5, 6]);
const W2 = new Float32Array(1000).map((_, i) => i / 7);
const W2_CHANGED = W2.map((v, i) => (i === 123 ? v + 0.5 : i === 900 ? Number.NaN : v));
const HALF = new Uint16Array([0x3c00, 0x4000, 0x4200]); // F16 1, 2, 3

async function bytesOf(tensors, metadata) {
  return new Uint8Array(await (await serializeSafetensors(tensors, { metadata })).arrayBuffer());
}

const A = await bytesOf(
  {
    w1: { dtype: 'F32', shape: [2, 3], data: W1 },
    w2: { dtype: 'F32', shape: [1000], data: W2 },
    h: { dtype: 'F16', shape: [3], data: HALF },
    b: { dtype: 'I32', shape: [2], data: new Int32Array([7, 8]) },
    gone: { dtype: 'U8', shape: [1], data: new Uint8Array([1]) },
  },
  { format: 'pt', note: 'first' },
);
const B = await bytesOf(
  {
    w1: { dtype: 'F32', shape: [3, 2], data: W1 },
    w2: { dtype: 'F32', shape: [1000], data: W2_CHANGED },
    h: { dtype: 'F16', shape: [3], data: new Uint16Array([0x3c00, 0x4000, 0x4400]) }, // 3 → 4
    b: { dtype: 'I64', shape: [2], data: new BigInt64Array([7n, 8n]) },
    fresh: { dtype: 'BF16', shape: [2, 2], data: new Uint16Array(4) },
  },
  { format: 'pt', note: 'second', added: 'yes' },
);

const sha = (array) =>
  createHash('sha256')
    .update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength))
    .digest('hex');

describe('diffSafetensors', () => {
  test('tensors added, removed, changed in dtype or shape, and metadata keys; bytes only when asked', async () => {
    const d = await diffSafetensors(A, B);
    expect(d.identical).toBe(false);
    expect(d.dataCompared).toBe(false);
    expect(d.tensors.added).toEqual([{ name: 'fresh', dtype: 'BF16', shape: [2, 2] }]);
    expect(d.tensors.removed).toEqual([{ name: 'gone', dtype: 'U8', shape: [1] }]);
    expect(d.tensors.changed).toEqual([
      {
        name: 'w1',
        shape: [
          [2, 3],
          [3, 2],
        ],
      },
      { name: 'b', dtype: ['I32', 'I64'] },
    ]);
    expect(d.tensors.unchanged).toBe(2); // w2 and h: same dtype and shape, bytes not read
    expect(d.metadata).toEqual({ added: ['added'], removed: [], changed: [{ key: 'note', a: 'first', b: 'second' }] });
  });

  test('with data: each changed tensor’s SHA-256 on both sides and its largest element difference', async () => {
    const d = await diffSafetensors(A, B, { data: true });
    const byName = Object.fromEntries(d.tensors.changed.map((c) => [c.name, c]));
    expect(byName.w2.data).toEqual({
      equal: false,
      sha256: [sha(W2), sha(W2_CHANGED)],
      maxAbsDiff: Infinity, // element 900 is NaN on one side only
      differentElements: 2,
    });
    expect(byName.h.data.maxAbsDiff).toBe(1); // F16 3 against 4, compared as float32
    expect(byName.h.data.differentElements).toBe(1);
    expect(d.tensors.unchanged).toBe(0);
    const same = await diffSafetensors(A, A, { data: true });
    expect(same.identical).toBe(true);
    expect(same.tensors.unchanged).toBe(5);
  });

  test('the largest difference is exact where no NaN is involved', async () => {
    const shifted = await bytesOf({
      w2: { dtype: 'F32', shape: [1000], data: W2.map((v, i) => (i % 10 === 0 ? v - 0.25 : v)) },
    });
    const base = await bytesOf({ w2: { dtype: 'F32', shape: [1000], data: W2 } });
    const d = await diffSafetensors(base, shifted, { data: true });
    expect(d.tensors.changed[0].data.differentElements).toBe(100);
    const expected = Math.max(...Array.from(W2, (v, i) => (i % 10 === 0 ? Math.abs(v - Math.fround(v - 0.25)) : 0)));
    expect(d.tensors.changed[0].data.maxAbsDiff).toBe(expected);
  });

  test('lockstep reading matches stretches whatever the two sides’ piece sizes', async () => {
    async function* pieces(values, sizes) {
      let at = 0;
      for (let k = 0; at < values.length; k++) {
        const n = sizes[k % sizes.length];
        yield { values: values.subarray(at, at + n) };
        at += n;
      }
    }
    const values = new Uint8Array(1000).map((_, i) => i % 251);
    const seen = [];
    await compareStreams(pieces(values, [7, 300, 1]), pieces(values.slice(), [64]), (x, y) => {
      expect(Array.from(x)).toEqual(Array.from(y));
      seen.push(...x);
    });
    expect(seen).toEqual(Array.from(values));
  });

  test('one model in another sharding compares identical, data included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stw-diff-'));
    const tensors = {
      a: { dtype: 'F32', shape: [3], data: new Float32Array([1, 2, 3]) },
      b: { dtype: 'F16', shape: [2], data: new Uint16Array([0x3c00, 0x4000]) },
      c: { dtype: 'I64', shape: [1], data: new BigInt64Array([5n]) },
    };
    await writeFile(join(dir, 'whole.safetensors'), await bytesOf(tensors));
    await writeFile(join(dir, 'model-00001-of-00002.safetensors'), await bytesOf({ a: tensors.a }));
    await writeFile(join(dir, 'model-00002-of-00002.safetensors'), await bytesOf({ b: tensors.b, c: tensors.c }));
    const index = {
      metadata: { total_size: 30 },
      weight_map: {
        a: 'model-00001-of-00002.safetensors',
        b: 'model-00002-of-00002.safetensors',
        c: 'model-00002-of-00002.safetensors',
      },
    };
    await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify(index));
    const d = await diffSafetensors(join(dir, 'model.safetensors.index.json'), join(dir, 'whole.safetensors'), {
      data: true,
    });
    expect(d.tensors).toEqual({ added: [], removed: [], changed: [], unchanged: 3 });
    expect(d.metadata).toBeNull(); // an index's metadata against a file's: not compared
    expect(d.identical).toBe(true);
    const opened = await openSafetensorsIndex(join(dir, 'model.safetensors.index.json'));
    expect(
      (await diffSafetensors(opened, await openSafetensors(await readFile(join(dir, 'whole.safetensors'))))).identical,
    ).toBe(true);
  });

  test('over HTTP: the same answer as local bytes, reading only what it compares', async () => {
    const server = await startServer();
    try {
      server.files.set('/a.safetensors', { bytes: A, etag: '"a"' });
      server.files.set('/b.safetensors', { bytes: B, etag: '"b"' });
      const remote = await diffSafetensors(server.url('/a.safetensors'), server.url('/b.safetensors'), { data: true });
      expect(remote).toEqual(await diffSafetensors(A, B, { data: true }));
    } finally {
      await server.close();
    }
  });

  test('a side that is not a loadable file is a typed error, not a crash', async () => {
    await expect(diffSafetensors(A, A.subarray(0, A.length - 3))).rejects.toMatchObject({
      code: 'MetadataIncompleteBuffer',
    });
    await expect(diffSafetensors(A, new Uint8Array([1, 2]))).rejects.toMatchObject({ code: 'HeaderTooSmall' });
  });

  test.runIf(HAVE_REAL)('two unrelated real files: every tensor added or removed', async () => {
    const gpt2 = await readFile(join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors'));
    const gemma = await readFile(join(REAL_DIR, 'torchtune_gemma_hf_layout_f16.safetensors'));
    const d = await diffSafetensors(gpt2, gemma, { data: true });
    expect(d.tensors.removed).toHaveLength(52);
    expect(d.tensors.added).toHaveLength(11);
    expect(d.tensors.unchanged + d.tensors.changed.length).toBe(0);
  });
});

describe('safetensors-wasm diff', () => {
  test('exit 1 and the changes in words; exit 0 for identical files; --json is the result', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stw-diff-cli-'));
    const a = join(dir, 'a.safetensors');
    const b = join(dir, 'b.safetensors');
    await writeFile(a, A);
    await writeFile(b, B);
    const different = await run('node', [CLI, 'diff', '--data', a, b]).catch((e) => e);
    expect(different.code).toBe(1);
    expect(different.stdout).toContain(`${a} → ${b}: different`);
    expect(different.stdout).toContain('tensors added (1):\n  fresh BF16 [2, 2]');
    expect(different.stdout).toContain('w1: shape [2, 3] → [3, 2]');
    expect(different.stdout).toMatch(/w2: max \|a − b\| Infinity in 2 elements \(sha256 [0-9a-f]{12} → [0-9a-f]{12}\)/);
    expect(different.stdout).toContain('metadata changed (1):\n  note: "first" → "second"');
    const same = await run('node', [CLI, 'diff', a, a]);
    expect(same.stdout).toContain('identical');
    const json = await run('node', [CLI, 'diff', '--json', a, b]).catch((e) => e);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ a, b, ...(await diffSafetensors(A, B)) });
  });

  test('exit 2 for a side that cannot be read, and for misuse', async () => {
    const missing = await run('node', [CLI, 'diff', '/nonexistent/a.safetensors', '/nonexistent/b.safetensors']).catch(
      (e) => e,
    );
    expect(missing.code).toBe(2);
    // The ReadError's words (a typed error, not Node's bare ENOENT).
    expect(missing.stderr).toMatch(/^diff: cannot read \/nonexistent\/a\.safetensors: .*no such file/i);
    const misuse = await run('node', [CLI, 'diff', 'only-one']).catch((e) => e);
    expect(misuse.code).toBe(2);
  });
});
