// Reading a picked File in Chromium through a BYOB reader into two reused buffers
// (web/source/byte_source.js): the chunks reuse their buffers, and tensors read through them (into
// arrays, as streamed pieces, in one batch) have exactly the bytes Node decodes.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo } from './demo_browser.js';
import { openSafetensors } from '../../web/index.js';
import { BLOB_READ_BYTES } from '../../web/source/blob_source.js';
import { pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { layoutFile } from '../js/fixtures.js';

// Odd sizes and gaps: tensors start at odd offsets and end inside a read buffer; "half" spans
// many read buffers and conversion chunks.
const HALF = (4 << 20) + 4097;
const TENSORS = [
  { name: 'half', dtype: 'F16', shape: [HALF], data: pseudoRandomBytes(2 * HALF, 21), gap: 3 },
  {
    name: 'brain',
    dtype: 'BF16',
    shape: [(3 * BLOB_READ_BYTES) / 2 + 11],
    data: pseudoRandomBytes(3 * BLOB_READ_BYTES + 22, 22),
    gap: 1,
  },
  {
    name: 'ints',
    dtype: 'I32',
    shape: [BLOB_READ_BYTES / 4 + 3],
    data: pseudoRandomBytes(BLOB_READ_BYTES + 12, 23),
    gap: 5,
  },
];
const FILE = layoutFile(TENSORS);

/** FNV-1a over an array's bytes: the page and Node compare results without moving them. */
function fnv(array) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h;
}

const demo = demoBrowser('stw-browser-blob-reads-', ['web', 'demo']);

describe('Blob reads in Chromium', () => {
  test('chunks reuse two buffers; getTensor, streamTensor and getTensors give the bytes Node decodes', async () => {
    const path = join(demo.dir, 'reads.safetensors');
    await writeFile(path, FILE);
    const { page, errors } = await openDemo(demo);
    await page.setInputFiles('[data-testid=file-input]', path);
    // A string, not a function: Vitest rewrites import() inside functions it compiles.
    const inPage = await page.evaluate(`(async (names) => {
      const { openSafetensors: open } = await import('/web/index.js');
      const { blobChunks } = await import('/web/source/blob_source.js');
      const file = document.querySelector('[data-testid=file-input]').files[0];
      const fnv = ${fnv.toString()};
      const chunks = [];
      for await (const chunk of blobChunks(file, 1, file.size - 1)) chunks.push(chunk);
      const st = await open(file);
      const out = { chunks: chunks.length, emptied: chunks.filter((c) => c.byteLength === 0).length, tensors: {} };
      const batch = await st.getTensors(names, { as: 'float32' });
      for (const name of names) {
        const whole = await st.getTensor(name, { as: 'float32' });
        const streamed = new Float32Array(whole.length);
        for await (const { offset, values } of st.streamTensor(name, { as: 'float32' })) streamed.set(values, offset);
        out.tensors[name] = { whole: fnv(whole), streamed: fnv(streamed), batch: fnv(batch.get(name)) };
      }
      return out;
    })(${JSON.stringify(TENSORS.map((t) => t.name))})`);
    // Every chunk but the last was emptied: its buffer went into a later read.
    expect(inPage.chunks).toBeGreaterThanOrEqual(Math.ceil((FILE.byteLength - 1) / BLOB_READ_BYTES));
    expect(inPage.emptied).toBe(inPage.chunks - 1);
    const st = await openSafetensors(FILE);
    for (const { name } of TENSORS) {
      const expected = fnv(await st.getTensor(name, { as: 'float32' }));
      expect(inPage.tensors[name], name).toMatchObject({ whole: expected, streamed: expected, batch: expected });
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
