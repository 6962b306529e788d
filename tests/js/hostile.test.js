// Hostile inputs through the public API: each gets a clear, typed answer, in bounded
// memory and time, and reads no more than it must. Stalled and failing reads: hostile_reads.test.js.
import { describe, expect, test } from 'vitest';
import { initSafetensors, openSafetensors, validateSafetensors } from '../../web/index.js';
import { SWOLLEN_HEAP_BYTES } from '../../web/core/wasm_module.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { rawFile } from './fixtures.js';

const U64_MAX = 18446744073709551615n;
const encoder = new TextEncoder();

function withLength(n, rest = new Uint8Array(0)) {
  const file = new Uint8Array(8 + rest.byteLength);
  new DataView(file.buffer).setBigUint64(0, n, true);
  file.set(rest, 8);
  return file;
}

// A file of `size` bytes whose reads are served from `head` and zeros after it.
function virtualSource(head, size) {
  const reads = [];
  return {
    reads,
    size,
    async read(offset, length) {
      reads.push([offset, length]);
      const out = new Uint8Array(length);
      if (offset < head.byteLength) out.set(head.subarray(offset, Math.min(head.byteLength, offset + length)));
      return out;
    },
  };
}

async function verdictOf(source) {
  const report = await validateSafetensors(source);
  return { kind: report.referenceError, message: report.findings[0]?.message ?? '' };
}

describe('length prefix', () => {
  test.each([
    ['2^64 - 1', U64_MAX, 'HeaderTooLarge', '18,446,744,073,709,551,615 bytes'],
    ['100,000,001', 100_000_001n, 'HeaderTooLarge', '100,000,001 bytes'],
    [
      '100,000,000 in a 1 KB file',
      100_000_000n,
      'InvalidHeaderLength',
      'the file has 1,024 bytes, the header needs 100,000,008',
    ],
    ['1,000 in an 88-byte file', 1000n, 'InvalidHeaderLength', 'the file has 88 bytes, the header needs 1,008'],
  ])('%s: the verdict from the first 8 bytes; what the file is from at most 64 KiB', async (_, n, kind, text) => {
    const size = n === 100_000_000n ? 1024 : n === 1000n ? 88 : 4096;
    const source = virtualSource(withLength(n), size);
    const { kind: got, message } = await verdictOf(source);
    expect(got).toBe(kind);
    expect(message).toContain(text);
    // The rest of the first 64 KiB (here the whole file) is read only to tell its format (NotSafetensors).
    expect(source.reads).toEqual([
      [0, 8],
      [8, Math.min(size, 64 * 1024) - 8],
    ]);
    await expect(openSafetensors(virtualSource(withLength(n), size))).rejects.toMatchObject({
      name: 'SafetensorsError',
      code: kind,
    });
  });
});

describe('huge and deep headers', () => {
  test('a header of 100,000,000 spaces: InvalidHeaderDeserialization, the heap grows by at most the header', async () => {
    const header = new Uint8Array(100_000_000).fill(0x20);
    const core = await initSafetensors(); // the module this call runs on, even if it is let go after
    const before = core.heap.buffer.byteLength;
    const { kind, message } = await verdictOf(rawFile('', header));
    expect(kind).toBe('InvalidHeaderDeserialization');
    expect(message).toContain('only whitespace');
    expect(core.heap.buffer.byteLength - before).toBeLessThanOrEqual(128 * 2 ** 20);
  });

  // simdjson's DOM sizes its buffers for the worst case: about 14 bytes per header byte, plus
  // the parsed entries. The header limit (100,000,000) bounds it; this guards the factor.
  test('10^6 tiny tensors: loadable, counted, in heap bounded by the header size', async () => {
    const count = 1_000_000;
    const parts = [];
    for (let i = 0; i < count; i++) parts.push(`"t${i}":{"dtype":"U8","shape":[1],"data_offsets":[${i},${i + 1}]}`);
    const file = rawFile(`{${parts.join(',')}}`, count);
    expect(file.byteLength).toBeLessThan(100_000_000);
    const core = await initSafetensors(); // the module this call runs on, even if it is let go after
    const report = await validateSafetensors(file);
    expect(core.heap.buffer.byteLength).toBeLessThanOrEqual(20 * file.byteLength);
    expect(report).toMatchObject({ loadable: true, tensors: count });
    expect(report.findings.map((f) => f.code)).toEqual(['HeaderNotPadded']);
    const st = await openSafetensors(file);
    expect(st.tensors[count - 1]).toMatchObject({ name: `t${count - 1}`, dataOffsets: [count - 1, count] });
    expect(await st.getTensor('t765432')).toEqual(new Uint8Array([0]));
  }, 60_000);

  test('after a huge header the swollen heap is let go: the next call gets a fresh, small module', async () => {
    const before = await initSafetensors();
    const count = 300_000;
    const parts = [];
    for (let i = 0; i < count; i++) parts.push(`"t${i}":{"dtype":"U8","shape":[1],"data_offsets":[${i},${i + 1}]}`);
    const report = await validateSafetensors(rawFile(`{${parts.join(',')}}`, count));
    expect(report.tensors).toBe(count);
    const after = await initSafetensors();
    expect(after).not.toBe(before);
    expect(after.heap.buffer.byteLength).toBeLessThanOrEqual(SWOLLEN_HEAP_BYTES);
    expect(
      (await validateSafetensors(writeSafetensors([{ name: 'w', dtype: 'U8', shape: [1], data: new Uint8Array(1) }])))
        .loadable,
    ).toBe(true);
  }, 60_000);

  test('nesting 10,000 deep in an ignored field or in __metadata__: the depth error, no crash', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const header of [
      `{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":${deep}}}`,
      `{"__metadata__":{"k":${deep}}}`,
      `{"k":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
    ]) {
      const { kind, message } = await verdictOf(rawFile(header, 1));
      expect(kind).toBe('InvalidHeaderDeserialization');
      expect(message).toContain('nested more than 127 levels');
    }
  });
});

describe('when the core fails', () => {
  const file = writeSafetensors([{ name: 'w', dtype: 'U8', shape: [1], data: new Uint8Array(1) }]);

  test('no memory for the parser: OutOfMemory, not a verdict', async () => {
    const core = await initSafetensors();
    const original = core.module._analyzeHeader;
    core.module._analyzeHeader = () => null; // what the binding returns when simdjson cannot allocate
    try {
      await expect(validateSafetensors(file)).rejects.toMatchObject({ name: 'SafetensorsError', code: 'OutOfMemory' });
    } finally {
      core.module._analyzeHeader = original;
    }
  });

  test('a trap inside the wasm becomes a typed error, and the next call gets a fresh module', async () => {
    const core = await initSafetensors();
    core.module._analyzeHeader = () => {
      throw new WebAssembly.RuntimeError('unreachable');
    };
    const error = await validateSafetensors(file).catch((e) => e);
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    expect(error.cause).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(await initSafetensors()).not.toBe(core);
    expect((await validateSafetensors(file)).loadable).toBe(true);
  });
});

describe('names and strings', () => {
  test('a 1 MB tensor name and a 1 MB metadata key survive exactly; messages quote them cut short', async () => {
    const name = 'n'.repeat(2 ** 20 - 1) + '\u00e9';
    const key = 'k'.repeat(2 ** 20);
    const file = rawFile(
      `{"__metadata__":{${JSON.stringify(key)}:"v"},${JSON.stringify(name)}:{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}`,
      2,
    );
    const st = await openSafetensors(file);
    expect(st.tensors[0].name).toBe(name);
    expect(st.metadata[key]).toBe('v');
    const unknown = st.findings.find((f) => f.code === 'UnknownMetadataKey');
    expect(unknown.message.length).toBeLessThan(400);
    const bad = await validateSafetensors(
      rawFile(`{${JSON.stringify(name)}:{"dtype":"U8","shape":[2],"data_offsets":[0,3]}}`, 3),
    );
    expect(bad.referenceError).toBe('TensorInvalidInfo');
    expect(bad.findings[0].tensor).toBe(name);
    expect(bad.findings[0].message.length).toBeLessThan(300);
  });

  test.each([
    ['a tensor name', (bad) => `{"a${bad}":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}`],
    ['a metadata key', (bad) => `{"__metadata__":{"k${bad}":"v"}}`],
    ['a metadata value', (bad) => `{"__metadata__":{"k":"v${bad}"}}`],
  ])('invalid UTF-8 in %s: InvalidHeader with the offset', async (_, make) => {
    for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const [before, after] = make('\u0000').split('\u0000');
      const header = new Uint8Array([...encoder.encode(before), ...bad, ...encoder.encode(after)]);
      const { kind, message } = await verdictOf(withHeader(header, 1));
      expect(kind, bad.join(' ')).toBe('InvalidHeader');
      expect(message).toContain(`offset ${encoder.encode(before).byteLength}`);
    }
  });
});

function withHeader(headerBytes, dataBytes) {
  const file = new Uint8Array(8 + headerBytes.byteLength + dataBytes);
  new DataView(file.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
  file.set(headerBytes, 8);
  return file;
}

describe('numbers at the edges', () => {
  const big = 2n ** 32n;
  test.each([
    [[big, big, 0n], 'ValidationOverflow'],
    [[big, 0n, big], null],
    [[0n, big, big], null],
    [[2n, U64_MAX], 'ValidationOverflow'],
    [[U64_MAX, 2n], 'ValidationOverflow'],
    [[U64_MAX, 0n, 2n], null],
    [[U64_MAX, 2n, 0n], 'ValidationOverflow'],
    [[0n, U64_MAX, 2n], null],
  ])('shape %s: overflow only when the running product overflows', async (shape, kind) => {
    const header = `{"t":{"dtype":"U8","shape":[${shape.join(',')}],"data_offsets":[0,0]}}`;
    const report = await validateSafetensors(rawFile(header));
    expect(report.referenceError).toBe(kind);
    if (kind) expect(report.findings[0].message).toContain('too large for 64 bits');
  });

  test('element count fits but the size in bits does not (F64 x 2^58)', async () => {
    const report = await validateSafetensors(
      rawFile(`{"t":{"dtype":"F64","shape":[${2n ** 58n}],"data_offsets":[0,0]}}`),
    );
    expect(report.referenceError).toBe('ValidationOverflow');
    expect(report.findings[0].message).toContain('size in bits');
  });

  test('offsets near 2^64 never wrap: the file cannot hold them', async () => {
    // Eight U8 tensors of 2^61 - 1 bytes each end at 2^64 - 8; adding 8 + N would wrap.
    const s = 2n ** 61n - 1n;
    const parts = Array.from(
      { length: 8 },
      (_, i) => `"t${i}":{"dtype":"U8","shape":[${s}],"data_offsets":[${s * BigInt(i)},${s * BigInt(i + 1)}]}`,
    );
    const report = await validateSafetensors(rawFile(`{${parts.join(',')}}`, 16));
    expect(report.referenceError).toBe('MetadataIncompleteBuffer');
    expect(report.findings[0].message).toContain('offsets near 2^64');
    const late = `{"a":{"dtype":"U8","shape":[0],"data_offsets":[${U64_MAX},${U64_MAX}]}}`;
    expect((await validateSafetensors(rawFile(late))).referenceError).toBe('InvalidOffset');
  });
});
