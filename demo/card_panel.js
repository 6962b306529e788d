// The model card panel (st.describe()) and its "Compute hashes" button (st.hash()).
// Everything shown comes from the file, written by strangers: text goes in through
// textContent (bidi controls shown, text.js), links only for http(s) URLs, images only the
// card's checked data: URLs.
import {
  adapterText,
  embeddingText,
  familyText,
  kvCacheText,
  memoryText,
  parametersText,
  trainingSummary,
} from '../web/card/card_text.js';
import { $, el, shown } from './text.js';
import { civitaiHashed, offerCivitai } from './civitai_panel.js';

const MAX_TRIGGERS = 12;

/** An <a> for http(s) URLs; anything else (javascript:, data:, relative) stays text. */
function linkOrText(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return document.createTextNode(shown(text));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return document.createTextNode(shown(text));
  return el('a', { href: url.href, textContent: shown(text), target: '_blank', rel: 'noopener noreferrer nofollow' });
}

function triggerButton(word) {
  const button = el('button', {
    type: 'button',
    className: 'trigger',
    textContent: shown(word.text),
    title: shown(`${word.source}${word.count ? `, ${word.count} images` : ''}: click to copy`),
  });
  button.dataset.testid = 'trigger-word';
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(word.text);
      $('card-status').textContent = shown(`Copied “${word.text}”.`);
    } catch (error) {
      $('card-status').textContent = `Could not copy: ${error.message}`;
    }
  });
  return button;
}

function row(list, label, ...value) {
  if (value.length === 0 || value.every((v) => v === null || v === undefined || v === '')) return;
  const parts = value.filter((v) => v !== null && v !== undefined).map((v) => (typeof v === 'string' ? shown(v) : v));
  list.append(el('dt', { textContent: label }), el('dd', {}, ...parts));
}

/**
 * Fills the panel from a card; `null` (a file whose header could not be read) clears it.
 * `rejected`: the reference loader rejects the file, and the card is its header's (a file cut
 * short whose header is whole), which the panel says.
 * @param {import('../web/index.js').ModelCard | null} card
 * @param {string} size the file's size as text
 * @param {boolean} [rejected]
 * @param {string} [note] why the card is built from part of the header (ValidationReport.cardNote)
 */
export function showCard(card, size, rejected = false, note = undefined) {
  const image = $('card-image');
  image.hidden = true;
  image.removeAttribute('src');
  const status = $('card-status');
  status.textContent =
    card && rejected
      ? `The reference loader rejects this file (see the verdict); this card is read from its header${note ? `, ${note}` : ''}.`
      : '';
  status.classList.toggle('caution', Boolean(card && rejected));
  const list = $('card-rows');
  list.replaceChildren();
  $('card-description').textContent = shown(card?.description ?? '');
  $('card-what').hidden = !card;
  offerCivitai(card);
  if (!card) {
    $('card-title').textContent = '(no model card: the file is not loadable)';
    $('card-kind').textContent = '';
    $('card-family').textContent = '';
    return;
  }
  $('card-title').textContent = shown(card.title ?? '(untitled)');
  $('card-kind').textContent = shown(card.adapter ? `adapter: ${adapterText(card)}` : card.kind);
  const family = $('card-family');
  family.textContent = familyText(card) ?? 'family not recognised';
  family.title = card.family ? shown(`decided by: ${card.family.evidence.join('; ')}`) : '';
  const [cover] = card.images;
  if (cover) {
    image.src = cover.dataUrl; // checked by the core: PNG/JPEG/WebP/GIF bytes, base64, size-limited
    image.title = shown(`${cover.mime}, ${cover.bytes.toLocaleString('en')} bytes, from ${cover.source}`);
    image.hidden = false;
  }
  const parameters = el('span', { textContent: parametersText(card) });
  parameters.dataset.testid = 'card-parameters';
  row(list, 'Parameters', parameters);
  row(list, 'Size', size);
  const memory = el('span', { textContent: memoryText(card) });
  memory.dataset.testid = 'card-memory';
  memory.title = 'The weights alone: no quantization scales, activations or runtime';
  row(list, 'Memory', memory);
  const kvCache = kvCacheText(card);
  if (kvCache !== null) {
    const line = el('span', { textContent: kvCache });
    line.dataset.testid = 'card-kv-cache';
    row(list, 'KV cache', line);
  }
  row(list, 'Embedding', embeddingText(card));
  const arch = Object.entries(card.architecture)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  row(list, 'Architecture', arch);
  row(list, 'Trigger words', ...card.triggerWords.slice(0, MAX_TRIGGERS).map(triggerButton));
  const base = card.baseModel;
  if (base)
    row(
      list,
      'Base model',
      [base.name, base.version, base.hash && `hash ${base.hash.slice(0, 12)}`].filter(Boolean).join(', '),
    );
  row(
    list,
    'Training',
    trainingSummary(card)
      .map(([label, value]) => `${label} ${value}`)
      .join(' · '),
  );
  row(list, 'Date', card.date);
  row(list, 'Author', card.author);
  row(list, 'License', card.license);
  if (card.source) row(list, 'Source', linkOrText(card.source));
  row(
    list,
    'Embedded hashes',
    card.embeddedHashes
      .map((h) => `${h.key}: ${h.value.slice(0, 16)}${h.value.length > 16 ? '…' : ''} (${h.covers})`)
      .join('\n'),
  );
}

/** ✓/✗ lines for hash claims, each after `prefix` (a shard's name). */
function checkItems(checks, prefix = '') {
  return checks.map((c) => {
    const item = el('li', {
      className: c.match ? 'match' : 'mismatch',
      textContent: shown(
        `${prefix}${c.match ? '✓' : '✗'} ${c.key}: ${c.match ? 'matches' : `claims ${c.claimed}, the file has ${c.actual}`}`,
      ),
    });
    item.dataset.testid = 'hash-check';
    return item;
  });
}

/**
 * Shows st.hash()'s answer: the hashes, and ✓/✗ for every claim the metadata makes.
 * @param {import('../web/index.js').HashResult | null} result null clears
 */
export function showHashes(result) {
  const box = $('hash-results');
  box.hidden = result === null;
  $('hash-file').hidden = false;
  civitaiHashed(result);
  if (!result) return;
  for (const [id, value] of [
    ['hash-sha256', result.sha256],
    ['hash-autov2', result.autoV2],
    ['hash-autov3', result.autoV3],
    ['hash-autov1', result.autoV1 ?? '– (file under 1 MiB + 64 KiB)'],
    ['hash-data', result.dataSha256 ?? '–'],
  ]) {
    $(id).textContent = value ?? '–';
  }
  const checks = $('hash-checks');
  checks.replaceChildren(...checkItems(result.checks));
  if (result.checks.length === 0) checks.append(el('li', { textContent: 'The metadata claims no hash of this file.' }));
}

/**
 * A sharded model's hashes: each shard's are in its row of the shards table (shards.js); here
 * the claims of every shard's metadata, each after its shard's name.
 * @param {{ name: string, hashes: import('../web/index.js').HashResult }[]} shards
 */
export function showShardHashes(shards) {
  $('hash-results').hidden = false;
  $('hash-file').hidden = true;
  const checks = $('hash-checks');
  checks.replaceChildren(...shards.flatMap((s) => checkItems(s.hashes.checks, `${s.name}: `)));
  if (checks.childElementCount === 0)
    checks.append(el('li', { textContent: 'The metadata of the shards claims no hash of them.' }));
}
