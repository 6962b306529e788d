// Hashes against what files claim and from validateSafetensors({ hash }): embedded hash claims
// (sshs_model_hash, modelspec.hash_sha256) compared from the core's analysis, and the scan and
// every hash from one read. st.hash() itself: hash.test.js.
import { describe, expect, test, vi } from 'vitest';
import { open } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR, recordingSource } from './fixtures.js';
import { craftedFile, expected, sha256 } from './hash_expected.js';

describe('embedded hash claims', () => {
  test('a wrong sshs_model_hash is an EmbeddedHashMismatch; a right modelspec.hash_sha256 (0x, uppercase) matches', async () => {
    const plain = craftedFile(2000, { format: 'pt' });
    const { dataSha256 } = expected(plain);
    const file = craftedFile(2000, {
      format: 'pt',
      sshs_model_hash: 'ab'.repeat(32),
      'modelspec.hash_sha256': `0x${dataSha256.toUpperCase()}`,
      ss_sd_model_hash: '12345678',
    });
    const st = await openSafetensors(file);
    const result = await st.hash();
    expect(result.dataSha256).toBe(dataSha256); // the data section does not depend on the metadata
    expect(result.checks).toEqual([
      { key: 'sshs_model_hash', claimed: 'ab'.repeat(32), actual: dataSha256, match: false },
      { key: 'modelspec.hash_sha256', claimed: dataSha256, actual: dataSha256, match: true },
    ]);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ code: 'EmbeddedHashMismatch', severity: 'warning' });
    expect(result.findings[0].message).toContain('sshs_model_hash');
    const report = await validateSafetensors(file, { hash: true });
    expect(report.findings.map((f) => f.code)).toContain('EmbeddedHashMismatch');
    expect(report.hashes).toEqual({ ...result, tensors: undefined });
  });

  test('claims are compared on as many digits as they have; shorter than 8 or not hex: not compared', async () => {
    const { dataSha256 } = expected(craftedFile(500));
    const file = craftedFile(500, {
      sshs_model_hash: dataSha256.slice(0, 12),
      'modelspec.hash_sha256': 'zz' + dataSha256.slice(2),
    });
    const result = await (await openSafetensors(file)).hash();
    expect(result.checks).toEqual([
      { key: 'sshs_model_hash', claimed: dataSha256.slice(0, 12), actual: dataSha256.slice(0, 12), match: true },
    ]);
  });

  test("the claims come from the core's analysis: hash() and validateSafetensors({ hash }) never load the card module", async () => {
    vi.resetModules(); // a fresh copy of the package: no card module loaded by another test
    const api = await import('../../web/index.js');
    const modules = await import('../../web/core/modules.js');
    api.initSafetensors({ cardWasmBinary: new Uint8Array([0, 0x61, 0x73, 0x6d]) }); // not a module: loading it fails
    try {
      const file = craftedFile(3000, { sshs_model_hash: 'AB'.repeat(32), ss_vae_hash: 'cafe' });
      const { dataSha256 } = expected(file);
      const mismatch = [{ key: 'sshs_model_hash', claimed: 'ab'.repeat(32), actual: dataSha256, match: false }];
      const st = await api.openSafetensors(file);
      expect((await st.hash()).checks).toEqual(mismatch);
      expect((await api.validateSafetensors(file, { hash: true })).hashes.checks).toEqual(mismatch);
      expect(modules.loadedCardModule()).toBeNull();
      // The card module given could not have been loaded: describe() says so.
      expect(await st.describe().catch((e) => e.code)).toBe('InitError');
    } finally {
      api.initSafetensors({});
    }
  });

  test.skipIf(!HAVE_REAL)('the kohya LoKr: its sshs_model_hash is the SHA-256 of its data section', async () => {
    const path = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
    const bytes = readFileSync(path);
    const handle = await open(path);
    try {
      const st = await openSafetensors(handle);
      const result = await st.hash();
      expect(result).toMatchObject(expected(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
      expect(st.metadata.sshs_model_hash).toBe(result.dataSha256);
      expect(result.checks.map((c) => [c.key, c.match])).toEqual([
        ['sshs_model_hash', true],
        ['sshs_legacy_hash', true],
      ]);
      expect(result.findings).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});

describe('validateSafetensors({ hash })', () => {
  test('with scanData: the scan and every hash come from one read of the file', async () => {
    const file = craftedFile(3 << 20, { sshs_model_hash: 'cd'.repeat(32) });
    const source = recordingSource(file);
    const report = await validateSafetensors(source, { scanData: true, hash: true });
    const headerBytes = 8 + Number(new DataView(file.buffer).getBigUint64(0, true));
    const read = source.reads.reduce((sum, [, length]) => sum + length, 0);
    expect(read).toBeLessThanOrEqual(file.byteLength + headerBytes);
    expect(report.hashes).toMatchObject(expected(file));
    expect(report.dataScan.tensors.map((t) => t.name)).toEqual(['a', 'empty', 'b']);
    expect(report.findings.map((f) => f.code)).toContain('EmbeddedHashMismatch');
  });

  test('a file the reference rejects still gets its file hashes; the data hash where the header length is readable', async () => {
    const file = craftedFile(100);
    const longer = new Uint8Array([...file, 1, 2, 3]);
    const report = await validateSafetensors(longer, { hash: true });
    expect(report.loadable).toBe(false);
    expect(report.hashes).toMatchObject(expected(longer));
    const unreadable = new Uint8Array(16);
    new DataView(unreadable.buffer).setBigUint64(0, 1000n, true);
    const bad = await validateSafetensors(unreadable, { hash: true });
    expect(bad.hashes).toMatchObject({ sha256: sha256(unreadable), dataSha256: null, autoV3: null });
  });
});
