// make bench-compare REF=<commit> [BENCH='open_header decode']: every benchmark of `make bench`
// on this checkout (HEAD) and on REF, side by side, and each figure's ratio HEAD ÷ REF, marking
// any that got more than 10% worse. REF is built in a git worktree beside this checkout
// (../safetensors-wasm-ref-<sha>, reused). A benchmark that takes COMPARE_WITH=DIR runs both
// builds in one process (its REF rows end in " (COMPARE_WITH)"), both ways; every other one runs as HEAD's
// and REF's own script, alternating, COMPARE_ROUNDS times each (default 1), medians.
// Usage: node tests/bench/compare.js REF [benchmark names]
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFigures, splitCompareWith, medianFigures, compareFigures, WORSE_LIMIT } from './compare_tables.js';

const HEAD_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const [refName, ...only] = process.argv.slice(2);
if (!refName) throw new Error('usage: node tests/bench/compare.js REF [benchmark names]');
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 1);
const git = (...args) => execFileSync('git', args, { cwd: HEAD_DIR, encoding: 'utf8' }).trim();
const sha = git('rev-parse', '--short', `${refName}^{commit}`);
const REF_DIR = resolve(HEAD_DIR, '..', `safetensors-wasm-ref-${sha}`);

// The REF worktree, with node_modules shared when the lock files agree (the Makefile's npm
// stamp then says it is installed), else installed there by its own `make`.
function prepareRef() {
  if (!existsSync(REF_DIR)) git('worktree', 'add', '--detach', REF_DIR, sha);
  const lock = (dir) => readFileSync(join(dir, 'package-lock.json'), 'utf8');
  if (!existsSync(join(REF_DIR, 'node_modules')) && lock(REF_DIR) === lock(HEAD_DIR)) {
    symlinkSync(join(HEAD_DIR, 'node_modules'), join(REF_DIR, 'node_modules'));
    mkdirSync(join(REF_DIR, 'build/stamps'), { recursive: true });
    writeFileSync(join(REF_DIR, 'build/stamps/npm'), '');
  }
  // The benchmarks need the wasm modules and the sample, not the native tests.
  const made = spawnSync('make', ['-s', '--no-print-directory', 'wasm', 'demo/sample.safetensors'], {
    cwd: REF_DIR,
    stdio: 'inherit',
  });
  if (made.status !== 0) throw new Error(`building ${sha} in ${REF_DIR} failed`);
}

// HEAD's checkout with REF's web/: HEAD's scripts run with REF as their own build. Beside the
// checkout, so that ../shared is found from it too. tests/ is copied (a script's imports resolve
// from where it really is); the rest are links.
function refView() {
  const view = resolve(HEAD_DIR, '..', `safetensors-wasm-view-${sha}`);
  rmSync(view, { recursive: true, force: true });
  mkdirSync(view);
  cpSync(join(HEAD_DIR, 'tests'), join(view, 'tests'), { recursive: true });
  for (const name of readdirSync(HEAD_DIR))
    if (!['tests', 'web', '.git'].includes(name)) symlinkSync(join(HEAD_DIR, name), join(view, name));
  symlinkSync(join(REF_DIR, 'web'), join(view, 'web'));
  return view;
}

// The benchmarks, in the order `make bench` runs them (the Makefile is where they are listed).
function benchmarks() {
  const recipe = readFileSync(join(HEAD_DIR, 'Makefile'), 'utf8')
    .split(/^bench:.*$/m)[1]
    .split(/\n\S/)[0];
  const names = [...recipe.matchAll(/tests\/bench\/(\w+)\.bench\.js/g)].map((m) => m[1]);
  return only.length ? names.filter((n) => only.includes(n)) : names;
}

const OUT_DIR = join(HEAD_DIR, 'build/bench-compare');
let runs = 0;

/** One benchmark's output (kept in build/bench-compare/), or null with the reason printed. */
function run(dir, name, env = {}) {
  const script = join(dir, 'tests/bench', `${name}.bench.js`);
  if (!existsSync(script)) {
    console.log(`\n(${dir} has no ${name}.bench.js)`);
    return null;
  }
  const ran = spawnSync(process.execPath, [script], {
    cwd: dir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  mkdirSync(OUT_DIR, { recursive: true });
  const kept = join(OUT_DIR, `${name}-${dir === REF_DIR ? sha : dir === VIEW_DIR ? 'swapped' : 'head'}-${++runs}.txt`);
  writeFileSync(kept, ran.stdout + ran.stderr);
  if (ran.status === 0) return ran.stdout;
  console.log(`\n(${name} failed in ${dir}: ${kept})`);
  return null;
}

function compareOne(name) {
  const source = readFileSync(join(HEAD_DIR, 'tests/bench', `${name}.bench.js`), 'utf8');
  if (source.includes('process.env.COMPARE_WITH')) {
    // Twice, each build once the script's own: in one process the order was seen to favour the
    // script's own build by up to 20% (BENCHMARKS.md, issue 47). The figures are the means.
    const own = run(HEAD_DIR, name, { COMPARE_WITH: REF_DIR });
    const swapped = own && run(VIEW_DIR, name, { COMPARE_WITH: HEAD_DIR });
    if (!swapped) return null;
    const a = splitCompareWith(parseFigures(own));
    const b = splitCompareWith(parseFigures(swapped));
    return { head: medianFigures([a.head, b.ref]), ref: medianFigures([a.ref, b.head]), sameProcess: true };
  }
  const head = [];
  const ref = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Who goes first changes each round: a machine getting busier falls on both alike.
    const order = round % 2 ? [ref, head] : [head, ref];
    for (const runs of order) {
      const out = run(runs === head ? HEAD_DIR : REF_DIR, name);
      if (!out) return null;
      runs.push(parseFigures(out));
    }
  }
  return { head: medianFigures(head), ref: medianFigures(ref), sameProcess: false };
}

prepareRef();
const VIEW_DIR = refView();
const label = git('rev-parse', '--short', 'HEAD');
console.log(`HEAD ${label} (this checkout, with its changes) against REF ${sha} (${REF_DIR}).`);
let marked = 0;
for (const name of benchmarks()) {
  const started = Date.now();
  const figures = compareOne(name);
  const how = `${((Date.now() - started) / 1000).toFixed(0)} s`;
  if (!figures) continue;
  const rows = compareFigures(figures.head, figures.ref, figures.sameProcess);
  const mode = figures.sameProcess ? 'both builds in one process' : `alternating, ${ROUNDS} run(s) each: ratios marked`;
  console.log(`\n### ${name} (${how}; ${mode})\n`);
  console.log('| table | row | column | HEAD | REF | HEAD ÷ REF | worse |\n|---|---|---|---:|---:|---:|---|');
  for (const r of rows) {
    marked += r.marked ? 1 : 0;
    const worse = r.marked ? `**${(100 * r.worse).toFixed(0)}% worse**` : '';
    console.log(
      `| ${r.table} | ${r.row} | ${r.column} | ${Number(r.head.toPrecision(4))} | ${Number(r.ref.toPrecision(4))} | ${r.ratio.toFixed(2)} | ${worse} |`,
    );
  }
  if (!rows.length) console.log('(no figure differs)');
}
console.log(`\n${marked} figure(s) more than ${100 * WORSE_LIMIT}% worse than ${sha}.`);
