// Every source kind, reads limited to the header, 64-bit sizes and failing reads. A Blob's
// chunks (stream readers, buffers): sources_blob_chunks.test.js.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, validateSafetensors, SafetensorsError } from '../../web/index.js';
import { writeSafetensors, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { rawFile, recordingSource } from './fixtures.js';

const FILE = writeSafetensors(
  [
    { name: 'x', dtype: 'F32', shape: [4, 4], data: pseudoRandomBytes(64) },
    { name: 'y', dtype: 'BF16', shape: [8], data: pseudoRandomBytes(16, 2) },
  ],
  { note: 'sources' },
);
const EXPECTED_NAMES = ['x', 'y'];

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-sources-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('source kinds', () => {
  test('Uint8Array, a view into a larger buffer, ArrayBuffer, DataView', async () => {
    const big = new Uint8Array(FILE.byteLength + 100);
    big.set(FILE, 50);
    for (const source of [
      FILE,
      big.subarray(50, 50 + FILE.byteLength),
      FILE.slice().buffer,
      new DataView(big.buffer, 50, FILE.byteLength),
    ]) {
      const st = await openSafetensors(source);
      expect(st.tensors.map((t) => t.name)).toEqual(EXPECTED_NAMES);
    }
  });

  test('Blob, and a Blob from fs.openAsBlob', async () => {
    expect((await openSafetensors(new Blob([FILE]))).metadata).toEqual({ note: 'sources' });
    const path = join(dir, 'a.safetensors');
    await writeFile(path, FILE);
    expect((await openSafetensors(await openAsBlob(path))).tensors).toHaveLength(2);
  });

  test('a Node FileHandle', async () => {
    const path = join(dir, 'b.safetensors');
    await writeFile(path, FILE);
    const handle = await open(path);
    try {
      expect((await openSafetensors(handle)).fileSize).toBe(FILE.byteLength);
    } finally {
      await handle.close();
    }
  });

  test('a { size, read } object reads only the prefix and the header', async () => {
    const source = recordingSource(FILE);
    const st = await openSafetensors(source);
    expect(source.reads).toEqual([
      [0, 8],
      [8, st.headerSize],
    ]);
  });

  test('a rejected length prefix reads at most the first 64 KiB (to tell what the file is), never the rest', async () => {
    const bytes = new Uint8Array(64);
    bytes.fill(0xff, 0, 8);
    const source = recordingSource(bytes);
    expect((await validateSafetensors(source)).referenceError).toBe('HeaderTooLarge');
    expect(source.reads).toEqual([
      [0, 8],
      [8, 56],
    ]);
    const big = recordingSource(bytes, 5 * 2 ** 30);
    expect((await validateSafetensors(big)).referenceError).toBe('HeaderTooLarge');
    expect(big.reads).toEqual([
      [0, 8],
      [8, 64 * 1024 - 8],
    ]);
  });

  test('a 6 GB source is judged from its header alone', async () => {
    const size = 6_000_000_000;
    const dataLength = size - 8 - 128;
    const padded = `{"big":{"dtype":"U8","shape":[${dataLength}],"data_offsets":[0,${dataLength}]}}`.padEnd(128);
    const source = recordingSource(rawFile(padded), size);
    const st = await openSafetensors(source);
    expect(st.tensors[0].byteLength).toBe(dataLength);
    expect(st.fileSize).toBe(size);
    expect(source.reads.every(([offset, length]) => offset + length <= 136)).toBe(true);
  });
});

describe('files past 4 GiB through a FileHandle', () => {
  test('a sparse 5 GB file whose last tensors start past 4 GiB: verdict and decoding', async () => {
    const path = join(dir, 'sparse.safetensors');
    const first = 4_300_000_000; // past 2^32
    const second = 700_000_000;
    const c = [0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x7c00, 0x3555, 0x4248]; // F16 codes
    const cBytes = new Uint8Array(new Uint16Array(c).buffer);
    const end = first + second + cBytes.byteLength;
    const header = `{"a":{"dtype":"U8","shape":[${first}],"data_offsets":[0,${first}]},"b":{"dtype":"F16","shape":[${second / 2}],"data_offsets":[${first},${first + second}]},"c":{"dtype":"F16","shape":[8],"data_offsets":[${first + second},${end}]}}`;
    const padded = header + ' '.repeat((8 - (header.length % 8)) % 8);
    const dataStart = 8 + padded.length;
    const handle = await open(path, 'w+');
    try {
      await handle.write(rawFile(padded), 0, dataStart, 0);
      await handle.truncate(dataStart + end);
      // Markers: bytes straddling 2^32 inside "a", the first elements of "b", all of "c".
      const marker = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
      await handle.write(marker, 0, 16, 2 ** 32 - 8);
      await handle.write(cBytes, 0, 4, dataStart + first);
      await handle.write(cBytes, 0, cBytes.byteLength, dataStart + first + second);

      const st = await openSafetensors(handle);
      expect(st.fileSize).toBe(dataStart + end);
      expect(st.tensors[2]).toEqual(expect.objectContaining({ name: 'c', dataOffsets: [first + second, end] }));
      expect(await st.getTensor('c')).toEqual(
        new Float32Array([1, -2, 65504, 2 ** -24, -0, Infinity, 0.33325195, 3.140625]),
      );
      expect(await st.getTensor('b', { rows: [0, 3] })).toEqual(new Float32Array([1, -2, 0]));
      expect(await st.getTensor('a', { rows: [2 ** 32 - 8 - dataStart, 2 ** 32 + 8 - dataStart] })).toEqual(marker);

      // One byte short: the verdict must see the exact 64-bit size.
      await handle.truncate(dataStart + end - 1);
      const report = await validateSafetensors(handle);
      expect(report.referenceError).toBe('MetadataIncompleteBuffer');
      expect(report.findings[0].message).toContain('1 byte missing');
      // A file that shrank after opening: the read fails clearly.
      await expect(st.getTensor('c')).rejects.toMatchObject({ code: 'ReadError' });
    } finally {
      await handle.close();
    }
  });
});

describe('failing reads', () => {
  test('a read that throws rejects with a ReadError carrying the cause', async () => {
    const cause = new Error('disk on fire');
    const source = {
      size: FILE.byteLength,
      read: async (offset) => {
        if (offset > 0) throw cause;
        return FILE.subarray(0, 8);
      },
    };
    const error = await validateSafetensors(source).catch((e) => e);
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe('ReadError');
    expect(error.cause).toBe(cause);
  });

  test('a read that returns the wrong length rejects', async () => {
    const source = { size: FILE.byteLength, read: async () => new Uint8Array(3) };
    await expect(openSafetensors(source)).rejects.toMatchObject({ code: 'ReadError' });
  });

  test('a file that shrinks between stat and read rejects', async () => {
    const path = join(dir, 'shrinking.safetensors');
    await writeFile(path, FILE);
    const handle = await open(path, 'r+');
    try {
      const shrinking = {
        fd: handle.fd,
        stat: () => handle.stat(),
        read: async (...args) => {
          await handle.truncate(20);
          return handle.read(...args);
        },
      };
      await expect(openSafetensors(shrinking)).rejects.toMatchObject({ code: 'ReadError' });
    } finally {
      await handle.close();
    }
  });
});
