// The public API on generated files: tensors, metadata, errors and findings.
import { describe, expect, test } from 'vitest';
import { openSafetensors, validateSafetensors, SafetensorsError } from '../../web/index.js';
import { writeSafetensors, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { rawFile, lengthOnly, rejection } from './fixtures.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const u8 = (n, seed = 1) => pseudoRandomBytes(n, seed);

describe('openSafetensors', () => {
  test('returns tensors in data order with shapes, offsets and sizes', async () => {
    const file = writeSafetensors(
      [
        { name: 'b', dtype: 'F32', shape: [2, 3], data: u8(24) },
        { name: 'a', dtype: 'F16', shape: [4], data: u8(8) },
        { name: 's', dtype: 'I64', shape: [], data: u8(8) },
      ],
      { format: 'pt' },
    );
    const st = await openSafetensors(file);
    // The writer orders by dtype descending: I64, F32, F16.
    expect(st.tensors.map((t) => t.name)).toEqual(['s', 'b', 'a']);
    expect(st.tensors[1]).toEqual({ name: 'b', dtype: 'F32', shape: [2, 3], dataOffsets: [8, 32], byteLength: 24 });
    expect(st.tensors[0].shape).toEqual([]);
    expect(st.metadata).toEqual({ format: 'pt' });
    expect(st.fileSize).toBe(file.byteLength);
    expect(st.dataStart).toBe(8 + st.headerSize);
    expect(st.dataStart % 8).toBe(0);
    expect(st.findings).toEqual([]);
  });

  test('metadata is null when absent and keeps awkward keys as data', async () => {
    expect((await openSafetensors(writeSafetensors([]))).metadata).toBeNull();
    const st = await openSafetensors(rawFile('{"__metadata__":{"__proto__":"x","constructor":"y","":"z"}}'));
    expect(Object.getPrototypeOf(st.metadata)).toBe(Object.prototype);
    expect(Object.keys(st.metadata)).toEqual(['__proto__', 'constructor', '']);
    expect(st.metadata.__proto__).toBe('x');
  });

  test('names with any Unicode, escapes and NUL survive exactly', async () => {
    const names = ['', '\u0000', 'é€😀', 'tab\tquote"back\\slash', 'x'.repeat(5000)];
    const tensors = names.map((name, i) => ({ name, dtype: 'U8', shape: [1], data: u8(1, i + 1) }));
    const st = await openSafetensors(writeSafetensors(tensors));
    expect(st.tensors.map((t) => t.name).sort()).toEqual([...names].sort());
  });

  test('dimensions above 2^53 come with an exact BigInt shape', async () => {
    const st = await openSafetensors(
      rawFile('{"t":{"dtype":"U8","shape":[0,18446744073709551615],"data_offsets":[0,0]}}'),
    );
    expect(st.tensors[0].exactShape).toEqual([0n, 18446744073709551615n]);
    expect(st.tensors[0].shape[1]).toBe(2 ** 64);
    const plain = await openSafetensors(writeSafetensors([{ name: 't', dtype: 'U8', shape: [1], data: u8(1) }]));
    expect('exactShape' in plain.tensors[0]).toBe(false);
  });

  test('duplicate names: the last entry wins and a warning says so', async () => {
    const st = await openSafetensors(
      rawFile(
        '{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"w":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}',
        2,
      ),
    );
    expect(st.tensors).toHaveLength(1);
    expect(st.tensors[0].byteLength).toBe(2);
    const warnings = st.findings.filter((f) => f.severity !== 'info');
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'DuplicateTensorName', severity: 'warning', tensor: 'w' }),
    ]);
  });

  test('a rejected file throws SafetensorsError with the reference kind and a message', async () => {
    const file = writeSafetensors([{ name: 'a', dtype: 'U8', shape: [2], data: u8(2) }]);
    const longer = new Uint8Array(file.byteLength + 12);
    longer.set(file);
    const error = await openSafetensors(longer).catch((e) => e);
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.name).toBe('SafetensorsError');
    expect(error.code).toBe('MetadataIncompleteBuffer');
    expect(error.message).toBe(
      'file is longer than its tensors: 12 extra bytes after the last tensor; it may be truncated or appended to',
    );
    expect(error.findings[0].severity).toBe('error');
  });

  test('one read gives the report: the same as validateSafetensors, on the file or on its error', async () => {
    const file = writeSafetensors([{ name: 'fc.weight', dtype: 'I8', shape: [2, 2], data: u8(4) }], { format: 'pt' });
    const st = await openSafetensors(file);
    expect(st.report).toEqual(await validateSafetensors(file));
    expect(st.report.findings.map((f) => f.code)).toEqual(['UnlabeledIntegerWeights']);
    expect(st.findings).toBe(st.report.findings);
    const truncated = file.subarray(0, file.byteLength - 1);
    const error = await openSafetensors(truncated).catch((e) => e);
    expect(error.report).toEqual(await validateSafetensors(truncated));
    expect(error.report).toMatchObject({ loadable: false, referenceError: 'MetadataIncompleteBuffer', tensors: 1 });
  });

  test('the error names the tensor where the reference does', async () => {
    const error = await openSafetensors(rawFile('{"late":{"dtype":"U8","shape":[2],"data_offsets":[1,3]}}', 3)).catch(
      (e) => e,
    );
    expect(error.code).toBe('InvalidOffset');
    expect(error.tensor).toBe('late');
  });

  test('bad arguments throw TypeError', async () => {
    await expect(openSafetensors(null)).rejects.toThrow(TypeError);
    await expect(openSafetensors('ftp://host/model.safetensors')).rejects.toThrow(TypeError);
    await expect(openSafetensors({ size: -1, read: async () => new Uint8Array() })).rejects.toThrow(TypeError);
    await expect(openSafetensors(new Uint8Array(16), { signal: 'no' })).rejects.toThrow(TypeError);
    await expect(validateSafetensors({})).rejects.toThrow(TypeError);
  });

  test('Node: a path string or a file: URL opens the file (issue 30, 13); a missing one is a ReadError', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'st-path-'));
    try {
      const bytes = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data: u8(8) }], { format: 'pt' });
      const path = join(dir, 'model.safetensors');
      await writeFile(path, bytes);
      for (const source of [path, pathToFileURL(path), pathToFileURL(path).href]) {
        const st = await openSafetensors(source);
        expect(st.tensors.map((t) => t.name)).toEqual(['w']);
        expect(await st.getTensor('w', { as: 'raw' })).toEqual(bytes.subarray(st.dataStart));
      }
      // Relative to the working directory, as a user types it.
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        expect((await validateSafetensors('model.safetensors')).loadable).toBe(true);
      } finally {
        process.chdir(cwd);
      }
      const missing = await rejection(openSafetensors(join(dir, 'missing.safetensors')));
      expect([missing.code, missing.message]).toEqual(['ReadError', expect.stringContaining('missing.safetensors')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('an aborted signal rejects with AbortError', async () => {
    const error = await openSafetensors(writeSafetensors([]), { signal: AbortSignal.abort() }).catch((e) => e);
    expect(error.name).toBe('AbortError');
  });
});

describe('validateSafetensors gives every reference verdict without throwing', () => {
  const entry = (dtype, shape, b, e) => `{"t":{"dtype":"${dtype}","shape":${shape},"data_offsets":[${b},${e}]}}`;
  const cases = [
    ['HeaderTooSmall', new Uint8Array(5)],
    ['HeaderTooLarge', lengthOnly(100_000_001)],
    ['InvalidHeaderLength', lengthOnly(60)],
    [
      'InvalidHeader',
      (() => {
        const f = rawFile('{} ');
        f[10] = 0xff;
        return f;
      })(),
    ],
    ['InvalidHeaderDeserialization', rawFile('{')],
    ['InvalidOffset', rawFile(entry('U8', '[2]', 1, 3), 3)],
    ['ValidationOverflow', rawFile(entry('I32', '[2,9223372036854775807]', 0, 0))],
    ['MisalignedSlice', rawFile(entry('F4', '[3]', 0, 1), 1)],
    ['TensorInvalidInfo', rawFile(entry('I32', '[2,2]', 0, 4), 4)],
    ['MetadataIncompleteBuffer', rawFile(entry('I32', '[2,2]', 0, 16), 14)],
  ];
  test.each(cases)('%s', async (kind, file) => {
    const report = await validateSafetensors(file);
    expect(report.loadable).toBe(false);
    expect(report.referenceError).toBe(kind);
    expect(report.findings[0]).toEqual(expect.objectContaining({ code: kind, severity: 'error' }));
    expect(report.findings[0].message.length).toBeGreaterThan(20);
  });

  test('a loadable file', async () => {
    const report = await validateSafetensors(
      writeSafetensors([{ name: 'a', dtype: 'I32', shape: [2, 2], data: u8(16) }]),
    );
    expect(report).toEqual({ loadable: true, referenceError: null, findings: [], tensors: 1 });
  });

  test('the tensor count is known when only the offsets are wrong', async () => {
    const report = await validateSafetensors(
      rawFile(
        '{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"b":{"dtype":"U8","shape":[1],"data_offsets":[5,6]}}',
        6,
      ),
    );
    expect(report.tensors).toBe(2);
  });
});
