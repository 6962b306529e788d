// make bench (convert part, Node): 16M F32 weights (64 MiB) rewritten as F16, st.convert
// (the core's WASM SIMD kernel, a chunk at a time, into a Blob) against plain JS (a Uint32Array
// view, the same round-to-nearest-even in integer operations, into one Uint16Array, then a
// Blob), beside a plain copy of the output's size. The outputs are checked equal first.
// Alternating rounds in one process; prints Markdown.
import { openSafetensors } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { runAlternating } from './timing.js';

const COUNT = 16 << 20;

// Weight-like values: small, of both signs, a few exact zeros, spread over many binades.
const weights = new Float32Array(COUNT);
let seed = 1;
for (let i = 0; i < COUNT; i++) {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  weights[i] = i % 97 === 0 ? 0 : ((seed / 2 ** 32 - 0.5) * 0.08) / (1 + (seed % 13));
}
const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [COUNT], data: new Uint8Array(weights.buffer) }], {
  format: 'pt',
});
const st = await openSafetensors(file);
const [begin, end] = st.tensors[0].dataOffsets.map((o) => o + st.dataStart);

// Plain JS, exact: NaN kept (quieted), overflow to infinity, subnormals through one float addition.
const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);
function f16Bits(bits) {
  const sign = (bits >>> 16) & 0x8000;
  const abs = bits & 0x7fffffff;
  if (abs > 0x7f800000) return sign | 0x7e00 | ((abs >>> 13) & 0x3ff);
  if (abs >= 0x477ff000) return sign | 0x7c00;
  if (abs < 0x38800000) {
    scratchBits[0] = abs;
    scratch[0] += 0.5;
    return sign | (scratchBits[0] - 0x3f000000);
  }
  return sign | ((abs - 0x38000000 + 0xfff + ((abs >>> 13) & 1)) >>> 13);
}
const header = file.subarray(0, st.dataStart); // the header is not what is measured
const plainJs = () => {
  const input = new Uint32Array(file.buffer.slice(begin, end));
  const out = new Uint16Array(COUNT);
  for (let i = 0; i < COUNT; i++) out[i] = f16Bits(input[i]);
  return new Blob([header, out]);
};

const ours = new Uint8Array(await (await st.convert({ to: 'F16' })).arrayBuffer());
const theirs = new Uint8Array(await plainJs().arrayBuffer());
const oursData = ours.subarray(ours.byteLength - 2 * COUNT);
const theirsData = theirs.subarray(theirs.byteLength - 2 * COUNT);
for (let i = 0; i < oursData.byteLength; i++) {
  if (oursData[i] !== theirsData[i]) throw new Error(`outputs differ at byte ${i}`);
}

const copyTarget = new Uint8Array(2 * COUNT);
const medians = await runAlternating(
  {
    'st.convert({ to: "F16" }) → Blob (wasm SIMD, 1 MiB chunks)': () => st.convert({ to: 'F16' }),
    'plain JS: integer round-to-nearest-even into a Uint16Array → Blob': plainJs,
    'copy of the output size (32 MiB, TypedArray.set) → Blob': () => {
      copyTarget.set(file.subarray(begin, begin + 2 * COUNT));
      return new Blob([header, copyTarget]);
    },
  },
  { rounds: 9 },
);

console.log(`\n### F32 → F16 on write (${COUNT.toLocaleString('en')} values, 64 MiB in, from memory)\n`);
console.log('| variant | median ms | time vs st.convert | M values/s |');
console.log('|---|---:|---:|---:|');
const base = Object.values(medians)[0];
for (const [name, ms] of Object.entries(medians)) {
  console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / base).toFixed(2)}x | ${(COUNT / ms / 1000).toFixed(0)} |`);
}
