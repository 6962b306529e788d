// The words <safetensors-card> writes that are not the card's own (web/card/card_text.js has
// those, shared with the CLI): sizes, counts, a checkpoint's format and verdict in a sentence, a
// tensor's scan, and text from files with its bidi controls made visible.
import { grouped, markBidiControls, shortBytes } from '../card/card_text.js';

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
