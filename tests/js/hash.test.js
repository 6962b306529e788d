// st.hash() and validateSafetensors({ hash }): every value against node:crypto, on crafted,
// large (workers), sparse past 4 GiB and real files; the metadata's claims; one read.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { AUTOV1_WINDOW, PARALLEL_MIN_BYTES } from '../../web/hashing/hash_pass.js';
import { localLane, workerLane } from '../../web/hashing/sha256_lane.js';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR, rawFile, recordingSource } from './fixtures.js';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const EMPTY = sha256(new Uint8Array(0));

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-hash-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A file of `n` random bytes of tensor data in three tensors (one empty), with metadata. */
function craftedFile(n, metadata = null) {
  const data = pseudoRandomBytes(n, n);
  const third = Math.floor(n / 3 / 4) * 4;
  const tensors = [
    { name: 'a', dtype: 'F32', shape: [third / 4], data: data.subarray(0, third) },
    { name: 'empty', dtype: 'F16', shape: [0], data: new Uint8Array(0) },
    { name: 'b', dtype: 'U8', shape: [n - third], data: data.subarray(third) },
  ];
  return writeSafetensors(tensors, metadata);
}

/** What every hash of `file` must be, from node:crypto and the definitions. */
function expected(file) {
  const dataStart = 8 + Number(new DataView(file.buffer, file.byteOffset).getBigUint64(0, true));
  const whole = sha256(file);
  const data = sha256(file.subarray(dataStart));
  const { offset, length } = AUTOV1_WINDOW;
  return {
    sha256: whole,
    autoV2: whole.slice(0, 10),
    autoV1: file.byteLength >= offset + length ? sha256(file.subarray(offset, offset + length)).slice(0, 8) : null,
    dataSha256: data,
    autoV3: data.slice(0, 12),
  };
}

describe('st.hash()', () => {
  test.each([
    ['a small file (no AutoV1)', 5000],
    ['a file past the AutoV1 window', AUTOV1_WINDOW.offset + AUTOV1_WINDOW.length + 4099],
  ])('%s: every value as node:crypto computes it, from bytes, a Blob and a FileHandle', async (_, n) => {
    const file = craftedFile(n);
    const path = join(dir, `f${n}.safetensors`);
    await writeFile(path, file);
    const handle = await open(path);
    try {
      for (const source of [file, new Blob([file]), handle]) {
        const st = await openSafetensors(source);
        const result = await st.hash({ tensors: true });
        expect(result).toMatchObject(expected(file));
        const at = (t) => file.subarray(st.dataStart + t.dataOffsets[0], st.dataStart + t.dataOffsets[1]);
        expect(result.tensors).toEqual(Object.fromEntries(st.tensors.map((t) => [t.name, sha256(at(t))])));
        expect(result.tensors.empty).toBe(EMPTY);
        expect(result.checks).toEqual([]);
        expect(result.findings).toEqual([]);
      }
    } finally {
      await handle.close();
    }
  });

  test('options choose what is hashed and read: tensors by name read only their bytes', async () => {
    const file = craftedFile(3000);
    const st = await openSafetensors(recordingSource(file));
    const source = recordingSource(file);
    const named = await (await openSafetensors(source)).hash({ file: false, data: false, tensors: ['b', 'empty'] });
    const b = st.tensors.find((t) => t.name === 'b');
    expect(named).toMatchObject({ sha256: null, autoV2: null, autoV1: null, dataSha256: null, autoV3: null });
    expect(named.tensors).toEqual({ empty: EMPTY, b: sha256(file.subarray(st.dataStart + b.dataOffsets[0])) });
    expect(Object.keys(named.tensors)).toEqual(['empty', 'b']); // file order
    const dataReads = source.reads.filter(([offset]) => offset >= st.dataStart);
    expect(dataReads.reduce((sum, [, length]) => sum + length, 0)).toBe(b.byteLength);
    const dataOnly = await st.hash({ file: false });
    expect(dataOnly).toMatchObject({ sha256: null, dataSha256: expected(file).dataSha256 });
    expect(dataOnly.tensors).toBeUndefined();
  });

  test('bad options are TypeErrors, an unknown tensor is TensorNotFound', async () => {
    const st = await openSafetensors(craftedFile(100));
    await expect(st.hash({ tensors: 'a' })).rejects.toThrow(TypeError);
    await expect(st.hash({ file: 1 })).rejects.toThrow(TypeError);
    await expect(st.hash({ tensors: ['a', 'nope'] })).rejects.toMatchObject({ code: 'TensorNotFound', tensor: 'nope' });
  });

  test("progress ends at the total; an abort rejects with the signal's reason", async () => {
    const file = craftedFile(10 << 20);
    const st = await openSafetensors(new Blob([file]));
    const calls = [];
    await st.hash({ onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([file.byteLength, file.byteLength]);
    expect(calls.every(([done], i) => i === 0 || done > calls[i - 1][0])).toBe(true);
    const controller = new AbortController();
    const aborted = st.hash({ signal: controller.signal, onProgress: () => controller.abort() });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });

  test(`a read of ${PARALLEL_MIN_BYTES >> 20} MiB or more hashes in workers, with the same results`, async () => {
    const lane = await workerLane();
    expect(lane, 'a worker lane starts in Node').not.toBeNull();
    lane.close();
    const file = craftedFile(PARALLEL_MIN_BYTES + 12345);
    const st = await openSafetensors(file);
    const result = await st.hash({ tensors: true });
    expect(result).toMatchObject(expected(file));
    expect(result.tensors.b).toBe(
      sha256(file.subarray(st.dataStart + st.tensors.find((t) => t.name === 'b').dataOffsets[0])),
    );
  });

  test('a worker lane and a local lane agree on cuts at any piece boundary', async () => {
    const bytes = pseudoRandomBytes(100_000, 7);
    const lanes = [await localLane(), await workerLane()];
    try {
      const digests = [];
      for (const lane of lanes) {
        const cuts = [];
        for (const [from, to] of [
          [0, 1],
          [1, 64],
          [64, 65],
          [65, 65],
          [65, 99_999],
          [99_999, 100_000],
        ]) {
          await lane.update(bytes.subarray(from, to));
          if (to % 2 === 1 || to === 64) cuts.push(lane.cut());
        }
        digests.push(await Promise.all(cuts));
      }
      expect(digests[1]).toEqual(digests[0]);
      expect(digests[0][0]).toBe(sha256(bytes.subarray(0, 1)));
      expect(digests[0][2]).toBe(sha256(bytes.subarray(64, 65)));
      expect(digests[0][3]).toBe(EMPTY);
    } finally {
      for (const lane of lanes) lane?.close();
    }
  });

  test('a sparse 4.5 GB file through a FileHandle: a tensor past 4 GiB hashes from its 64-bit offset', async () => {
    const big = 2 ** 32 + 2 ** 29; // zeros (a hole) before the tail tensor
    const tail = pseudoRandomBytes(1000, 3);
    const entries = `{"hole":{"dtype":"U8","shape":[${big}],"data_offsets":[0,${big}]},"tail":{"dtype":"U8","shape":[1000],"data_offsets":[${big},${big + 1000}]}}`;
    const header = rawFile(entries.padEnd(entries.length + ((8 - ((8 + entries.length) % 8)) % 8)));
    const path = join(dir, 'sparse.safetensors');
    const handle = await open(path, 'w+');
    try {
      await handle.write(header, 0, header.byteLength, 0);
      await handle.write(tail, 0, tail.byteLength, header.byteLength + big);
      const st = await openSafetensors(handle);
      expect(st.fileSize).toBe(header.byteLength + big + tail.byteLength);
      const result = await st.hash({ file: false, data: false, tensors: ['tail'] });
      expect(result.tensors).toEqual({ tail: sha256(tail) });
    } finally {
      await handle.close();
    }
  });
});

describe('embedded hash claims', () => {
  test('a wrong sshs_model_hash is an EmbeddedHashMismatch; a right modelspec.hash_sha256 (0x, uppercase) matches', async () => {
    const plain = craftedFile(2000, { format: 'pt' });
    const { dataSha256 } = expected(plain);
    const file = craftedFile(2000, {
      format: 'pt',
      sshs_model_hash: 'ab'.repeat(32),
      'modelspec.hash_sha256': `0x${dataSha256.toUpperCase()}`,
      ss_sd_model_hash: '12345678',
    });
    const st = await openSafetensors(file);
    const result = await st.hash();
    expect(result.dataSha256).toBe(dataSha256); // the data section does not depend on the metadata
    expect(result.checks).toEqual([
      { key: 'sshs_model_hash', claimed: 'ab'.repeat(32), actual: dataSha256, match: false },
      { key: 'modelspec.hash_sha256', claimed: dataSha256, actual: dataSha256, match: true },
    ]);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ code: 'EmbeddedHashMismatch', severity: 'warning' });
    expect(result.findings[0].message).toContain('sshs_model_hash');
    const report = await validateSafetensors(file, { hash: true });
    expect(report.findings.map((f) => f.code)).toContain('EmbeddedHashMismatch');
    expect(report.hashes).toEqual({ ...result, tensors: undefined });
  });

  test('claims are compared on as many digits as they have; shorter than 8 or not hex: not compared', async () => {
    const { dataSha256 } = expected(craftedFile(500));
    const file = craftedFile(500, {
      sshs_model_hash: dataSha256.slice(0, 12),
      'modelspec.hash_sha256': 'zz' + dataSha256.slice(2),
    });
    const result = await (await openSafetensors(file)).hash();
    expect(result.checks).toEqual([
      { key: 'sshs_model_hash', claimed: dataSha256.slice(0, 12), actual: dataSha256.slice(0, 12), match: true },
    ]);
  });

  test("the claims come from the core's analysis: hash() and validateSafetensors({ hash }) never load the card module", async () => {
    vi.resetModules(); // a fresh copy of the package: no card module loaded by another test
    const api = await import('../../web/index.js');
    const modules = await import('../../web/core/modules.js');
    api.initSafetensors({ cardWasmBinary: new Uint8Array([0, 0x61, 0x73, 0x6d]) }); // not a module: loading it fails
    try {
      const file = craftedFile(3000, { sshs_model_hash: 'AB'.repeat(32), ss_vae_hash: 'cafe' });
      const { dataSha256 } = expected(file);
      const mismatch = [{ key: 'sshs_model_hash', claimed: 'ab'.repeat(32), actual: dataSha256, match: false }];
      const st = await api.openSafetensors(file);
      expect((await st.hash()).checks).toEqual(mismatch);
      expect((await api.validateSafetensors(file, { hash: true })).hashes.checks).toEqual(mismatch);
      expect(modules.loadedCardModule()).toBeNull();
      // The card module given could not have been loaded: describe() says so.
      expect(await st.describe().catch((e) => e.code)).toBe('InitError');
    } finally {
      api.initSafetensors({});
    }
  });

  test.skipIf(!HAVE_REAL)('the kohya LoKr: its sshs_model_hash is the SHA-256 of its data section', async () => {
    const path = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
    const bytes = readFileSync(path);
    const handle = await open(path);
    try {
      const st = await openSafetensors(handle);
      const result = await st.hash();
      expect(result).toMatchObject(expected(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
      expect(st.metadata.sshs_model_hash).toBe(result.dataSha256);
      expect(result.checks.map((c) => [c.key, c.match])).toEqual([
        ['sshs_model_hash', true],
        ['sshs_legacy_hash', true],
      ]);
      expect(result.findings).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});

describe('validateSafetensors({ hash })', () => {
  test('with scanData: the scan and every hash come from one read of the file', async () => {
    const file = craftedFile(3 << 20, { sshs_model_hash: 'cd'.repeat(32) });
    const source = recordingSource(file);
    const report = await validateSafetensors(source, { scanData: true, hash: true });
    const headerBytes = 8 + Number(new DataView(file.buffer).getBigUint64(0, true));
    const read = source.reads.reduce((sum, [, length]) => sum + length, 0);
    expect(read).toBeLessThanOrEqual(file.byteLength + headerBytes);
    expect(report.hashes).toMatchObject(expected(file));
    expect(report.dataScan.tensors.map((t) => t.name)).toEqual(['a', 'empty', 'b']);
    expect(report.findings.map((f) => f.code)).toContain('EmbeddedHashMismatch');
  });

  test('a file the reference rejects still gets its file hashes; the data hash where the header length is readable', async () => {
    const file = craftedFile(100);
    const longer = new Uint8Array([...file, 1, 2, 3]);
    const report = await validateSafetensors(longer, { hash: true });
    expect(report.loadable).toBe(false);
    expect(report.hashes).toMatchObject(expected(longer));
    const unreadable = new Uint8Array(16);
    new DataView(unreadable.buffer).setBigUint64(0, 1000n, true);
    const bad = await validateSafetensors(unreadable, { hash: true });
    expect(bad.hashes).toMatchObject({ sha256: sha256(unreadable), dataSha256: null, autoV3: null });
  });
});
