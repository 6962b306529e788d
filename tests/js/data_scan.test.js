// validateSafetensors(src, { scanData: true }): counts against an independent decoding,
// across chunk and scratch boundaries, with progress, abort and bounded reads.
import { describe, expect, test } from 'vitest';
import { validateSafetensors } from '../../web/index.js';
import { SCAN_SCRATCH_BYTES } from '../../web/tensors/data_scan.js';
import { READ_CHUNK_BYTES } from '../../web/source/byte_source.js';
import { DTYPE_ORDER, pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';
import { layoutFile, rawFile, recordingSource } from './fixtures.js';
import { referenceDecode } from './reference_decode.js';

const BYTES = {
  BOOL: 1,
  F4: 1,
  F6_E2M3: 3,
  F6_E3M2: 3,
  I16: 2,
  U16: 2,
  F16: 2,
  BF16: 2,
  I32: 4,
  U32: 4,
  F32: 4,
  C64: 8,
  F64: 8,
  I64: 8,
  U64: 8,
};
const bytesPer = (dtype) => BYTES[dtype] ?? 1;
const elementsOf = (dtype, byteLength) =>
  dtype === 'F4' ? byteLength * 2 : dtype.startsWith('F6_') ? (byteLength / 3) * 4 : byteLength / bytesPer(dtype);

function expectedCounts(dtype, bytes) {
  if (dtype.startsWith('F6_'))
    return { nan: 0, posInf: 0, negInf: 0, allZero: bytes.byteLength > 0 && bytes.every((b) => b === 0) };
  const values = referenceDecode(dtype, bytes);
  const count = (f) => values.reduce((n, v) => n + (f(v) ? 1 : 0), 0);
  return {
    nan: count((v) => typeof v === 'number' && Number.isNaN(v)),
    posInf: count((v) => v === Infinity),
    negInf: count((v) => v === -Infinity),
    allZero: values.length > 0 && values.every((v) => v === 0 || v === 0n),
  };
}

// Per dtype: random bytes (specials included by chance), zeros with -0 where the kind has one,
// and one tensor larger than the scan buffer; each after an odd gap so that elements straddle reads.
function scanFile() {
  const tensors = [];
  for (const [i, dtype] of DTYPE_ORDER.entries()) {
    const unit = bytesPer(dtype);
    const random = pseudoRandomBytes(unit * 301, i + 1);
    const zeros = new Uint8Array(unit * 40);
    if (['F16', 'BF16', 'F32', 'F64', 'C64'].includes(dtype))
      for (let at = unit - 1; at < zeros.length; at += 2 * unit) zeros[at] = 0x80;
    if (['F8_E5M2', 'F8_E4M3'].includes(dtype)) zeros.fill(0x80, 0, 5);
    if (dtype === 'F4') zeros.fill(0x88, 0, 5);
    const big = pseudoRandomBytes(unit * (Math.floor(SCAN_SCRATCH_BYTES / unit) + 7), i + 100);
    for (const [name, data] of [
      ['random', random],
      ['zeros', zeros],
      ['big', big],
    ]) {
      tensors.push({
        name: `${dtype}.${name}`,
        dtype,
        shape: [elementsOf(dtype, data.byteLength)],
        data,
        gap: 1 + (i % 3),
      });
    }
  }
  tensors.push({ name: 'empty', dtype: 'F32', shape: [0, 3], data: new Uint8Array(0) });
  return { file: layoutFile(tensors), tensors };
}

describe('data scan', () => {
  const { file, tensors } = scanFile();
  const dataStart = 8 + new DataView(file.buffer).getUint32(0, true);

  test.each([
    ['bytes in memory', () => file],
    ['a Blob (streamed)', () => new Blob([file])],
  ])('every dtype, counted as an independent decoding counts: %s', async (_, make) => {
    const report = await validateSafetensors(make(), { scanData: true });
    expect(report.loadable).toBe(true);
    const byName = new Map(report.dataScan.tensors.map((r) => [r.name, r]));
    for (const t of tensors) {
      const got = byName.get(t.name);
      expect(got, t.name).toEqual({ name: t.name, dtype: t.dtype, ...expectedCounts(t.dtype, t.data) });
    }
    // The random tensors hold specials by chance, so both findings must show.
    const codes = report.findings.map((f) => f.code);
    expect(codes).toContain('NonFiniteValues');
    expect(codes).toContain('AllZeroTensor');
    expect(report.dataScan.bytes).toBe(file.byteLength - dataStart);
  });

  test('scans running at the same time keep their own counts', async () => {
    // Two sources whose reads interleave: each tensor spans several reads, elements split across them.
    const interleaved = (bytes) => ({
      size: bytes.byteLength,
      read: async (offset, length) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return bytes.slice(offset, offset + length);
      },
    });
    const big = (dtype, seed) => pseudoRandomBytes(3 * READ_CHUNK_BYTES + 6, seed);
    const a = layoutFile([
      { name: 'a', dtype: 'F16', shape: [(3 * READ_CHUNK_BYTES + 6) / 2], data: big('F16', 5), gap: 1 },
    ]);
    const b = layoutFile([
      { name: 'b', dtype: 'BF16', shape: [(3 * READ_CHUNK_BYTES + 6) / 2], data: big('BF16', 6), gap: 3 },
    ]);
    const alone = [await validateSafetensors(a, { scanData: true }), await validateSafetensors(b, { scanData: true })];
    const together = await Promise.all([
      validateSafetensors(interleaved(a), { scanData: true }),
      validateSafetensors(interleaved(b), { scanData: true }),
    ]);
    expect(together.map((r) => r.dataScan)).toEqual(alone.map((r) => r.dataScan));
    expect(alone[0].dataScan.tensors[1].nan).toBeGreaterThan(0);
  });

  test('findings name the first tensor and give its counts', async () => {
    const f32 = new Float32Array([1, NaN, Infinity, -Infinity, -Infinity, 0]);
    const file = writeSafetensors([
      { name: 'bad', dtype: 'F32', shape: [6], data: new Uint8Array(f32.buffer) },
      { name: 'bias', dtype: 'F16', shape: [4], data: new Uint8Array(8) },
      { name: 'ok', dtype: 'BF16', shape: [2], data: new Uint8Array([0x80, 0x3f, 0, 0]) },
    ]);
    const report = await validateSafetensors(file, { scanData: true });
    const nonFinite = report.findings.find((f) => f.code === 'NonFiniteValues');
    expect(nonFinite).toEqual(expect.objectContaining({ severity: 'warning', tensor: 'bad' }));
    expect(nonFinite.message).toContain('1 tensor holds');
    expect(nonFinite.message).toContain('1 NaN, 1 +inf, 2 -inf');
    const zero = report.findings.find((f) => f.code === 'AllZeroTensor');
    expect(zero).toEqual(expect.objectContaining({ severity: 'info', tensor: 'bias' }));
    expect(report.findings.filter((f) => f.code === 'AllZeroTensor')).toHaveLength(1);
  });

  test('without scanData nothing past the header is read; a rejected file is not scanned', async () => {
    const plain = recordingSource(file);
    const report = await validateSafetensors(plain);
    expect('dataScan' in report).toBe(false);
    expect(Math.max(...plain.reads.map(([at, n]) => at + n))).toBe(dataStart);
    const truncated = recordingSource(file.subarray(0, file.byteLength - 1));
    const rejected = await validateSafetensors(truncated, { scanData: true });
    expect(rejected).toEqual(expect.objectContaining({ loadable: false, dataScan: null }));
    expect(truncated.reads).toHaveLength(2);
  });

  test('progress rises to the data size; abort stops the scan with AbortError', async () => {
    const seen = [];
    await validateSafetensors(new Blob([file]), {
      scanData: true,
      onProgress: (done, total) => seen.push([done, total]),
    });
    const total = seen[0][1];
    expect(seen.at(-1)).toEqual([total, total]);
    for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThan(seen[i - 1][0]);
    const controller = new AbortController();
    const run = validateSafetensors(new Blob([file]), {
      scanData: true,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    await expect(validateSafetensors(file, { scanData: 'yes' })).rejects.toThrow(TypeError);
  });

  test('a 4.5 GiB file is scanned in bounded reads, at most two in flight, past 2^32', async () => {
    const size = 4.5 * 2 ** 30;
    const header = `{"a":{"dtype":"F32","shape":[${size / 8}],"data_offsets":[0,${size / 2}]},"b":{"dtype":"BF16","shape":[${size / 4}],"data_offsets":[${size / 2},${size}]}}`;
    const prefix = rawFile(header);
    let inFlight = 0;
    let maxInFlight = 0;
    let maxRead = 0;
    const source = {
      size: prefix.byteLength + size,
      async read(offset, length) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        maxRead = Math.max(maxRead, length);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        const out = new Uint8Array(length);
        if (offset < prefix.byteLength) out.set(prefix.subarray(offset, offset + length));
        // One BF16 NaN (0x7FC0) in tensor b, past 2^32: the scan must find it exactly there.
        for (const [at, byte] of [
          [nanAt, 0xc0],
          [nanAt + 1, 0x7f],
        ])
          if (at >= offset && at < offset + length) out[at - offset] = byte;
        return out;
      },
    };
    const nanAt = prefix.byteLength + 2 ** 32 + 10;
    const report = await validateSafetensors(source, { scanData: true });
    expect(report.dataScan.tensors.map((t) => [t.allZero, t.nan])).toEqual([
      [true, 0],
      [false, 1],
    ]);
    expect(report.dataScan.bytes).toBe(size);
    expect(maxRead).toBeLessThanOrEqual(READ_CHUNK_BYTES);
    expect(maxInFlight).toBeLessThanOrEqual(2);
  });
});
