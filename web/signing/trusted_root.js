// A Sigstore trusted root (https://github.com/sigstore/protobuf-specs, TrustedRoot in protobuf
// JSON): the Fulcio certificate authorities, the Rekor transparency logs and the CT logs, each
// trusted only within its validFor window. The public-good one is shipped
// (sigstore_trusted_root.js); options.trustedRoot replaces it.
import { expect, NotVerified } from './errors.js';
import { fromBase64, toHex } from './bytes.js';
import { parseCertificate } from './certificate_chain.js';
import publicGood from './sigstore_trusted_root.js';

/**
 * @typedef {{ start: number, end: number }} Window  milliseconds since the epoch
 * @typedef {{ logId: string, spki: Uint8Array, keyDetails: string, validFor: Window }} LogKey  logId: hex
 * @typedef {{ certificates: import('pkijs').Certificate[], validFor: Window }} Authority  the chain, leaf-most first
 * @typedef {{ tlogs: LogKey[], ctlogs: LogKey[], authorities: Authority[] }} TrustedRoot
 */

/** @param {any} validFor */
function windowOf(validFor) {
  const start = Date.parse(validFor?.start ?? '');
  const end = validFor?.end === undefined ? Infinity : Date.parse(validFor.end);
  return { start: Number.isNaN(start) ? -Infinity : start, end: Number.isNaN(end) ? Infinity : end };
}

/**
 * @param {Window} window
 * @param {Date} time
 */
export const within = (window, time) => window.start <= time.getTime() && time.getTime() <= window.end;

/** @param {any} log */
function logKey(log) {
  const id = fromBase64(log?.logId?.keyId);
  const spki = fromBase64(log?.publicKey?.rawBytes);
  if (!id || !spki) throw new TypeError('trustedRoot: a log without logId.keyId or publicKey.rawBytes');
  return {
    logId: toHex(id),
    spki,
    keyDetails: String(log.publicKey.keyDetails ?? ''),
    validFor: windowOf(log.publicKey.validFor),
  };
}

/** @type {TrustedRoot | null} */
let shipped = null;

/**
 * @param {unknown} input a trusted_root.json (object or text); undefined for the public-good one
 * @returns {TrustedRoot}
 * @throws {TypeError} when it cannot be used
 */
export function trustedRootOf(input) {
  if (input === undefined && shipped) return shipped;
  let raw = input ?? publicGood;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (error) {
      throw new TypeError(`trustedRoot is not JSON: ${/** @type {Error} */ (error).message}`, { cause: error });
    }
  }
  const root = /** @type {any} */ (raw);
  if (!root || !Array.isArray(root.tlogs) || !Array.isArray(root.certificateAuthorities))
    throw new TypeError('trustedRoot: expected a Sigstore trusted_root.json (tlogs, certificateAuthorities)');
  let authorities;
  try {
    authorities = root.certificateAuthorities.map((/** @type {any} */ ca) => ({
      certificates: (ca?.certChain?.certificates ?? []).map((/** @type {any} */ c, /** @type {number} */ i) =>
        parseCertificate(
          /** @type {Uint8Array} */ (fromBase64(c?.rawBytes) ?? new Uint8Array()),
          `CA certificate ${i}`,
        ),
      ),
      validFor: windowOf(ca?.validFor),
    }));
  } catch (error) {
    throw new TypeError(`trustedRoot: ${/** @type {Error} */ (error).message}`, { cause: error });
  }
  const result = { tlogs: root.tlogs.map(logKey), ctlogs: (root.ctlogs ?? []).map(logKey), authorities };
  if (input === undefined) shipped = result;
  return result;
}

/** WebCrypto's import of a log key, by its keyDetails. */
const ALGORITHMS = /** @type {Record<string, [EcKeyImportParams | Algorithm, EcdsaParams | Algorithm]>} */ ({
  PKIX_ECDSA_P256_SHA_256: [
    { name: 'ECDSA', namedCurve: 'P-256' },
    { name: 'ECDSA', hash: 'SHA-256' },
  ],
  PKIX_ECDSA_P384_SHA_384: [
    { name: 'ECDSA', namedCurve: 'P-384' },
    { name: 'ECDSA', hash: 'SHA-384' },
  ],
  PKIX_ED25519: [{ name: 'Ed25519' }, { name: 'Ed25519' }],
});

/**
 * Verifies `signature` (DER for ECDSA) over `data` with a log's key.
 * @param {LogKey} log
 * @param {Uint8Array} signature
 * @param {Uint8Array} data
 * @param {(der: Uint8Array, size: number) => Uint8Array | null} derToRaw
 */
export async function verifyWithLogKey(log, signature, data, derToRaw) {
  const algorithm = ALGORITHMS[log.keyDetails];
  expect(algorithm, 'UntrustedCertificate', `unsupported log key type ${log.keyDetails}`);
  let key;
  try {
    key = await crypto.subtle.importKey(
      'spki',
      /** @type {Uint8Array<ArrayBuffer>} */ (log.spki),
      algorithm[0],
      false,
      ['verify'],
    );
  } catch (error) {
    throw new NotVerified(
      'UntrustedCertificate',
      `the log key ${log.logId.slice(0, 16)} cannot be used here: ${/** @type {Error} */ (error).message}`,
    );
  }
  const size = log.keyDetails === 'PKIX_ECDSA_P384_SHA_384' ? 48 : 32;
  const raw = algorithm[1].name === 'ECDSA' ? derToRaw(signature, size) : signature;
  if (!raw) return false;
  return crypto.subtle.verify(
    algorithm[1],
    key,
    /** @type {Uint8Array<ArrayBuffer>} */ (raw),
    /** @type {Uint8Array<ArrayBuffer>} */ (data),
  );
}
