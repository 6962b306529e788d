// Timing helpers shared by the Node benchmarks: variants run in alternating rounds in
// one process (the machine is shared and noisy, so only ratios within a run mean much).
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full garbage collection (V8's gc(), exposed without a command-line flag). */
export const collectGarbage = runInNewContext('gc');

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
export const WARMUP = 3;

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs each async variant once per round, warmup + rounds rounds; returns median ms per variant.
 * Slow variants pass fewer rounds.
 */
export async function runAlternating(variants, { rounds = ROUNDS, warmup = WARMUP } = {}) {
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const [name, fn] of Object.entries(variants)) {
      const start = performance.now();
      const result = await fn();
      const ms = performance.now() - start;
      if (result === undefined) throw new Error(`${name} returned nothing`);
      if (round >= warmup) times[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}
