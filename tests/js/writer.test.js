// The test writer emits exactly what the reference writer emits (docs/reference-rules.md).
import { expect, test } from 'vitest';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const text = (bytes, n) => new TextDecoder().decode(bytes.subarray(8, 8 + n));
const headerLength = (bytes) => Number(new DataView(bytes.buffer).getBigUint64(0, true));

test('attn.0 F32 [1,2,3] gives the reference header, N = 64', () => {
  const file = writeSafetensors([{ name: 'attn.0', dtype: 'F32', shape: [1, 2, 3], data: new Uint8Array(24) }]);
  expect(headerLength(file)).toBe(64);
  expect(text(file, 64)).toBe('{"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}}');
});

test('no tensors: N = 8; with {"framework":"pt"}: N = 40', () => {
  expect(headerLength(writeSafetensors([]))).toBe(8);
  expect(text(writeSafetensors([]), 8)).toBe('{}      ');
  expect(headerLength(writeSafetensors([], { framework: 'pt' }))).toBe(40);
});

test('sorted by dtype descending, then by name', () => {
  const t = (name, dtype) => ({ name, dtype, shape: [1], data: new Uint8Array(dtype === 'U8' ? 1 : 4) });
  const file = writeSafetensors([t('b', 'U8'), t('a', 'U8'), t('z', 'F32')]);
  const header = JSON.parse(text(file, headerLength(file)));
  expect(Object.keys(header)).toEqual(['z', 'a', 'b']);
  expect(header.a.data_offsets).toEqual([4, 5]);
});
