// What toSafetensors is made of (web/pickle/open_checkpoint.js tensorBytes): from a Blob or
// bytes source, a contiguous tensor is a slice of the source (nothing read or copied); from a
// source without slices (a path's FileHandle, a URL), chunks read only when written; a view is a
// copy gathered in pieces when written (a stride-0 view of 64 MiB too); a contiguous tensor past
// one array's 2^31 bytes is still written (as chunks). Checked on views.pt's records
// (torch.save's), and the file from a path is the file from a Blob.
import { expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openCheckpoint } from '../../web/index.js';
import { tensorBytes } from '../../web/pickle/open_checkpoint.js';
import { runScan } from '../../web/pickle/scan_pickle.js';
import { toByteSource } from '../../web/source/byte_source.js';

const FILE = fileURLToPath(new URL('../checkpoints/views.pt', import.meta.url));
const DENSE = ['base', 'row', 'scalar'];
const VIEWS = ['column', 'transposed', 'strided'];

async function records() {
  const blob = new Blob([await readFile(FILE)]);
  const bytes = await toByteSource(blob);
  const { tensors, storages } = await runScan(bytes, 'views.pt', true);
  const [storage] = storages;
  const byName = new Map(tensors.map((/** @type {any} */ t) => [t.name, t]));
  return { blob, bytes, storage, byName };
}

test('from a Blob: contiguous tensors are slices of it, views copies gathered when written', async () => {
  const { blob, bytes, storage, byName } = await records();
  const sliced = [];
  const slice = (/** @type {number} */ a, /** @type {number} */ b) => {
    sliced.push([a, b]);
    return blob.slice(a, b);
  };
  for (const name of DENSE) {
    const part = await tensorBytes(bytes, byName.get(name), storage, slice, true);
    expect(part, name).toBeInstanceOf(Blob);
  }
  expect(sliced.length).toBe(DENSE.length);
  // row 3 of the 8x8 float32 base: 32 bytes from element 24 of the storage.
  expect(sliced[1]).toEqual([storage.offset + 24 * 4, storage.offset + 32 * 4]);
  for (const name of VIEWS) {
    const part = /** @type {any} */ (await tensorBytes(bytes, byName.get(name), storage, slice, true));
    expect(part, name).not.toBeInstanceOf(Blob);
    const pieces = [];
    for await (const piece of part) pieces.push(piece);
    const t = byName.get(name);
    expect(part.size, name).toBe(t.shape.reduce((/** @type {number} */ a, /** @type {number} */ b) => a * b, 4));
    expect(new Uint8Array(await new Blob(pieces).arrayBuffer()), name).toEqual(await tensorBytes(bytes, t, storage));
  }
  expect(sliced.length).toBe(DENSE.length);
});

test('without slices: a contiguous tensor is chunks read when iterated, its size known before', async () => {
  const { blob, storage, byName } = await records();
  const whole = await toByteSource(blob);
  let reads = 0;
  const counting = {
    ...whole,
    chunks: (/** @type {number} */ a, /** @type {number} */ n) => (reads++, whole.chunks(a, n)),
  };
  const part = /** @type {any} */ (
    await tensorBytes(/** @type {any} */ (counting), byName.get('base'), storage, null, true)
  );
  expect(part.size).toBe(256);
  expect(reads).toBe(0);
  const chunks = [];
  for await (const c of part) chunks.push(c.slice());
  expect(reads).toBe(1);
  expect(new Uint8Array(await new Blob(chunks).arrayBuffer())).toEqual(
    new Uint8Array(await blob.slice(storage.offset, storage.offset + 256).arrayBuffer()),
  );
});

test('the file converted from a path (FileHandle) is the file converted from a Blob', async () => {
  const fromPath = await (await openCheckpoint(FILE)).toSafetensors();
  const fromBlob = await (await openCheckpoint(new Blob([await readFile(FILE)]))).toSafetensors();
  expect(new Uint8Array(await fromPath.arrayBuffer())).toEqual(new Uint8Array(await fromBlob.arrayBuffer()));
});

test('a contiguous tensor past one array (2^31 bytes) is still written, as chunks; a view that large is TensorTooLarge', async () => {
  const big = 2 ** 31 + 8;
  const storage = { key: '0', offset: 64, bytes: big, stored: true, size: big, crc32: 0 };
  const source = /** @type {any} */ ({
    size: big + 64,
    read: () => Promise.reject(new Error('read')),
    chunks: () => [],
  });
  const record = { name: 'w', storage: '0', elementSize: 1, storageOffset: 0, shape: [big], stride: [1] };
  const part = /** @type {any} */ (await tensorBytes(source, record, storage, null, true));
  expect(part.size).toBe(big);
  const view = { ...record, shape: [2, big / 2], stride: [1, 2] };
  expect((await tensorBytes(source, view, storage, null, true).catch((e) => e)).code).toBe('TensorTooLarge');
});

test('a view being written is gathered in pieces: a stride-0 view of 64 MiB over 4 bytes', async () => {
  const storage = { key: '0', offset: 0, bytes: 4, stored: true, size: 4, crc32: 0 };
  const source = /** @type {any} */ (await toByteSource(new Uint8Array([1, 2, 3, 4])));
  const record = { name: 'w', storage: '0', elementSize: 4, storageOffset: 0, shape: [16 << 20], stride: [0] };
  const part = /** @type {any} */ (await tensorBytes(source, record, storage, null, true));
  expect(part.size).toBe(64 << 20);
  let total = 0;
  let largest = 0;
  let wrong = 0;
  for await (const piece of part) {
    for (let i = 0; i < piece.byteLength; i++) if (piece[i] !== (i % 4) + 1) wrong++;
    total += piece.byteLength;
    largest = Math.max(largest, piece.byteLength);
  }
  expect([total, largest, wrong]).toEqual([64 << 20, 4 << 20, 0]);
});
