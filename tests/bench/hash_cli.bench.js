// make bench (hashing, CLI): `safetensors-wasm hash FILE` against `sha256sum FILE` on a 1 GiB
// file, side by side in alternating rounds of one run (the file stays in the page cache after
// the warm-up round). Each command runs under /usr/bin/time: wall time, and CPU time (user +
// sys), which a shared, busy machine disturbs less. The CLI computes the file's SHA-256 and its
// data section's (two SHA-256 over the same read); sha256sum computes one. Prints Markdown;
// BENCHMARKS.md keeps the figures. BENCH_GIB sets the size (default 1), BENCH_ROUNDS the rounds.
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timed, writeBigFile } from './cli_timing.js';
import { median } from './timing.js';

const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));
const BYTES = Math.round(Number(process.env.BENCH_GIB ?? 1) * 2 ** 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const work = await mkdtemp(join(tmpdir(), 'stw-bench-cli-'));
try {
  const file = join(work, 'big.safetensors');
  await writeBigFile(file, BYTES);
  const variants = {
    'sha256sum FILE': ['sha256sum', file],
    'safetensors-wasm hash FILE': [process.execPath, CLI, 'hash', file],
  };
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, { wall: [], cpu: [] }]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    const digests = new Set();
    for (const [name, argv] of Object.entries(variants)) {
      const { wall, cpu, stdout } = await timed(argv, work);
      digests.add(stdout.split(/\s+/)[0]);
      if (round > 0) {
        times[name].wall.push(wall);
        times[name].cpu.push(cpu);
      }
    }
    if (digests.size !== 1) throw new Error(`the commands disagree: ${[...digests].join(' ')}`);
  }
  const base = times['sha256sum FILE'];
  console.log(
    `\n### \`safetensors-wasm hash\` against \`sha256sum\`, ${(BYTES / 2 ** 30).toFixed(2)} GiB file (${availableParallelism()} cores, Node ${process.version}; median of ${ROUNDS} rounds)\n`,
  );
  console.log(
    '| command | wall s | wall vs sha256sum | CPU s (user + sys) | CPU vs sha256sum |\n|---|---:|---:|---:|---:|',
  );
  for (const [name, { wall, cpu }] of Object.entries(times)) {
    console.log(
      `| \`${name}\` | ${median(wall).toFixed(2)} | ${(median(wall) / median(base.wall)).toFixed(2)}x | ${median(cpu).toFixed(2)} | ${(median(cpu) / median(base.cpu)).toFixed(2)}x |`,
    );
  }
  const cli = times['safetensors-wasm hash FILE'];
  const ratio = (/** @type {'wall' | 'cpu'} */ k) => median(cli[k].map((t, i) => t / base[k][i])).toFixed(2);
  console.log(`\nMedian of the per-round ratios: wall ${ratio('wall')}x, CPU ${ratio('cpu')}x.`);
  console.log(
    `Per round, wall s: ${Object.entries(times)
      .map(([n, t]) => `${n}: ${t.wall.join(', ')}`)
      .join('; ')}`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
