// Every entry point on a header of 100,000 one-byte tensors (issue 37): the right answer from
// each, and work that follows the data's runs, not the tensors: reads of the source and Blob
// slices are counted (a read or a slice per tensor is what made these paths slow). How long each
// takes against validate is a benchmark (tests/bench/many_tensors.bench.js), not a test.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import {
  checkAdapter,
  diffSafetensors,
  openSafetensors,
  serializeSafetensors,
  validateSafetensors,
} from '../../web/index.js';
import { PARALLEL_MIN_BYTES } from '../../web/hashing/hash_pass.js';
import { manyTensorsAdapter, manyTensorsFile, tensorName } from './many_tensors.js';

const N = 100_000;
const FILE = manyTensorsFile(N);
const DATA_START = FILE.byteLength - N;
const CHANGED = [0, 12_345, N - 1];
const OTHER = manyTensorsFile(N, { byte: (i) => (CHANGED.includes(i) ? ~i & 255 : i & 255) });

/** A ByteReader over `bytes` that counts its reads. */
function counted(bytes) {
  const reader = {
    reads: 0,
    size: bytes.byteLength,
    async read(offset, length) {
      reader.reads += 1;
      return bytes.slice(offset, offset + length);
    },
  };
  return reader;
}

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

afterEach(() => vi.restoreAllMocks());

describe(`${N.toLocaleString('en')} one-byte tensors`, () => {
  test('validate and the card: every tensor counted, the module tree whole', async () => {
    const report = await validateSafetensors(FILE, { describe: true });
    expect(report.loadable).toBe(true);
    expect(report.tensors).toBe(N);
    expect(report.card.parameters.total).toBe(N);
    const st = await openSafetensors(FILE);
    const card = await st.describe();
    expect(card.modules.tensors).toBe(N);
    // Chains of single children fold into one node: "model.blocks", then a node per block.
    const [blocks] = card.modules.children;
    expect(blocks.path).toBe('model.blocks');
    expect(blocks.children).toHaveLength(N / 10);
    expect(blocks.children.every((b, k) => b.tensors === 10 && b.own[0] === 10 * k)).toBe(true);
  });

  test('getTensors: every value, from a few reads', async () => {
    const source = counted(FILE);
    const st = await openSafetensors(source);
    const before = source.reads;
    const all = await st.getTensors();
    expect(all.size).toBe(N);
    let i = 0;
    for (const [name, values] of all) {
      if (name !== tensorName(i) || values.length !== 1 || values[0] !== (i & 255)) throw new Error(`tensor ${i}`);
      i += 1;
    }
    expect(source.reads - before).toBeLessThanOrEqual(2); // the data is one run of 100,000 bytes
  });

  test('hash per tensor: every digest, from a few reads', async () => {
    const source = counted(FILE);
    const st = await openSafetensors(source);
    const before = source.reads;
    const hashes = await st.hash({ tensors: true });
    expect(Object.keys(hashes.tensors)).toHaveLength(N);
    for (const i of [0, 1, 255, 77_777, N - 1])
      expect(hashes.tensors[tensorName(i)]).toBe(sha(FILE.subarray(DATA_START + i, DATA_START + i + 1)));
    expect(hashes.sha256).toBe(sha(FILE));
    expect(source.reads - before).toBeLessThanOrEqual(5); // 4 MiB reads of a 7.5 MiB file
  });

  test('hash per tensor of a file long enough for workers: a message per chunk, not per tensor', async () => {
    const long = manyTensorsFile(N, { tail: PARALLEL_MIN_BYTES });
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const hashes = await (await openSafetensors(long)).hash({ tensors: true });
    expect(hashes.sha256).toBe(sha(long));
    expect(hashes.tensors['~tail']).toBe(sha(new Uint8Array(PARALLEL_MIN_BYTES)));
    expect(hashes.tensors[tensorName(N - 1)]).toBe(sha(Uint8Array.of((N - 1) & 255)));
    // The file and data lanes run in workers: a few 4 MiB chunks and a cut each.
    expect(posted.mock.calls.length).toBeGreaterThan(0);
    expect(posted.mock.calls.length).toBeLessThanOrEqual(100);
  });

  test('diff with data: the changed tensors exactly, each side read a few times', async () => {
    const [a, b] = [counted(FILE), counted(OTHER)];
    const d = await diffSafetensors(a, b, { data: true });
    expect(d.tensors.changed.map((c) => c.name)).toEqual(CHANGED.map((i) => tensorName(i)));
    expect(d.tensors.changed[1].data.sha256).toEqual([
      sha(Uint8Array.of(12_345 & 255)),
      sha(Uint8Array.of(~12_345 & 255)),
    ]);
    expect(d.tensors.unchanged).toBe(N - CHANGED.length);
    // Two reads for the header, then a batch of 65,536 tensors and one of the rest.
    for (const side of [a, b]) expect(side.reads).toBeLessThanOrEqual(6);
    const names = await diffSafetensors(FILE, manyTensorsFile(N, { prefix: 'other' }));
    expect([names.tensors.added.length, names.tensors.removed.length]).toEqual([N, N]);
  });

  test('diff with data: tensors over 1 MiB stream between batches of small ones, in order', async () => {
    const big = new Float32Array(300_000).map((_, i) => i / 3); // 1.2 MB
    const small = (k) => ({ dtype: 'F32', shape: [2], data: Float32Array.of(k, k + 1) });
    const side = async (changed) =>
      new Uint8Array(
        await (
          await serializeSafetensors({
            a: small(changed ? 5 : 1),
            b: { dtype: 'F32', shape: [big.length], data: changed ? big.map((v, i) => (i === 6 ? v + 2 : v)) : big },
            c: small(3),
            d: { dtype: 'I16', shape: [2], data: Int16Array.of(1, changed ? 9 : 2) },
          })
        ).arrayBuffer(),
      );
    const d = await diffSafetensors(await side(false), await side(true), { data: true });
    expect(d.tensors.changed.map((c) => [c.name, c.data.maxAbsDiff, c.data.differentElements])).toEqual([
      ['a', 4, 2],
      ['b', 2, 1],
      ['d', null, null],
    ]);
    expect(d.tensors.unchanged).toBe(1);
  });

  test('checkAdapter: a LoRA of 100,000 tensors fits its base', async () => {
    const { adapter, base } = manyTensorsAdapter(N);
    const result = await checkAdapter(adapter, base);
    expect(result).toMatchObject({ compatible: true, matched: N / 2, modules: N / 2, adapterType: 'lora' });
  });

  test('convert and edit: the same tensors and bytes, the data as one slice', async () => {
    const st = await openSafetensors(new Blob([FILE]));
    const slice = vi.spyOn(Blob.prototype, 'slice');
    const converted = await st.convert({ to: 'F16' }); // nothing to convert: U8 is copied
    expect(slice.mock.calls.length).toBeLessThanOrEqual(2);
    const edited = await st.withMetadata({ note: 'edited' });
    expect(slice.mock.calls.length).toBeLessThanOrEqual(4);
    slice.mockRestore();
    for (const blob of [converted, edited]) {
      const out = await openSafetensors(blob);
      expect(out.tensors).toHaveLength(N);
      const data = new Uint8Array(await blob.slice(out.dataStart).arrayBuffer());
      expect(data).toEqual(FILE.subarray(DATA_START));
    }
    expect((await openSafetensors(edited)).metadata).toEqual({ note: 'edited' });
    // From a source that cannot be sliced, the data is read as one run.
    const source = counted(FILE);
    const fromReader = await openSafetensors(source);
    const before = source.reads;
    await fromReader.convert({ to: 'BF16' });
    expect(source.reads - before).toBeLessThanOrEqual(2);
  });
});
