// The blocks of <safetensors-card> that show an answer (./open_answer.js): its head (cover,
// title, what it is), the verdict and findings, the card's facts and the metadata. Each is a
// function of the answer to a Lit template; every string from a file goes in as text
// (markBidiControls: its bidi controls shown), a link only for an http(s) URL, an image only the
// card's data: URL, which the core checked (PNG, JPEG, WebP or GIF bytes, size-limited).
import { html, nothing } from 'lit';
import {
  adapterName,
  adapterText,
  embeddingText,
  familyText,
  grouped,
  kvCacheText,
  memoryText,
  parametersText,
  trainingSummary,
} from '../card/card_text.js';
import { verdictText } from '../file/verdict_text.js';
import {
  CHECKPOINT_FORMATS,
  checkpointVerdictWords,
  formatBytes,
  plural,
  shown,
  shownCut,
  webLink,
} from './card_words.js';

/** Trigger words shown at most. */
const MAX_TRIGGERS = 12;
/** A metadata key or value, or a title, longer than this is cut, with its length said. */
const MAX_VALUE_CHARS = 400;
/** A description or a fact longer than this is cut, with its length said. */
const MAX_TEXT_CHARS = 4000;
const BADGE = { safe: 'ok', unknown: 'warn', unsafe: 'bad' };

/**
 * @typedef {import('./open_answer.js').Answer} Answer
 * @typedef {import('./open_answer.js').FileAnswer | import('./open_answer.js').ModelAnswer | import('./open_answer.js').CheckpointAnswer} CardAnswer
 * @typedef {import('../index.js').ModelCard} ModelCard
 * @typedef {import('../index.js').Finding} Finding
 */

/** "kind · family", or a checkpoint's format first. */
function whatLine(/** @type {CardAnswer} */ a) {
  const card = a.card;
  const parts = [];
  if (a.kind === 'checkpoint') parts.push(CHECKPOINT_FORMATS[a.opened.format] ?? a.opened.format);
  if (a.kind === 'model') parts.push(`sharded model, ${plural(a.shards.length, 'shard')}`);
  if (card && !(a.kind === 'checkpoint' && card.kind === 'unknown' && !card.family)) {
    parts.push(
      card.adapter ? `${adapterName(card)} adapter` : card.kind === 'unknown' ? 'kind not recognised' : card.kind,
    );
    parts.push(
      card.family
        ? `${card.family.name}${card.family.variant ? ` ${card.family.variant}` : ''}`
        : 'family not recognised',
    );
  }
  return parts.join(' · ');
}

/**
 * The head: the cover image when the file carries one, its title (the file's name when the
 * card has none) and what it is.
 * @param {CardAnswer} a
 */
export function headView(a) {
  const [cover] = a.card?.images ?? [];
  return html`<header class="head" part="header">
    ${
      cover
        ? html`<img
            class="cover"
            part="cover"
            data-testid="card-image"
            src=${cover.dataUrl}
            alt="The cover image stored in the file's metadata"
            title=${shown(`${cover.mime}, ${grouped(cover.bytes)} bytes, from ${cover.source}`)}
          />`
        : nothing
    }
    <div> <h2 data-testid="card-title">${shownCut(a.card?.title ?? a.name, MAX_VALUE_CHARS)}</h2> <p class="what" data-testid="card-what">${shown(whatLine(a))}</p></div></header>`;
}

/**
 * The verdict first: loadable or not and why (a checkpoint: safe, unknown or unsafe, and the
 * globals that make it so), then each finding.
 * @param {Answer} a
 * @param {Finding[]} findings the answer's findings and those its reads added
 */
export function verdictView(a, findings) {
  let verdict;
  if (a.kind === 'checkpoint') {
    const v = a.opened.verdict;
    verdict = html`<span class="badge ${BADGE[v]} upper" data-testid="ckpt-verdict" data-verdict=${v}>${v}</span>
      <span data-testid="ckpt-words">${shown(checkpointVerdictWords(a.opened))}</span>`;
  } else {
    const { loadable } = a.report;
    const errors = a.report.findings.filter((f) => f.severity === 'error').length;
    const across = { model: 'the shards', pipeline: 'the components', files: 'the files' };
    const text =
      a.kind === 'file' || loadable
        ? verdictText(a.report)
        : `not loadable: ${plural(errors, 'error')} across ${across[a.kind]}`;
    const why = loadable
      ? 'The reference loader (the safetensors crate) accepts it.'
      : a.kind === 'file'
        ? 'The reference loader would refuse it; the findings say why and what to do.'
        : 'See the findings.';
    verdict = html`<span class="badge ${loadable ? 'ok' : 'bad'}" data-testid="verdict">${shown(text)}</span>
      <span class="muted">${why}</span>`;
  }
  return html`<section part="verdict" aria-labelledby="verdict-title">
      <h3 id="verdict-title" class="visually-hidden">Verdict</h3> <p class="verdict">${verdict}</p></section>
    ${
      a.kind === 'checkpoint' && findings.length === 0
        ? nothing
        : html`<section part="findings" aria-labelledby="findings-title">
            <h3 id="findings-title">Findings${findings.length ? ` (${grouped(findings.length)})` : ''}</h3>
            <ul class="findings" data-testid="findings">
              ${
                findings.length === 0
                  ? html`<li class="muted">Nothing to report.</li>`
                  : findings.map((f) => {
                      const where = f.component ? `${f.component}: ` : f.shard ? `${f.shard}: ` : '';
                      return html`<li class=${f.severity} data-code=${f.code}><span class="severity">${f.severity}</span> ${shown(`${where}${f.code}: ${f.message}`)}</li>`;
                    })
              }
            </ul>
          </section>`
    }`;
}

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
