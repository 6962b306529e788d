// The figures of a benchmark's output (its Markdown tables) and their comparison between two
// builds, for tests/bench/compare.js. No Node imports: tests/js/bench_compare.test.js runs it.

/** A row run against another build in the same process (COMPARE_WITH) ends with this. */
export const COMPARE_SUFFIX = ' (COMPARE_WITH)';

/** How much worse than REF a figure may get before it is marked. */
export const WORSE_LIMIT = 0.1;

/**
 * `isRatio`: the cell is a ratio against another row of the same run ("0.52x"), not an absolute
 * time, rate or count (those move with the machine's load between two processes).
 * @typedef {{ table: string, row: string, column: string, value: number, higherIsBetter: boolean, isRatio: boolean }} Figure
 */

const cellsOf = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

// "1.27x", "**13.5x**", "2,433,832", "0.52": a number; "0.5x / 0.6x" or text: none.
function numberOf(cell) {
  const plain = cell.replace(/\*\*/g, '').replace(/,/g, '');
  return /^-?\d+(\.\d+)?x?$/.test(plain) ? Number.parseFloat(plain) : null;
}

// Speeds and rates grow when things get better, and so do the times of other ways against ours
// (the columns "time vs st.convert", "time vs getTensors", "vs ours"); times, counts, bytes and
// ours against a baseline shrink.
const AGAINST_OURS = /vs (st\.convert|getTensors|ours)\b/i;
const higherIsBetter = (column) => /speed|as fast|\/s\b|rate/i.test(column) || AGAINST_OURS.test(column);

/**
 * Every number in the Markdown tables of a benchmark's output, keyed by table, row and column.
 * A table's name is the last `###` title above it, without its parentheses (which hold counts
 * and versions that may differ between builds).
 * @param {string} text
 * @returns {Map<string, Figure>}
 */
export function parseFigures(text) {
  const figures = new Map();
  const lines = text.split('\n');
  let title = '';
  let header = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('###')) title = line.replace(/^#+\s*/, '').replace(/\s*\([^)]*\)/g, '');
    if (!line.startsWith('|')) {
      header = null;
      continue;
    }
    if (header === null) {
      if (/^\|[\s|:-]+\|$/.test(lines[i + 1]?.trim() ?? '')) header = cellsOf(line);
      continue;
    }
    if (/^\|[\s|:-]+\|$/.test(line)) continue;
    const cells = cellsOf(line);
    // A row is named by its cells up to the first number (cold_start's: the file, then the page).
    let first = 1;
    while (first < cells.length && numberOf(cells[first]) === null && cells[first]) first++;
    const row = cells.slice(0, first).filter(Boolean).join(' · ').replace(/`/g, '');
    if (!row) continue;
    for (let c = first; c < cells.length && c < header.length; c++) {
      const value = numberOf(cells[c]);
      if (value === null) continue;
      const column = header[c];
      figures.set(`${title} › ${row} › ${column}`, {
        table: title,
        row,
        column,
        value,
        higherIsBetter: higherIsBetter(column),
        isRatio: /x\**$/.test(cells[c]),
      });
    }
  }
  return figures;
}

/**
 * Splits one COMPARE_WITH run: rows ending in COMPARE_SUFFIX are REF's, the rows of the same
 * name without it HEAD's; other rows are left out (nothing of REF's ran beside them).
 * @param {Map<string, Figure>} figures
 * @returns {{ head: Map<string, Figure>, ref: Map<string, Figure> }}
 */
export function splitCompareWith(figures) {
  const head = new Map();
  const ref = new Map();
  for (const figure of figures.values()) {
    if (!figure.row.endsWith(COMPARE_SUFFIX)) continue;
    const row = figure.row.slice(0, -COMPARE_SUFFIX.length);
    const key = `${figure.table} › ${row} › ${figure.column}`;
    const own = figures.get(key);
    if (!own) continue;
    head.set(key, own);
    ref.set(key, { ...figure, row });
  }
  return { head, ref };
}

/**
 * The median of each figure over runs (a figure missing from a run is left out of it).
 * @param {Map<string, Figure>[]} runs
 * @returns {Map<string, Figure>}
 */
export function medianFigures(runs) {
  const all = new Map();
  for (const run of runs) for (const [key, figure] of run) all.set(key, [...(all.get(key) ?? []), figure]);
  const medians = new Map();
  for (const [key, figures] of all) medians.set(key, { ...figures[0], value: middle(figures.map((f) => f.value)) });
  return medians;
}

/**
 * The median of `values`: the middle one of an odd count, the mean of the middle two of an even.
 * @param {number[]} values
 */
export function middle(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Columns that describe a run rather than measure it (sharded_latency's requests in flight). */
const DESCRIPTIVE = /most in flight/i;

/**
 * Rows of other ways (plain JS, bare reads and copies, other tools): the same code in both
 * builds, so they measure the machine, not this package; ours are compared against them. Their
 * times against ours ("time vs st.convert") are ours, and are compared.
 */
const OTHER_WAY =
  /^(plain JS|read only|memcpy|copy of|native |node:crypto|hash-wasm|sha256sum|TextDecoder|JSON\.parse|fetch \+|four requests)/i;

/** Columns of ratios against the script's own build (sharded_latency's "vs ours"). */
const OWN_BUILD = /\bvs ours\b/i;

/**
 * HEAD's figures against REF's: `ratio` is HEAD ÷ REF, `worse` how much worse HEAD is (0.25 is
 * 25% worse: a time 1.25x REF's, or a speed 0.8x REF's), `marked` when that passes WORSE_LIMIT.
 * Figures equal in both (a baseline's 1.00x, zero long tasks) are left out.
 * @param {Map<string, Figure>} head
 * @param {Map<string, Figure>} ref
 * @param {boolean} sameProcess both ran in one process; else only ratios are marked
 */
export function compareFigures(head, ref, sameProcess) {
  const rows = [];
  for (const [key, h] of head) {
    const r = ref.get(key);
    if (!r || r.value === h.value || DESCRIPTIVE.test(h.column)) continue;
    if (OTHER_WAY.test(h.row) && !AGAINST_OURS.test(h.column)) continue;
    // Both builds in one process: a ratio against the script's own build is against HEAD in one
    // run and against REF in the other, so it says nothing of either; the times say it all.
    if (sameProcess && OWN_BUILD.test(h.column)) continue;
    const ratio = h.value / r.value;
    const worse = h.higherIsBetter ? r.value / h.value - 1 : ratio - 1;
    const marked = worse > WORSE_LIMIT && (sameProcess || h.isRatio);
    rows.push({ ...h, head: h.value, ref: r.value, ratio, worse, marked });
  }
  return rows;
}
