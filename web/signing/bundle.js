// A Sigstore bundle (https://github.com/sigstore/protobuf-specs, bundle v0.3 in protobuf JSON)
// holding a DSSE envelope (https://github.com/secure-systems-lab/dsse): read and checked for
// shape only; nothing here is trusted yet.
import { expect, NotVerified } from './errors.js';
import { fromBase64 } from './bytes.js';

/** The media type model_signing writes and its key and certificate verifiers require. */
export const BUNDLE_V03 = 'application/vnd.dev.sigstore.bundle.v0.3+json';
/** The other spellings Sigstore's own verifiers accept (keyless bundles). */
const SIGSTORE_MEDIA_TYPES = [
  BUNDLE_V03,
  'application/vnd.dev.sigstore.bundle+json;version=0.1',
  'application/vnd.dev.sigstore.bundle+json;version=0.2',
  'application/vnd.dev.sigstore.bundle+json;version=0.3',
];
/** A bundle larger than this is refused before parsing (model_signing's are kilobytes). */
export const MAX_BUNDLE_BYTES = 64 << 20;

/**
 * @typedef {{
 *   mediaType: string,
 *   material: { kind: 'publicKey', hint: string | null, rawBytes: Uint8Array | null, keyDetails: string | null }
 *     | { kind: 'certificates', certificates: Uint8Array[] },
 *   tlogEntries: any[],
 *   timestamps: Uint8Array[],
 *   payloadType: string,
 *   payload: Uint8Array,
 *   signature: Uint8Array,
 *   raw: any,
 * }} Bundle  certificates: DER, the signing certificate first; raw: the parsed JSON (for keyless)
 */

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @param {unknown} value
 * @param {string} what
 */
function base64Field(value, what) {
  const bytes = typeof value === 'string' ? fromBase64(value) : null;
  expect(bytes !== null, 'MalformedBundle', `${what} is not base64`);
  return bytes;
}

/**
 * The certificates of the verification material, DER, the signing one first.
 * @param {any} vm
 * @returns {Uint8Array[] | null}
 */
function certificatesOf(vm) {
  if (isObject(vm.certificate)) return [base64Field(vm.certificate.rawBytes, 'verificationMaterial.certificate')];
  if (!isObject(vm.x509CertificateChain)) return null;
  const list = vm.x509CertificateChain.certificates;
  expect(Array.isArray(list) && list.length > 0, 'MalformedBundle', 'x509CertificateChain has no certificates');
  return list.map((c, i) => base64Field(c?.rawBytes, `certificate ${i}`));
}

/**
 * Parses a bundle's JSON text (or its already parsed value).
 * @param {string | object} input
 * @returns {Bundle}
 * @throws {NotVerified} MalformedBundle, UnsupportedBundle
 */
export function parseBundle(input) {
  let raw = input;
  if (typeof input === 'string') {
    expect(
      input.length <= MAX_BUNDLE_BYTES,
      'MalformedBundle',
      `the signature is larger than ${MAX_BUNDLE_BYTES} bytes`,
    );
    try {
      raw = JSON.parse(input);
    } catch (error) {
      throw new NotVerified('MalformedBundle', `the signature is not JSON: ${/** @type {Error} */ (error).message}`);
    }
  }
  const bundle = /** @type {any} */ (raw);
  expect(isObject(bundle), 'MalformedBundle', 'the signature is not a JSON object');
  expect(typeof bundle.mediaType === 'string', 'MalformedBundle', 'the bundle has no mediaType');
  expect(
    SIGSTORE_MEDIA_TYPES.includes(bundle.mediaType),
    'UnsupportedBundle',
    `unsupported bundle media type ${JSON.stringify(bundle.mediaType).slice(0, 120)}`,
  );
  const vm = bundle.verificationMaterial;
  expect(isObject(vm), 'MalformedBundle', 'the bundle has no verificationMaterial');
  const envelope = bundle.dsseEnvelope;
  expect(
    isObject(envelope),
    isObject(bundle.messageSignature) ? 'UnsupportedBundle' : 'MalformedBundle',
    'the bundle holds no DSSE envelope (model signatures are DSSE envelopes)',
  );
  expect(typeof envelope.payloadType === 'string', 'MalformedBundle', 'the envelope has no payloadType');
  const signatures = envelope.signatures;
  expect(Array.isArray(signatures) && signatures.length > 0, 'MalformedBundle', 'the envelope has no signature');
  expect(signatures.length === 1, 'UnsupportedBundle', `the envelope has ${signatures.length} signatures, not one`);
  /** @type {Bundle['material']} */
  let material;
  const certificates = certificatesOf(vm);
  if (certificates) material = { kind: 'certificates', certificates };
  else {
    const key = vm.publicKey;
    expect(isObject(key), 'MalformedBundle', 'the verification material has no public key or certificate');
    const hint = typeof key.hint === 'string' && key.hint !== '' ? key.hint : null;
    const rawBytes = key.rawBytes === undefined ? null : base64Field(key.rawBytes, 'publicKey.rawBytes');
    const keyDetails = typeof key.keyDetails === 'string' ? key.keyDetails : null;
    material = { kind: 'publicKey', hint, rawBytes, keyDetails };
  }
  const tlogEntries = vm.tlogEntries ?? [];
  expect(Array.isArray(tlogEntries), 'MalformedBundle', 'tlogEntries is not a list');
  const stamps = vm.timestampVerificationData?.rfc3161Timestamps ?? [];
  expect(Array.isArray(stamps), 'MalformedBundle', 'rfc3161Timestamps is not a list');
  return {
    mediaType: bundle.mediaType,
    material,
    tlogEntries,
    timestamps: stamps.map((/** @type {any} */ t, /** @type {number} */ i) =>
      base64Field(t?.signedTimestamp, `timestamp ${i}`),
    ),
    payloadType: envelope.payloadType,
    payload: base64Field(envelope.payload, 'the envelope payload'),
    signature: base64Field(signatures[0]?.sig, 'the envelope signature'),
    raw: bundle,
  };
}
