// make bench (decode part, Node): 16M F16 values from a file-backed Blob into a
// Float32Array, getTensor against plain JS (slice().arrayBuffer() + a 64K lookup table),
// beside the bare reads; then BF16 and F8 conversion rates from memory beside a memcpy
// of the same output size. Alternating rounds in one process; prints Markdown.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors } from '../../web/index.js';
import { ALLOCATION_FLOOR, beyondFloor, firstTouch } from './allocation_floor.js';
import { f16LookupTable, singleTensorFile } from './decode_data.js';
import { ROUNDS, WARMUP, runAlternating } from './timing.js';

const COUNT = 16 << 20;

function table(title, medians, baseline, extra = () => '') {
  console.log(`\n### ${title}\n`);
  console.log(`| variant | median ms | time vs ${baseline} |${extra(null) ? ' GB/s of float32 output |' : ''}`);
  console.log(`|---|---:|---:|${extra(null) ? '---:|' : ''}`);
  for (const [name, ms] of Object.entries(medians)) {
    const e = extra(ms);
    console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / medians[baseline]).toFixed(2)}x |${e ? ` ${e} |` : ''}`);
  }
}

const dir = await mkdtemp(join(tmpdir(), 'stw-bench-'));
try {
  // 1. F16 from a file-backed Blob.
  const file = singleTensorFile('F16', COUNT);
  const path = join(dir, 'f16.safetensors');
  await writeFile(path, file);
  const blob = await openAsBlob(path);
  const st = await openSafetensors(blob);
  const [begin, end] = st.tensors[0].dataOffsets.map((o) => o + st.dataStart);
  const lut = f16LookupTable();
  const reference = await st.getTensor('w');

  const jsLookup = async () => {
    const codes = new Uint16Array(await blob.slice(begin, end).arrayBuffer());
    const out = new Float32Array(codes.length);
    for (let i = 0; i < codes.length; i++) out[i] = lut[codes[i]];
    return out;
  };
  const check = await jsLookup();
  for (let i = 0; i < COUNT; i++) {
    if (!Object.is(check[i], reference[i])) throw new Error(`results differ at ${i}`);
  }
  const streamRead = async () => {
    let n = 0;
    for await (const chunk of blob.slice(begin, end).stream()) n += chunk.byteLength;
    return n;
  };
  const reused = new Float32Array(COUNT);
  const medians = await runAlternating({
    'getTensor (Blob stream → wasm SIMD → Float32Array)': () => st.getTensor('w'),
    'getTensor into a reused Float32Array': () => st.getTensor('w', { into: reused }),
    'plain JS: slice().arrayBuffer() + lookup table into a reused Float32Array': async () => {
      const codes = new Uint16Array(await blob.slice(begin, end).arrayBuffer());
      for (let i = 0; i < codes.length; i++) reused[i] = lut[codes[i]];
      return reused;
    },
    'plain JS: slice().arrayBuffer() + 64K lookup table': jsLookup,
    'read only: slice().arrayBuffer()': () => blob.slice(begin, end).arrayBuffer(),
    'read only: slice().stream()': streamRead,
    // What every variant that returns a new array pays before its first value: the kernel
    // mapping 64 MiB of fresh pages as they are first written (one fault per 4 KiB page).
    [ALLOCATION_FLOOR]: async () => firstTouch(new Float32Array(COUNT)),
  });
  console.log(
    `Node ${process.version}; ${COUNT.toLocaleString('en')} F16 values (${(end - begin) / 2 ** 20} MiB) in a file opened with fs.openAsBlob; ${ROUNDS} alternating rounds after ${WARMUP} warm-up rounds; medians.`,
  );
  table(
    'F16 → Float32Array from a file-backed Blob (Node)',
    medians,
    'plain JS: slice().arrayBuffer() + 64K lookup table',
  );
  const speedup =
    medians['plain JS: slice().arrayBuffer() + 64K lookup table'] /
    medians['getTensor (Blob stream → wasm SIMD → Float32Array)'];
  console.log(`\ngetTensor is ${speedup.toFixed(2)}x as fast as the plain JS way (requirement >= 1.25x, aim 2x).`);
  console.log(
    beyondFloor(
      medians,
      'getTensor (Blob stream → wasm SIMD → Float32Array)',
      'plain JS: slice().arrayBuffer() + 64K lookup table',
    ),
  );

  // 2. Conversion rates from memory (no I/O), beside a memcpy of the output size.
  const outBytes = COUNT * 4;
  const src = new Float32Array(COUNT).fill(1.5);
  const dst = new Float32Array(COUNT);
  const memory = {};
  for (const dtype of ['F16', 'BF16', 'F8_E4M3']) memory[dtype] = await openSafetensors(singleTensorFile(dtype, COUNT));
  const rates = await runAlternating({
    'memcpy of the output size (Float32Array.set)': async () => {
      dst.set(src);
      return dst;
    },
    'memcpy into a new array (new Float32Array(src))': async () => new Float32Array(src),
    'getTensor F16 → float32': () => memory.F16.getTensor('w'),
    'getTensor BF16 → float32': () => memory.BF16.getTensor('w'),
    'getTensor F8_E4M3 → float32': () => memory.F8_E4M3.getTensor('w'),
    'getTensor BF16 → float32 into a reused array': () => memory.BF16.getTensor('w', { into: dst }),
    'getTensor F8_E4M3 → float32 into a reused array': () => memory.F8_E4M3.getTensor('w', { into: dst }),
  });
  table(
    `Conversion from memory, ${COUNT.toLocaleString('en')} values (${outBytes / 2 ** 20} MiB of float32 out)`,
    rates,
    'memcpy of the output size (Float32Array.set)',
    (ms) => (ms === null ? 'x' : (outBytes / 1e9 / (ms / 1000)).toFixed(2)),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
