// getTensor's reads on generated files: unknown names and options, into, tensors too large for
// one array, failing reads, progress and abort across chunks, and chunk boundaries inside
// elements. The values of every dtype and rows: decode.test.js.
import { describe, expect, test } from 'vitest';
import { openSafetensors, SafetensorsError } from '../../web/index.js';
import { pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { layoutFile, recordingSource } from './fixtures.js';
import { firstMismatch, referenceDecode } from './reference_decode.js';

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
