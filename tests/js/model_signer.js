// A model signer for the tests, written from model_signing's format (sigstore/model-transparency,
// src/model_signing/_signing/signing.py, sign_ec_key.py, manifest.py, v1.x): an in-toto
// Statement over the model's files or shards, in a DSSE envelope signed with node:crypto
// (DER ECDSA, as the reference writes it), in a Sigstore bundle v0.3. Independent of the
// verifier under test: it uses node:crypto only.
import { createHash, createPublicKey, sign } from 'node:crypto';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest();
const HASH_OF_CURVE = { prime256v1: 'sha256', secp384r1: 'sha384', secp521r1: 'sha512' };

/** DSSE v1 pre-authentication encoding. */
export function pae(type, payload) {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${payload.length} `), payload]);
}

/**
 * The resources of a model (Map name -> bytes; a single file is named '.'), sorted by name as
 * the reference lists them.
 */
export function resourcesOf(files, { method = 'files', shardSize = 1_000_000_000 } = {}) {
  const out = [];
  for (const [name, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (method === 'files') {
      out.push({ name, algorithm: 'sha256', digest: sha256(bytes).toString('hex') });
      continue;
    }
    for (let start = 0; start < bytes.length; start += shardSize) {
      const end = Math.min(start + shardSize, bytes.length);
      out.push({
        name: `${name}:${start}:${end}`,
        algorithm: `sha256-sharded-${shardSize}`,
        digest: sha256(bytes.subarray(start, end)).toString('hex'),
      });
    }
  }
  return out;
}

/** The in-toto Statement model_signing v1.x writes. */
export function statementOf(
  resources,
  { name = 'model', method = 'files', shardSize, ignorePaths, hashType = 'sha256', predicateType } = {},
) {
  const serialization = { method, hash_type: hashType, allow_symlinks: false };
  if (method === 'shards') serialization.shard_size = shardSize;
  if (ignorePaths) serialization.ignore_paths = ignorePaths;
  const root = sha256(Buffer.concat(resources.map((r) => Buffer.from(r.digest, 'hex')))).toString('hex');
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name, digest: { sha256: root } }],
    predicateType: predicateType ?? 'https://model_signing/signature/v1.0',
    predicate: { serialization, resources },
  };
}

/** The key hint: SHA-256 of the public key as PEM SubjectPublicKeyInfo. */
export function keyHint(privateKey) {
  const pem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' });
  return sha256(Buffer.from(pem)).toString('hex');
}

/**
 * A bundle signing `statement` (or raw `payload` bytes) with `privateKey` (a node:crypto KeyObject or PEM).
 * material: 'hint' (v1.1), 'rawBytes' (v1.0.x) or a custom verificationMaterial object.
 */
export function bundleOf(
  statement,
  privateKey,
  { material = 'hint', payload, payloadType = 'application/vnd.in-toto+json' } = {},
) {
  const body = payload ?? Buffer.from(JSON.stringify(statement, null, 2));
  const curve = createPublicKey(privateKey).asymmetricKeyDetails.namedCurve;
  const sig = sign(HASH_OF_CURVE[curve], pae(payloadType, body), privateKey); // DER
  const pem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' });
  const verificationMaterial =
    material === 'hint'
      ? { publicKey: { hint: keyHint(privateKey) }, tlogEntries: [] }
      : material === 'rawBytes'
        ? { publicKey: { rawBytes: Buffer.from(pem).toString('base64'), keyDetails: 'PKIX_ECDSA_P384_SHA_384' } }
        : material;
  return {
    mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
    verificationMaterial,
    dsseEnvelope: {
      payload: body.toString('base64'),
      payloadType,
      signatures: [{ sig: sig.toString('base64'), keyid: '' }],
    },
  };
}

/** Signs a model (Map name -> bytes) as model_signing would. */
export function signModel(files, privateKey, options = {}) {
  const resources = resourcesOf(files, options);
  return bundleOf(statementOf(resources, options), privateKey, options);
}

/** The public key of `privateKey` as PEM text. */
export const publicPem = (privateKey) => createPublicKey(privateKey).export({ type: 'spki', format: 'pem' });
