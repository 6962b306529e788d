// "Find on Civitai": which Civitai model version the shown file is (lookupCivitai). The only
// request the page makes to another site, and only on a click. Once "Compute hashes" has run it
// asks with the file's SHA-256, then (if Civitai knows no such file: the metadata was edited)
// with its data section's AutoV3; before, with the data hash the metadata claims (the card's
// by-hash URL). Civitai's answer comes from strangers: text only, and the one link is kept only
// when it is an https://civitai.com/ page.
import { lookupCivitai } from '../web/index.js';
import { $, el, shown } from './text.js';

const CIVITAI_HOST = 'civitai.com';
const LABEL = 'Find on Civitai';

/** civitai: the shown card's reference (or null); hashed: the file's hashes once computed. */
const known = { civitai: null, hashed: null };
let running = null; // the AbortController of the lookup under way

/**
 * `text` as a link's href when it is an https://civitai.com/ page, else null.
 * @param {unknown} text
 * @returns {string | null}
 */
export function civitaiPage(text) {
  let url;
  try {
    url = new URL(String(text));
  } catch {
    return null;
  }
  return url.protocol === 'https:' && url.hostname === CIVITAI_HOST && !url.username && !url.password ? url.href : null;
}

/** The hashes to ask with, in turn, each with what it is (none when no hash is known). */
function hashesToAsk() {
  const { sha256, autoV3 } = known.hashed ?? {};
  if (sha256) {
    const asks = [{ hash: sha256, what: `the file's SHA-256 ${sha256.slice(0, 12)}…` }];
    if (autoV3) asks.push({ hash: autoV3, what: `the data section's AutoV3 ${autoV3}` });
    return asks;
  }
  const fromCard = known.civitai?.byHashUrl?.split('/').pop();
  return fromCard ? [{ hash: fromCard, what: `the data hash the metadata claims (AutoV3 ${fromCard})` }] : [];
}

function link(href, text) {
  const a = el('a', { href, textContent: shown(text), target: '_blank', rel: 'noopener noreferrer nofollow' });
  a.dataset.testid = 'civitai-link';
  return a;
}

/** Rows of the answer (or of what the metadata names); values are set as text. */
function showRows(rows) {
  const list = $('civitai-result');
  list.replaceChildren();
  for (const [label, value] of rows) {
    if (value === null || value === undefined || value === '') continue;
    const dd = el('dd', {}, typeof value === 'string' ? shown(value) : value);
    dd.dataset.testid = `civitai-${label.toLowerCase().replace(/ /g, '-')}`;
    list.append(el('dt', { textContent: label }), dd);
  }
  list.hidden = list.childElementCount === 0;
}

/** The box as the shown file and its hashes allow: the button when a hash is known. */
function refresh() {
  const asks = hashesToAsk();
  $('civitai-box').hidden = asks.length === 0 && !known.civitai;
  $('civitai-find').hidden = asks.length === 0;
  $('civitai-status').textContent = asks.length
    ? `Asks civitai.com with ${asks.map((a) => a.what).join(', then ')}. Nothing is sent before you click.`
    : 'Compute hashes to look this file up on Civitai.';
  const page = civitaiPage(known.civitai?.pageUrl);
  showRows(page ? [['Named by the metadata', link(page, page)]] : []);
}

function showAnswer(version) {
  if (version === null) {
    $('civitai-status').textContent = 'Not on Civitai: Civitai knows no file with this hash.';
    showRows([]);
    return;
  }
  $('civitai-status').textContent = 'Found on Civitai.';
  const page = civitaiPage(version.pageUrl);
  showRows([
    ['Model', version.modelName],
    ['Version', version.versionName],
    ['Base model', version.baseModel],
    ['Trained words', version.trainedWords.join(', ')],
    ['AIR', version.air],
    ['Page', page ? link(page, page) : null],
  ]);
}

/** Why the lookup failed, as a person reads it. */
function failureText(error) {
  if (error?.name === 'AbortError') return 'Stopped: nothing more is asked of Civitai.';
  if (error?.code === 'ReadError')
    return 'Could not reach civitai.com (no network, or the site refused the request). Try again later.';
  if (error?.code === 'HttpError') return `Civitai answered an error (HTTP ${error.status}). Try again later.`;
  return `Civitai's answer could not be read: ${error?.message ?? error}`;
}

async function find() {
  if (running) {
    running.abort(new DOMException('stopped', 'AbortError'));
    return;
  }
  const asks = hashesToAsk();
  if (asks.length === 0) return;
  const controller = new AbortController();
  running = controller;
  const button = $('civitai-find');
  button.textContent = 'Stop';
  try {
    let version = null;
    for (const ask of asks) {
      $('civitai-status').textContent = `Asking civitai.com about ${ask.what}…`;
      version = await lookupCivitai(ask.hash, { signal: controller.signal });
      if (version) break;
    }
    if (running === controller) showAnswer(version);
  } catch (error) {
    if (running === controller) {
      $('civitai-status').textContent = shown(failureText(error));
      showRows([]);
    }
  } finally {
    if (running === controller) {
      running = null;
      button.textContent = LABEL;
    }
  }
}

/** Stops a lookup under way (another file is shown). */
function stop() {
  running?.abort(new DOMException('another file is shown', 'AbortError'));
  running = null;
  $('civitai-find').textContent = LABEL;
}

/**
 * A new card is shown (null: none): what its metadata names on Civitai, and no hash yet.
 * @param {import('../web/index.js').ModelCard | null} card
 */
export function offerCivitai(card) {
  stop();
  known.civitai = card?.civitai ?? null;
  known.hashed = null;
  refresh();
}

/**
 * The shown file was hashed (its HashResult; null: the hashes were cleared): it can be looked up.
 * @param {{ sha256: string | null, autoV3: string | null } | null} hashes
 */
export function civitaiHashed(hashes) {
  if (!hashes && !known.hashed) return;
  stop();
  known.hashed = hashes;
  refresh();
}

$('civitai-find').addEventListener('click', find);
