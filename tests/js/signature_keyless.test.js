// verifyModelSignature with Sigstore keyless: the official fixtures (sigstore/model-transparency
// scripts/tests/test-verify-v1.*-sigstore.sh: identity stefanb@us.ibm.com, issuer
// https://sigstore.verify.ibm.com/oauth2), verified offline with the shipped public-good trusted
// root at the Rekor entry's time, then each part of the evidence tampered with.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyModelSignature } from '../../web/index.js';
import shipped from '../../web/signing/sigstore_trusted_root.js';
import { haveFixtures } from './fixtures.js';

const SIGNING = fileURLToPath(new URL('../../../shared/fixtures/signing/', import.meta.url));
const HAVE_SIGNING = haveFixtures(SIGNING);
const at = (path) => join(SIGNING, path);
const IDENTITY = { identity: 'stefanb@us.ibm.com', issuer: 'https://sigstore.verify.ibm.com/oauth2' };

test('the shipped trusted root is @sigstore/tuf seeds.json trusted_root.json (tools/sigstore_trusted_root.js)', () => {
  const require = createRequire(import.meta.url);
  const seeds = JSON.parse(readFileSync(require.resolve('@sigstore/tuf/seeds.json'), 'utf8'));
  const target = seeds['https://tuf-repo-cdn.sigstore.dev'].targets['trusted_root.json'];
  expect(shipped).toEqual(JSON.parse(Buffer.from(target, 'base64').toString('utf8')));
});

describe.skipIf(!HAVE_SIGNING)('official keyless fixtures', () => {
  const cases = [
    ['v1.0.0', [], '2025-05-03T01:34:46.000Z'],
    ['v1.0.1', ['ignore-me'], '2025-10-07T15:33:48.000Z'],
    ['v1.1.0', [], '2025-10-10T02:12:20.000Z'],
  ];
  for (const [version, ignorePaths, signedAt] of cases) {
    test(`${version}: verified offline at the log's time`, async () => {
      const r = await verifyModelSignature(at(`${version}-sigstore`), {
        signature: at(`${version}-sigstore/model.sig`),
        ...IDENTITY,
        ignorePaths,
      });
      expect(r.error).toBeNull();
      expect(r).toMatchObject({
        verified: true,
        method: 'sigstore',
        signer: { ...IDENTITY, signedAt, curve: 'P-256' },
      });
      expect(r.signer?.certificate?.issuer).toBe('O=sigstore.dev, CN=sigstore-intermediate');
      expect(r.files.map((f) => f.status)).toEqual(['ok', 'ok']);
    });
  }

  const bundle = () => JSON.parse(readFileSync(at('v1.1.0-sigstore/model.sig'), 'utf8'));
  const verify = (signature, extra = {}) =>
    verifyModelSignature(at('v1.1.0-sigstore'), { signature, ...IDENTITY, ...extra });

  test('another identity or issuer: IdentityMismatch', async () => {
    expect((await verify(bundle(), { identity: 'someone@example.com' })).error?.code).toBe('IdentityMismatch');
    expect((await verify(bundle(), { issuer: 'https://accounts.google.com' })).error?.code).toBe('IdentityMismatch');
  });

  test('a changed integratedTime breaks the signed entry timestamp', async () => {
    const b = bundle();
    b.verificationMaterial.tlogEntries[0].integratedTime = String(
      Number(b.verificationMaterial.tlogEntries[0].integratedTime) + 60,
    );
    const r = await verify(b);
    expect(r).toMatchObject({ verified: false, error: { code: 'UntrustedCertificate' } });
    expect(r.error?.message).toMatch(/signed entry timestamp/);
  });

  test('a changed inclusion proof or checkpoint is refused (without the SET too)', async () => {
    const b = bundle();
    delete b.verificationMaterial.tlogEntries[0].inclusionPromise;
    expect((await verify(b)).verified).toBe(true); // the proof alone suffices
    const proof = structuredClone(b);
    const hashes = proof.verificationMaterial.tlogEntries[0].inclusionProof.hashes;
    hashes[0] = hashes[1];
    expect((await verify(proof)).error?.message).toMatch(/inclusion proof/);
    const checkpoint = structuredClone(b);
    const cp = checkpoint.verificationMaterial.tlogEntries[0].inclusionProof.checkpoint;
    cp.envelope = cp.envelope.replace('\n476246825\n', '\n476246826\n');
    expect((await verify(checkpoint)).error?.message).toMatch(/checkpoint/);
  });

  test('an entry recording another payload, or no entry at all, is refused', async () => {
    const b = bundle();
    const entry = b.verificationMaterial.tlogEntries[0];
    const body = JSON.parse(Buffer.from(entry.canonicalizedBody, 'base64').toString());
    body.spec.payloadHash.value = '00'.repeat(32);
    entry.canonicalizedBody = Buffer.from(JSON.stringify(body)).toString('base64');
    expect((await verify(b)).error?.message).toMatch(/another payload/);
    const none = bundle();
    none.verificationMaterial.tlogEntries = [];
    expect((await verify(none)).error?.code).toBe('UntrustedCertificate');
  });

  test('a trusted root without the Fulcio CAs, or without the log, does not trust the signature', async () => {
    const noCa = { ...shipped, certificateAuthorities: [] };
    expect((await verify(bundle(), { trustedRoot: noCa })).error?.code).toBe('UntrustedCertificate');
    const noLog = JSON.stringify({ ...shipped, tlogs: [] });
    const r = await verify(bundle(), { trustedRoot: noLog });
    expect(r.error?.message).toMatch(/transparency log .* not trusted/);
    await expect(verify(bundle(), { trustedRoot: '{}' })).rejects.toThrow(TypeError);
  });

  test("without a trusted CT log the certificate's embedded timestamp (SCT) does not verify", async () => {
    const r = await verify(bundle(), { trustedRoot: { ...shipped, ctlogs: [] } });
    expect(r).toMatchObject({ verified: false, error: { code: 'UntrustedCertificate' } });
    expect(r.error?.message).toMatch(/signed by a trusted CT log/);
  });

  test('a payload changed after signing is refused by the log entry', async () => {
    const b = bundle();
    const statement = JSON.parse(Buffer.from(b.dsseEnvelope.payload, 'base64').toString());
    statement.predicate.resources.pop();
    b.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    expect((await verify(b)).verified).toBe(false);
  });
});
