// make bench (data scan, Node): validateSafetensors(blob, { scanData: true }) on a
// 128 MiB file (an F16 and a BF16 tensor of 32M values each) against the plain-JS way
// (slice().arrayBuffer() per tensor + a Uint16Array loop testing the bits), beside a bare
// stream read of the data; then the same from memory. Prints Markdown.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateSafetensors } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { weightCodes } from '../../tools/weight_codes.js';
import { ROUNDS, WARMUP, runAlternating } from './timing.js';
import { plainScan16 } from './plain_scan.js';

const COUNT = 32 << 20;

function table(title, medians, baseline, bytes) {
  console.log(`\n### ${title}\n`);
  console.log(`| variant | median ms | time vs plain JS | GB/s of tensor data |\n|---|---:|---:|---:|`);
  for (const [name, ms] of Object.entries(medians)) {
    console.log(
      `| ${name} | ${ms.toFixed(1)} | ${(ms / medians[baseline]).toFixed(2)}x | ${(bytes / 1e9 / (ms / 1000)).toFixed(2)} |`,
    );
  }
}

const tensors = ['F16', 'BF16'].map((dtype) => ({
  name: dtype,
  dtype,
  shape: [COUNT],
  data: weightCodes(dtype, COUNT),
}));
// A few specials so that the counting paths run.
new Uint16Array(tensors[0].data.buffer).set([0x7c00, 0xfc00, 0x7e00], 12345);
const file = writeSafetensors(tensors, { format: 'pt' });
const dir = await mkdtemp(join(tmpdir(), 'stw-bench-'));
try {
  const path = join(dir, 'scan.safetensors');
  await writeFile(path, file);
  const blob = await openAsBlob(path);
  const report = await validateSafetensors(blob, { scanData: true });
  const dataStart = file.byteLength - 4 * COUNT;
  const ranges = ['BF16', 'F16'].map((dtype, i) => [dtype, dataStart + i * 2 * COUNT, dataStart + (i + 1) * 2 * COUNT]);

  const plainFromBlob = async () => {
    const out = [];
    for (const [dtype, begin, end] of ranges)
      out.push({ dtype, ...plainScan16(new Uint16Array(await blob.slice(begin, end).arrayBuffer()), dtype) });
    return out;
  };
  const plainFromMemory = async () =>
    ranges.map(([dtype, begin, end]) => ({
      dtype,
      ...plainScan16(new Uint16Array(file.buffer, begin, (end - begin) / 2), dtype),
    }));
  for (const plain of [await plainFromBlob(), await plainFromMemory()]) {
    for (const [i, r] of plain.entries()) {
      const ours = report.dataScan.tensors[i];
      if (
        ours.dtype !== r.dtype ||
        ours.nan !== r.nan ||
        ours.posInf !== r.posInf ||
        ours.negInf !== r.negInf ||
        ours.allZero !== r.allZero
      ) {
        throw new Error(`scan results differ: ${JSON.stringify(ours)} vs ${JSON.stringify(r)}`);
      }
    }
  }
  if (report.dataScan.tensors[1].nan !== 1) throw new Error('the planted NaN was not counted');

  const fromBlob = await runAlternating({
    'validateSafetensors(blob, { scanData: true })': () => validateSafetensors(blob, { scanData: true }),
    'plain JS: slice().arrayBuffer() per tensor + Uint16Array loop': plainFromBlob,
    'read only: slice().stream() of the data': async () => {
      let n = 0;
      for await (const chunk of blob.slice(dataStart).stream()) n += chunk.byteLength;
      return n;
    },
  });
  const fromMemory = await runAlternating({
    'validateSafetensors(bytes, { scanData: true })': () => validateSafetensors(file, { scanData: true }),
    'plain JS: Uint16Array loop': plainFromMemory,
  });
  console.log(
    `Node ${process.version}; an F16 and a BF16 tensor of ${COUNT.toLocaleString('en')} values each (${(4 * COUNT) / 2 ** 20} MiB of data); ${ROUNDS} alternating rounds after ${WARMUP} warm-up rounds; medians. Both ways count the same NaN, infinities and zeros (checked).`,
  );
  table(
    'Data scan from a file-backed Blob (Node)',
    fromBlob,
    'plain JS: slice().arrayBuffer() per tensor + Uint16Array loop',
    4 * COUNT,
  );
  table('Data scan from memory (Node)', fromMemory, 'plain JS: Uint16Array loop', 4 * COUNT);
  const ratio = (m, a, b) => (m[b] / m[a]).toFixed(2);
  console.log(
    `\nFrom a Blob the scan is ${ratio(fromBlob, 'validateSafetensors(blob, { scanData: true })', 'plain JS: slice().arrayBuffer() per tensor + Uint16Array loop')}x as fast as plain JS and holds one chunk at a time instead of a whole tensor; from memory, ${ratio(fromMemory, 'validateSafetensors(bytes, { scanData: true })', 'plain JS: Uint16Array loop')}x.`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
