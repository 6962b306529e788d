// verifyModelSignature with a certificate chain: the official fixtures (sigstore/model-transparency
// scripts/tests/test-verify-v1.*-certificate.sh: the folder, --certificate-chain ca-cert.pem), and
// chains made here with openssl.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyModelSignature } from '../../web/index.js';
import { haveFixtures } from './fixtures.js';
import { bundleOf, resourcesOf, statementOf } from './model_signer.js';

const SIGNING = fileURLToPath(new URL('../../../shared/fixtures/signing/', import.meta.url));
const HAVE_SIGNING = haveFixtures(SIGNING);
const at = (path) => join(SIGNING, path);

describe.skipIf(!HAVE_SIGNING)('official certificate fixtures', () => {
  const ca = HAVE_SIGNING ? readFileSync(at('keys/certificate/ca-cert.pem'), 'utf8') : '';
  for (const [version, ignorePaths] of [
    ['v1.0.0', []],
    ['v1.0.1', ['ignore-me']],
    ['v1.1.0', []],
  ]) {
    test(`${version}: the chain to ca-cert.pem, checked at the leaf's notBefore`, async () => {
      const r = await verifyModelSignature(at(`${version}-certificate`), {
        signature: at(`${version}-certificate/model.sig`),
        certificateChain: [ca],
        ignorePaths,
      });
      expect(r.error).toBeNull();
      expect(r).toMatchObject({ verified: true, method: 'certificate' });
      expect(r.files).toEqual([
        { name: 'signme-1', status: 'ok' },
        { name: 'signme-2', status: 'ok' },
      ]);
      // The signing certificate's subject and issuer are both CN=intermediate-ca: the issuer is
      // found by key identifier and signature, not by name.
      expect(r.signer?.certificate).toMatchObject({
        subject: 'CN=intermediate-ca',
        issuer: 'CN=intermediate-ca',
        notBefore: '2025-05-02T23:36:28.000Z',
      });
      expect(r.signer?.curve).toBe('P-384');
    });
  }

  test('the signing certificate alone, or a key bundle, is not trusted', async () => {
    const leaf = readFileSync(at('keys/certificate/signing-key-cert.pem'), 'utf8');
    const r = await verifyModelSignature(at('v1.1.0-certificate'), { certificateChain: [leaf] });
    expect(r).toMatchObject({ verified: false, error: { code: 'UntrustedCertificate' } });
    const k = await verifyModelSignature(at('v1.1.0-elliptic-key'), {
      certificateChain: [readFileSync(at('keys/certificate/ca-cert.pem'), 'utf8')],
    });
    expect(k.error?.code).toBe('UntrustedCertificate');
  });
});

let dir;
const openssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
const der = (pem) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');

/** A root CA and a P-384 leaf it signs, with the extensions given; returns PEMs. */
async function makeChain(name, leafExtensions) {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    `${name}-root.key`,
    '-out',
    `${name}-root.pem`,
    '-days',
    '30',
    '-subj',
    `/CN=${name}-root`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384', '-out', `${name}-leaf.key`);
  openssl('req', '-new', '-key', `${name}-leaf.key`, '-subj', `/CN=${name}-signer`, '-out', `${name}-leaf.csr`);
  await writeFile(
    join(dir, `${name}.ext`),
    `${leafExtensions}\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}-leaf.csr`,
    '-CA',
    `${name}-root.pem`,
    '-CAkey',
    `${name}-root.key`,
    '-CAcreateserial',
    '-days',
    '10',
    '-out',
    `${name}-leaf.pem`,
    '-extfile',
    `${name}.ext`,
  );
  const read = (f) => readFile(join(dir, f), 'utf8');
  return {
    root: await read(`${name}-root.pem`),
    leaf: await read(`${name}-leaf.pem`),
    key: await read(`${name}-leaf.key`),
  };
}

const MODEL = new Map([
  ['weights.bin', new Uint8Array([1, 2, 3, 4])],
  ['config.json', new TextEncoder().encode('{}')],
]);
const certBundle = (chain) =>
  bundleOf(statementOf(resourcesOf(MODEL)), chain.key, {
    material: {
      x509CertificateChain: { certificates: [{ rawBytes: der(chain.leaf).toString('base64') }] },
      tlogEntries: [],
    },
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-cert-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('chains made with openssl', () => {
  test('digitalSignature: verified with the root; not with another root', async () => {
    const chain = await makeChain('a', 'keyUsage=critical,digitalSignature');
    const other = await makeChain('b', 'keyUsage=critical,digitalSignature');
    const signature = certBundle(chain);
    const r = await verifyModelSignature(MODEL, { signature, certificateChain: [chain.root] });
    expect(r.error).toBeNull();
    expect(r.signer?.certificate?.subject).toBe('CN=a-signer');
    expect(r.signer?.certificate?.issuer).toBe('CN=a-root');
    const wrong = await verifyModelSignature(MODEL, { signature, certificateChain: [other.root] });
    expect(wrong).toMatchObject({ verified: false, files: [], error: { code: 'UntrustedCertificate' } });
    // DER bytes are accepted as well as PEM.
    expect((await verifyModelSignature(MODEL, { signature, certificateChain: [der(chain.root)] })).verified).toBe(true);
  });

  test('codeSigning alone is enough; neither is refused', async () => {
    const code = await makeChain('c', 'extendedKeyUsage=codeSigning');
    expect(
      (await verifyModelSignature(MODEL, { signature: certBundle(code), certificateChain: [code.root] })).verified,
    ).toBe(true);
    const none = await makeChain('d', 'keyUsage=critical,keyEncipherment');
    const r = await verifyModelSignature(MODEL, { signature: certBundle(none), certificateChain: [none.root] });
    expect(r).toMatchObject({ verified: false, error: { code: 'UntrustedCertificate' } });
    expect(r.error?.message).toMatch(/cannot be used for signing/);
  });

  test('a payload signed by another key than the certificate is BadSignature', async () => {
    const chain = await makeChain('e', 'keyUsage=critical,digitalSignature');
    const impostor = await makeChain('f', 'keyUsage=critical,digitalSignature');
    const signature = bundleOf(statementOf(resourcesOf(MODEL)), impostor.key, {
      material: { x509CertificateChain: { certificates: [{ rawBytes: der(chain.leaf).toString('base64') }] } },
    });
    const r = await verifyModelSignature(MODEL, { signature, certificateChain: [chain.root] });
    expect(r.error?.code).toBe('BadSignature');
  });

  test('a certificate that is not DER is MalformedBundle; an empty chain option a TypeError', async () => {
    const chain = await makeChain('g', 'keyUsage=critical,digitalSignature');
    const signature = bundleOf(statementOf(resourcesOf(MODEL)), chain.key, {
      material: { x509CertificateChain: { certificates: [{ rawBytes: Buffer.from('nope').toString('base64') }] } },
    });
    expect((await verifyModelSignature(MODEL, { signature, certificateChain: [chain.root] })).error?.code).toBe(
      'MalformedBundle',
    );
    await expect(verifyModelSignature(MODEL, { signature, certificateChain: [] })).rejects.toThrow(TypeError);
  });
});
