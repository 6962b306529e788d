// The head and verdict of <safetensors-card>'s answer (./open_answer.js): the cover image the
// file carries, its title (the file's name when the card has none) and what it is; then the
// verdict first (loadable or not, and why; a checkpoint: safe, unknown or unsafe, and the
// globals that make it so) and every finding. Strings from a file go in as text (their bidi
// controls shown), the image only as the card's data: URL, which the core checked.
import { html, nothing } from 'lit';
import { adapterName, grouped } from '../card/card_text.js';
import { verdictText } from '../file/verdict_text.js';
import { CHECKPOINT_FORMATS, MAX_VALUE_CHARS, checkpointVerdictWords, plural, shown, shownCut } from './card_words.js';

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
