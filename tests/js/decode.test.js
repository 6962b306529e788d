// getTensor on generated files: every code of every small float kind, every other dtype,
// odd offsets, scalars, empty tensors and rows. Errors, progress and abort: decode_reads.test.js.
import { describe, expect, test } from 'vitest';
import { openSafetensors } from '../../web/index.js';
import { pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { layoutFile, recordingSource } from './fixtures.js';
import { SMALL_FLOATS, bigintToFloat32, firstMismatch, referenceDecode } from './reference_decode.js';

const bytesOf = (typed) => new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);

function everyCode(bits) {
  const codes = new Uint8Array(bits === 16 ? 131072 : 256);
  if (bits === 16) new DataView(codes.buffer).setUint16(0, 0, true);
  for (let c = 0; c < codes.byteLength / (bits / 8); c++) {
    if (bits === 16) new DataView(codes.buffer).setUint16(2 * c, c, true);
    else codes[c] = c;
  }
  return codes;
}

describe('every code of every small float kind', () => {
  const kinds = ['F16', 'BF16', 'F8_E5M2', 'F8_E4M3', 'F8_E4M3FNUZ', 'F8_E5M2FNUZ', 'F8_E8M0', 'F4'];
  // Each tensor after a gap (1 byte, then 2) and an unpadded header: every tensor starts at
  // an odd file offset, alternately 1 and 3 mod 4 (the data before each is even-sized).
  const tensors = kinds.map((dtype, i) => {
    const data = everyCode(dtype === 'F16' || dtype === 'BF16' ? 16 : 8);
    const elements = dtype === 'F4' ? data.byteLength * 2 : data.byteLength / (dtype.endsWith('16') ? 2 : 1);
    return { name: dtype, dtype, shape: [elements], data, gap: i === 0 ? 1 : 2 };
  });
  const file = layoutFile(tensors);

  for (const { dtype, data } of tensors) {
    test(`${dtype}: ${dtype === 'F4' ? 'all 256 bytes (every pair of codes)' : 'every code'} matches the reference, native and float32`, async () => {
      const st = await openSafetensors(new Blob([file]));
      expect((st.dataStart + st.tensors.find((t) => t.name === dtype).dataOffsets[0]) % 2).toBe(1);
      const want = referenceDecode(dtype, data);
      for (const as of ['native', 'float32']) {
        const got = await st.getTensor(dtype, { as });
        expect(got).toBeInstanceOf(Float32Array);
        const at = firstMismatch(got, want);
        expect(at, `${dtype} ${as}: element ${at} is ${got[at]}, expected ${want[at]}`).toBe(-1);
      }
    });
  }

  test('the special codes the formats are known for', () => {
    expect(SMALL_FLOATS.F8_E4M3(0x7e)).toBe(448);
    expect(SMALL_FLOATS.F8_E4M3FNUZ(0x7f)).toBe(240);
    expect(SMALL_FLOATS.F8_E5M2(0x7c)).toBe(Infinity);
    expect(SMALL_FLOATS.F8_E8M0(0)).toBe(2 ** -127);
    expect(SMALL_FLOATS.F16(0x8000)).toBe(-0);
  });

  test('FNUZ kinds: 0x80 is NaN, not -0; E4M3 has no infinity', async () => {
    const st = await openSafetensors(file);
    const fnuz = await st.getTensor('F8_E4M3FNUZ');
    expect(Number.isNaN(fnuz[0x80])).toBe(true);
    expect(fnuz.some((v) => Object.is(v, -0))).toBe(false);
    const e4m3 = await st.getTensor('F8_E4M3');
    expect(e4m3.some((v) => !Number.isFinite(v) && !Number.isNaN(v))).toBe(false);
    expect(Number.isNaN(e4m3[0x7f]) && Number.isNaN(e4m3[0xff])).toBe(true);
  });
});

describe('other dtypes', () => {
  const extremes = {
    I64: new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n]),
    U64: new BigUint64Array([0n, 2n ** 64n - 1n, 2n ** 53n + 1n, 1n]),
    I32: new Int32Array([-(2 ** 31), 2 ** 31 - 1, -1, 16777217]),
    U32: new Uint32Array([0, 2 ** 32 - 1, 1, 16777217]),
    I16: new Int16Array([-32768, 32767, -1, 0]),
    U16: new Uint16Array([0, 65535, 1, 2]),
    I8: new Int8Array([-128, 127, -1, 0]),
    U8: new Uint8Array([0, 255, 1, 2]),
    F32: new Float32Array([-0, Infinity, NaN, 1.5e-45]),
    F64: new Float64Array([1 + 2 ** -24, 1e300, -0, 5e-324]),
    C64: new Float32Array([1, -2, 3.5, -0]),
  };
  const file = layoutFile(
    Object.entries(extremes)
      .map(([dtype, values], i) => ({
        name: dtype,
        dtype,
        shape: dtype === 'C64' ? [2] : [4],
        data: bytesOf(values),
        gap: i % 2 ? 3 : 1,
      }))
      .concat([{ name: 'BOOL', dtype: 'BOOL', shape: [2, 3], data: new Uint8Array([0, 1, 2, 255, 0, 128]), gap: 5 }]),
  );

  test('native arrays keep the values exactly, at odd offsets', async () => {
    const st = await openSafetensors(file);
    for (const [dtype, values] of Object.entries(extremes)) {
      const got = await st.getTensor(dtype);
      expect(got.constructor, dtype).toBe(values.constructor);
      expect(bytesOf(got), dtype).toEqual(bytesOf(values));
    }
    expect(await st.getTensor('BOOL')).toEqual(new Uint8Array([0, 1, 1, 1, 0, 1]));
  });

  test('float32 converts every dtype, rounding to nearest even', async () => {
    const st = await openSafetensors(file);
    for (const dtype of ['I32', 'U32', 'I16', 'U16', 'I8', 'U8', 'F32', 'F64', 'C64', 'BOOL']) {
      const got = await st.getTensor(dtype, { as: 'float32' });
      const want = referenceDecode(
        dtype,
        bytesOf(dtype === 'BOOL' ? new Uint8Array([0, 1, 2, 255, 0, 128]) : extremes[dtype]),
        true,
      );
      expect(got).toBeInstanceOf(Float32Array);
      expect(firstMismatch(got, want), dtype).toBe(-1);
    }
    expect([...(await st.getTensor('I64', { as: 'float32' }))]).toEqual([-(2 ** 63), 2 ** 63, -1, 0]);
    expect([...(await st.getTensor('U64', { as: 'float32' }))]).toEqual([0, 2 ** 64, 2 ** 53, 1]);
    expect(bigintToFloat32(2n ** 24n + 1n)).toBe(2 ** 24); // tie to even
    expect(bigintToFloat32(2n ** 24n + 3n)).toBe(2 ** 24 + 4);
  });

  test('raw gives the bytes; 6-bit floats are raw natively and refuse float32', async () => {
    const f6 = layoutFile([{ name: 'six', dtype: 'F6_E2M3', shape: [4], data: new Uint8Array([1, 2, 3]), gap: 1 }]);
    const st = await openSafetensors(f6);
    expect(await st.getTensor('six')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await st.getTensor('six', { as: 'raw' })).toEqual(new Uint8Array([1, 2, 3]));
    await expect(st.getTensor('six', { as: 'float32' })).rejects.toMatchObject({
      name: 'SafetensorsError',
      code: 'UnsupportedConversion',
      tensor: 'six',
    });
    const other = await openSafetensors(file);
    expect(await other.getTensor('I16', { as: 'raw' })).toEqual(bytesOf(extremes.I16));
  });

  test('a scalar gives one element; empty tensors give empty arrays', async () => {
    const st = await openSafetensors(
      layoutFile([
        { name: 's', dtype: 'F16', shape: [], data: new Uint8Array([0x00, 0x3c]), gap: 1 },
        { name: 'e', dtype: 'F32', shape: [0], data: new Uint8Array(0) },
        { name: 'e2', dtype: 'BF16', shape: [3, 0, 2], data: new Uint8Array(0) },
        { name: 'e3', dtype: 'I64', shape: [0], data: new Uint8Array(0) },
      ]),
    );
    expect(await st.getTensor('s')).toEqual(new Float32Array([1]));
    expect(await st.getTensor('e')).toEqual(new Float32Array(0));
    expect(await st.getTensor('e3')).toEqual(new BigInt64Array(0));
    const progress = [];
    expect(await st.getTensor('e2', { onProgress: (d, t) => progress.push([d, t]) })).toEqual(new Float32Array(0));
    expect(progress).toEqual([[0, 0]]);
  });
});

describe('rows', () => {
  const values = new Float32Array(Array.from({ length: 24 }, (_, i) => i - 3.5));
  const halfs = pseudoRandomBytes(48, 7);
  const file = layoutFile(
    [
      { name: 'm', dtype: 'F32', shape: [6, 4], data: bytesOf(values), gap: 3 },
      { name: 'h', dtype: 'BF16', shape: [6, 4], data: halfs, gap: 1 },
      { name: 'q', dtype: 'F4', shape: [3, 3], data: new Uint8Array([0x21, 0x43, 0x65, 0x87, 0x19]), gap: 1 },
      { name: 'q2', dtype: 'F4', shape: [2, 2], data: new Uint8Array([0x21, 0x43]) },
      { name: 's', dtype: 'U8', shape: [], data: new Uint8Array([1]) },
    ].map((t) => (t.name === 'q' ? { ...t, shape: [5, 2] } : t)),
  );

  test('reads just the rows asked for', async () => {
    const source = recordingSource(file);
    const st = await openSafetensors(source);
    const before = source.reads.length;
    expect(await st.getTensor('m', { rows: [2, 4] })).toEqual(values.subarray(8, 16));
    const [offset, length] = source.reads[before];
    expect(length).toBe(32);
    expect(offset).toBe(st.dataStart + st.tensors.find((t) => t.name === 'm').dataOffsets[0] + 32);
    expect(await st.getTensor('h', { rows: [5, 6] })).toEqual(
      new Float32Array(referenceDecode('BF16', halfs.subarray(40, 48))),
    );
    expect(await st.getTensor('m', { rows: [3, 3] })).toEqual(new Float32Array(0));
    // Row 1 is byte 0x43: codes 3 (low nibble, first) and 4, i.e. 1.5 and 2.
    expect(await st.getTensor('q2', { rows: [1, 2] })).toEqual(new Float32Array([1.5, 2]));
  });

  test('rows that are out of range, malformed, on a scalar, or split a byte are refused', async () => {
    const st = await openSafetensors(file);
    await expect(st.getTensor('m', { rows: [0, 7] })).rejects.toThrow(RangeError);
    await expect(st.getTensor('m', { rows: [3, 2] })).rejects.toThrow(/0 <= start <= end <= 6/);
    await expect(st.getTensor('m', { rows: [0.5, 2] })).rejects.toThrow(TypeError);
    await expect(st.getTensor('m', { rows: 2 })).rejects.toThrow(TypeError);
    await expect(st.getTensor('s', { rows: [0, 1] })).rejects.toThrow(/scalar/);
    expect(st.tensors.find((t) => t.name === 'q').shape).toEqual([5, 2]);
    await expect(
      openSafetensors(layoutFile([{ name: 'odd', dtype: 'F4', shape: [2, 3], data: new Uint8Array(3) }])).then((f) =>
        f.getTensor('odd', { rows: [1, 2] }),
      ),
    ).rejects.toThrow(/inside a byte/);
  });
});
