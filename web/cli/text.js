// The CLI's text: a model card and hashes (label, two spaces, value), findings, verdicts,
// tables, and a pickle's scan and contents. Everything from a file passes through printable() before it reaches a terminal.
import {
  BIDI_CONTROLS,
  adapterText,
  embeddingText,
  familyText,
  memoryText,
  kvCacheText,
  parametersText,
  trainingSummary,
} from '../card/card_text.js';
import { verdictText as plainVerdict } from '../file/verdict_text.js';

const MAX_TRIGGERS = 8;
const MAX_LINE = 300;

const clip = (/** @type {string} */ text) => (text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text);
// Metadata text is anyone's: a terminal must not receive its control characters, nor the
// Unicode bidi controls that reorder what is shown (the explicit embeddings, overrides and
// isolates, LRM, RLM and ALM: Unicode UAX #9, "Explicit Directional Formatting Characters"),
// which are shown escaped instead (\u202E) so that a reader sees they are there.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
export const printable = (/** @type {string} */ text) =>
  text
    .replace(CONTROLS, ' ')
    .replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** `1 tensor`, `2 tensors`: a count and its noun. */
export const counted = (/** @type {number} */ n, /** @type {string} */ noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

// Colours (SGR codes), on when main.js says stdout is a terminal that wants them.
const SGR = { good: '32', bad: '31', warn: '33', dim: '2' };
export const colours = { on: false };
/** @param {keyof typeof SGR} kind @param {string} text */
export const paint = (kind, text) => (colours.on ? `\x1b[${SGR[kind]}m${text}\x1b[0m` : text);
const SEVERITY = /** @type {const} */ ({ error: 'bad', warning: 'warn', info: 'dim' });

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
  add('memory', memoryText(card));
  add('KV cache', kvCacheText(card));
  const arch = Object.entries(card.architecture)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  add('architecture', arch);
  add('embedding', embeddingText(card));
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
  const lines = labelled(pairs).map((l) => (l.includes('  MISMATCH: ') ? paint('bad', l) : l));
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
  return `  ${paint(SEVERITY[f.severity], f.severity.padEnd(7))} ${printable(
    `${f.component !== undefined ? `${f.component}: ` : ''}${shard}${f.code}${f.tensor !== undefined ? ` [${f.tensor}]` : ''}: ${f.message}`,
  )}`;
}

/** `loadable`, or `not loadable: <the reference's error kind>`. */
/** The verdict in plain words (web/file/verdict_text.js: another format is named), coloured on a terminal. */
export const verdictText = (
  /** @type {{ loadable: boolean, referenceError: string | null, findings?: import('../index.js').Finding[] }} */ r,
) => paint(r.loadable ? 'good' : 'bad', plainVerdict(r));

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

/** Plain values listed in inspect's text of a pickle (--json lists all that were read). */
const MAX_OBJECTS = 40;
const SAFETY_PAINT = /** @type {const} */ ({ safe: 'good', unknown: 'warn', unsafe: 'bad' });

/** One global of a pickle as a line: safety, module.name, count. */
const globalLine = (/** @type {import('../index.js').PickleGlobal} */ g) =>
  `  ${paint(SAFETY_PAINT[g.safety], g.safety.padEnd(7))} ${printable(`${g.module}.${g.name}`)} (${g.count}×)`;

/**
 * A pickle's scan as lines: its verdict (and format, globals) after `head`, then its globals
 * (`all`, or those not safe) and its findings.
 * @param {string} head
 * @param {Omit<import('../index.js').PickleScan, 'file'>} scan
 * @param {boolean} all
 */
function pickleScanLines(head, scan, all) {
  const verdict = paint(SAFETY_PAINT[scan.verdict], scan.verdict);
  return [
    `${head}${verdict} (${scan.format}, ${counted(scan.globals.length, 'global')})`,
    ...scan.globals.filter((g) => all || g.safety !== 'safe').map(globalLine),
    ...scan.findings.map(
      (f) => `  ${paint('warn', 'finding')} ${f.code}: ${printable(f.message)} (${printable(f.where || 'the file')})`,
    ),
  ];
}

/** scan's lines for one FILE: the verdict, then each global that is not safe and each finding. */
export const scanLines = (/** @type {import('../index.js').PickleScan} */ scan) =>
  pickleScanLines(`${printable(scan.file)}: `, scan, false);

/** What a pickle is, said as not loadable by safetensors. */
export const pickleNotLoadable = (/** @type {string} */ format) =>
  `${paint('bad', 'not loadable')}: ${format.startsWith('pytorch') ? 'a PyTorch pickle checkpoint' : 'a Python pickle'}, which safetensors cannot load`;

/** validate's lines for a pickle: what it is, the scan's verdict, globals not safe, findings. */
export const pickleVerdictLines = (
  /** @type {string} */ file,
  /** @type {Omit<import('../index.js').PickleScan, 'file'>} */ scan,
) => pickleScanLines(`${printable(file)}: ${pickleNotLoadable(scan.format)}; scan: `, scan, false);

/** A card's lines as a block under the file's name. */
export const cardBlock = (/** @type {string} */ file, /** @type {string[]} */ lines) =>
  `${file}\n${lines.map((l) => `  ${l}`).join('\n')}\n`;

/**
 * inspect's lines for a checkpoint: its card, what it is, the scan with every global, the
 * counts, the plain values (the first MAX_OBJECTS) and the tensor table.
 * @param {string} file
 * @param {import('../index.js').ModelCard} card
 * @param {import('../index.js').Checkpoint} ckpt
 */
export function checkpointLines(file, card, ckpt) {
  const { tensors, objects, objectsLeftOut } = ckpt;
  const lines = [cardBlock(file, cardLines(card)), `${printable(file)}: ${pickleNotLoadable(ckpt.format)}`];
  lines.push(...pickleScanLines('scan: ', ckpt, true));
  lines[2] += '; nothing in it was run';
  lines.push(`${counted(tensors.length, 'tensor')}, ${counted(objects.length + objectsLeftOut, 'plain value')}`);
  if (objects.length) lines.push('', 'objects:');
  for (const o of objects.slice(0, MAX_OBJECTS)) lines.push(printable(`  ${o.name}: ${JSON.stringify(o.value)}`));
  const more = objects.length - MAX_OBJECTS + objectsLeftOut;
  if (more > 0) lines.push(`  … and ${more} more`);
  /** @type {(string | number)[][]} */
  const rows = [['name', 'dtype', 'shape', 'stride', 'storage', 'offset']];
  for (const t of tensors) {
    const dtype = t.dtype ?? `(torch.${t.torchDtype})`;
    rows.push([
      printable(t.name),
      dtype,
      `[${t.shape.join(', ')}]`,
      `[${t.stride.join(', ')}]`,
      printable(t.storage),
      t.storageOffset,
    ]);
  }
  if (tensors.length) lines.push('', table(rows));
  return lines;
}
