// verifyModelSignature with the public-key method: the official model_signing fixtures, run the
// way sigstore/model-transparency's scripts/tests/test-verify-*-elliptic-key.sh run them, and
// that every reason code is documented. Models signed here: signature_signed.test.js.
import { describe, expect, test } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyModelSignature } from '../../web/index.js';
import { haveFixtures } from './fixtures.js';
import { publicPem, signModel } from './model_signer.js';

// Copies of sigstore/model-transparency scripts/tests/ (commit e3430730), read in place.
const SIGNING = fileURLToPath(new URL('../../../shared/fixtures/signing/', import.meta.url));
const HAVE_SIGNING = haveFixtures(SIGNING);
const at = (path) => join(SIGNING, path);

describe.skipIf(!HAVE_SIGNING)('official key fixtures (scripts/tests/test-verify-v1.*-elliptic-key.sh)', () => {
  const publicKey = HAVE_SIGNING ? readFileSync(at('keys/certificate/signing-key-pub.pem'), 'utf8') : '';
  const hint = 'e8450dec4eb99dae995da9af1bc2cc9f76ed669ee2e744f57abba763df3e3f8e';

  test('v1.0.0: the file signme-1, resource ".", rawBytes material', async () => {
    const r = await verifyModelSignature(at('v1.0.0-elliptic-key/signme-1'), {
      signature: at('v1.0.0-elliptic-key/model.sig'),
      publicKey,
    });
    expect(r).toMatchObject({ verified: true, method: 'key', serialization: 'files', hashType: 'sha256', error: null });
    expect(r.files).toEqual([{ name: '.', status: 'ok' }]);
    expect(r.signer).toEqual({ curve: 'P-384', keyHint: hint });
  });

  test('v1.0.1: the folder with --ignore-paths ignore-me; model.sig (unrecorded) left out as the signature', async () => {
    const r = await verifyModelSignature(at('v1.0.1-elliptic-key'), {
      signature: at('v1.0.1-elliptic-key/model.sig'),
      publicKey,
      ignorePaths: ['ignore-me'],
    });
    expect(r.verified).toBe(true);
    expect(r.files).toEqual([
      { name: 'signme-1', status: 'ok' },
      { name: 'signme-2', status: 'ok' },
    ]);
  });

  test('v1.0.1 without --ignore-paths: ignore-me is unexpected, as the reference fails it', async () => {
    const r = await verifyModelSignature(at('v1.0.1-elliptic-key'), {
      signature: at('v1.0.1-elliptic-key/model.sig'),
      publicKey,
    });
    expect(r.verified).toBe(false);
    expect(r.error?.code).toBe('ModelMismatch');
    expect(r.files).toContainEqual({ name: 'ignore-me', status: 'unexpected' });
  });

  test('v1.1.0: the folder, ignore_paths recorded in the bundle, the key hint checked', async () => {
    const r = await verifyModelSignature(at('v1.1.0-elliptic-key'), {
      signature: at('v1.1.0-elliptic-key/model.sig'),
      publicKey,
    });
    expect(r.verified).toBe(true);
    expect(r.files.map((f) => f.status)).toEqual(['ok', 'ok']);
    expect(r.signer?.keyHint).toBe(hint);
  });

  test('v1.1.0 with the default signature (model.sig in the folder)', async () => {
    const r = await verifyModelSignature(at('v1.1.0-elliptic-key'), { publicKey });
    expect(r.verified).toBe(true);
  });

  test('v1.1.0 with another key: KeyMismatch from the hint, before any file is read', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    const r = await verifyModelSignature(at('v1.1.0-elliptic-key'), { publicKey: publicPem(other) });
    expect(r).toMatchObject({ verified: false, files: [], error: { code: 'KeyMismatch' } });
  });

  test('v1.0.1 with another key (no hint): BadSignature', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    const r = await verifyModelSignature(at('v1.0.1-elliptic-key'), {
      signature: at('v1.0.1-elliptic-key/model.sig'),
      publicKey: publicPem(other),
      ignorePaths: ['ignore-me'],
    });
    expect(r).toMatchObject({ verified: false, error: { code: 'BadSignature' } });
  });

  test('the fixture signing key signs a model here and it verifies with the fixture public key', async () => {
    const privateKey = readFileSync(at('keys/certificate/signing-key.pem'), 'utf8');
    const files = new Map([['w.bin', new Uint8Array([1, 2, 3])]]);
    const bundle = signModel(files, privateKey);
    const r = await verifyModelSignature(files, { signature: JSON.stringify(bundle), publicKey });
    expect(r.verified).toBe(true);
  });
});

test('every reason code is documented in docs/provenance.md', async () => {
  const { REASONS } = await import('../../web/signing/errors.js');
  const page = await readFile(fileURLToPath(new URL('../../docs/provenance.md', import.meta.url)), 'utf8');
  const section = page.slice(page.indexOf('## Model signatures'), page.indexOf('## ML bill of materials'));
  for (const code of REASONS) expect(section, code).toContain(`\`${code}\``);
  // and the type lists the same codes
  const types = await readFile(fileURLToPath(new URL('../../web/signing/types.d.ts', import.meta.url)), 'utf8');
  const union = types.slice(
    types.indexOf('export type NotVerifiedCode'),
    types.indexOf(';', types.indexOf('export type NotVerifiedCode')),
  );
  expect([...union.matchAll(/'(\w+)'/g)].map((m) => m[1])).toEqual([...REASONS]);
});
