// st.convert({ to }) (issue 13): float tensors rounded to F16 or BF16 (nearest, ties to even)
// by the core's kernels, the rest copied, the whole laid out as the reference writer would.
// The oracle here is independent of the kernels: every finite value of the target format
// (decoded by getTensor, itself exact), and the nearest one found by search.
import { beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { openSafetensors, serializeSafetensors } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';

const bytesOf = async (blob) => new Uint8Array(await blob.arrayBuffer());
// Large arrays are compared by digest: a deep equality over millions of elements is slow.
const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The code of `x` in a 16-bit format, by nearest-even search over its finite values. */
function oracle(table, x) {
  const { values, infinity } = table;
  if (Number.isNaN(x)) return null;
  const sign = Object.is(x, -0) || x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const largest = values.at(-1);
  if (a >= largest + (largest - values.at(-2)) / 2) return sign | infinity;
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < a) lo = mid + 1;
    else hi = mid;
  }
  if (values[lo] === a || lo === 0) return sign | lo;
  const below = a - values[lo - 1];
  const above = values[lo] - a;
  const pick = below < above ? lo - 1 : above < below ? lo : (lo - 1) % 2 === 0 ? lo - 1 : lo;
  return sign | pick;
}

const tables = {};
beforeAll(async () => {
  for (const [dtype, largest, infinity] of [
    ['F16', 0x7bff, 0x7c00],
    ['BF16', 0x7f7f, 0x7f80],
  ]) {
    const codes = Uint16Array.from({ length: largest + 1 }, (_, i) => i);
    const st = await openSafetensors(await serializeSafetensors({ t: { dtype, shape: [codes.length], data: codes } }));
    tables[dtype] = { values: Array.from(await st.getTensor('t', { as: 'float32' })), infinity };
  }
});

const isNan16 = (dtype, code) =>
  dtype === 'F16'
    ? (code & 0x7c00) === 0x7c00 && (code & 0x3ff) !== 0
    : (code & 0x7f80) === 0x7f80 && (code & 0x7f) !== 0;

/** Float32 values where rounding is decided, as bits: specials, subnormals, ties, overflow. */
function specialBits() {
  const bits = [
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fbfffff, 0x00000001,
    0x00400000, 0x33000000, 0x33000001, 0x33800000, 0x387fe000, 0x387ff000, 0x38800000, 0x3f800000, 0x3f801000,
    0x3f803000, 0x3f808000, 0x3f818000, 0x477fe000, 0x477fefff, 0x477ff000, 0x47800000, 0x7f7fffff, 0x7f7f7fff,
    0x7f7f8000, 0xc77ff000, 0x3eaaaaab,
  ];
  let seed = 12345;
  for (let i = 0; i < 5000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    bits.push(seed);
  }
  return Uint32Array.from(bits);
}

describe('convert', () => {
  test("F32, F64 and BF16 tensors become F16 rounded to nearest even (NaN stays NaN); the rest is copied; the layout is the reference writer's", async () => {
    const f32bits = specialBits();
    const f32 = new Float32Array(f32bits.buffer);
    const f64 = Float64Array.from([
      1 + 2 ** -11 + 2 ** -40,
      65519.99,
      65520,
      -1e-300,
      2 ** -25,
      3 * 2 ** -26,
      NaN,
      -Infinity,
      1e300,
      0.1,
    ]);
    const bf16 = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const source = {
      weights: { dtype: 'F32', shape: [f32.length], data: f32 },
      wide: { dtype: 'F64', shape: [f64.length], data: f64 },
      brain: { dtype: 'BF16', shape: [bf16.length], data: bf16 },
      ids: { dtype: 'I32', shape: [3], data: new Int32Array([1, -2, 3]) },
      mask: { dtype: 'BOOL', shape: [2], data: new Uint8Array([1, 0]) },
      e4m3: { dtype: 'F8_E4M3', shape: [4], data: new Uint8Array([1, 2, 0x7f, 0xff]) },
      half: { dtype: 'F16', shape: [2], data: new Uint16Array([0x3c00, 0x7e00]) },
    };
    const st = await openSafetensors(await serializeSafetensors(source, { metadata: { format: 'pt' } }));
    const progress = [];
    const converted = await st.convert({ to: 'F16', onProgress: (done, total) => progress.push([done, total]) });
    const out = await openSafetensors(converted);
    expect(Object.fromEntries(out.tensors.map((t) => [t.name, t.dtype]))).toEqual({
      weights: 'F16',
      wide: 'F16',
      brain: 'F16',
      ids: 'I32',
      mask: 'BOOL',
      e4m3: 'F8_E4M3',
      half: 'F16',
    });
    expect(progress.at(-1)).toEqual([
      f32.byteLength + f64.byteLength + bf16.byteLength,
      f32.byteLength + f64.byteLength + bf16.byteLength,
    ]);
    expect(out.metadata).toEqual({ format: 'pt' });
    // Values against the oracle.
    const check = async (name, values) => {
      const codes = new Uint16Array((await out.getTensor(name, { as: 'raw' })).slice().buffer);
      values.forEach((x, i) => {
        if (Number.isNaN(x)) expect(isNan16('F16', codes[i]), `${name}[${i}]`).toBe(true);
        else expect(codes[i], `${name}[${i}] = ${x}`).toBe(oracle(tables.F16, x));
      });
    };
    await check('weights', Array.from(f32));
    await check('wide', Array.from(f64));
    await check('brain', Array.from(await st.getTensor('brain', { as: 'float32' })));
    // Copied tensors keep their bytes; an F16 tensor is not converted to itself.
    for (const name of ['ids', 'mask', 'e4m3', 'half'])
      expect(await out.getTensor(name, { as: 'raw' })).toEqual(await st.getTensor(name, { as: 'raw' }));
    // The layout: what the writer writes for the converted tensors, byte for byte.
    const rewritten = {};
    for (const t of out.tensors)
      rewritten[t.name] = { dtype: t.dtype, shape: t.shape, data: await out.getTensor(t.name, { as: 'raw' }) };
    expect(digest(await bytesOf(converted))).toBe(
      digest(await bytesOf(await serializeSafetensors(rewritten, { metadata: { format: 'pt' } }))),
    );
  });

  test('to BF16, a chosen subset, across chunk boundaries; a Blob, bytes and a FileHandle to a path give the same file', async () => {
    const n = 700_001; // 2.8 MB of F32: several 1 MiB chunks, and an element split between Blob chunks
    const values = Float32Array.from({ length: n }, (_, i) => Math.sin(i) * 2 ** ((i % 60) - 30));
    const tensors = {
      a: { dtype: 'F32', shape: [n], data: values },
      b: { dtype: 'F32', shape: [2], data: new Float32Array([1.5, -2]) },
    };
    const bytes = await bytesOf(await serializeSafetensors(tensors));
    const fromBlob = await bytesOf(
      await (await openSafetensors(new Blob([bytes]))).convert({ to: 'BF16', tensors: (name) => name === 'a' }),
    );
    const fromBytes = await bytesOf(
      await (await openSafetensors(bytes)).convert({ to: 'BF16', tensors: (name) => name === 'a' }),
    );
    expect(digest(fromBytes)).toBe(digest(fromBlob));
    const dir = await mkdtemp(join(tmpdir(), 'stw-convert-'));
    const file = join(dir, 'in.safetensors');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, bytes);
    const handle = await open(file);
    try {
      await (
        await openSafetensors(handle)
      ).convert({ to: 'BF16', tensors: (name) => name === 'a', path: join(dir, 'out.safetensors') });
      expect(digest(await readFile(join(dir, 'out.safetensors')))).toBe(digest(fromBlob));
    } finally {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    }
    const out = await openSafetensors(fromBlob);
    expect(out.tensors.map((t) => [t.name, t.dtype])).toEqual([
      ['b', 'F32'],
      ['a', 'BF16'],
    ]);
    const codes = new Uint16Array((await out.getTensor('a', { as: 'raw' })).slice().buffer);
    for (let i = 0; i < n; i += 997) expect(codes[i], String(i)).toBe(oracle(tables.BF16, values[i]));
    expect(codes[n - 1]).toBe(oracle(tables.BF16, values[n - 1]));
  });

  test('bad options are TypeErrors; abort rejects with the reason', async () => {
    const st = await openSafetensors(
      await serializeSafetensors({ a: { dtype: 'F32', shape: [4], data: new Float32Array(4) } }),
    );
    await expect(st.convert({ to: 'F8' })).rejects.toThrow(TypeError);
    await expect(st.convert({ to: 'F16', tensors: ['a'] })).rejects.toThrow(TypeError);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    expect((await rejection(st.convert({ to: 'F16', signal: controller.signal }))).message).toBe('stop');
  });

  test.skipIf(!HAVE_REAL)(
    'real files: GPT-2 (F32) to F16 and Gemma (F16) to BF16 load, with the same card and every value rounded as the oracle says',
    async () => {
      for (const [name, to] of [
        ['transformers_gpt2_tiny_f32.safetensors', 'F16'],
        ['torchtune_gemma_hf_layout_f16.safetensors', 'BF16'],
      ]) {
        const st = await openSafetensors(new Blob([await readFile(join(REAL_DIR, name))]));
        const out = await openSafetensors(await st.convert({ to }));
        expect(out.report.loadable).toBe(true);
        expect((await out.describe()).parameters.total).toBe((await st.describe()).parameters.total);
        expect((await out.describe()).family?.id ?? null).toBe((await st.describe()).family?.id ?? null);
        for (const t of st.tensors) {
          const before = await st.getTensor(t.name, { as: 'float32' });
          const codes = new Uint16Array((await out.getTensor(t.name, { as: 'raw' })).slice().buffer);
          before.forEach((x, i) => {
            if (!Number.isNaN(x)) expect(codes[i], `${name} ${t.name}[${i}]`).toBe(oracle(tables[to], x));
          });
        }
      }
    },
  );
});
