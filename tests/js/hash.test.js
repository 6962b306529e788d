// st.hash(): every value against node:crypto, on crafted, large (workers), sparse past 4 GiB and
// real files. The metadata's claims and validateSafetensors({ hash }): hash_claims.test.js.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors } from '../../web/index.js';
import { AUTOV1_WINDOW, PARALLEL_MIN_BYTES } from '../../web/hashing/hash_pass.js';
import { localLane, workerLane } from '../../web/hashing/sha256_lane.js';
import { pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { rawFile, recordingSource } from './fixtures.js';
import { craftedFile, expected, sha256 } from './hash_expected.js';

const EMPTY = sha256(new Uint8Array(0));

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-hash-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

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
