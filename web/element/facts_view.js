// The card's facts in <safetensors-card> (in the order a person asks: how big, what it needs,
// how to use it, how it was made, whose it is) and the metadata, collapsed, every key. Strings
// from a file go in as text (their bidi controls shown, cut past a length that is said), a link
// only for an http(s) URL.
import { html, nothing } from 'lit';
import {
  adapterText,
  embeddingText,
  familyText,
  kvCacheText,
  memoryText,
  parametersText,
  trainingSummary,
} from '../card/card_text.js';
import { MAX_VALUE_CHARS, formatBytes, plural, shown, shownCut, webLink } from './card_words.js';

/** Trigger words shown at most. */
const MAX_TRIGGERS = 12;
/** A description or a fact longer than this is cut, with its length said. */
const MAX_TEXT_CHARS = 4000;

/**
 * @typedef {import('./open_answer.js').Answer} Answer
 * @typedef {import('./open_answer.js').FileAnswer | import('./open_answer.js').ModelAnswer | import('./open_answer.js').CheckpointAnswer} CardAnswer
 * @typedef {import('../index.js').ModelCard} ModelCard
 * @typedef {import('../index.js').Finding} Finding
 */

/** An <a> for an http(s) URL; anything else (javascript:, data:, relative) stays text. */
function linkOrText(/** @type {string} */ text) {
  const href = webLink(text);
  return href
    ? html`<a href=${href} target="_blank" rel="noopener noreferrer nofollow">${shown(text)}</a>`
    : shown(text);
}

/**
 * The card's facts, in the order a person asks: how big, what it needs, how to use it, how it
 * was made, whose it is.
 * @param {CardAnswer} a
 * @param {(text: string) => void} onCopy a click on a trigger word
 */
export function factsView(a, onCopy) {
  const card = a.card;
  if (!card) {
    const why =
      a.kind === 'checkpoint'
        ? a.cardNote
          ? `No card: ${a.cardNote}`
          : ''
        : 'No model card: the header could not be read.';
    return why ? html`<p part="facts" class="muted" data-testid="card-note">${shown(why)}</p>` : nothing;
  }
  /** @type {[string, unknown, string?][]} label, value, test id */
  const rows = [];
  const add = (/** @type {string} */ label, /** @type {unknown} */ value, /** @type {string} */ id = '') => {
    if (value !== null && value !== undefined && value !== '') rows.push([label, value, id]);
  };
  if (card.family)
    add('Family', `${familyText(card)}, from ${card.family.evidence.slice(0, 3).join('; ')}`, 'card-family');
  if (card.adapter) add('Adapter', adapterText(card), 'card-adapter');
  add('Parameters', parametersText(card), 'card-parameters');
  const size = a.kind === 'model' ? card.memory.bytes : a.size;
  add(
    'Size',
    size === null
      ? null
      : `${formatBytes(size)}${a.kind === 'file' && a.opened ? `; header ${formatBytes(a.opened.headerSize)}` : ''}`,
  );
  add('Memory', memoryText(card), 'card-memory');
  add('KV cache', kvCacheText(card), 'card-kv-cache');
  add('Embedding', embeddingText(card));
  add(
    'Architecture',
    Object.entries(card.architecture)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  );
  if (card.triggerWords.length)
    add(
      'Trigger words',
      card.triggerWords.slice(0, MAX_TRIGGERS).map(
        (w) =>
          html`<button
              type="button"
              class="trigger"
              data-testid="trigger-word"
              title=${shown(`${w.source}${w.count ? `, ${w.count} images` : ''}: click to copy`)}
              @click=${() => onCopy(w.text)}
            >${shown(w.text)}</button>`,
      ),
    );
  const base = card.baseModel;
  if (base)
    add(
      'Base model',
      [base.name, base.version, base.hash && `hash ${base.hash.slice(0, 12)}`].filter(Boolean).join(', '),
    );
  add(
    'Training',
    trainingSummary(card)
      .map(([label, value]) => `${label} ${value}`)
      .join(' · '),
  );
  add('Date', card.date);
  add('Author', card.author);
  add('License', card.license);
  if (card.source) add('Source', linkOrText(card.source));
  add(
    'Embedded hashes',
    card.embeddedHashes
      .map((h) => `${h.key}: ${h.value.slice(0, 16)}${h.value.length > 16 ? '…' : ''} (${h.covers})`)
      .join('\n'),
  );
  const rejected = a.kind === 'file' && !a.opened;
  return html`<section part="facts" aria-labelledby="facts-title">
    <h3 id="facts-title">Model card</h3>
    ${
      rejected
        ? html`<p class="caution" data-testid="card-note">${shown(
            `The reference loader rejects this file (see the verdict); this card is read from its header${a.cardNote ? `, ${a.cardNote}` : ''}.`,
          )}</p>`
        : nothing
    }
    ${card.description ? html`<p data-testid="card-description">${shownCut(card.description, MAX_TEXT_CHARS)}</p>` : nothing}
    <dl class="facts" data-testid="card-facts">
      ${rows.map(
        ([label, value, id]) =>
          html`<dt>${label}</dt>
            <dd data-testid=${id || nothing}>${typeof value === 'string' ? shownCut(value, MAX_TEXT_CHARS) : value}</dd>`,
      )}
    </dl>
  </section>`;
}

/**
 * The metadata, collapsed, every key (a long key or value cut, with its length); rows are made only
 * once it is opened.
 * @param {Record<string, unknown> | null} metadata
 * @param {boolean} open
 * @param {(open: boolean) => void} onToggle
 */
export function metadataView(metadata, open, onToggle) {
  const entries = metadata ? Object.entries(metadata) : [];
  const text = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : JSON.stringify(v));
  return html`<details
    part="metadata"
    data-testid="metadata-box"
    ?open=${open}
    @toggle=${(/** @type {Event} */ e) => onToggle(/** @type {HTMLDetailsElement} */ (e.target).open)}
  >
    <summary><h3>Metadata (${plural(entries.length, 'key')})</h3></summary>
    ${
      open
        ? html`<div class="table-wrap">
            <table data-testid="metadata">
              <tbody>
                ${
                  entries.length === 0
                    ? html`<tr> <td>${metadata ? '(empty)' : '(no __metadata__)'}</td></tr>`
                    : entries.map(([key, raw]) => {
                        return html`<tr>
                          <th scope="row" class="mono">${shownCut(key, MAX_VALUE_CHARS)}</th> <td>${shownCut(text(raw), MAX_VALUE_CHARS)}</td></tr>`;
                      })
                }
              </tbody> </table></div>`
        : nothing
    }
  </details>`;
}
