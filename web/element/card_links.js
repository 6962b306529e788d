// What <safetensors-card> links to and names, decided without reading anything: which URLs from
// a file may become links (http(s) only; Civitai pages only on civitai.com), which hashes a
// Civitai lookup asks with, and a converted checkpoint's file name.

/** @typedef {import('../index.js').HashResult} HashResult */

/**
 * The converted file's name: lightning.ckpt → lightning.safetensors, a URL's last part likewise,
 * and pytorch_model.bin → model.safetensors (the names the Hub's repositories use for the two).
 * @param {string} name
 */
export function outputName(name) {
  const last =
    name
      .replace(/[?#].*$/, '')
      .split(/[/\\]/)
      .pop() ?? '';
  const base = last.replace(/\.[^.]*$/, '') || 'model';
  return `${base === 'pytorch_model' ? 'model' : base}.safetensors`;
}

/** The formats toSafetensors converts (torch.save's; a plain pickle holds no storages). */
export const CONVERTIBLE = new Set(['pytorch-zip', 'pytorch-legacy']);

/**
 * The hashes a Civitai lookup asks with, in turn, each with what it is: the file's SHA-256, then
 * its data section's AutoV3 (the metadata may have been edited); before hashing, the data hash
 * the metadata claims (the card's by-hash URL). Empty when no hash is known.
 * @param {import('../index.js').ModelCard | null} card
 * @param {HashResult | null} hashed
 * @returns {{ hash: string, what: string }[]}
 */
export function civitaiAsks(card, hashed) {
  if (hashed?.sha256) {
    const asks = [{ hash: hashed.sha256, what: `the file's SHA-256 ${hashed.sha256.slice(0, 12)}…` }];
    if (hashed.autoV3) asks.push({ hash: hashed.autoV3, what: `the data section's AutoV3 ${hashed.autoV3}` });
    return asks;
  }
  const claimed = card?.civitai?.byHashUrl?.split('/').pop();
  return claimed ? [{ hash: claimed, what: `the data hash the metadata claims (AutoV3 ${claimed})` }] : [];
}

/**
 * `text` when it is an https://civitai.com/ page (a link the element may show), else null.
 * @param {unknown} text
 */
export function civitaiPage(text) {
  let url;
  try {
    url = new URL(String(text));
  } catch {
    return null;
  }
  return url.protocol === 'https:' && url.hostname === 'civitai.com' && !url.username && !url.password
    ? url.href
    : null;
}

/**
 * `text` when it is an http(s) URL (a link the element may show), else null: javascript:, data:
 * and relative URLs from a stranger's file stay text.
 * @param {unknown} text
 */
export function webLink(text) {
  try {
    const url = new URL(String(text));
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
