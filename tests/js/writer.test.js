// The writer (issue 13): serializeSafetensors writes what the reference writer writes, byte for
// byte; every refusal is typed. withMetadata and writing to files: writer_files.test.js.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { initSafetensors, openSafetensors, serializeSafetensors, SafetensorsError } from '../../web/index.js';
import { compareUtf8 } from '../../web/write/header_bytes.js';
import { writeSafetensors as testWriterBytes } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';

const bytesOf = async (blob) => new Uint8Array(await blob.arrayBuffer());
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Every tensor of an opened file as { name, dtype, shape, data: raw bytes }. */
async function rawTensors(st) {
  return Promise.all(
    st.tensors.map(async (t) => ({
      name: t.name,
      dtype: t.dtype,
      shape: t.shape,
      data: await st.getTensor(t.name, { as: 'raw' }),
    })),
  );
}

// Files the current reference writer wrote (safetensors' serialize): re-serialising their
// tensors must give the same bytes. The kohya file was written by an older writer (its header
// is not padded to 8), so it is not among them.
const REFERENCE_WRITTEN = [
  'transformers_gpt2_tiny_f32.safetensors',
  'torchtune_gemma_hf_layout_f16.safetensors',
  'fluxml_numpy_writer_bool_ints.safetensors',
  'fluxml_torch_all_dtypes_with_metadata.safetensors',
  'candle_empty_zero_tensors.safetensors',
  'candle_encodec_jfk_codes_i64.safetensors',
  'burn_pytorch_batchnorm2d_scalar_i64.safetensors',
  'burn_pytorch_bool_buffer.safetensors',
];

describe.skipIf(!HAVE_REAL)('re-serialising real files gives their bytes (../shared/fixtures/real)', () => {
  test.each(REFERENCE_WRITTEN)('%s', async (name) => {
    const original = new Uint8Array(await readFile(join(REAL_DIR, name)));
    const st = await openSafetensors(original);
    const written = await bytesOf(await serializeSafetensors(await rawTensors(st), { metadata: st.metadata }));
    expect(written.byteLength).toBe(original.byteLength);
    expect(sha256(written)).toBe(sha256(original));
  });

  test('the real sharded model: every shard', async () => {
    const dir = join(REAL_DIR, 'sharded');
    const shards = (await readdir(dir)).filter((n) => n.endsWith('.safetensors'));
    expect(shards).toHaveLength(6);
    for (const shard of shards) {
      const original = new Uint8Array(await readFile(join(dir, shard)));
      const st = await openSafetensors(original);
      const written = await bytesOf(await serializeSafetensors(await rawTensors(st), { metadata: st.metadata }));
      expect(sha256(written), shard).toBe(sha256(original));
    }
  });
});

describe('serializeSafetensors', () => {
  test("every dtype, scalars, empty tensors and awkward names round-trip, and equal the test writer's bytes", async () => {
    const core = await initSafetensors();
    const names = [
      'plain',
      'q"uote',
      'back\\slash',
      'new\nline\ttab\u0001\u001f\u007f',
      'é ü 中文',
      '😀',
      '\uffff',
      'a/b',
      '',
    ];
    const tensors = [];
    for (const [i, dtype] of core.tables.dtypes.entries()) {
      const elements = 8; // whole bytes for the 4- and 6-bit kinds too
      const data = Uint8Array.from({ length: (elements * dtype.bits) / 8 }, (_, k) => (k * 37 + i) & 0xff);
      tensors.push({ name: `${names[i % names.length]}#${dtype.name}`, dtype: dtype.name, shape: [elements], data });
    }
    tensors.push({ name: 'scalar', dtype: 'F32', shape: [], data: new Float32Array([1.5]) });
    tensors.push({ name: 'empty', dtype: 'I64', shape: [3, 0], data: new BigInt64Array(0) });
    tensors.push({ name: 'bits', dtype: 'BF16', shape: [2], data: new Uint16Array([0x3f80, 0xc000]) });
    for (const name of names) tensors.push({ name, dtype: 'U8', shape: [1], data: new Uint8Array([7]) });
    const metadata = { 'z"key': 'v\n', a: 'é', '😀': '\u0000', '\uffff': 'x' };
    const blob = await serializeSafetensors(tensors, { metadata });
    const written = await bytesOf(blob);
    // The test writer (tools/write_safetensors.js) is independent of the package, with one
    // metadata key order of its own: compare with metadata keys in the same (sorted) order.
    const sorted = Object.fromEntries(
      Object.keys(metadata)
        .sort(compareUtf8)
        .map((k) => [k, metadata[k]]),
    );
    const asBytes = tensors.map((t) => ({
      ...t,
      data: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
    }));
    const oracle = testWriterBytes(asBytes, sorted);
    expect(sha256(written)).toBe(sha256(oracle));
    const st = await openSafetensors(blob);
    expect(st.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(st.metadata).toEqual(metadata);
    for (const t of tensors) {
      const raw = await st.getTensor(t.name, { as: 'raw' });
      expect([...raw], t.name).toEqual([...new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)]);
      expect(st.tensors.find((x) => x.name === t.name).shape).toEqual(t.shape);
    }
  });

  test('the header is padded with spaces to a multiple of 8; {} metadata is written, none is not; object, Map and array forms agree', async () => {
    const w = { dtype: 'I32', shape: [2, 2], data: new Int32Array([1, 2, 3, 4]) };
    const none = await bytesOf(await serializeSafetensors({ test: w }));
    // The reference's own example: N = 64 once padded (60 bytes of JSON + 4 spaces).
    expect(new TextDecoder().decode(none.subarray(8, 72))).toBe(
      '{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}    ',
    );
    expect(new DataView(none.buffer).getBigUint64(0, true)).toBe(64n);
    const empty = await bytesOf(await serializeSafetensors({ test: w }, { metadata: {} }));
    expect(new TextDecoder().decode(empty.subarray(8, 24))).toBe('{"__metadata__":');
    expect(await bytesOf(await serializeSafetensors(new Map([['test', w]])))).toEqual(none);
    expect(await bytesOf(await serializeSafetensors([{ name: 'test', ...w }]))).toEqual(none);
    const fromBlob = await serializeSafetensors({ test: { ...w, data: new Blob([new Uint8Array(w.data.buffer)]) } });
    expect(await bytesOf(fromBlob)).toEqual(none);
  });

  test('each refusal is a typed error, before anything is written', async () => {
    const f32 = (n) => new Float32Array(n);
    const cases = [
      [{ a: { dtype: 'F32', shape: [3], data: f32(2) } }, 'InvalidTensor', /needs 12 bytes, the data has 8/],
      [{ a: { dtype: 'F32', shape: [2], data: new Float64Array(1) } }, 'InvalidTensor', /Float32Array or a Uint8Array/],
      [{ a: { dtype: 'F4', shape: [3], data: new Uint8Array(2) } }, 'InvalidTensor', /whole bytes/],
      [{ a: { dtype: 'F6_E2M3', shape: [2], data: new Uint8Array(2) } }, 'InvalidTensor', /whole bytes/],
      [{ a: { dtype: 'F17', shape: [1], data: f32(1) } }, 'InvalidTensor', /unknown dtype "F17"/],
      [{ a: { dtype: 'F32', shape: [-1], data: f32(1) } }, 'InvalidTensor', /non-negative integers/],
      [{ a: { dtype: 'F32', shape: [1], data: [1] } }, 'InvalidTensor', /typed array or a Blob/],
      [
        [
          { name: 'a', dtype: 'U8', shape: [1], data: new Uint8Array(1) },
          { name: 'a', dtype: 'U8', shape: [1], data: new Uint8Array(1) },
        ],
        'InvalidTensor',
        /two tensors are named "a"/,
      ],
      [[{ name: 7, dtype: 'U8', shape: [1], data: new Uint8Array(1) }], 'InvalidTensor', /must be a string/],
      [{ '\ud800': { dtype: 'U8', shape: [1], data: new Uint8Array(1) } }, 'InvalidTensor', /lone UTF-16 surrogate/],
      [{ __metadata__: { dtype: 'U8', shape: [1], data: new Uint8Array(1) } }, 'InvalidTensor', /metadata's key/],
    ];
    for (const [tensors, code, message] of cases) {
      const error = await rejection(serializeSafetensors(tensors));
      expect(error, String(message)).toBeInstanceOf(SafetensorsError);
      expect([error.code, error.message]).toEqual([code, expect.stringMatching(message)]);
    }
    const ok = { a: { dtype: 'U8', shape: [1], data: new Uint8Array(1) } };
    expect((await rejection(serializeSafetensors(ok, { metadata: { n: 1 } }))).code).toBe('InvalidMetadata');
    expect((await rejection(serializeSafetensors(ok, { metadata: ['x'] }))).code).toBe('InvalidMetadata');
    const huge = await rejection(serializeSafetensors(ok, { metadata: { big: 'x'.repeat(100_000_000) } }));
    expect([huge.code, huge.message]).toEqual(['HeaderTooLarge', expect.stringContaining('100000000')]);
  });
});
