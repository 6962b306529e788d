// make bench (hashing, CLI): `safetensors-wasm hash FILE` against `sha256sum FILE` on a 1 GiB
// file, side by side in alternating rounds of one run (the file stays in the page cache after
// the warm-up round). Each command runs under /usr/bin/time: wall time, and CPU time (user +
// sys), which a shared, busy machine disturbs less. The CLI computes the file's SHA-256 and its
// data section's (two SHA-256 over the same read); sha256sum computes one. Prints Markdown;
// BENCHMARKS.md keeps the figures. BENCH_GIB sets the size (default 1), BENCH_ROUNDS the rounds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printRounds, runRounds, writeBigFile } from './cli_timing.js';

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
  const run = await runRounds(variants, work, ROUNDS, (results) => {
    const digests = new Set(Object.values(results).map((r) => r.stdout.split(/\s+/)[0]));
    if (digests.size !== 1) throw new Error(`the commands disagree: ${[...digests].join(' ')}`);
  });
  const title = `\`safetensors-wasm hash\` against \`sha256sum\`, ${(BYTES / 2 ** 30).toFixed(2)} GiB file`;
  printRounds(title, run, 'sha256sum FILE');
} finally {
  await rm(work, { recursive: true, force: true });
}
