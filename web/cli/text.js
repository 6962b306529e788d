// The CLI's text: a model card and hashes (label, two spaces, value), findings, verdicts and
// tables. Everything from a file passes through printable() before it reaches a terminal.
import { BIDI_CONTROLS, adapterText, familyText, parametersText, trainingSummary } from '../card/card_text.js';

export { verdictText } from '../file/verdict_text.js';

const MAX_TRIGGERS = 8;
const MAX_LINE = 300;

const clip = (/** @type {string} */ text) => (text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text);
// Metadata text is anyone's: a terminal must not receive its control characters, nor the
// bidirectional controls that reorder what it shows (Unicode's UAX #9: LRM, RLM, ALM, the
// embeddings, overrides and isolates).
const UNPRINTABLE = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f]|${BIDI_CONTROLS.source}`, 'g');
export const printable = (/** @type {string} */ text) => text.replace(UNPRINTABLE, ' ');

/** @param {[string, string][]} pairs label, value */
export function labelled(pairs) {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${clip(printable(value))}`);
}

/**
 * The card as lines, in the order a person asks: what is it, how big, how to use it, how made.
 * @param {import('../index.js').ModelCard} card
 * @returns {string[]}
 */
export function cardLines(card) {
  /** @type {[string, string][]} */
  const pairs = [];
  const add = (/** @type {string} */ label, /** @type {string | null | undefined} */ value) => {
    if (value !== null && value !== undefined && value !== '') pairs.push([label, value]);
  };
  add('title', card.title ?? '(none)');
  add('kind', card.kind + (card.adapter ? `: ${adapterText(card)}` : ''));
  const family = familyText(card);
  add('family', family ? `${family}; from ${card.family?.evidence.slice(0, 2).join('; ')}` : 'not recognised');
  add('parameters', parametersText(card));
  const arch = Object.entries(card.architecture)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  add('architecture', arch);
  add(
    'trigger words',
    card.triggerWords
      .slice(0, MAX_TRIGGERS)
      .map((w) => (w.count ? `${w.text} (${w.count})` : w.text))
      .join(', '),
  );
  const base = card.baseModel;
  if (base) add('base model', [base.name, base.version, base.hash?.slice(0, 12)].filter(Boolean).join(', '));
  add(
    'training',
    trainingSummary(card)
      .map(([label, value]) => `${label} ${value}`)
      .join(', '),
  );
  add('date', card.date);
  add('author', card.author);
  add('license', card.license);
  add('source', card.source);
  add('description', card.description);
  add('images', card.images.map((i) => `${i.mime} ${i.bytes} bytes (${i.source})`).join(', '));
  const civitai = card.civitai;
  if (civitai) add('civitai', [civitai.air, civitai.pageUrl, civitai.byHashUrl].filter(Boolean).join(', '));
  add('hashes', card.embeddedHashes.map((h) => `${h.key} ${h.value.slice(0, 12)} (${h.covers})`).join(', '));
  return labelled(pairs);
}

/**
 * @param {import('../index.js').HashResult} h
 * @returns {string[]}
 */
export function hashLines(h) {
  /** @type {[string, string][]} */
  const pairs = [
    ['AutoV2', h.autoV2 ?? '-'],
    ['AutoV3', h.autoV3 ?? '-'],
    ['AutoV1', h.autoV1 ?? '- (file shorter than 1 MiB + 64 KiB)'],
    ['data SHA-256', h.dataSha256 ?? '-'],
  ];
  for (const c of h.checks)
    pairs.push([c.key, c.match ? `ok (${c.claimed})` : `MISMATCH: claims ${c.claimed}, is ${c.actual}`]);
  const lines = labelled(pairs);
  for (const [name, digest] of Object.entries(h.tensors ?? {})) lines.push(`${digest}  ${printable(name)}`);
  return lines;
}

/**
 * A finding as one indented line, naming its component and shard where it has them.
 * @param {import('../index.js').Finding} f
 */
export function findingLine(f) {
  // A shard's scan or hash finding does not name its shard; cross-shard findings do.
  const shard = f.shard !== undefined && !f.message.includes(f.shard) ? `${f.shard}: ` : '';
  return printable(
    `  ${f.severity.padEnd(7)} ${f.component !== undefined ? `${f.component}: ` : ''}${shard}${f.code}${f.tensor !== undefined ? ` [${f.tensor}]` : ''}: ${f.message}`,
  );
}

/**
 * Rows of cells as aligned columns.
 * @param {(string | number)[][]} rows
 */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) =>
      r
        .map((v, c) => String(v).padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
