// getTensor on generated files: every code of every small float kind, every other dtype,
// odd offsets, scalars, empty tensors, rows, errors, progress and abort.
import { describe, expect, test } from 'vitest';
import { openSafetensors, SafetensorsError } from '../../web/index.js';
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

describe('errors and options', () => {
  const file = layoutFile([{ name: 'w', dtype: 'F16', shape: [4], data: new Uint8Array(8) }]);

  test('an unknown name or option is a clear error', async () => {
    const st = await openSafetensors(file);
    const error = await st.getTensor('nope').catch((e) => e);
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe('TensorNotFound');
    expect(error.message).toContain('"w"');
    await expect(st.getTensor('w', { as: 'float16' })).rejects.toThrow(/'native', 'float32', 'raw'/);
    await expect(st.getTensor('w', { onProgress: 3 })).rejects.toThrow(TypeError);
    await expect(st.getTensor('w', { signal: {} })).rejects.toThrow(TypeError);
  });

  test('into: fills a given array of the right type and returns a view of it', async () => {
    const bytes = new Uint8Array([0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7c, 0x01, 0x00]);
    const st = await openSafetensors(
      layoutFile([
        { name: 'w', dtype: 'F16', shape: [4], data: bytes },
        { name: 'i', dtype: 'I16', shape: [4], data: bytes },
      ]),
    );
    const buffer = new Float32Array(6).fill(9);
    const got = await st.getTensor('w', { into: buffer });
    expect(got.buffer).toBe(buffer.buffer);
    expect([...buffer]).toEqual([1, -2, Infinity, 2 ** -24, 9, 9]);
    expect(got).toHaveLength(4);
    const ints = new Int16Array(4);
    expect(await st.getTensor('i', { into: ints, rows: [1, 3] })).toEqual(new Int16Array([-16384, 31744]));
    await expect(st.getTensor('w', { into: new Float32Array(3) })).rejects.toThrow(/at least 4 elements/);
    await expect(st.getTensor('w', { into: new Float64Array(4) })).rejects.toThrow(TypeError);
    await expect(st.getTensor('i', { into: new Float32Array(4) })).rejects.toThrow(/Int16Array/);
  });

  test('a tensor too large for one array names its size and suggests rows', async () => {
    const rows = 2 ** 22;
    const header = `{"big":{"dtype":"U8","shape":[${rows},2048],"data_offsets":[0,${rows * 2048}]}}`;
    const headerBytes = new TextEncoder().encode(header);
    const prefix = new Uint8Array(8 + headerBytes.byteLength);
    new DataView(prefix.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
    prefix.set(headerBytes, 8);
    const source = recordingSource(prefix, prefix.byteLength + rows * 2048);
    const st = await openSafetensors(source);
    const error = await st.getTensor('big').catch((e) => e);
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'TensorTooLarge', tensor: 'big' });
    expect(error.message).toContain('8589934592 bytes');
    expect(error.message).toContain('rows');
    expect(source.reads.length).toBe(2); // nothing read for the refused tensor
    expect(await st.getTensor('big', { rows: [rows - 1, rows] })).toHaveLength(2048);
    expect(source.reads.at(-1)).toEqual([prefix.byteLength + (rows - 1) * 2048, 2048]);
  });

  test('a failing read rejects with a ReadError', async () => {
    const cause = new Error('gone');
    let fail = false;
    const source = {
      size: file.byteLength,
      read: async (o, n) => {
        if (fail) throw cause;
        return file.subarray(o, o + n);
      },
    };
    const st = await openSafetensors(source);
    fail = true;
    await expect(st.getTensor('w')).rejects.toMatchObject({ code: 'ReadError', cause });
  });
});

describe('progress and abort across chunks', () => {
  // 10 MiB of BF16: three 4 MiB reads from a { size, read } source.
  const big = pseudoRandomBytes(10 << 20, 3);
  const file = layoutFile([{ name: 'big', dtype: 'BF16', shape: [5 << 20], data: big, gap: 1 }]);

  test('progress is monotone and ends at the total; values match', async () => {
    const st = await openSafetensors(recordingSource(file));
    const seen = [];
    const got = await st.getTensor('big', { onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(([d, t], i) => t === big.byteLength && (i === 0 || d > seen[i - 1][0]))).toBe(true);
    expect(seen.at(-1)).toEqual([big.byteLength, big.byteLength]);
    expect(firstMismatch(got, referenceDecode('BF16', big))).toBe(-1);
  });

  test('abort mid-tensor rejects with an AbortError and stops reading', async () => {
    const source = recordingSource(file);
    const st = await openSafetensors(source);
    const controller = new AbortController();
    const readsBefore = source.reads.length;
    const error = await st
      .getTensor('big', { signal: controller.signal, onProgress: () => controller.abort() })
      .catch((e) => e);
    expect(error.name).toBe('AbortError');
    // The first chunk, and at most the one read ahead of it.
    expect(source.reads.length - readsBefore).toBeLessThanOrEqual(2);
    await expect(st.getTensor('big', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('abort while reading a Blob stream', async () => {
    const st = await openSafetensors(new Blob([file]));
    const controller = new AbortController();
    let calls = 0;
    const error = await st
      .getTensor('big', {
        signal: controller.signal,
        onProgress: () => {
          calls += 1;
          controller.abort();
        },
      })
      .catch((e) => e);
    expect(error.name).toBe('AbortError');
    expect(calls).toBe(1);
  });
});

describe('chunk boundaries inside elements', () => {
  // Streams deliver chunks of any size; elements split across them must be carried over.
  test.each(['F16', 'BF16', 'F8_E4M3', 'F64', 'I32', 'F4', 'BOOL', 'C64', 'I64'])(
    '%s through chunks of 1, 3, 7, 1000 and 65537 bytes',
    async (dtype) => {
      const { planTensorRead } = await import('../../web/tensors/plan.js');
      const { decodeTensor } = await import('../../web/tensors/decode.js');
      const { initSafetensors } = await import('../../web/index.js');
      const core = await initSafetensors();
      const bytes = pseudoRandomBytes(3 * 65536 + 24, 11);
      // Sizes stated here independently of the core's dtype table, on purpose (an oracle).
      const bits = { F16: 16, BF16: 16, F8_E4M3: 8, F64: 64, I32: 32, F4: 4, BOOL: 8, C64: 64, I64: 64 }[dtype];
      const tensor = { name: 't', dtype, shape: [(bytes.byteLength * 8) / bits], dataOffsets: [0, bytes.byteLength] };
      const sizes = [1, 3, 7, 1000, 65537];
      const source = {
        async *chunks(offset, length) {
          for (let at = offset, i = 0; at < offset + length; i++) {
            const n = Math.min(sizes[i % sizes.length], offset + length - at);
            yield bytes.slice(at, at + n);
            at += n;
          }
        },
      };
      for (const as of ['native', 'float32']) {
        const plan = planTensorRead(
          tensor,
          core.tables.dtypes.find((d) => d.name === dtype),
          0,
          { as },
        );
        const got = await decodeTensor(core, source, plan, tensor, {});
        const want = referenceDecode(dtype, bytes, got instanceof Float32Array);
        expect(got.length).toBe(want.length);
        expect(firstMismatch(got, want), `${dtype} ${as}`).toBe(-1);
      }
    },
  );
});
