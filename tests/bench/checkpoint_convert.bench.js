// make bench (checkpoint convert, CLI): `safetensors-wasm convert big.pt -o big.safetensors`
// (a FileHandle source: contiguous tensors streamed in 4 MiB reads) and toSafetensors({ path })
// from a Blob (contiguous tensors as slices of it, read by Blob.stream()) against
// `cp big.pt copy.pt` (and a durable copy: cp, then sync of the copy) on a 512 MiB checkpoint written by torch.save (Debian's
// python3-torch, tests/checkpoints/big_checkpoint.py), side by side in alternating rounds of one
// run, each under /usr/bin/time: wall time, CPU time and peak resident memory (max RSS). The
// output is first checked with --verify (every tensor read back from both files and compared)
// and against the bytes save_file would write (check_conversions.py's rules, in Python).
// BENCH_MIB sets the size (default 512), BENCH_ROUNDS the rounds (default 5). Prints Markdown.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { printRounds, runRounds, timed } from './cli_timing.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));
const MAKER = fileURLToPath(new URL('../checkpoints/big_checkpoint.py', import.meta.url));
const BLOB_CONVERT = fileURLToPath(new URL('../checkpoints/convert_checkpoints.mjs', import.meta.url));
const MIB = Number(process.env.BENCH_MIB ?? 512);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LIMIT_MIB = 256;

const work = await mkdtemp(join(tmpdir(), 'stw-bench-ckpt-'));
try {
  const big = join(work, 'big.pt');
  const out = join(work, 'big.safetensors');
  await run('/usr/bin/python3', [MAKER, big, String(MIB), out + '.expected'], { maxBuffer: 1 << 20 });
  const size = (await stat(big)).size;
  // Once, before timing: --verify compares every tensor; the bytes are save_file's.
  const verified = await timed([process.execPath, CLI, 'convert', '--verify', big, '-o', out], work);
  if (verified.code !== 0 || !/verified: (\d+) of \1 tensors equal/.test(verified.stdout))
    throw new Error(`convert --verify failed: ${verified.stdout}`);
  await run('cmp', [out, out + '.expected']);
  const variants = {
    'cp big.pt copy.pt': ['cp', big, join(work, 'copy.pt')],
    // convert's file is durable (written, fsynced, renamed): so is this copy's.
    'cp big.pt copy.pt && sync copy.pt': ['bash', '-c', 'cp "$0" "$1" && sync "$1"', big, join(work, 'copy2.pt')],
    'safetensors-wasm convert big.pt -o big.safetensors': [process.execPath, CLI, 'convert', big, '-o', out],
    'toSafetensors({ path }) from openAsBlob (Blob slices)': [process.execPath, BLOB_CONVERT, big, out],
  };
  const runs = await runRounds(variants, work, ROUNDS, (results) => {
    for (const [name, r] of Object.entries(results)) if (r.code !== 0) throw new Error(`${name} exited ${r.code}`);
  });
  const title = `\`safetensors-wasm convert\` against \`cp\`, ${(size / 2 ** 20).toFixed(0)} MiB torch.save checkpoint`;
  printRounds(title, runs, 'cp big.pt copy.pt');
  await run('cmp', [out, out + '.expected']); // the last round's, from the Blob
  const peak = (/** @type {string} */ name) => Math.max(...runs.rss[name]) / 1024;
  const cli = peak('safetensors-wasm convert big.pt -o big.safetensors');
  const blob = peak('toSafetensors({ path }) from openAsBlob (Blob slices)');
  console.log(
    `\nPeak RSS (max of ${ROUNDS} rounds; limit ${LIMIT_MIB} MiB): CLI convert ${cli.toFixed(1)} MiB, from a Blob ${blob.toFixed(1)} MiB, CLI convert --verify ${(verified.rss / 1024).toFixed(1)} MiB. Output ${(await stat(out)).size.toLocaleString('en')} bytes, equal to save_file's (cmp).`,
  );
  if (Math.max(cli, blob) > LIMIT_MIB) throw new Error(`convert peaked over ${LIMIT_MIB} MiB`);
} finally {
  await rm(work, { recursive: true, force: true });
}
