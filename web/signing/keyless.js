// The Sigstore keyless method: a short-lived Fulcio certificate naming the signer's identity
// and OIDC issuer, and a Rekor entry recording the signature, which gives the time at which
// the certificate must have been valid. Checked offline against a trusted root, as Sigstore's
// verifiers do (https://github.com/sigstore/architecture-docs, client specification): the log
// entry, the certificate chain to a Fulcio CA at the signing time, its CT log timestamp, the
// identity and issuer, then the envelope's signature with the certificate's key.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { NotVerified, expect } from './errors.js';
import { keyHint, verifyEnvelope } from './ec_key.js';
import { canSign, certificateSummary, checkChain, leafKey, parseCertificate } from './certificate_chain.js';
import { trustedRootOf, within } from './trusted_root.js';
import { verifyLogEntry } from './transparency_log.js';
import { verifyEmbeddedScts } from './certificate_timestamps.js';

const SUBJECT_ALT_NAME = '2.5.29.17';
/** Fulcio's OIDC issuer extensions: v2 (a DER UTF8String) and the deprecated v1 (raw text). */
const ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';
const ISSUER_V1 = '1.3.6.1.4.1.57264.1.1';

/**
 * The certificate's SAN identities (emails and URIs).
 * @param {pkijs.Certificate} cert
 * @returns {string[]}
 */
export function identitiesOf(cert) {
  const san = cert.extensions?.find((e) => e.extnID === SUBJECT_ALT_NAME)?.parsedValue;
  if (!(san instanceof pkijs.AltName)) return [];
  return san.altNames.filter((n) => n.type === 1 || n.type === 6).map((n) => String(n.value));
}

/**
 * The OIDC issuer Fulcio recorded.
 * @param {pkijs.Certificate} cert
 * @returns {string | null}
 */
export function issuerOf(cert) {
  const v2 = cert.extensions?.find((e) => e.extnID === ISSUER_V2);
  if (v2) {
    const parsed = asn1js.fromBER(/** @type {Uint8Array<ArrayBuffer>} */ (v2.extnValue.valueBlock.valueHexView));
    if (parsed.offset !== -1 && parsed.result instanceof asn1js.Utf8String) return parsed.result.valueBlock.value;
  }
  const v1 = cert.extensions?.find((e) => e.extnID === ISSUER_V1);
  return v1 ? new TextDecoder().decode(v1.extnValue.valueBlock.valueHexView) : null;
}

/**
 * The certificate (of a checked chain) that signed `leaf`.
 * @param {pkijs.Certificate} leaf
 * @param {pkijs.Certificate[]} candidates
 */
async function issuerCertificate(leaf, candidates) {
  for (const c of candidates) if (c.subject.isEqual(leaf.issuer) && (await leaf.verify(c).catch(() => false))) return c;
  throw new NotVerified('UntrustedCertificate', "the signing certificate's issuer is not among the trusted root's");
}

/**
 * @param {import('./bundle.js').Bundle} bundle
 * @param {{ identity?: string, issuer?: string, trustedRoot?: unknown }} options
 * @returns {Promise<import('./types.js').Signer>}
 */
export async function verifyKeyless(bundle, options) {
  const { identity, issuer } = options;
  if (typeof identity !== 'string' || typeof issuer !== 'string' || !identity || !issuer)
    throw new TypeError('keyless verification needs both identity and issuer (strings)');
  const root = trustedRootOf(options.trustedRoot);
  expect(
    bundle.material.kind === 'certificates',
    'UntrustedCertificate',
    'the bundle holds no certificate (it was signed with a bare key: verify it with publicKey)',
  );
  const leafDer = bundle.material.certificates[0];
  const leaf = parseCertificate(leafDer, 'the signing certificate');
  expect(bundle.tlogEntries.length > 0, 'UntrustedCertificate', 'the bundle has no transparency log entry');
  const signedAt = await verifyLogEntry(bundle.tlogEntries[0], bundle, leafDer, root);
  const authorities = root.authorities.filter((a) => within(a.validFor, signedAt) && a.certificates.length > 0);
  const trusted = authorities.map((a) => a.certificates[a.certificates.length - 1]);
  const intermediates = authorities.flatMap((a) => a.certificates.slice(0, -1));
  await checkChain(leaf, intermediates, trusted, signedAt);
  await verifyEmbeddedScts(leafDer, await issuerCertificate(leaf, [...intermediates, ...trusted]), root);
  expect(canSign(leaf), 'UntrustedCertificate', 'the signing certificate cannot be used for signing');
  const names = identitiesOf(leaf);
  expect(
    names.includes(identity),
    'IdentityMismatch',
    `the certificate was issued to ${names.join(', ') || 'no identity'}, not ${identity}`,
  );
  const certIssuer = issuerOf(leaf);
  expect(
    certIssuer === issuer,
    'IdentityMismatch',
    `the identity was vouched for by ${certIssuer ?? 'an unnamed issuer'}, not ${issuer}`,
  );
  const key = await leafKey(leaf);
  await verifyEnvelope(key, bundle);
  return {
    curve: key.curve,
    keyHint: await keyHint(key.spki),
    certificate: certificateSummary(leaf),
    identity,
    issuer: certIssuer,
    signedAt: signedAt.toISOString(),
  };
}
