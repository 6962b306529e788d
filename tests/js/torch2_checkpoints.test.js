// openCheckpoint, scanPickle and toSafetensors on checkpoints laid out as torch 2.x's torch.save
// writes them (tests/checkpoints/make_torch2_checkpoints.py, torch2_expected.json): every tensor
// listed with its dtype, shape, stride and offset; getTensor gives the generator's values; the
// converted file, reopened, holds each tensor's exact bytes under the safetensors dtype; dtypes
// safetensors has no name for are refused by name; big-endian files (byteorder "big") read as
// their little-endian twins; the legacy format as torch 2.x writes it reads too.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openCheckpoint, openSafetensors, scanPickle, validateSafetensors } from '../../web/index.js';
import { littleEndianSource, swapUnit } from '../../web/pickle/byte_order.js';
import { rejection } from './fixtures.js';
import { SAFETENSORS_DTYPE } from './torch_dtype_names.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const EXPECTED = JSON.parse(await readFile(`${DIR}torch2_expected.json`, 'utf8'));
const FILES = Object.keys(EXPECTED);

const hex = (/** @type {Uint8Array} */ b) => Buffer.from(b).toString('hex');

test('the generator wrote every dtype torch 2.x saves, and files of both byte orders', () => {
  const dtypes = new Set(FILES.flatMap((f) => Object.values(EXPECTED[f].tensors).map((t) => t.dtype)));
  expect([...dtypes].sort()).toEqual(Object.keys(SAFETENSORS_DTYPE).sort());
  // '': the legacy format has no byteorder record (its storages are always little-endian).
  expect(new Set(FILES.map((f) => EXPECTED[f].byteorder))).toEqual(new Set(['little', 'big', '']));
  expect(new Set(FILES.map((f) => EXPECTED[f].format))).toEqual(new Set(['pytorch-zip', 'pytorch-legacy']));
});

describe.each(FILES)('%s', (file) => {
  const expected = Object.entries(EXPECTED[file].tensors);

  test('safe, every global safe, no finding, and scanPickle agrees', async () => {
    const ckpt = await openCheckpoint(`${DIR}${file}`);
    const scan = await scanPickle(`${DIR}${file}`);
    expect({ format: ckpt.format, verdict: ckpt.verdict, findings: ckpt.findings }).toEqual({
      format: EXPECTED[file].format,
      verdict: 'safe',
      findings: [],
    });
    expect(ckpt.globals.filter((g) => g.safety !== 'safe')).toEqual([]);
    expect(ckpt.globals.map((g) => `${g.module}.${g.name}`)).toContain('collections.OrderedDict');
    expect(scan).toMatchObject({ format: ckpt.format, verdict: ckpt.verdict, globals: ckpt.globals });
  });

  test('every tensor is listed with its dtype, shape, stride and storage offset', async () => {
    const ckpt = await openCheckpoint(`${DIR}${file}`);
    expect(ckpt.tensors.map((t) => t.name).sort()).toEqual(expected.map(([n]) => n).sort());
    for (const [name, t] of expected) {
      expect(
        ckpt.tensors.find((x) => x.name === name),
        name,
      ).toMatchObject({
        torchDtype: t.dtype,
        dtype: SAFETENSORS_DTYPE[t.dtype],
        shape: t.shape,
        stride: t.stride,
        storage: t.storage,
        storageOffset: t.storage_offset,
      });
    }
  });

  test("getTensor gives each tensor's values, or refuses its dtype by name", async () => {
    const ckpt = await openCheckpoint(new Uint8Array(await readFile(`${DIR}${file}`)));
    for (const [name, t] of expected) {
      if (!SAFETENSORS_DTYPE[t.dtype]) {
        const error = await rejection(ckpt.getTensor(name));
        expect(error.code, name).toBe('UnsupportedConversion');
        expect(error.message).toContain(JSON.stringify(name));
        expect(error.message).toContain(`torch.${t.dtype}`);
        continue;
      }
      const values = await ckpt.getTensor(name);
      const wide = typeof t.values[0] === 'string'; // 64-bit integers, as text
      expect(Array.from(values, wide ? String : Number), name).toEqual(t.values);
    }
  });

  test('converts to the exact bytes under the safetensors dtype, or refuses naming the tensor', async () => {
    const ckpt = await openCheckpoint(new Blob([await readFile(`${DIR}${file}`)]));
    const refused = expected.filter(([, t]) => !SAFETENSORS_DTYPE[t.dtype]);
    if (refused.length) {
      const error = await rejection(ckpt.toSafetensors());
      expect(error.code).toBe('UnsupportedConversion');
      expect(refused.map(([n, t]) => `"${n}" is torch.${t.dtype}`)).toContain(
        error.message.match(/"[^"]+" is torch\.\w+/)?.[0],
      );
      return;
    }
    const bytes = new Uint8Array(await (await ckpt.toSafetensors()).arrayBuffer());
    expect((await validateSafetensors(bytes)).loadable).toBe(true);
    const st = await openSafetensors(bytes);
    expect(st.metadata).toEqual({ format: 'pt' });
    expect(st.tensors.map((t) => t.name).sort()).toEqual(expected.map(([n]) => n).sort());
    for (const [name, t] of expected) {
      expect(
        st.tensors.find((x) => x.name === name),
        name,
      ).toMatchObject({ dtype: SAFETENSORS_DTYPE[t.dtype], shape: t.shape });
      expect(hex(await st.getTensor(name, { as: 'raw' })), name).toBe(t.bytes);
    }
  });
});

test('a big-endian checkpoint reads and converts as its little-endian twin', async () => {
  for (const [big, little] of [
    ['torch2_dtypes_big.pt', 'torch2_dtypes.pt'],
    ['torch2_model_big.pt', 'torch2_model.v2.pt'],
  ]) {
    const a = await openCheckpoint(`${DIR}${big}`);
    const b = await openCheckpoint(`${DIR}${little}`);
    for (const t of b.tensors.filter((x) => x.dtype)) {
      expect(await a.getTensor(t.name), t.name).toEqual(await b.getTensor(t.name));
    }
  }
  const a = await (await openCheckpoint(`${DIR}torch2_model_big.pt`)).toSafetensors();
  const b = await (await openCheckpoint(`${DIR}torch2_model.v2.pt`)).toSafetensors();
  expect(hex(new Uint8Array(await a.arrayBuffer()))).toBe(hex(new Uint8Array(await b.arrayBuffer())));
});

describe('littleEndianSource', () => {
  const storages = [
    { key: '0', offset: 4, bytes: 12, stored: true }, // three float32
    { key: '1', offset: 16, bytes: 16, stored: true }, // one complex128: two halves of 8
  ];
  const tensors = [
    { storage: '0', torchDtype: 'float32', elementSize: 4 },
    { storage: '1', torchDtype: 'complex128', elementSize: 16 },
  ];
  const file = Uint8Array.from({ length: 40 }, (_, i) => i);
  const source = {
    size: 40,
    read: async (/** @type {number} */ at, /** @type {number} */ n) => file.slice(at, at + n),
  };
  /** The whole file as torch.load would see it: each unit of each storage reversed. */
  const swapped = file.slice();
  for (const s of storages) {
    const unit = swapUnit(tensors.find((t) => t.storage === s.key)?.torchDtype ?? '', s.key === '0' ? 4 : 16);
    for (let at = s.offset; at < s.offset + s.bytes; at += unit) swapped.subarray(at, at + unit).reverse();
  }

  test('is the source itself for little-endian files and those without the record', () => {
    expect(littleEndianSource(/** @type {any} */ (source), 'little', tensors, storages)).toBe(source);
    expect(littleEndianSource(/** @type {any} */ (source), '', tensors, storages)).toBe(source);
  });

  test('swaps every element, halves of complex ones, for reads at any offset and length', async () => {
    expect(swapUnit('complex128', 16)).toBe(8);
    expect(swapUnit('complex32', 4)).toBe(2);
    const big = littleEndianSource(/** @type {any} */ (source), 'big', tensors, storages);
    for (let at = 0; at < 40; at++) {
      for (let end = at; end <= 40; end++) {
        expect(Array.from(await big.read(at, end - at)), `${at}..${end}`).toEqual(
          Array.from(swapped.subarray(at, end)),
        );
      }
    }
    const chunks = [];
    for await (const c of big.chunks(3, 30)) chunks.push(...c);
    expect(chunks).toEqual(Array.from(swapped.subarray(3, 33)));
  });

  test('refuses to read a deflated storage of a big-endian file (its swap belongs after inflating)', async () => {
    const deflated = storages.map((s) => ({ ...s, stored: s.key === '0' }));
    const big = littleEndianSource(/** @type {any} */ (source), 'big', tensors, deflated);
    expect(Array.from(await big.read(4, 4))).toEqual([7, 6, 5, 4]);
    expect((await rejection(big.read(14, 4))).code).toBe('UnsupportedConversion');
  });

  test('refuses a byte order torch.load refuses, with a typed error', () => {
    expect(() => littleEndianSource(/** @type {any} */ (source), 'middle', tensors, storages)).toThrow(
      expect.objectContaining({ code: 'InvalidTensor' }),
    );
  });
});
