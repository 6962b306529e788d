// The words <safetensors-card> writes that are not the card's own (web/card/card_text.js has
// those, shared with the CLI): sizes, counts, a checkpoint's format and verdict in a sentence, a
// tensor's scan, text from files with its bidi controls made visible; and what it may link to
// and name without reading anything: which URLs from a file become links (http(s) only; Civitai
// pages only on civitai.com), which hashes a Civitai lookup asks with, a converted file's name.
import { grouped, markBidiControls, shortBytes } from '../card/card_text.js';

/** A title, a tensor's name, a metadata key or value longer than this is cut, with its length said. */
export const MAX_VALUE_CHARS = 400;

/** Text from a file (names, metadata, messages that quote them) as the element shows it. */
export const shown = (/** @type {unknown} */ text) => markBidiControls(String(text));

/**
 * Text from a file as `shown`, cut after `max` characters with its length said ("…… (1,048,576
 * characters)"), so that a hostile 1 MB name or value is not laid out whole.
 * @param {unknown} text
 * @param {number} max
 */
export function shownCut(text, max) {
  const s = String(text);
  return shown(s.length > max ? `${s.slice(0, max)}… (${grouped(s.length)} characters)` : s);
}

/** "1 tensor", "2,048 tensors". */
export const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
  `${grouped(n)} ${word}${n === 1 ? '' : 's'}`;

/** 51234 → "50.0 KiB (51,234 bytes)"; below 1 KiB "812 bytes". */
export const formatBytes = (/** @type {number} */ n) =>
  n < 1024 ? shortBytes(n) : `${shortBytes(n)} (${grouped(n)} bytes)`;

/** What each format of scanPickle is, in words. */
export const CHECKPOINT_FORMATS = {
  'pytorch-zip': 'PyTorch checkpoint (torch.save zip)',
  'pytorch-legacy': 'PyTorch checkpoint (legacy format, before torch 1.6)',
  pickle: 'Python pickle',
  npy: 'NumPy array (.npy)',
  zip: 'zip of pickles (.npz or another)',
  'not-pickle': 'not a pickle',
};

const SHOWN_NAMES = 6;

/** "a, b and c", or the first few "and 4 more". */
function listed(/** @type {string[]} */ names) {
  const head = names.slice(0, SHOWN_NAMES);
  const more = names.length - head.length;
  if (more > 0) return `${head.join(', ')} and ${more} more`;
  return head.length > 1 ? `${head.slice(0, -1).join(', ')} and ${head.at(-1)}` : head.join('');
}

/** "torch._utils._rebuild_tensor_v2" */
export const globalName = (/** @type {{ module: string, name: string }} */ g) => `${g.module}.${g.name}`;

/**
 * A checkpoint's verdict in a sentence: what makes it so.
 * @param {import('../index.js').PickleScan} scan
 */
export function checkpointVerdictWords(scan) {
  if (scan.format === 'not-pickle') return 'This file is not a pickle: there is nothing in it to scan.';
  const named = (/** @type {string} */ safety) => scan.globals.filter((g) => g.safety === safety).map(globalName);
  const [unsafe, unknown] = [named('unsafe'), named('unknown')];
  const noticed = scan.findings.length
    ? ` The scan noticed ${plural(scan.findings.length, 'thing')}: see the findings.`
    : '';
  if (unsafe.length)
    return `It names ${listed(unsafe)}, which public scanners list as dangerous: torch.load would call ${unsafe.length === 1 ? 'it' : 'them'}. Nothing here ever does.${noticed}`;
  if (unknown.length)
    return `It names ${listed(unknown)}, which torch.load(weights_only=True) does not accept: not known to be harmful, not known to be harmless.${noticed}`;
  return `Every global it names is one torch.load(weights_only=True) accepts.${noticed}`;
}

/**
 * What the data scan found in one tensor: "2 NaN, 1 −inf", "all zero" or "ok"; and its class.
 * @param {import('../index.js').TensorScan} r
 * @returns {[string, '' | 'bad' | 'zero']}
 */
export function tensorScanText(r) {
  const parts = /** @type {[number, string][]} */ ([
    [r.nan, 'NaN'],
    [r.posInf, '+inf'],
    [r.negInf, '−inf'],
  ])
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${grouped(n)} ${what}`);
  if (parts.length > 0) return [parts.join(', '), 'bad'];
  return r.allZero ? ['all zero', 'zero'] : ['ok', ''];
}

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
