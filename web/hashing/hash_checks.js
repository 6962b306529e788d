// The hashes a file's metadata claims, against the ones computed from its bytes: `checks`,
// and an EmbeddedHashMismatch finding (code and severity from the core's table) per mismatch.
import { AUTOV1_WINDOW } from './hash_pass.js';

/** SHA-256 of no bytes: what A1111's AutoV1 hashes for a file shorter than its window's start. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** @type {Record<string, string>} what each covered part is, for messages (base-model claims are never compared) */
const WHAT = {
  file: 'the whole file',
  data: 'the data section (bytes 8+N to the end)',
  autov1: 'the 64 KiB at 1 MiB (AutoV1)',
};

/**
 * The computed value a claim is checked against, or null when it cannot be compared.
 * kohya's sshs_legacy_hash is the AutoV1 of the file as written before its hashes were added
 * to the metadata (kohya-ss/sd-scripts, precalculate_safetensors_hashes in
 * library/train_util.py), which moved every byte after the header: it is
 * comparable only when both files were shorter than 1 MiB, where the window is empty.
 * @param {'file' | 'data' | 'autov1' | 'base-model'} covers
 * @param {import('../index.js').FileHashes} hashes
 * @param {number} size
 */
function actualFor(covers, hashes, size) {
  if (covers === 'file') return hashes.sha256;
  if (covers === 'data') return hashes.dataSha256;
  if (covers === 'autov1' && hashes.sha256 !== null && size <= AUTOV1_WINDOW.offset) return EMPTY_SHA256;
  return null;
}

/**
 * @param {import('../index.js').ModelCard['embeddedHashes']} claims the core's (cpp/analysis/embedded_hashes.h)
 * @param {import('../index.js').FileHashes} hashes
 * @param {number} size the file's size
 * @param {import('../index.js').Finding['severity']} severity EmbeddedHashMismatch's, from the core
 * @returns {{ checks: import('../index.js').HashCheck[], findings: import('../index.js').Finding[] }}
 *   A claim is compared with as many leading hex digits as it has (8 at least: AutoV1 has 8).
 */
export function checkEmbeddedHashes(claims, hashes, size, severity) {
  const checks = [];
  const findings = [];
  for (const { key, value, covers } of claims) {
    const full = actualFor(covers, hashes, size);
    if (full === null || value.length < 8 || value.length > 64 || !/^[0-9a-f]+$/.test(value)) continue;
    const actual = full.slice(0, value.length);
    const match = actual === value;
    checks.push({ key, claimed: value, actual, match });
    if (!match) {
      findings.push({
        code: 'EmbeddedHashMismatch',
        severity,
        message: `${key} says ${value}, but ${WHAT[covers]} hashes to ${actual}: the bytes changed after the hash was written, or the metadata was copied from another file`,
      });
    }
  }
  return { checks, findings };
}
