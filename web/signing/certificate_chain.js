// The certificate method: the bundle's signing certificate must chain, through the bundle's
// other certificates, to one the caller trusts, at the signing certificate's notBefore, and be
// usable for signing (KeyUsage digitalSignature or ExtendedKeyUsage codeSigning), as
// model_signing's certificate verifier requires (sigstore/model-transparency,
// src/model_signing/_signing/sign_certificate.py). Certificates are parsed and the chain built
// and checked by PKI.js: issuers are found by key identifier (or name) and signature.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { NotVerified, expect } from './errors.js';
import { importPublicKey, keyHint, pemBlocks, verifyEnvelope } from './ec_key.js';
import { toHex } from './bytes.js';

const KEY_USAGE = '2.5.29.15';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const CODE_SIGNING = '1.3.6.1.5.5.7.3.3';
/** digitalSignature is KeyUsage's first bit: the high bit of the first byte. */
const DIGITAL_SIGNATURE = 0x80;

/**
 * @param {Uint8Array} der
 * @param {string} what for the message
 */
export function parseCertificate(der, what) {
  try {
    return pkijs.Certificate.fromBER(/** @type {Uint8Array<ArrayBuffer>} */ (der));
  } catch (error) {
    throw new NotVerified(
      'MalformedBundle',
      `${what} is not an X.509 certificate: ${/** @type {Error} */ (error).message}`,
    );
  }
}

/**
 * The caller's trusted certificates: PEM text (any number of blocks, text around them
 * skipped) or DER, one item each.
 * @param {unknown} chain
 * @returns {pkijs.Certificate[]}
 */
export function trustedCertificates(chain) {
  if (!Array.isArray(chain) || chain.length === 0)
    throw new TypeError('certificateChain must be a non-empty list of certificates (PEM text or DER bytes)');
  const ders = chain.flatMap((item) => {
    if (typeof item === 'string') return pemBlocks(item, 'CERTIFICATE');
    if (item instanceof Uint8Array) {
      const text = new TextDecoder().decode(item.subarray(0, 64));
      return text.includes('-----BEGIN') ? pemBlocks(new TextDecoder().decode(item), 'CERTIFICATE') : [item];
    }
    throw new TypeError('certificateChain holds PEM text or DER bytes');
  });
  if (ders.length === 0) throw new TypeError('certificateChain: no certificate found');
  return ders.map((der) => {
    try {
      return pkijs.Certificate.fromBER(/** @type {Uint8Array<ArrayBuffer>} */ (der));
    } catch (error) {
      throw new TypeError(`certificateChain: not an X.509 certificate (${/** @type {Error} */ (error).message})`, {
        cause: error,
      });
    }
  });
}

/** @param {pkijs.RelativeDistinguishedNames} name */
export function nameText(name) {
  const short = /** @type {Record<string, string>} */ ({
    '2.5.4.3': 'CN',
    '2.5.4.10': 'O',
    '2.5.4.11': 'OU',
    '2.5.4.6': 'C',
  });
  return name.typesAndValues.map((tv) => `${short[tv.type] ?? tv.type}=${tv.value.valueBlock.value}`).join(', ');
}

/**
 * @param {pkijs.Certificate} cert
 * @param {string} oid
 */
const extension = (cert, oid) => cert.extensions?.find((e) => e.extnID === oid);

/**
 * Whether the certificate may sign: KeyUsage digitalSignature, else ExtendedKeyUsage codeSigning.
 * @param {pkijs.Certificate} cert
 */
export function canSign(cert) {
  const usage = extension(cert, KEY_USAGE)?.parsedValue;
  if (usage instanceof asn1js.BitString && (usage.valueBlock.valueHexView[0] & DIGITAL_SIGNATURE) !== 0) return true;
  const extended = extension(cert, EXTENDED_KEY_USAGE)?.parsedValue;
  return extended instanceof pkijs.ExtKeyUsage && extended.keyPurposes.includes(CODE_SIGNING);
}

/**
 * Checks `leaf` chains, through `intermediates`, to one of `trusted`, at `date`.
 * @param {pkijs.Certificate} leaf
 * @param {pkijs.Certificate[]} intermediates
 * @param {pkijs.Certificate[]} trusted
 * @param {Date} date
 */
export async function checkChain(leaf, intermediates, trusted, date) {
  const engine = new pkijs.CertificateChainValidationEngine({
    trustedCerts: trusted,
    certs: [...intermediates, leaf], // the end entity last
    checkDate: date,
  });
  let result;
  try {
    result = await engine.verify();
  } catch (error) {
    result = { result: false, resultMessage: /** @type {Error} */ (error).message };
  }
  expect(
    result.result,
    'UntrustedCertificate',
    `the signing certificate does not chain to a trusted certificate at ${date.toISOString()}: ${result.resultMessage || 'no path'}`,
  );
}

/**
 * The signing certificate's EC key, for the envelope.
 * @param {pkijs.Certificate} leaf
 */
export async function leafKey(leaf) {
  const spki = new Uint8Array(leaf.subjectPublicKeyInfo.toSchema().toBER());
  try {
    return await importPublicKey(spki);
  } catch {
    throw new NotVerified('BadSignature', 'the signing certificate does not hold a P-256, P-384 or P-521 key');
  }
}

/**
 * @param {pkijs.Certificate} cert
 * @returns {NonNullable<import('./types.js').Signer['certificate']>}
 */
export function certificateSummary(cert) {
  return {
    subject: nameText(cert.subject),
    issuer: nameText(cert.issuer),
    serialNumber: toHex(cert.serialNumber.valueBlock.valueHexView),
    notBefore: cert.notBefore.value.toISOString(),
    notAfter: cert.notAfter.value.toISOString(),
  };
}

/**
 * The certificate method.
 * @param {import('./bundle.js').Bundle} bundle
 * @param {pkijs.Certificate[]} trusted
 * @returns {Promise<import('./types.js').Signer>}
 */
export async function verifyWithCertificates(bundle, trusted) {
  expect(
    bundle.material.kind === 'certificates',
    'UntrustedCertificate',
    'the bundle holds no certificate (it was signed with a bare key: verify it with publicKey)',
  );
  const [leaf, ...intermediates] = bundle.material.certificates.map((der, i) =>
    parseCertificate(der, `certificate ${i}`),
  );
  await checkChain(leaf, intermediates, trusted, leaf.notBefore.value);
  expect(
    canSign(leaf),
    'UntrustedCertificate',
    'the signing certificate cannot be used for signing (KeyUsage, ExtendedKeyUsage)',
  );
  const key = await leafKey(leaf);
  await verifyEnvelope(key, bundle);
  return { curve: key.curve, keyHint: await keyHint(key.spki), certificate: certificateSummary(leaf) };
}
