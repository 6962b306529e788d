// Which Civitai model version a hash belongs to, asked of Civitai's public API
// (https://developer.civitai.com/site/reference/model-versions: GET
// /api/v1/model-versions/by-hash/{hash}, which takes a file's AutoV1, AutoV2, SHA-256, CRC32 or
// BLAKE3, or its data section's AutoV3). The only request the package makes that is not a read
// of a file the caller named; nothing calls it unasked.
import { SafetensorsError } from '../core/errors.js';
import { fetchWhole } from '../source/http_fetch.js';

export const CIVITAI_SITE = 'https://civitai.com';
/** A model version's JSON is a few KB; more than this is not an answer to read. */
const ANSWER_LIMIT = 4 << 20;
/** Hex lengths Civitai indexes: AutoV1 or CRC32 (8), AutoV2 (10), AutoV3 (12), SHA-256 or BLAKE3 (64). */
const HASH_LENGTHS = new Set([8, 10, 12, 64]);

/**
 * @param {unknown} hash
 * @returns {string} lowercase hex without "0x"
 */
function normaliseHash(hash) {
  const text = typeof hash === 'string' ? hash.trim().replace(/^0x/i, '').toLowerCase() : '';
  if (!/^[0-9a-f]+$/.test(text) || !HASH_LENGTHS.has(text.length)) {
    throw new TypeError(
      `hash must be 8, 10, 12 or 64 hex digits (AutoV1, AutoV2, AutoV3, SHA-256), got ${JSON.stringify(String(hash)).slice(0, 80)}`,
    );
  }
  return text;
}

/** @param {unknown} v */
const isId = (v) => Number.isSafeInteger(v) && /** @type {number} */ (v) >= 0;
/** @param {unknown} v */
const textOrNull = (v) => (typeof v === 'string' ? v : null);

/**
 * Looks `hash` up on Civitai: the model version it belongs to, or null when Civitai knows no
 * file with that hash (404).
 * @param {string} hash
 * @param {import('../index.js').CivitaiLookupOptions} [options]
 * @returns {Promise<import('../index.js').CivitaiModelVersion | null>}
 */
export async function lookupCivitai(hash, options = {}) {
  const key = normaliseHash(hash);
  const { baseUrl = CIVITAI_SITE, fetch, headers, signal } = options;
  if (typeof baseUrl !== 'string' || !/^https?:\/\//i.test(baseUrl)) {
    throw new TypeError(`options.baseUrl must be an http(s) URL, got ${JSON.stringify(String(baseUrl))}`);
  }
  const site = baseUrl.replace(/\/+$/, '');
  const url = `${site}/api/v1/model-versions/by-hash/${key}`;
  const unexpected = (/** @type {string} */ why) =>
    new SafetensorsError('UnexpectedResponse', `${url} did not answer a Civitai model version: ${why}`);
  let body;
  try {
    body = await fetchWhole(url, { fetch, headers, signal }, ANSWER_LIMIT, (bytes) =>
      unexpected(`${bytes} bytes, more than ${ANSWER_LIMIT}`),
    );
  } catch (error) {
    if (error instanceof SafetensorsError && error.code === 'HttpError' && error.status === 404) return null;
    throw error;
  }
  let json;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw unexpected('the body is not JSON');
  }
  if (json === null || typeof json !== 'object' || !isId(json.id) || !isId(json.modelId)) {
    throw unexpected('no numeric "id" and "modelId"');
  }
  const words = Array.isArray(json.trainedWords)
    ? json.trainedWords.filter((/** @type {unknown} */ w) => typeof w === 'string')
    : [];
  return {
    modelId: json.modelId,
    modelName: textOrNull(json.model?.name),
    versionId: json.id,
    versionName: textOrNull(json.name),
    baseModel: textOrNull(json.baseModel),
    trainedWords: words,
    air: textOrNull(json.air),
    downloadUrl: textOrNull(json.downloadUrl),
    pageUrl: `${site}/models/${json.modelId}?modelVersionId=${json.id}`,
  };
}
