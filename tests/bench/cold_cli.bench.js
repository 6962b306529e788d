// make bench (cold start, CLI; issue 39): fresh `node` processes, the CLI's `validate` of the demo
// sample and `inspect` of the kohya LoKr (1,750 tensors, a 238 KiB header) against a plain script
// that opens the same file, reads the length and the header and JSON.parses it
// (tests/bench/plain_header.js). The four commands run in a new order each round (seeded), after a
// warm-up round that fills the page cache; each runs under bash's `time`: wall time from spawn to
// exit, and CPU time (user + sys), which a shared, busy machine disturbs less.
// Prints Markdown with medians and the median of per-round ratios. BENCH_ROUNDS sets the rounds
// (default 21); COMPARE_WITH=DIR adds the CLI of another checkout (DIR/web/cli/main.js, e.g. an
// earlier commit's web/ with its wasm) to the same rounds.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './timing.js';
import { roundOrder } from './round_order.js';

const here = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url));
const CLI = here('../../web/cli/main.js');
const PLAIN = here('./plain_header.js');
const SAMPLE = here('../../demo/sample.safetensors');
const LOKR = here('../../../shared/fixtures/real/kohya_lycoris_lokr_dim4_f16.safetensors');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const OTHER = process.env.COMPARE_WITH ? resolve(process.env.COMPARE_WITH, 'web/cli/main.js') : null;

/**
 * One fresh process: wall ms (spawn to exit) and CPU ms (user + sys, from bash's `time`, in ms
 * steps), and its stdout.
 * @param {string[]} argv
 */
function timed(argv) {
  const script = 'TIMEFORMAT="%3U %3S"; { time "$@" 2>&3 ; } 3>&2 2>"$TIMES"';
  const start = process.hrtime.bigint();
  return new Promise((done, fail) => {
    execFile('/bin/bash', ['-c', script, 'bash', ...argv], { maxBuffer: 16 << 20, env }, (error, stdout) => {
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      if (error) return fail(new Error(`${argv.join(' ')} failed: ${error.message}`));
      readFile(env.TIMES, 'utf8').then((text) => {
        const [user, sys] = text.trim().split('\n').pop().split(/\s+/).map(Number);
        done({ wall, cpu: (user + sys) * 1000, stdout });
      }, fail);
    });
  });
}

/**
 * What each command must print, so that a fast wrong answer never counts.
 * @param {string} name
 * @param {string} stdout
 */
function check(name, stdout) {
  const expected = name.includes('LoKr') ? 1750 : 16;
  const ok = name.startsWith('plain')
    ? stdout.trim() === `${expected} tensors`
    : name.startsWith('validate')
      ? stdout.includes(`: loadable (${expected} tensors)`)
      : stdout.includes(`\n${expected} tensors\n`) && /^ {2}kind {11}adapter: LoKr/m.test(stdout);
  if (!ok) throw new Error(`${name} printed something else:\n${stdout.slice(0, 400)}`);
}

const node = process.execPath;
/** @type {Record<string, string[]>} */
const commands = {
  'plain script, sample': [node, PLAIN, SAMPLE],
  'validate sample': [node, CLI, 'validate', SAMPLE],
};
if (OTHER) commands['validate sample (COMPARE_WITH)'] = [node, OTHER, 'validate', SAMPLE];
const withLokr = existsSync(LOKR);
if (withLokr) {
  commands['plain script, LoKr'] = [node, PLAIN, LOKR];
  commands['inspect LoKr'] = [node, CLI, 'inspect', LOKR];
  if (OTHER) commands['inspect LoKr (COMPARE_WITH)'] = [node, OTHER, 'inspect', LOKR];
}

const work = await mkdtemp(join(tmpdir(), 'stw-bench-cold-cli-'));
const env = { ...process.env, TIMES: join(work, 'times.txt') };
/** @type {Record<string, { wall: number[], cpu: number[] }>} */
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, { wall: [], cpu: [] }]));
const loads = [loadavg()[0]];
const order = roundOrder(39);
try {
  for (let round = 0; round <= ROUNDS; round++) {
    for (const name of order(Object.keys(commands))) {
      const { wall, cpu, stdout } = await timed(commands[name]);
      check(name, stdout);
      if (round > 0) {
        times[name].wall.push(wall);
        times[name].cpu.push(cpu);
      }
    }
    loads.push(loadavg()[0]);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log(
  `\n### Cold CLI against a plain script (${availableParallelism()} cores, Node ${process.version}; median of ${ROUNDS} fresh processes each)\n`,
);
console.log('| command | wall ms | vs plain | per-round ratio | CPU ms | CPU vs plain | budget |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [name, t] of Object.entries(times)) {
  const plain = times[name.includes('LoKr') ? 'plain script, LoKr' : 'plain script, sample'];
  const isPlain = name.startsWith('plain');
  const vs = (/** @type {'wall' | 'cpu'} */ k) => (median(t[k]) / median(plain[k])).toFixed(2);
  const perRound = median(t.wall.map((w, i) => w / plain.wall[i])).toFixed(2);
  const budget = isPlain ? '' : name.startsWith('validate') ? '1.5x' : '2x';
  console.log(
    `| \`${name}\` | ${median(t.wall).toFixed(0)} | ${vs('wall')}x | ${perRound}x | ${median(t.cpu).toFixed(0)} | ${vs('cpu')}x | ${budget} |`,
  );
}
if (!withLokr) console.log('\n(the kohya fixture is absent: ../shared/fixtures/real; the inspect pair is skipped)');
console.log(`\n1-minute load average before and after each round: ${loads.map((l) => l.toFixed(2)).join(', ')}.`);
