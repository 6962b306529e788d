// openCheckpoint (web/pickle/open_checkpoint.js) over the committed checkpoints (tests/checkpoints,
// written by torch.save: make_checkpoints.py): every tensor torch recorded in expected.json is
// listed with its dtype, shape, stride and storage offset, and getTensor gives torch's own values
// (views at storage offsets, transposed and strided views, tied tensors, the legacy format, every
// dtype); a state_dict entry is unwrapped; bad names and dtypes safetensors lacks are typed errors.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openCheckpoint, scanPickle, SafetensorsError } from '../../web/index.js';
import { rejection } from './fixtures.js';
import { tensorBytes } from '../../web/pickle/open_checkpoint.js';
import { SAFETENSORS_DTYPE } from './torch_dtype_names.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const EXPECTED = JSON.parse(await readFile(`${DIR}expected.json`, 'utf8'));

/** expected.json's tensors of `file` under the names openCheckpoint gives (state_dict unwrapped). */
function expectedTensors(/** @type {string} */ file) {
  const all = Object.entries(EXPECTED[file].tensors ?? {});
  const inner = all.filter(([name]) => name.startsWith('state_dict.'));
  return inner.length ? inner.map(([name, t]) => [name.slice('state_dict.'.length), t]) : all;
}

const WITH_TENSORS = Object.keys(EXPECTED).filter((f) => Object.keys(EXPECTED[f].tensors ?? {}).length);

test('the checkpoints with tensors are more than five, and some hold values and views', () => {
  expect(WITH_TENSORS.length).toBeGreaterThan(5);
  expect(EXPECTED['views.pt'].tensors.strided.stride).toEqual([8, 2]);
});

describe.each(WITH_TENSORS)('%s', (file) => {
  test("every tensor torch saved is listed with torch's dtype, shape, stride and offset", async () => {
    const ckpt = await openCheckpoint(`${DIR}${file}`);
    const scan = await scanPickle(`${DIR}${file}`);
    expect({ format: ckpt.format, verdict: ckpt.verdict, globals: ckpt.globals }).toEqual({
      format: scan.format,
      verdict: scan.verdict,
      globals: scan.globals,
    });
    const expected = expectedTensors(file);
    expect(ckpt.tensors.map((t) => t.name).sort()).toEqual(expected.map(([name]) => name).sort());
    for (const [name, t] of expected) {
      const got = ckpt.tensors.find((x) => x.name === name);
      expect(got, name).toMatchObject({
        torchDtype: t.dtype,
        dtype: SAFETENSORS_DTYPE[t.dtype],
        shape: t.shape,
        stride: t.stride,
        storageOffset: t.storage_offset,
      });
    }
  });

  test("getTensor gives torch's values for every tensor that has them", async () => {
    const ckpt = await openCheckpoint(new Uint8Array(await readFile(`${DIR}${file}`)));
    let checked = 0;
    for (const [name, t] of expectedTensors(file)) {
      if (!SAFETENSORS_DTYPE[t.dtype]) {
        expect((await rejection(ckpt.getTensor(name))).code).toBe('UnsupportedConversion');
        continue;
      }
      const values = await ckpt.getTensor(name);
      const parts = t.dtype === 'complex64' ? 2 : 1; // C64: real and imaginary parts, interleaved
      expect(values.length, name).toBe(parts * t.shape.reduce((a, b) => a * b, 1));
      if (!t.values) continue;
      expect(Array.from(values, Number), name).toEqual(t.values.flat(Infinity));
      checked++;
    }
    if (expectedTensors(file).some(([, t]) => t.values)) expect(checked).toBeGreaterThan(0);
  });
});

test('the dtypes checkpoint reads every dtype safetensors has as the safetensors reader does', async () => {
  const ckpt = await openCheckpoint(`${DIR}dtypes.pt`);
  // make_checkpoints.py saves arange(-2, 4) in each dtype (bool: nonzero).
  for (const dtype of ['float64', 'float32', 'float16', 'bfloat16', 'int32', 'int16', 'int8']) {
    expect(Array.from(await ckpt.getTensor(dtype), Number), dtype).toEqual([-2, -1, 0, 1, 2, 3]);
  }
  expect(Array.from(await ckpt.getTensor('int64'), Number)).toEqual([-2, -1, 0, 1, 2, 3]);
  expect(Array.from(await ckpt.getTensor('uint8'))).toEqual([254, 255, 0, 1, 2, 3]);
  expect(Array.from(await ckpt.getTensor('complex64'))).toEqual([-2, 0, -1, 0, 0, 0, 1, 0, 2, 0, 3, 0]);
  expect(Array.from(await ckpt.getTensor('bool'), Number)).toEqual([1, 1, 0, 1, 1, 1]);
});

test('a Lightning checkpoint is its state_dict: the optimizer states are left out', async () => {
  const ckpt = await openCheckpoint(`${DIR}lightning.ckpt`);
  expect(ckpt.tensors.length).toBeGreaterThan(0);
  expect(ckpt.tensors.some((t) => t.name.startsWith('optimizer_states'))).toBe(false);
  expect(Object.keys(EXPECTED['lightning.ckpt'].tensors).some((n) => n.startsWith('optimizer_states'))).toBe(true);
});

test("a Lightning checkpoint's plain values are its objects, under their own names", async () => {
  const ckpt = await openCheckpoint(`${DIR}lightning.ckpt`);
  // make_checkpoints.py: epoch 3, global_step 120, 'pytorch-lightning_version' '1.9.0'.
  expect(ckpt.objects).toEqual(
    expect.arrayContaining([
      { name: 'epoch', value: 3 },
      { name: 'global_step', value: 120 },
      { name: 'pytorch-lightning_version', value: '1.9.0' },
    ]),
  );
  expect(ckpt.objectsLeftOut).toBe(0);
});

test('tied tensors share one storage and read the same values', async () => {
  const ckpt = await openCheckpoint(`${DIR}tied.pt`);
  const [enc, dec] = ['encoder.weight', 'decoder.weight'].map((n) => ckpt.tensors.find((t) => t.name === n));
  expect(enc?.storage).toBe(dec?.storage);
  expect(await ckpt.getTensor('decoder.weight')).toEqual(await ckpt.getTensor('encoder.weight'));
});

test('an unknown name is TensorNotFound', async () => {
  const ckpt = await openCheckpoint(`${DIR}views.pt`);
  const error = await rejection(ckpt.getTensor('nope'));
  expect(error).toBeInstanceOf(SafetensorsError);
  expect(error.code).toBe('TensorNotFound');
});

describe("tensorBytes on records torch does not write (the pickle is a stranger's)", () => {
  const storage = { key: '0', offset: 0, bytes: 16, stored: true, size: 16, crc32: 0 };
  const source = {
    size: 16,
    read: async (/** @type {number} */ at, /** @type {number} */ n) => new Uint8Array(n).fill(at),
    async *chunks(/** @type {number} */ at, /** @type {number} */ n) {
      yield new Uint8Array(n).fill(at);
    },
  };
  const record = (/** @type {object} */ over) => ({
    name: 'w',
    storage: '0',
    elementSize: 4,
    storageOffset: 0,
    shape: [2],
    stride: [1],
    ...over,
  });

  test.each([
    ['a negative size', { shape: [-2] }, 'InvalidTensor'],
    ['a size that is no integer', { shape: [1.5] }, 'InvalidTensor'],
    ['a view past its storage', { storageOffset: 3 }, 'InvalidTensor'],
    ['a stride-0 view of 2^40 elements', { shape: [2 ** 40], stride: [0] }, 'TensorTooLarge'],
  ])('%s is a typed error', async (_, over, code) => {
    const error = await rejection(tensorBytes(/** @type {any} */ (source), record(over), storage));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe(code);
  });

  test('a stride-0 view (expand) repeats its one element; a "deflated" storage that is not deflate is CorruptStorage', async () => {
    const bytes = await tensorBytes(
      /** @type {any} */ (source),
      record({ shape: [3], stride: [0], storageOffset: 1 }),
      storage,
    );
    expect(Array.from(bytes)).toEqual(new Array(12).fill(4));
    const error = await rejection(tensorBytes(/** @type {any} */ (source), record({}), { ...storage, stored: false }));
    expect(error.code).toBe('CorruptStorage');
  });
});
