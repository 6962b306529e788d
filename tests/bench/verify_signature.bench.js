// make bench (signatures, CLI): `safetensors-wasm verify-signature` of a model folder holding
// one 1 GiB safetensors file against `safetensors-wasm hash` of that file, side by side in
// alternating rounds of one run (the file stays in the page cache after the warm-up round), each
// under /usr/bin/time (wall and CPU time). The folder is signed here as model_signing signs it
// (tests/js/model_signer.js, an EC P-256 key), in both serializations: "files" and "shards"
// (model_signing's default shard size, 1e9 bytes: two shards), each a folder holding the file
// (one file, hard-linked) and its model.sig. verify-
// signature computes one SHA-256 over the file; hash computes two (the file's and its data
// section's); `sha256sum` (coreutils, one SHA-256) is there for scale. Aim: verify at most 1.1x
// hash's time. Prints Markdown; BENCHMARKS.md keeps the
// figures. BENCH_GIB sets the size (default 1), BENCH_ROUNDS the rounds (default 5).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOf, publicPem, statementOf } from '../js/model_signer.js';
import { printRounds, runRounds, writeBigFile } from './cli_timing.js';

const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));
const BYTES = Math.round(Number(process.env.BENCH_GIB ?? 1) * 2 ** 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SHARD_SIZE = 1_000_000_000;
const NAME = 'model.safetensors';

/**
 * The resources of one file in both serializations, from its bytes seen piece by piece.
 * @returns {{ push(piece: Uint8Array): void, files(): object[], shards(): object[] }}
 */
function resourceDigests() {
  const whole = createHash('sha256');
  const shards = [];
  let shard = createHash('sha256');
  let at = 0; // bytes seen
  let start = 0; // the current shard's first byte
  return {
    push(piece) {
      whole.update(piece);
      for (let i = 0; i < piece.byteLength;) {
        const take = Math.min(piece.byteLength - i, start + SHARD_SIZE - at);
        shard.update(piece.subarray(i, i + take));
        i += take;
        at += take;
        if (at === start + SHARD_SIZE) {
          shards.push({ name: `${NAME}:${start}:${at}`, digest: shard.digest('hex') });
          shard = createHash('sha256');
          start = at;
        }
      }
    },
    files: () => [{ name: NAME, algorithm: 'sha256', digest: whole.digest('hex') }],
    shards() {
      if (at > start) shards.push({ name: `${NAME}:${start}:${at}`, digest: shard.digest('hex') });
      return shards.map((s) => ({ ...s, algorithm: `sha256-sharded-${SHARD_SIZE}` }));
    },
  };
}

const work = await mkdtemp(join(tmpdir(), 'stw-bench-verify-'));
try {
  const model = join(work, 'files');
  const sharded = join(work, 'shards');
  await mkdir(model);
  await mkdir(sharded);
  const file = join(model, NAME);
  const digests = resourceDigests();
  await writeBigFile(file, BYTES, (piece) => digests.push(piece));
  await link(file, join(sharded, NAME));
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = join(work, 'key.pub.pem');
  await writeFile(pem, publicPem(privateKey));
  await writeFile(join(model, 'model.sig'), JSON.stringify(bundleOf(statementOf(digests.files()), privateKey)));
  const shards = statementOf(digests.shards(), { method: 'shards', shardSize: SHARD_SIZE });
  await writeFile(join(sharded, 'model.sig'), JSON.stringify(bundleOf(shards, privateKey)));

  const verify = (dir) => [
    process.execPath,
    CLI,
    'verify-signature',
    dir,
    '--signature',
    join(dir, 'model.sig'),
    '--public-key',
    pem,
  ];
  const variants = {
    'hash FILE': [process.execPath, CLI, 'hash', file],
    'sha256sum FILE': ['sha256sum', file],
    'verify-signature MODEL, files': verify(model),
    'verify-signature MODEL, shards': verify(sharded),
  };
  const run = await runRounds(variants, work, ROUNDS, (results) => {
    for (const [name, { code, stdout }] of Object.entries(results))
      if (code !== 0) throw new Error(`${name} exited ${code}: ${stdout}`);
  });
  printRounds(`\`verify-signature\` against \`hash\`, one ${(BYTES / 2 ** 30).toFixed(2)} GiB file`, run, 'hash FILE');
} finally {
  await rm(work, { recursive: true, force: true });
}
