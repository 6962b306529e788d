// Elliptic-curve keys and DSSE signatures through WebCrypto: P-256, P-384 and P-521 with the
// digest that follows the curve (SHA-256, SHA-384, SHA-512), as model_signing's
// get_ec_key_hash decides (sigstore/model-transparency, src/model_signing/_signing/sign_ec_key.py).
// Bundles carry DER ECDSA signatures; WebCrypto takes r‖s.
import { NotVerified, expect } from './errors.js';
import { fromBase64, sha256, toBase64, toHex, utf8 } from './bytes.js';
import { pae, paeCompat } from './statement.js';

/** Curve -> digest and the byte length of r and s. */
const CURVES = /** @type {const} */ ({
  'P-256': { hash: 'SHA-256', size: 32 },
  'P-384': { hash: 'SHA-384', size: 48 },
  'P-521': { hash: 'SHA-512', size: 66 },
});

/** @typedef {{ key: CryptoKey, curve: keyof typeof CURVES, spki: Uint8Array }} EcKey */

/**
 * The DER blocks of a PEM text with that label; text around them (certtool writes some) is skipped.
 * @param {string} text
 * @param {string} label 'PUBLIC KEY', 'CERTIFICATE'
 * @returns {Uint8Array[]}
 */
export function pemBlocks(text, label) {
  const blocks = [];
  const pattern = new RegExp(`-----BEGIN ${label}-----([^-]*)-----END ${label}-----`, 'g');
  for (const match of text.matchAll(pattern)) {
    const der = fromBase64(match[1]);
    if (der) blocks.push(der);
  }
  return blocks;
}

/**
 * Imports an EC public key: SubjectPublicKeyInfo DER, or PEM text (or its bytes).
 * @param {string | Uint8Array | ArrayBuffer} input
 * @returns {Promise<EcKey>}
 * @throws {TypeError} when it is not a P-256/384/521 public key
 */
export async function importPublicKey(input) {
  let spki = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (typeof spki !== 'string' && !(spki instanceof Uint8Array))
    throw new TypeError('publicKey must be PEM text, or SubjectPublicKeyInfo (DER) or PEM bytes');
  const text = typeof spki === 'string' ? spki : new TextDecoder().decode(spki.subarray(0, 64 << 10));
  if (text.includes('-----BEGIN')) {
    const blocks = pemBlocks(text, 'PUBLIC KEY');
    if (blocks.length !== 1) throw new TypeError('publicKey: expected one PEM "PUBLIC KEY" block');
    spki = blocks[0];
  }
  if (typeof spki === 'string') throw new TypeError('publicKey: no PEM "PUBLIC KEY" block in the text');
  for (const curve of /** @type {(keyof typeof CURVES)[]} */ (Object.keys(CURVES))) {
    try {
      const key = await crypto.subtle.importKey(
        'spki',
        /** @type {Uint8Array<ArrayBuffer>} */ (spki),
        { name: 'ECDSA', namedCurve: curve },
        true,
        ['verify'],
      );
      return { key, curve, spki };
    } catch {
      // another curve, or not an EC key
    }
  }
  throw new TypeError('publicKey is not an elliptic-curve P-256, P-384 or P-521 public key');
}

/**
 * The key hint model_signing v1.1 writes: hex SHA-256 of the key as PEM SubjectPublicKeyInfo
 * (64-column base64, LF line ends, a final LF).
 * @param {Uint8Array} spki
 */
export async function keyHint(spki) {
  const lines = toBase64(spki).match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return toHex(await sha256(utf8.encode(pem)));
}

/**
 * A DER ECDSA-Sig-Value (SEQUENCE { INTEGER r, INTEGER s }) as r‖s of `size` bytes each.
 * @param {Uint8Array} der
 * @param {number} size
 * @returns {Uint8Array | null} null when it is not one
 */
export function derSignatureToRaw(der, size) {
  let at = 0;
  const length = () => {
    const first = der[at++];
    if (first < 0x80) return first;
    const count = first & 0x7f;
    if (count === 0 || count > 2) return -1;
    let n = 0;
    for (let i = 0; i < count; i++) n = (n << 8) | der[at++];
    return n;
  };
  if (der[at++] !== 0x30) return null;
  if (length() !== der.length - at) return null;
  const out = new Uint8Array(2 * size);
  for (let part = 0; part < 2; part++) {
    if (der[at++] !== 0x02) return null;
    const n = length();
    if (n <= 0 || at + n > der.length) return null;
    let value = der.subarray(at, at + n);
    at += n;
    while (value.length > 1 && value[0] === 0) value = value.subarray(1);
    if (value.length > size) return null;
    out.set(value, part * size + size - value.length);
  }
  return at === der.length ? out : null;
}

/**
 * Checks the envelope's signature with `key` over the DSSE PAE (or model_signing v0.2's).
 * @param {EcKey} ec
 * @param {import('./bundle.js').Bundle} bundle
 * @throws {NotVerified} BadSignature
 */
export async function verifyEnvelope(ec, bundle) {
  const { hash, size } = CURVES[ec.curve];
  const raw = derSignatureToRaw(bundle.signature, size);
  expect(raw !== null, 'BadSignature', `the envelope's signature is not a DER ECDSA signature for ${ec.curve}`);
  const algorithm = { name: 'ECDSA', hash };
  for (const message of [pae(bundle.payloadType, bundle.payload), paeCompat(bundle.payload)]) {
    const data = /** @type {Uint8Array<ArrayBuffer>} */ (message);
    if (await crypto.subtle.verify(algorithm, ec.key, /** @type {Uint8Array<ArrayBuffer>} */ (raw), data)) return;
  }
  throw new NotVerified('BadSignature', `the signature does not match the payload with this ${ec.curve} key`);
}

/**
 * The public-key method: the key hint (when the bundle has one) must be this key's, then the
 * signature must verify. v1.0.x bundles carry rawBytes and keyDetails instead of a hint;
 * the reference ignores them, and so does this (the key given is the one trusted).
 * @param {import('./bundle.js').Bundle} bundle
 * @param {EcKey} ec
 */
export async function verifyWithKey(bundle, ec) {
  expect(
    bundle.material.kind === 'publicKey',
    'KeyMismatch',
    'the bundle was signed with a certificate: verify it with certificateChain, or identity and issuer (Sigstore keyless)',
  );
  const hint = await keyHint(ec.spki);
  if (bundle.material.hint !== null)
    expect(
      bundle.material.hint.toLowerCase() === hint,
      'KeyMismatch',
      `the bundle names key ${bundle.material.hint.slice(0, 16)}…, not this key (${hint.slice(0, 16)}…)`,
    );
  await verifyEnvelope(ec, bundle);
  return { curve: ec.curve, keyHint: hint };
}
