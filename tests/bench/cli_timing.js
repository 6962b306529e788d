// What the CLI benchmarks share: a big safetensors file of random bytes under a temporary
// folder (never in the repository), and one command timed under /usr/bin/time: wall time and
// CPU time (user + sys), which a shared, busy machine disturbs less, and peak resident memory.
import { execFile } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { rawFile } from '../../tools/write_safetensors.js';
import { median } from './timing.js';

const run = promisify(execFile);

/**
 * A safetensors file of `bytes` data bytes (one U8 tensor of random bytes), written in 16 MiB
 * pieces; `onPiece` sees each piece of the whole file (its header first), to hash it on the way.
 * @param {string} path
 * @param {number} bytes
 * @param {(piece: Uint8Array) => void} [onPiece]
 */
export async function writeBigFile(path, bytes, onPiece = () => {}) {
  let header = `{"__metadata__":{"format":"pt"},"w":{"dtype":"U8","shape":[${bytes}],"data_offsets":[0,${bytes}]}}`;
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const handle = await open(path, 'w');
  try {
    const head = rawFile(header);
    onPiece(head);
    await handle.write(head);
    const piece = new Uint8Array(16 << 20);
    for (let done = 0; done < bytes; done += piece.byteLength) {
      randomFillSync(piece);
      const part = piece.subarray(0, Math.min(piece.byteLength, bytes - done));
      onPiece(part);
      await handle.write(part);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Runs a command under /usr/bin/time: its wall and CPU seconds, its peak RSS (KiB), its exit
 * code and its stdout.
 * A non-zero exit is returned, not thrown (verify-signature exits 1 when not verified).
 * @param {string[]} argv
 * @param {string} work a folder for time's report
 */
export async function timed(argv, work) {
  const report = join(work, 'time.txt');
  let stdout;
  let code = 0;
  try {
    ({ stdout } = await run('/usr/bin/time', ['-f', '%e %U %S %M', '-o', report, ...argv], { maxBuffer: 1 << 20 }));
  } catch (error) {
    ({ stdout = '', code = 1 } = /** @type {any} */ (error));
  }
  const [wall, user, sys, rss] = (await readFile(report, 'utf8')).trim().split('\n').pop().split(/\s+/).map(Number);
  return { wall, cpu: user + sys, rss, code, stdout };
}

/**
 * @typedef {Record<string, { wall: number[], cpu: number[] }>} Times seconds per command, round by round
 */

/**
 * Runs the commands in turn, one warm-up round then `rounds` timed ones; `check` sees each
 * round's results (exit code and stdout by name) and throws when they are wrong.
 * @param {Record<string, string[]>} commands name -> argv
 * @param {string} work
 * @param {number} rounds
 * @param {(results: Record<string, { code: number, stdout: string }>) => void} check
 * @returns {Promise<{ times: Times, loads: number[], rss: Record<string, number[]> }>} loads: the 1-minute load
 *   average before and after each round; rss: each command's peak RSS (KiB) per timed round
 */
export async function runRounds(commands, work, rounds, check) {
  /** @type {Times} */
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, { wall: [], cpu: [] }]));
  const loads = [loadavg()[0]];
  /** @type {Record<string, number[]>} */
  const rss = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let round = 0; round < rounds + 1; round++) {
    /** @type {Record<string, { code: number, stdout: string }>} */
    const results = {};
    for (const [name, argv] of Object.entries(commands)) {
      const { wall, cpu, rss: peak, code, stdout } = await timed(argv, work);
      results[name] = { code, stdout };
      if (round > 0) {
        rss[name].push(peak);
        times[name].wall.push(wall);
        times[name].cpu.push(cpu);
      }
    }
    check(results);
    loads.push(loadavg()[0]);
  }
  return { times, loads, rss };
}

/**
 * Prints the rounds as Markdown: a heading, a table of medians against the command `base`
 * (with the median of the per-round ratios, steadier on a busy machine), the load averages and
 * every round's wall times.
 * @param {string} title
 * @param {{ times: Times, loads: number[] }} run
 * @param {string} base
 */
export function printRounds(title, { times, loads }, base) {
  const rounds = times[base].wall.length;
  console.log(
    `\n### ${title} (${availableParallelism()} cores, Node ${process.version}; median of ${rounds} rounds)\n`,
  );
  console.log(
    `| command | wall s | wall vs ${base} | CPU s (user + sys) | CPU vs ${base} | per-round ratio, wall / CPU |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  const of = times[base];
  for (const [name, t] of Object.entries(times)) {
    const ratio = (/** @type {'wall' | 'cpu'} */ k) => median(t[k].map((s, i) => s / of[k][i])).toFixed(2);
    const vs = (/** @type {'wall' | 'cpu'} */ k) => (median(t[k]) / median(of[k])).toFixed(2);
    console.log(
      `| \`${name}\` | ${median(t.wall).toFixed(2)} | ${vs('wall')}x | ${median(t.cpu).toFixed(2)} | ${vs('cpu')}x | ${ratio('wall')}x / ${ratio('cpu')}x |`,
    );
  }
  console.log(`\n1-minute load average before and after each round: ${loads.map((l) => l.toFixed(2)).join(', ')}.`);
  const perRound = Object.entries(times).map(([n, t]) => `${n}: ${t.wall.join(', ')}`);
  console.log(`Per round, wall s: ${perRound.join('; ')}`);
}
