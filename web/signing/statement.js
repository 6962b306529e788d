// The signed payload: DSSE's pre-authentication encoding, and the in-toto Statement whose
// predicate lists the model's resources. Rules from sigstore/model-transparency
// (src/model_signing/_signing/signing.py, sign_sigstore_pb.py and manifest.py, v1.x):
// payload type application/vnd.in-toto+json, Statement v1, predicate type
// https://model_signing/signature/v1.0 (or the v0.2 library's https://model_signing/Digests/v0.1),
// one subject whose sha256 is SHA-256 over the resources' digest bytes in the listed order.
import { expect } from './errors.js';
import { concat, fromHex, sha256, toHex, utf8 } from './bytes.js';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://model_signing/signature/v1.0';
export const PREDICATE_TYPE_V01 = 'https://model_signing/Digests/v0.1';

/**
 * DSSE v1 PAE: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body.
 * @param {string} payloadType
 * @param {Uint8Array} payload
 */
export function pae(payloadType, payload) {
  const type = utf8.encode(payloadType);
  return concat([utf8.encode(`DSSEv1 ${type.length} `), type, utf8.encode(` ${payload.length} `), payload]);
}

/**
 * How Python prints a bytes value (repr), which model_signing v0.2 put into its (misspelled)
 * PAE; its signatures still verify this way in the reference.
 * @param {Uint8Array} bytes
 */
function pythonBytesRepr(bytes) {
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let text = 'b' + quote;
  for (const b of bytes) {
    if (b === 0x5c) text += '\\\\';
    else if (b === quote.charCodeAt(0)) text += '\\' + quote;
    else if (b === 0x09) text += '\\t';
    else if (b === 0x0a) text += '\\n';
    else if (b === 0x0d) text += '\\r';
    else if (b < 0x20 || b >= 0x7f) text += '\\x' + b.toString(16).padStart(2, '0');
    else text += String.fromCharCode(b);
  }
  return text + quote;
}

/**
 * model_signing v0.2's PAE (its pae_compat): "DSSEV1 len type len repr(payload)".
 * @param {Uint8Array} payload
 */
export function paeCompat(payload) {
  const type = IN_TOTO_PAYLOAD_TYPE;
  return utf8.encode(`DSSEV1 ${type.length} ${type} ${payload.length} ${pythonBytesRepr(payload)}`);
}

/**
 * A path as Python's PurePosixPath writes it: empty and "." parts dropped, "." for nothing.
 * @param {string} name
 */
export function posixName(name) {
  const absolute = name.startsWith('/');
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  const joined = (absolute ? '/' : '') + parts.join('/');
  return joined === '' ? '.' : joined;
}

/**
 * @typedef {{
 *   method: 'files' | 'shards', hashType: string, shardSize: number | null,
 *   allowSymlinks: boolean, ignorePaths: string[],
 * }} Serialization
 * @typedef {{ name: string, path: string, start: number | null, end: number | null, algorithm: string, digest: string }} Resource
 *   name as listed; path normalized; start/end for shards
 * @typedef {{ modelName: string, predicateType: string, serialization: Serialization, resources: Resource[] }} Manifest
 */

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @param {any} args the predicate's serialization
 * @returns {Serialization}
 */
function serializationOf(args) {
  expect(isObject(args), 'InconsistentManifest', 'the predicate has no serialization');
  const { method, hash_type: hashType, shard_size: shardSize } = args;
  expect(
    method === 'files' || method === 'shards',
    'InconsistentManifest',
    `unknown serialization method ${JSON.stringify(method)}`,
  );
  expect(typeof hashType === 'string', 'InconsistentManifest', 'the serialization has no hash_type');
  if (method === 'shards')
    expect(
      Number.isSafeInteger(shardSize) && shardSize > 0,
      'InconsistentManifest',
      `shard_size must be a positive integer, got ${JSON.stringify(shardSize)}`,
    );
  const ignore = args.ignore_paths ?? [];
  expect(
    Array.isArray(ignore) && ignore.every((p) => typeof p === 'string'),
    'InconsistentManifest',
    'ignore_paths is not a list of paths',
  );
  return {
    method,
    hashType,
    shardSize: method === 'shards' ? shardSize : null,
    allowSymlinks: args.allow_symlinks === true || args.allow_symlinks === 'true',
    ignorePaths: ignore,
  };
}

/**
 * @param {string} name as listed
 * @param {Serialization} serialization
 * @returns {Pick<Resource, 'path' | 'start' | 'end'>}
 */
function keyOf(name, serialization) {
  if (serialization.method === 'files') return { path: posixName(name), start: null, end: null };
  const parts = name.split(':');
  expect(
    parts.length === 3 && /^\d+$/.test(parts[1]) && /^\d+$/.test(parts[2]),
    'InconsistentManifest',
    `a shard resource is named "path:start:end", got ${JSON.stringify(name).slice(0, 200)}`,
  );
  const [start, end] = [Number(parts[1]), Number(parts[2])];
  expect(Number.isSafeInteger(end), 'InconsistentManifest', `shard offsets too large in ${JSON.stringify(name)}`);
  return { path: posixName(parts[0]), start, end };
}

/**
 * @param {any} resource
 * @param {number} i
 * @param {Serialization} serialization
 * @returns {Resource}
 */
function resourceOf(resource, i, serialization) {
  expect(
    isObject(resource) &&
      typeof resource.name === 'string' &&
      typeof resource.algorithm === 'string' &&
      fromHex(resource.digest) !== null,
    'InconsistentManifest',
    `resource ${i} is not { name, algorithm, digest (hex) }`,
  );
  const { name, algorithm, digest } = resource;
  return { name, ...keyOf(name, serialization), algorithm, digest: digest.toLowerCase() };
}

/**
 * The manifest a verified payload signs, its subject digest checked against its resources.
 * @param {string} payloadType
 * @param {Uint8Array} payload
 * @returns {Promise<Manifest>}
 * @throws {import('./errors.js').NotVerified}
 */
export async function manifestOf(payloadType, payload) {
  expect(
    payloadType === IN_TOTO_PAYLOAD_TYPE,
    'UnsupportedPredicate',
    `expected a DSSE payload of type ${IN_TOTO_PAYLOAD_TYPE}, got ${JSON.stringify(payloadType).slice(0, 120)}`,
  );
  let statement;
  try {
    statement = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    statement = null;
  }
  expect(isObject(statement), 'InconsistentManifest', 'the signed payload is not a JSON object');
  expect(
    statement._type === STATEMENT_TYPE,
    'UnsupportedPredicate',
    `expected an in-toto ${STATEMENT_TYPE}, got ${JSON.stringify(statement._type)}`,
  );
  const subjects = statement.subject;
  expect(Array.isArray(subjects), 'InconsistentManifest', 'the statement has no subject list');
  if (statement.predicateType === PREDICATE_TYPE_V01) {
    const serialization = serializationOf({ method: 'files', hash_type: 'sha256', allow_symlinks: false });
    const resources = subjects.map((s, i) =>
      resourceOf({ name: s?.name, algorithm: 'sha256', digest: s?.digest?.sha256 }, i, serialization),
    );
    return { modelName: '', predicateType: PREDICATE_TYPE_V01, serialization, resources };
  }
  expect(
    statement.predicateType === PREDICATE_TYPE,
    'UnsupportedPredicate',
    `unknown predicate type ${JSON.stringify(statement.predicateType).slice(0, 120)} (this verifier reads ${PREDICATE_TYPE})`,
  );
  expect(subjects.length === 1, 'InconsistentManifest', `expected one subject, got ${subjects.length}`);
  const expected = subjects[0]?.digest?.sha256;
  expect(typeof expected === 'string', 'InconsistentManifest', 'the subject has no sha256 digest');
  const predicate = statement.predicate;
  expect(isObject(predicate), 'InconsistentManifest', 'the statement has no predicate');
  const serialization = serializationOf(predicate.serialization);
  expect(Array.isArray(predicate.resources), 'InconsistentManifest', 'the predicate has no resource list');
  const resources = predicate.resources.map((/** @type {unknown} */ r, /** @type {number} */ i) =>
    resourceOf(r, i, serialization),
  );
  const root = toHex(
    await sha256(concat(resources.map((/** @type {Resource} */ r) => /** @type {Uint8Array} */ (fromHex(r.digest))))),
  );
  expect(
    root === expected,
    'InconsistentManifest',
    `the subject digest is ${expected}, but the resources hash to ${root}`,
  );
  const name = subjects[0]?.name;
  return { modelName: typeof name === 'string' ? name : '', predicateType: PREDICATE_TYPE, serialization, resources };
}
