// The facts of the real-world corpus and how a model card is judged against them: right,
// silent (the card says nothing where a fact is known) or wrong. The facts are written as in the
// wild fixtures' README: `kind `adapter`; family `gemma|llama|-`; targets `q_proj,v_proj``.
// An empty fact states nothing; `a|b`: any alternative is right; `-`: none (no family, no
// adapter; for kind, a null card or `unknown`), and inside alternatives `-` accepts silence
// but still refuses another value.

/** The fields a fact can name, in the order the table prints them. */
export const FIELDS = [
  'kind',
  'family',
  'variant',
  'adapter_type',
  'adapter_format',
  'rank',
  'alpha',
  'targets',
  'trigger',
  'title',
  'format',
  'quantized',
];

/**
 * Facts as written ("kind `adapter`; rank `8`"): field -> the text between the backquotes.
 * @param {string} text
 * @returns {Record<string, string>}
 */
export function parseFacts(text) {
  /** @type {Record<string, string>} */
  const facts = {};
  for (const part of text.split(';')) {
    const match = /^\s*([a-z_]+)\s+`([^`]*)`\s*$/.exec(part);
    if (!match) {
      if (part.trim()) throw new Error(`unreadable fact: ${part}`);
      continue;
    }
    if (!FIELDS.includes(match[1])) throw new Error(`unknown field: ${match[1]}`);
    facts[match[1]] = match[2];
  }
  return facts;
}

/**
 * The rows of the wild fixtures' README table: { file, source, facts }.
 * @param {string} readme
 */
export function readmeRows(readme) {
  const rows = [];
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | `file` | repo, path @ commit | bytes | what | facts |  (pipes inside backquotes are alternatives)
    const match = /^\|\s*`([^`]+\.safetensors)`\s*\|\s*([^|]+?)\s*\|\s*(\d+)\s*\|(.*)$/.exec(line);
    if (!match || cells.length < 5) continue;
    const rest = match[4];
    const factStart = rest.search(/\|\s*(kind|format) `/);
    rows.push({
      file: match[1],
      source: match[2],
      bytes: Number(match[3]),
      facts: parseFacts(rest.slice(factStart + 1).replace(/\|\s*$/, '')),
    });
  }
  return rows;
}

/**
 * What the card (and, for `format`, the validation report) says for each field.
 * @param {import('../../web/index.js').ModelCard | null} card
 * @param {import('../../web/index.js').ValidationReport | null} report
 * @returns {Record<string, string | string[] | number | null>}
 */
export function cardValues(card, report) {
  const finding = report?.findings.find((f) => f.code === 'NotSafetensors');
  const format = finding ? (/** @type {any} */ (finding).format ?? finding.message) : null;
  return {
    kind: card && card.kind !== 'unknown' ? card.kind : null,
    family: card?.family?.id ?? null,
    variant: card?.family?.variant || null,
    adapter_type: card?.adapter?.type ?? null,
    adapter_format: card?.adapter?.format ?? null,
    rank: card?.adapter?.rank ?? null,
    alpha: card?.adapter?.alpha ?? null,
    targets: card?.adapter?.targets.length ? card.adapter.targets : null,
    trigger: card?.triggerWords.length ? card.triggerWords.map((w) => w.text) : null,
    title: card?.title ?? null,
    format,
    quantized: card?.parameters.quantized?.scheme ?? null,
  };
}

/**
 * 'right', 'silent' or 'wrong' for one field.
 * @param {string} field
 * @param {string} fact
 * @param {string | string[] | number | null} value
 */
export function judge(field, fact, value) {
  const alternatives = fact.split('|');
  const silenceIsRight = alternatives.includes('-') || (field === 'kind' && alternatives.includes('unknown'));
  if (value === null || value === undefined) return silenceIsRight ? 'right' : 'silent';
  if (field === 'targets') {
    // Each fact target (itself `a|b`, written `to_out.0|to_out` inside the list) must be there,
    // and nothing else.
    const wanted = fact.split(',').map((t) => t.split('|'));
    const got = /** @type {string[]} */ (value);
    const covered = wanted.every((alts) => alts.some((a) => got.includes(a)));
    const extra = got.some((t) => !wanted.some((alts) => alts.includes(t)));
    return covered && !extra ? 'right' : 'wrong';
  }
  if (field === 'trigger') {
    const words = /** @type {string[]} */ (value);
    return alternatives.some((a) => words.some((w) => w.includes(a))) ? 'right' : 'wrong';
  }
  if (field === 'format') return alternatives.some((a) => String(value).includes(a)) ? 'right' : 'wrong';
  return alternatives.includes(String(value)) ? 'right' : 'wrong';
}

/**
 * Every fact of `facts` judged against `values`.
 * @param {Record<string, string>} facts
 * @param {ReturnType<typeof cardValues>} values
 */
export function judgeAll(facts, values) {
  return Object.entries(facts)
    .filter(([, fact]) => fact !== '')
    .map(([field, fact]) => ({ field, fact, value: values[field], verdict: judge(field, fact, values[field]) }));
}
