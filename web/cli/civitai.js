// inspect --civitai: the file's model version on Civitai, found by its hashes (the file's
// SHA-256, then its data section's AutoV3, which survives metadata edits; one read hashes both).
// SAFETENSORS_WASM_CIVITAI_URL points it at another server (a mirror, or a test's).
import { lookupCivitai } from '../index.js';
import { labelled, printable } from './text.js';

/**
 * @typedef {{ hash: string | null, version: import('../index.js').CivitaiModelVersion | null, error?: string }} CivitaiAnswer
 *   hash: the hash Civitai knew (the last one asked when none was known)
 */

/**
 * Hashes the opened file and asks Civitai about its SHA-256, then its AutoV3.
 * @param {import('../index.js').SafetensorsFile} st
 * @returns {Promise<CivitaiAnswer>}
 */
export async function findOnCivitai(st) {
  const options = { baseUrl: process.env.SAFETENSORS_WASM_CIVITAI_URL || undefined };
  let hash = null;
  try {
    const { sha256, autoV3 } = await st.hash();
    for (const h of [sha256, autoV3]) {
      if (!h) continue;
      hash = h;
      const version = await lookupCivitai(h, options);
      if (version) return { hash, version };
    }
    return { hash, version: null };
  } catch (error) {
    return { hash, version: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * inspect's text for the answer.
 * @param {CivitaiAnswer} answer
 * @returns {string}
 */
export function civitaiText({ hash, version, error }) {
  if (error) return printable(`Civitai: the lookup failed: ${error}`);
  if (!version) return `Civitai: no model version has this file's SHA-256 or AutoV3 (last asked: ${hash})`;
  const pairs = /** @type {[string, string][]} */ (
    [
      ['model', `${version.modelName ?? '(no name)'} (${version.modelId})`],
      ['version', `${version.versionName ?? '(no name)'} (${version.versionId})`],
      ['base model', version.baseModel ?? ''],
      ['trained words', version.trainedWords.join(', ')],
      ['AIR', version.air ?? ''],
      ['page', version.pageUrl],
      ['download', version.downloadUrl ?? ''],
      ['found by', hash ?? ''],
    ].filter(([, v]) => v !== '')
  );
  return `Civitai\n${labelled(pairs)
    .map((l) => `  ${l}`)
    .join('\n')}`;
}
