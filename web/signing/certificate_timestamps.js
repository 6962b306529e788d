// The signed certificate timestamps (SCTs) Fulcio embeds in its certificates: at least one must
// be a trusted CT log's signature over the precertificate (RFC 6962 §3.2: the certificate without
// the SCT list extension, and the issuer's key hash), as Sigstore's verifiers require (one SCT by
// default).
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { expect } from './errors.js';
import { concat, sha256, toHex } from './bytes.js';
import { derSignatureToRaw } from './ec_key.js';
import { verifyWithLogKey, within } from './trusted_root.js';

const SCT_LIST = '1.3.6.1.4.1.11129.2.4.2';

/**
 * The SCTs of a serialized SignedCertificateTimestampList (RFC 6962 §3.3).
 * @param {Uint8Array} list
 * @returns {{ logId: string, time: Date, timestamp: Uint8Array, extensions: Uint8Array, signature: Uint8Array }[]}
 */
function parseScts(list) {
  const u16 = (/** @type {Uint8Array} */ b, /** @type {number} */ at) => (b[at] << 8) | b[at + 1];
  const scts = [];
  if (list.length < 2 || u16(list, 0) !== list.length - 2) return [];
  for (let at = 2; at + 2 <= list.length;) {
    const sct = list.subarray(at + 2, at + 2 + u16(list, at));
    at += 2 + sct.length;
    if (sct.length < 47 || sct[0] !== 0) continue; // v1 only
    const extLength = u16(sct, 41);
    const sigAt = 43 + extLength;
    if (sigAt + 4 > sct.length) continue;
    const timestamp = sct.subarray(33, 41);
    const ms = new DataView(timestamp.buffer, timestamp.byteOffset, 8).getBigUint64(0);
    scts.push({
      logId: toHex(sct.subarray(1, 33)),
      time: new Date(Number(ms)),
      timestamp,
      extensions: sct.subarray(43, sigAt),
      signature: sct.subarray(sigAt + 4, sigAt + 4 + u16(sct, sigAt + 2)),
    });
  }
  return scts;
}

/**
 * Checks that a trusted CT log signed `leafDer`'s precertificate.
 * @param {Uint8Array} leafDer
 * @param {pkijs.Certificate} issuer the certificate that signed the leaf
 * @param {import('./trusted_root.js').TrustedRoot} root
 */
export async function verifyEmbeddedScts(leafDer, issuer, root) {
  const leaf = pkijs.Certificate.fromBER(/** @type {Uint8Array<ArrayBuffer>} */ (leafDer));
  const extension = leaf.extensions?.find((e) => e.extnID === SCT_LIST);
  expect(extension, 'UntrustedCertificate', 'the signing certificate has no signed certificate timestamp');
  // The extension's value is an OCTET STRING holding the serialized list.
  const inner = asn1js.fromBER(/** @type {Uint8Array<ArrayBuffer>} */ (extension.extnValue.valueBlock.valueHexView));
  const list = inner.result instanceof asn1js.OctetString ? inner.result.valueBlock.valueHexView : new Uint8Array();
  const scts = parseScts(new Uint8Array(list));
  leaf.extensions = leaf.extensions?.filter((e) => e.extnID !== SCT_LIST);
  const tbs = new Uint8Array(leaf.encodeTBS().toBER());
  const issuerKeyHash = await sha256(new Uint8Array(issuer.subjectPublicKeyInfo.toSchema().toBER()));
  for (const sct of scts) {
    const log = root.ctlogs.find((l) => l.logId === sct.logId && within(l.validFor, sct.time));
    if (!log) continue;
    const signed = concat([
      new Uint8Array([0, 0]), // v1, certificate_timestamp
      sct.timestamp,
      new Uint8Array([0, 1]), // precert_entry
      issuerKeyHash,
      new Uint8Array([tbs.length >> 16, (tbs.length >> 8) & 0xff, tbs.length & 0xff]),
      tbs,
      new Uint8Array([sct.extensions.length >> 8, sct.extensions.length & 0xff]),
      sct.extensions,
    ]);
    if (await verifyWithLogKey(log, sct.signature, signed, derSignatureToRaw)) return;
  }
  expect(
    false,
    'UntrustedCertificate',
    `none of the certificate's ${scts.length} timestamps is signed by a trusted CT log`,
  );
}
