// openSafetensors on a cold start (web/file/validate.js readSource, web/header/read_header.js): the
// core's load starts with the call and the header the length prefix claims is read while it
// loads; reads stay one at a time, and the core still decides what is read. With
// { preloadCard: true } the card module loads from the open on, not from the first describe().
import { expect, test } from 'vitest';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { loadedCardModule, loadedCore } from '../../web/core/modules.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

/** A { size, read } source over `bytes` that records each read, whether the core was loaded then, and overlaps. */
function recordingSource(bytes) {
  const reads = [];
  let open = 0;
  let overlapped = false;
  return {
    reads,
    overlapped: () => overlapped,
    size: bytes.byteLength,
    async read(offset, length) {
      reads.push({ offset, length, coreLoaded: loadedCore() !== null });
      overlapped ||= open > 0;
      open += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      open -= 1;
      return bytes.slice(offset, offset + length);
    },
  };
}

const FILE = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data: new Uint8Array(8) }]);
const headerLength = Number(new DataView(FILE.buffer, FILE.byteOffset).getBigUint64(0, true));

test('cold, the header is read while the core loads: the prefix, then the header, one read at a time', async () => {
  expect(loadedCore()).toBe(null);
  const source = recordingSource(FILE);
  const st = await openSafetensors(source);
  expect(st.tensors.map((t) => t.name)).toEqual(['w']);
  expect(source.reads).toEqual([
    { offset: 0, length: 8, coreLoaded: false },
    { offset: 8, length: headerLength, coreLoaded: false },
  ]);
  expect(source.overlapped()).toBe(false);
});

test('a prefix that claims more than the file: no early read; the first bytes are read for the verdict', async () => {
  const bytes = new Uint8Array(FILE);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(bytes.byteLength), true); // 8 + N past the end
  const source = recordingSource(bytes);
  const report = await validateSafetensors(source);
  expect(report.loadable).toBe(false);
  expect(report.referenceError).toBe('InvalidHeaderLength');
  expect(source.reads.map(({ offset, length }) => [offset, length])).toEqual([
    [0, 8],
    [8, bytes.byteLength - 8],
  ]);
  expect(source.overlapped()).toBe(false);
});

test('{ preloadCard: true } loads the card module without a describe(); any other value is a TypeError', async () => {
  for (const preloadCard of ['card', 1, null])
    await expect(openSafetensors(FILE, { preloadCard })).rejects.toThrow(
      new TypeError('options.preloadCard must be a boolean'),
    );
  const st = await openSafetensors(FILE);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(loadedCardModule()).toBe(null); // a plain open leaves it to describe()
  const hinted = await openSafetensors(FILE, { preloadCard: true });
  await expect.poll(() => loadedCardModule() !== null).toBe(true);
  expect(await hinted.describe()).toEqual(await st.describe());
});
