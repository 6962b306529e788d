// make bench-check: the warm-speed bounds of issue 47, each benchmark run RUNS times (default 3)
// in fresh processes, each figure the median of its runs, against its bound. Prints Markdown;
// exits 1 when a bound is not met. Every run's output is kept in build/bench-check/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOCATION_FLOOR, floorAndReads } from './allocation_floor.js';
import { middle, parseFigures } from './compare_tables.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.RUNS ?? 3);
const OUT_DIR = join(ROOT, 'build/bench-check');

const NODE_DECODE = 'F16 → Float32Array from a file-backed Blob';
const NODE_BASELINE = 'time vs plain JS: slice().arrayBuffer() + 64K lookup table';
const PAGE_DECODE = 'F16 → Float32Array from a picked File';
const GET_TENSOR = 'getTensor (Blob stream → wasm SIMD → Float32Array)';

/**
 * Each bound: the benchmark it comes from and how one run's output gives the figure.
 * @type {{ figure: string, bench: string, bound: string, met: (v: number) => boolean, of: (f: (table: string, row: string, column: string) => number) => number }[]}
 */
const CHECKS = [
  {
    figure: 'opening a 20,000-tensor header, time vs TextDecoder + JSON.parse',
    bench: 'open_header',
    bound: '≤ 0.60x',
    met: (v) => v <= 0.6,
    of: (f) => f('', 'openSafetensors (parse + validate + objects)', 'vs JSON.parse'),
  },
  {
    figure: 'getTensor F16, 16M values from a Blob (Node), time vs a lookup table',
    bench: 'decode',
    bound: '≤ 0.65x',
    met: (v) => v <= 0.65,
    of: (f) => f(NODE_DECODE, GET_TENSOR, NODE_BASELINE),
  },
  {
    figure: '… the allocation floor (Node): a new Float32Array of as many values',
    bench: 'decode',
    bound: '–',
    met: () => true,
    of: (f) => f(NODE_DECODE, ALLOCATION_FLOOR, NODE_BASELINE),
  },
  {
    figure: 'getTensor F16, 16M values of a picked File (Chromium), time vs a lookup table',
    bench: 'browser_decode',
    bound: '≤ 0.65x',
    met: (v) => v <= 0.65,
    of: (f) => f(PAGE_DECODE, GET_TENSOR, 'time vs plain JS'),
  },
  {
    figure: '… the allocation floor (Chromium)',
    bench: 'browser_decode',
    bound: '–',
    met: () => true,
    of: (f) => f(PAGE_DECODE, ALLOCATION_FLOOR, 'time vs plain JS'),
  },
  {
    figure: "… the allocation floor plus getTensor's reads alone (Chromium), one after the other on the page's thread",
    bench: 'browser_decode',
    bound: '–',
    met: () => true,
    of: (f) => floorAndReads((row) => f(PAGE_DECODE, row, 'time vs plain JS')),
  },
  {
    figure: 'streamTensor in Chromium, rate vs raw slice().stream()',
    bench: 'browser_decode',
    bound: '≥ 1.20x',
    met: (v) => v >= 1.2,
    of: (f) =>
      f(PAGE_DECODE, 'read only: slice().stream()', 'median ms') /
      f(PAGE_DECODE, 'streamTensor (pieces in one reused array)', 'median ms'),
  },
];

/** One run of a benchmark: its output, kept, or an exception saying where it is. */
function run(bench, index) {
  const ran = spawnSync(process.execPath, [join(ROOT, 'tests/bench', `${bench}.bench.js`)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  mkdirSync(OUT_DIR, { recursive: true });
  const kept = join(OUT_DIR, `${bench}-${index}.txt`);
  writeFileSync(kept, ran.stdout + ran.stderr);
  if (ran.status !== 0) throw new Error(`${bench}.bench.js failed (exit ${ran.status}): ${kept}`);
  return ran.stdout;
}

const benches = [...new Set(CHECKS.map((c) => c.bench))];
/** @type {Map<string, number[]>} */
const values = new Map(CHECKS.map((c) => [c.figure, []]));
// Round by round (each benchmark once per round), so a busy spell of the machine spreads over all.
for (let round = 1; round <= RUNS; round++) {
  for (const bench of benches) {
    process.stderr.write(`bench-check: ${bench}, run ${round} of ${RUNS}\n`);
    const figures = parseFigures(run(bench, round));
    const f = (table, row, column) => {
      const figure = figures.get(`${table} › ${row} › ${column}`);
      if (!figure) throw new Error(`${bench}.bench.js printed no "${row}" › "${column}" in "${table}"`);
      return figure.value;
    };
    for (const check of CHECKS) if (check.bench === bench) values.get(check.figure)?.push(check.of(f));
  }
}

console.log(`\n${RUNS} runs of each benchmark, round by round; the median of the runs against the bound.\n`);
console.log(
  `| figure | ${Array.from({ length: RUNS }, (_, i) => `run ${i + 1}`).join(' | ')} | median | bound | met |`,
);
console.log(`|---|${'---:|'.repeat(RUNS + 1)}---:|---|`);
let failed = 0;
for (const check of CHECKS) {
  const runs = /** @type {number[]} */ (values.get(check.figure));
  const m = middle(runs);
  const ok = check.met(m);
  if (!ok) failed++;
  const cells = runs.map((v) => `${v.toFixed(2)}x`).join(' | ');
  console.log(
    `| ${check.figure} | ${cells} | **${m.toFixed(2)}x** | ${check.bound} | ${check.bound === '–' ? '' : ok ? 'yes' : 'NO'} |`,
  );
}
console.log(failed ? `\n${failed} bound(s) not met.` : '\nEvery bound met.');
process.exitCode = failed ? 1 : 0;
