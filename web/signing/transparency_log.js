// A Rekor (v1) transparency log entry of a keyless bundle: its body must be this envelope's
// (dsse 0.0.1: the payload's SHA-256, the signature, the signing certificate), its signed entry
// timestamp (SET) must be the log's signature, and its inclusion proof must lead to the root
// hash of a checkpoint the log signed. The entry's integratedTime is then the signing time.
// Rules: https://github.com/sigstore/protobuf-specs (TransparencyLogEntry), RFC 9162 §2.1.3
// (inclusion proofs), https://github.com/transparency-dev/formats (log checkpoints, signed notes).
import { NotVerified, expect } from './errors.js';
import { concat, fromBase64, sha256, toBase64, toHex, utf8 } from './bytes.js';
import { derSignatureToRaw, pemBlocks } from './ec_key.js';
import { verifyWithLogKey, within } from './trusted_root.js';

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * RFC 9162 §2.1.3.2: the root an inclusion proof leads to from a leaf hash.
 * @param {bigint} index
 * @param {bigint} size
 * @param {Uint8Array} leaf
 * @param {Uint8Array[]} path
 * @returns {Promise<Uint8Array | null>}
 */
async function rootFromProof(index, size, leaf, path) {
  if (index >= size) return null;
  let fn = index;
  let sn = size - 1n;
  let r = leaf;
  for (const p of path) {
    if (sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = await sha256(concat([new Uint8Array([1]), p, r]));
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else r = await sha256(concat([new Uint8Array([1]), r, p]));
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : null;
}

/**
 * The checkpoint (a signed note: origin, size, root hash, then "— name base64(keyhint‖sig)")
 * signed by `log`; returns its size and root hash.
 * @param {string} text
 * @param {import('./trusted_root.js').LogKey} log
 */
async function checkpointOf(text, log) {
  const split = text.indexOf('\n\n');
  expect(split > 0, 'UntrustedCertificate', 'the inclusion proof checkpoint is not a signed note');
  const body = text.slice(0, split + 1);
  const [, size, root] = body.split('\n');
  const hint = log.logId.slice(0, 8);
  for (const line of text.slice(split + 2).split('\n')) {
    const match = /^\u2014 (\S+) (\S+)$/.exec(line);
    const blob = match ? fromBase64(match[2]) : null;
    if (!blob || blob.length < 5 || toHex(blob.subarray(0, 4)) !== hint) continue;
    if (await verifyWithLogKey(log, blob.subarray(4), utf8.encode(body), derSignatureToRaw))
      return { size: BigInt(size), root: fromBase64(root) };
  }
  throw new NotVerified('UntrustedCertificate', 'the checkpoint is not signed by the transparency log');
}

/**
 * The entry's body must record this envelope: dsse 0.0.1 with the payload's hash, the
 * signature and the signing certificate.
 * @param {any} body
 * @param {import('./bundle.js').Bundle} bundle
 * @param {Uint8Array} leafDer
 */
async function checkBody(body, bundle, leafDer) {
  expect(
    body?.kind === 'dsse' && body?.apiVersion === '0.0.1',
    'UntrustedCertificate',
    `unsupported transparency log entry kind ${JSON.stringify(body?.kind)} ${JSON.stringify(body?.apiVersion)}`,
  );
  const spec = body.spec ?? {};
  expect(
    spec.payloadHash?.algorithm === 'sha256' && spec.payloadHash?.value === toHex(await sha256(bundle.payload)),
    'UntrustedCertificate',
    'the transparency log entry records another payload',
  );
  const signatures = Array.isArray(spec.signatures) ? spec.signatures : [];
  const recorded = signatures.some((/** @type {any} */ s) => {
    const sig = fromBase64(s?.signature);
    const pem = fromBase64(s?.verifier);
    const certs = pem ? pemBlocks(new TextDecoder().decode(pem), 'CERTIFICATE') : [];
    return sig !== null && same(sig, bundle.signature) && certs.length === 1 && same(certs[0], leafDer);
  });
  expect(recorded, 'UntrustedCertificate', 'the transparency log entry records another signature or certificate');
}

/**
 * Checks one tlog entry of the bundle against the trusted logs; returns the signing time.
 * @param {any} entry
 * @param {import('./bundle.js').Bundle} bundle
 * @param {Uint8Array} leafDer
 * @param {import('./trusted_root.js').TrustedRoot} root
 * @returns {Promise<Date>}
 */
export async function verifyLogEntry(entry, bundle, leafDer, root) {
  const logId = fromBase64(entry?.logId?.keyId);
  const bodyBytes = fromBase64(entry?.canonicalizedBody);
  const time = Number(entry?.integratedTime);
  const index = entry?.logIndex;
  expect(
    logId && bodyBytes && Number.isSafeInteger(time) && /^\d+$/.test(String(index)),
    'MalformedBundle',
    'a transparency log entry lacks logId, canonicalizedBody, integratedTime or logIndex',
  );
  const signedAt = new Date(time * 1000);
  const log = root.tlogs.find((l) => l.logId === toHex(logId) && within(l.validFor, signedAt));
  expect(
    log,
    'UntrustedCertificate',
    `the transparency log ${toBase64(logId)} is not trusted at ${signedAt.toISOString()}`,
  );
  let body;
  try {
    body = JSON.parse(new TextDecoder().decode(bodyBytes));
  } catch {
    throw new NotVerified('MalformedBundle', 'the transparency log entry body is not JSON');
  }
  await checkBody(body, bundle, leafDer);
  const set = fromBase64(entry.inclusionPromise?.signedEntryTimestamp);
  const proof = entry.inclusionProof;
  expect(
    set || proof,
    'UntrustedCertificate',
    'the transparency log entry has neither a signed timestamp nor an inclusion proof',
  );
  if (set) {
    const promised = JSON.stringify({
      body: entry.canonicalizedBody,
      integratedTime: time,
      logID: toHex(logId),
      logIndex: Number(index),
    });
    expect(
      await verifyWithLogKey(log, set, utf8.encode(promised), derSignatureToRaw),
      'UntrustedCertificate',
      "the signed entry timestamp is not the transparency log's signature",
    );
  }
  if (proof) {
    const hashes = (Array.isArray(proof.hashes) ? proof.hashes : []).map(fromBase64);
    expect(
      hashes.every(Boolean) && /^\d+$/.test(String(proof.logIndex)) && /^\d+$/.test(String(proof.treeSize)),
      'MalformedBundle',
      'a malformed inclusion proof',
    );
    const leaf = await sha256(concat([new Uint8Array([0]), bodyBytes]));
    const computed = await rootFromProof(BigInt(proof.logIndex), BigInt(proof.treeSize), leaf, hashes);
    const rootHash = fromBase64(proof.rootHash);
    expect(
      computed && rootHash && same(computed, rootHash),
      'UntrustedCertificate',
      'the inclusion proof does not lead to its root hash',
    );
    const checkpoint = await checkpointOf(String(proof.checkpoint?.envelope ?? ''), log);
    expect(
      checkpoint.size === BigInt(proof.treeSize) && checkpoint.root && same(checkpoint.root, rootHash),
      'UntrustedCertificate',
      "the checkpoint does not sign the inclusion proof's tree",
    );
  }
  return signedAt;
}
