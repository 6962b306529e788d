// Real files written by other tools, read in place from ../shared/fixtures/real,
// checked against an independent decoding of the header written here.
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';
import { firstMismatch, referenceDecode } from './reference_decode.js';

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listFiles(path);
    return name.endsWith('.safetensors') ? [path] : [];
  });
}

// Independent: JSON.parse of the header bytes, then sort by offsets.
function decodeIndependently(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const { __metadata__: metadata = null, ...entries } = header;
  const tensors = Object.entries(entries)
    .map(([name, e]) => ({
      name,
      dtype: e.dtype,
      shape: e.shape,
      dataOffsets: e.data_offsets,
      byteLength: e.data_offsets[1] - e.data_offsets[0],
    }))
    .sort((a, b) => a.dataOffsets[0] - b.dataOffsets[0] || a.dataOffsets[1] - b.dataOffsets[1]);
  return { n, metadata, tensors };
}

const files = HAVE_REAL ? listFiles(REAL_DIR) : [];
const loadable = files.filter((f) => !f.includes('invalid_header_len_exceeds_file'));

describe.skipIf(!HAVE_REAL)('real fixtures (../shared/fixtures/real)', () => {
  test('there are fixtures to check', () => {
    expect(loadable.length).toBeGreaterThanOrEqual(15);
  });

  test.each(loadable.map((f) => [f.slice(REAL_DIR.length), f]))(
    '%s opens and matches an independent decoding',
    async (_, path) => {
      const bytes = new Uint8Array(readFileSync(path));
      const expected = decodeIndependently(bytes);
      const handle = await open(path);
      try {
        const st = await openSafetensors(handle);
        expect(st.headerSize).toBe(expected.n);
        expect(st.metadata).toEqual(expected.metadata);
        expect(st.tensors).toEqual(expected.tensors);
        expect(st.fileSize).toBe(bytes.byteLength);
      } finally {
        await handle.close();
      }
    },
  );

  test.each(loadable.map((f) => [f.slice(REAL_DIR.length), f]))(
    '%s: every tensor decodes, native and float32, matching an independent decoding',
    async (_, path) => {
      const bytes = new Uint8Array(readFileSync(path));
      const expected = decodeIndependently(bytes);
      const dataStart = 8 + expected.n;
      const st = await openSafetensors(new Blob([bytes]));
      for (const t of expected.tensors) {
        const raw = bytes.subarray(dataStart + t.dataOffsets[0], dataStart + t.dataOffsets[1]);
        const native = await st.getTensor(t.name);
        expect(firstMismatch(native, referenceDecode(t.dtype, raw, false)), `${t.name} (${t.dtype}) native`).toBe(-1);
        const elements = t.shape.reduce((a, b) => a * b, 1);
        expect(native.length, t.name).toBe(t.dtype === 'C64' ? 2 * elements : elements);
        const float32 = await st.getTensor(t.name, { as: 'float32' });
        expect(firstMismatch(float32, referenceDecode(t.dtype, raw, true)), `${t.name} (${t.dtype}) float32`).toBe(-1);
        expect(Buffer.compare(await st.getTensor(t.name, { as: 'raw' }), raw), `${t.name} raw`).toBe(0);
      }
    },
  );

  test('the F8 fixtures hold F8 values that are not all zero', async () => {
    const path = join(REAL_DIR, 'fluxml_torch_all_dtypes_with_metadata.safetensors');
    const st = await openSafetensors(readFileSync(path));
    const f8 = st.tensors.filter((t) => t.dtype.startsWith('F8_'));
    expect(f8.length).toBeGreaterThanOrEqual(6);
    for (const t of f8)
      expect(
        (await st.getTensor(t.name)).some((v) => v !== 0 && Number.isFinite(v)),
        t.name,
      ).toBe(true);
  });

  test('the negative fixture is InvalidHeaderLength', async () => {
    const report = await validateSafetensors(
      readFileSync(join(REAL_DIR, 'invalid_header_len_exceeds_file.safetensors')),
    );
    expect(report.loadable).toBe(false);
    expect(report.referenceError).toBe('InvalidHeaderLength');
  });

  test('kohya LoKr training metadata and its 350 scalars', async () => {
    const st = await openSafetensors(readFileSync(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors')));
    expect(st.tensors).toHaveLength(1750);
    expect(st.tensors.filter((t) => t.shape.length === 0)).toHaveLength(350);
    expect(st.dataStart).toBe(244270);
    expect(Object.keys(st.metadata).some((k) => k.startsWith('ss_'))).toBe(true);
  });
});
