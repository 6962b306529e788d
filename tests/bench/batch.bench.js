// make bench (getTensors part, Node): every tensor of a file from a file-backed Blob, with
// getTensors (one pass, adjacent tensors as one stream) against a getTensor loop: the kohya
// LoKr (1,750 small tensors) and a file of 8 large F16 tensors (128 MiB) decoded to float32.
// Alternating rounds in one process; prints Markdown.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { weightCodes } from '../../tools/weight_codes.js';
import { runAlternating } from './timing.js';

const REAL = new URL('../../../shared/fixtures/real/kohya_lycoris_lokr_dim4_f16.safetensors', import.meta.url);

async function compare(title, path, as, rounds) {
  const st = await openSafetensors(await openAsBlob(path));
  const medians = await runAlternating(
    {
      'getTensors() (one pass)': () => st.getTensors(undefined, { as }),
      'getTensor for each tensor': async () => {
        const out = new Map();
        for (const t of st.tensors) out.set(t.name, await st.getTensor(t.name, { as }));
        return out;
      },
    },
    { rounds },
  );
  console.log(`\n### ${title}\n`);
  console.log('| variant | median ms | time vs getTensors |');
  console.log('|---|---:|---:|');
  const base = Object.values(medians)[0];
  for (const [name, ms] of Object.entries(medians))
    console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / base).toFixed(2)}x |`);
}

const dir = await mkdtemp(join(tmpdir(), 'stw-batch-'));
try {
  if (existsSync(REAL))
    await compare('The kohya LoKr: 1,750 tensors, 403 KB of F16, native', REAL.pathname, 'native', 15);
  else console.log('\n(the kohya fixture is absent: ../shared/fixtures/real; its comparison is skipped)');
  const count = 8 << 20;
  const tensors = Array.from({ length: 8 }, (_, k) => ({
    name: `layer.${k}.weight`,
    dtype: 'F16',
    shape: [count],
    data: weightCodes('F16', count, k + 1),
  }));
  const path = join(dir, 'large.safetensors');
  await writeFile(path, writeSafetensors(tensors, { format: 'pt' }));
  await compare('8 large tensors: 8 x 8M F16 (128 MiB) to float32', path, 'float32', 7);
} finally {
  await rm(dir, { recursive: true, force: true });
}
