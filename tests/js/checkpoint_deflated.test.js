// Deflated storages (web/pickle/storage_inflate.js): views_deflated.pt (views.pt re-zipped by
// Python's zipfile with ZIP_DEFLATED) reads and converts to the same tensors and bytes as
// views.pt, from a path, a Blob and through the CLI; a storage whose bytes do not inflate to
// the zip directory's size and CRC-32, or are not deflate, is a CorruptStorage error; the
// inflated range is streamed in chunks and only the wanted bytes are passed on.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCheckpoint } from '../../web/index.js';
import { crc32, inflatedRange, readInflated } from '../../web/pickle/storage_inflate.js';
import { runScan } from '../../web/pickle/scan_pickle.js';
import { toByteSource } from '../../web/source/byte_source.js';
import { rejection } from './fixtures.js';
import { run } from './cli_run.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const bytesOf = async (/** @type {Blob} */ b) => new Uint8Array(await b.arrayBuffer());
/** @type {string} */
let scratch;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'stw-ckpt-deflated-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Raw deflate of `data`, by the platform's CompressionStream. */
async function deflate(/** @type {Uint8Array} */ data) {
  return bytesOf(
    await new Response(new Blob([data]).stream().pipeThrough(new CompressionStream('deflate-raw'))).blob(),
  );
}

test('crc32 is the zip CRC-32 (the check value of "123456789" is cbf43926)', () => {
  expect(crc32(0, new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  const a = new TextEncoder().encode('1234');
  expect(crc32(crc32(0, a), new TextEncoder().encode('56789'))).toBe(0xcbf43926);
});

test.each([
  ['a path', () => `${DIR}views_deflated.pt`],
  ['a Blob', async () => new Blob([await readFile(`${DIR}views_deflated.pt`)])],
])("views_deflated.pt from %s: every tensor and the converted file are views.pt's", async (_, source) => {
  const stored = await openCheckpoint(`${DIR}views.pt`);
  const deflated = await openCheckpoint(await source());
  expect(deflated.tensors.map((t) => t.name)).toEqual(stored.tensors.map((t) => t.name));
  for (const t of stored.tensors)
    expect(await deflated.getTensor(t.name), t.name).toEqual(await stored.getTensor(t.name));
  expect(await bytesOf(await deflated.toSafetensors())).toEqual(await bytesOf(await stored.toSafetensors()));
});

test('the CLI converts views_deflated.pt to the bytes it writes for views.pt, --verify equal', async () => {
  const [a, b] = [join(scratch, 'deflated.safetensors'), join(scratch, 'stored.safetensors')];
  const deflated = await run(['convert', '--verify', `${DIR}views_deflated.pt`, '-o', a]);
  expect(deflated.stderr).toBe('');
  expect(deflated.code).toBe(0);
  expect(deflated.stdout).toMatch(/verified: 6 of 6 tensors equal/);
  expect((await run(['convert', `${DIR}views.pt`, '-o', b])).code).toBe(0);
  expect(await readFile(a)).toEqual(await readFile(b));
});

test('a storage record with a byte changed is CorruptStorage, naming the tensor', async () => {
  const file = new Uint8Array(await readFile(`${DIR}views_deflated.pt`));
  const { storages } = await runScan(await toByteSource(file), 'views_deflated.pt', true);
  expect(storages.length).toBe(1);
  const [s] = storages;
  expect(s.stored).toBe(false);
  expect(s.bytes).toBeLessThan(s.size);
  const bad = file.slice();
  bad[s.offset + (s.bytes >> 1)] ^= 0x55;
  const ckpt = await openCheckpoint(bad);
  const error = await rejection(ckpt.getTensor('base'));
  expect(error.code).toBe('CorruptStorage');
  expect(error.tensor).toBe('base');
  expect((await rejection(ckpt.toSafetensors())).code).toBe('CorruptStorage');
});

test("a record that inflates to another size or CRC than the directory's is CorruptStorage", async () => {
  const data = new Uint8Array(1000).map((_, i) => (i * 7) & 0xff);
  const compressed = await deflate(data);
  const source = await toByteSource(compressed);
  const record = { key: '0', offset: 0, bytes: compressed.byteLength, size: 1000, crc32: crc32(0, data) };
  expect(await readInflated(source, record, 10, 20, 't')).toEqual(data.subarray(10, 20));
  const crc = await rejection(readInflated(source, { ...record, crc32: record.crc32 ^ 1 }, 0, 10, 't'));
  expect([crc.code, crc.message]).toEqual(['CorruptStorage', expect.stringMatching(/CRC-32 [0-9a-f]{8}, not/)]);
  const longer = await rejection(readInflated(source, { ...record, size: 1001 }, 0, 10, 't'));
  expect([longer.code, longer.message]).toEqual(['CorruptStorage', expect.stringMatching(/1000 bytes, not the 1001/)]);
  const shorter = await rejection(readInflated(source, { ...record, size: 999 }, 0, 10, 't'));
  expect([shorter.code, shorter.message]).toEqual(['CorruptStorage', expect.stringMatching(/more than the 999/)]);
});

test('a large storage is inflated as a stream: many chunks, only the wanted range passed on', async () => {
  const size = 16 << 20;
  const data = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) data[i] = i >> 12;
  const compressed = await deflate(data);
  const record = { key: '0', offset: 0, bytes: compressed.byteLength, size, crc32: crc32(0, data) };
  const [begin, end] = [5 << 20, 13 << 20];
  let total = 0;
  let chunks = 0;
  let largest = 0;
  let differ = 0;
  for await (const chunk of inflatedRange(await toByteSource(compressed), record, begin, end, 't')) {
    for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] !== data[begin + total + i]) differ++;
    total += chunk.byteLength;
    largest = Math.max(largest, chunk.byteLength);
    chunks++;
  }
  expect(total).toBe(end - begin);
  expect(differ).toBe(0);
  expect(chunks).toBeGreaterThan(4);
  expect(largest).toBeLessThan(4 << 20);
});
