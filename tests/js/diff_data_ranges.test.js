// diffSafetensors with data where each side lays its small tensors out differently: tensors at
// other offsets on each side, far apart on one, and bytes that differ while their values
// compare equal (0 against -0, two NaN payloads). The batch reads ranges of the data section
// and compares in place; the answer must be what the tensors' own bytes and values give.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { diffSafetensors, openSafetensors } from '../../web/index.js';

/**
 * A .safetensors file with its tensors' bytes in the data section in the order given.
 * @param {{ name: string, dtype: string, shape: number[], bytes: Uint8Array }[]} tensors
 */
function fileOf(tensors) {
  const header = {};
  let end = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [end, end + t.bytes.length] };
    end += t.bytes.length;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const out = new Uint8Array(8 + json.length + end);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const t of tensors) {
    out.set(t.bytes, at);
    at += t.bytes.length;
  }
  return out;
}

const bytes = (/** @type {ArrayBufferView} */ v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const f32Bits = (/** @type {number[]} */ bits) => bytes(Uint32Array.from(bits));
const sha = (/** @type {Uint8Array} */ b) => createHash('sha256').update(b).digest('hex');

const NAN_BITS = 0x7fc00000;
const left = {
  zero: f32Bits([0x00000000, 0x3f800000]), // 0, 1
  nan: f32Bits([NAN_BITS, 0x40000000]), // NaN, 2
  ints: bytes(Int32Array.of(1, 2, 3)),
  same: bytes(Float64Array.of(0.5, -7)),
  moved: bytes(Float32Array.of(1.5, 2.5)),
  wide: new Uint8Array(200_000).fill(3), // changes dtype: not compared, leaves a gap of 200 kB
};
const right = {
  zero: f32Bits([0x80000000, 0x3f800000]), // -0, 1
  nan: f32Bits([NAN_BITS + 1, 0x40000000]), // another NaN, 2
  ints: bytes(Int32Array.of(1, 2, 4)),
  same: left.same.slice(),
  moved: bytes(Float32Array.of(1.5, 4)),
  wide: left.wide,
};
const layout = {
  zero: ['F32', [2]],
  nan: ['F32', [2]],
  ints: ['I32', [3]],
  same: ['F64', [2]],
  moved: ['F32', [2]],
  wide: ['U8', [200_000]],
};
const entries = (values, order, dtypes = {}) =>
  order.map((name) => ({ name, dtype: dtypes[name] ?? layout[name][0], shape: layout[name][1], bytes: values[name] }));

const A = fileOf(entries(left, ['zero', 'nan', 'wide', 'ints', 'same', 'moved']));
// Other offsets: reversed, and `wide` (I8 here) between the tensors compared.
const B = fileOf(entries(right, ['moved', 'same', 'ints', 'wide', 'nan', 'zero'], { wide: 'I8' }));

describe('diffSafetensors with data, tensors laid out differently on each side', () => {
  test('bytes compared where each side has them; values compared as the dtype says', async () => {
    const d = await diffSafetensors(A, B, { data: true });
    const data = (name) => d.tensors.changed.find((c) => c.name === name)?.data;
    expect(d.tensors.changed.map((c) => c.name)).toEqual(['wide', 'zero', 'nan', 'ints', 'moved']);
    expect(d.tensors.changed[0]).toEqual({ name: 'wide', dtype: ['U8', 'I8'] });
    // Different bytes, equal values: changed, with no element different.
    expect(data('zero')).toEqual({
      equal: false,
      sha256: [sha(left.zero), sha(right.zero)],
      maxAbsDiff: 0,
      differentElements: 0,
    });
    expect(data('nan')).toEqual({
      equal: false,
      sha256: [sha(left.nan), sha(right.nan)],
      maxAbsDiff: 0,
      differentElements: 0,
    });
    expect(data('ints')).toEqual({
      equal: false,
      sha256: [sha(left.ints), sha(right.ints)],
      maxAbsDiff: null,
      differentElements: null,
    });
    expect(data('moved')).toEqual({
      equal: false,
      sha256: [sha(left.moved), sha(right.moved)],
      maxAbsDiff: 1.5,
      differentElements: 1,
    });
    expect(d.tensors.unchanged).toBe(1); // `same`
  });

  test('the same answer from files opened here as from sides read tensor by tensor', async () => {
    const [a, b] = await Promise.all([A, B].map((f) => openSafetensors(new Blob([f]))));
    // The same tensors seen through getTensors only (as a sharded or remote model is).
    const throughGetTensors = (st) => ({
      tensors: st.tensors,
      metadata: st.metadata,
      streamTensor: st.streamTensor,
      getTensor: st.getTensor,
      getTensors: st.getTensors,
    });
    const direct = await diffSafetensors(a, b, { data: true });
    expect(await diffSafetensors(throughGetTensors(a), throughGetTensors(b), { data: true })).toEqual(direct);
    expect(await diffSafetensors(B, A, { data: true })).toMatchObject({
      tensors: { unchanged: 1, changed: expect.arrayContaining([expect.objectContaining({ name: 'moved' })]) },
    });
  });
});
