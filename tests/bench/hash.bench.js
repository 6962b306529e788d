// make bench (hashing, Node): st.hash() on a 256 MiB file read through a FileHandle (in Node
// st.hash uses node:crypto), against node:crypto and hash-wasm over the same bytes already in
// memory (one SHA-256, and the two a file + data hash would cost on one thread). Prints
// Markdown; BENCHMARKS.md keeps the figures.
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSHA256 } from 'hash-wasm';
import { openSafetensors } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { runAlternating } from './timing.js';

const DATA_BYTES = 256 << 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** hash-wasm over `bytes` in 4 MiB updates (as a stream would feed it). */
async function hashWasm(bytes) {
  const hasher = await createSHA256();
  hasher.init();
  for (let at = 0; at < bytes.byteLength; at += 4 << 20) hasher.update(bytes.subarray(at, at + (4 << 20)));
  return hasher.digest('hex');
}

// Two tensors, so that per-tensor hashes cut inside a chunk.
const half = DATA_BYTES / 2;
const data = randomBytes(DATA_BYTES);
const file = writeSafetensors([
  { name: 'a', dtype: 'F32', shape: [half / 4], data: data.subarray(0, half) },
  { name: 'b', dtype: 'F32', shape: [half / 4], data: data.subarray(half) },
]);
const dir = await mkdtemp(join(tmpdir(), 'stw-bench-'));
const handle = await (async () => {
  const path = join(dir, 'hash.safetensors');
  await writeFile(path, file);
  return open(path);
})();
try {
  const st = await openSafetensors(handle);
  const expected = createHash('sha256').update(file).digest('hex');
  const check = await st.hash({ tensors: true });
  if (
    check.sha256 !== expected ||
    check.dataSha256 !== createHash('sha256').update(file.subarray(st.dataStart)).digest('hex')
  ) {
    throw new Error('st.hash() disagrees with node:crypto');
  }
  const dataPart = file.subarray(st.dataStart);
  const medians = await runAlternating(
    {
      'node:crypto, file in memory (one SHA-256)': async () => createHash('sha256').update(file).digest('hex'),
      'hash-wasm, file in memory (one SHA-256)': () => hashWasm(file),
      'hash-wasm, file and data in memory, one thread (two SHA-256)': async () => [
        await hashWasm(file),
        await hashWasm(dataPart),
      ],
      'st.hash({ data: false }): file only': () => st.hash({ data: false }),
      'st.hash(): file and data': () => st.hash(),
      'st.hash({ tensors: true }): file, data and each tensor': () => st.hash({ tensors: true }),
    },
    { rounds: ROUNDS, warmup: 1 },
  );
  const base = medians['node:crypto, file in memory (one SHA-256)'];
  console.log(
    `\n### Hashing a ${(file.byteLength / 2 ** 20).toFixed(0)} MiB file (${availableParallelism()} cores; median of ${ROUNDS} rounds)\n`,
  );
  console.log('| variant | median ms | time vs node:crypto in memory | MB/s |\n|---|---:|---:|---:|');
  for (const [name, ms] of Object.entries(medians)) {
    console.log(
      `| ${name} | ${ms.toFixed(0)} | ${(ms / base).toFixed(2)}x | ${(file.byteLength / 1e6 / (ms / 1000)).toFixed(0)} |`,
    );
  }
} finally {
  await handle.close();
  await rm(dir, { recursive: true, force: true });
}
