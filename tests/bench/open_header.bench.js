// make bench: opening a 20,000-tensor header (read from memory, parse, validate,
// build the JS objects) against TextDecoder + JSON.parse of the same header
// bytes, alternating in one Node process. Prints a Markdown table for BENCHMARKS.md.
// COMPARE_WITH=DIR adds the openSafetensors of another built checkout (e.g. a git worktree
// of an earlier commit) to the same alternation, its rows named as ours with " (COMPARE_WITH)"
// (tests/bench/compare.js pairs them): the fair way to compare two versions on a noisy machine.
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openSafetensors, initSafetensors } from '../../web/index.js';
import { roundOrder } from './round_order.js';
import { collectGarbage, median } from './timing.js';

const TENSORS = 20_000;
const ROUNDS = 40;

// A header shaped like a large language model's: long names, BF16 matrices,
// F32 norms, metadata first; the data is never read, so it is not materialised.
function makeHeader() {
  const entries = [];
  let offset = 0;
  for (let i = 0; entries.length < TENSORS; i++) {
    const layer = `model.layers.${i}`;
    const kinds = [
      [`${layer}.self_attn.q_proj.weight`, 'BF16', [4096, 4096], 2],
      [`${layer}.self_attn.k_proj.weight`, 'BF16', [1024, 4096], 2],
      [`${layer}.self_attn.v_proj.weight`, 'BF16', [1024, 4096], 2],
      [`${layer}.self_attn.o_proj.weight`, 'BF16', [4096, 4096], 2],
      [`${layer}.mlp.gate_proj.weight`, 'BF16', [14336, 4096], 2],
      [`${layer}.mlp.up_proj.weight`, 'BF16', [14336, 4096], 2],
      [`${layer}.mlp.down_proj.weight`, 'BF16', [4096, 14336], 2],
      [`${layer}.input_layernorm.weight`, 'F32', [4096], 4],
      [`${layer}.post_attention_layernorm.weight`, 'F32', [4096], 4],
      [`${layer}.self_attn.rotary_emb.inv_freq`, 'F32', [64], 4],
    ];
    for (const [name, dtype, shape, size] of kinds) {
      if (entries.length === TENSORS) break;
      const bytes = shape.reduce((a, b) => a * b, 1) * size;
      entries.push(
        `${JSON.stringify(name)}:{"dtype":"${dtype}","shape":${JSON.stringify(shape)},"data_offsets":[${offset},${offset + bytes}]}`,
      );
      offset += bytes;
    }
  }
  let text = `{"__metadata__":{"format":"pt"},${entries.join(',')}}`;
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const header = new TextEncoder().encode(text);
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  return { prefix, header, dataBytes: offset };
}

const { prefix, header, dataBytes } = makeHeader();
const fileSize = 8 + header.byteLength + dataBytes;
// A File-like source over the prefix and header; reads of the data would throw.
const source = {
  size: fileSize,
  async read(offset, length) {
    if (offset === 0 && length === 8) return prefix;
    if (offset === 8 && length === header.byteLength) return header;
    throw new Error(`unexpected read ${offset}+${length}`);
  },
};
const decoder = new TextDecoder();
const variants = {
  'TextDecoder + JSON.parse': async () => JSON.parse(decoder.decode(header)),
  'openSafetensors (parse + validate + objects)': async () => openSafetensors(source),
  'openSafetensors + describe()': async () => (await openSafetensors(source)).describe(),
  // The module tree is built on the first read of card.modules: this is the eager total.
  'openSafetensors + describe() + card.modules': async () => (await (await openSafetensors(source)).describe()).modules,
};

if (process.env.COMPARE_WITH) {
  const other = await import(pathToFileURL(resolve(process.env.COMPARE_WITH, 'web/index.js')).href);
  await other.initSafetensors();
  console.log(`COMPARE_WITH: ${process.env.COMPARE_WITH}`);
  variants['openSafetensors (parse + validate + objects) (COMPARE_WITH)'] = async () => other.openSafetensors(source);
  variants['openSafetensors + describe() (COMPARE_WITH)'] = async () =>
    (await other.openSafetensors(source)).describe();
  // The same variants for both builds, so that neither gets more warm-up or garbage than the other.
  variants['openSafetensors + describe() + card.modules (COMPARE_WITH)'] = async () =>
    (await (await other.openSafetensors(source)).describe()).modules;
}

await initSafetensors();
const check = await openSafetensors(source);
if (check.tensors.length !== TENSORS) throw new Error('benchmark file is wrong');

const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const describeOnly = []; // describe() alone, of a file opened just before (untimed)
const treeOnly = []; // then the first read of card.modules
// Each round runs the variants in a new order (in a fixed rotation one run had +36% for
// describe() and +32% for describe() + card.modules: the collections followed the rotation).
const shuffled = roundOrder(20261123);
for (let round = 0; round < ROUNDS + 5; round++) {
  for (const [name, run] of shuffled(Object.entries(variants))) {
    // Each variant from a collected heap: it pays for the collections its own allocations cause,
    // not for the garbage of the one before (without this a variant's median landed on either
    // side of a collection, round by round: 0.51x to 0.72x in three runs of the same build).
    collectGarbage();
    const start = performance.now();
    await run();
    const elapsed = performance.now() - start;
    if (round >= 5) times[name].push(elapsed); // first rounds warm up the JIT
  }
}
// Apart from the alternation above (its extra allocations would change the others' GC pauses).
for (let round = 0; round < ROUNDS; round++) {
  const opened = await openSafetensors(source);
  const start = performance.now();
  const card = await opened.describe();
  const described = performance.now();
  if (card.modules.tensors !== TENSORS) throw new Error('the module tree is wrong');
  describeOnly.push(described - start);
  treeOnly.push(performance.now() - described);
}
const baseline = median(times['TextDecoder + JSON.parse']);
console.log(
  `Header: ${TENSORS.toLocaleString('en')} tensors, ${header.byteLength.toLocaleString('en')} bytes; file size ${fileSize.toLocaleString('en')} bytes (data never read).`,
);
console.log(
  `Node ${process.version}, ${ROUNDS} rounds after 5 warm-up rounds, the variants in a new order each round, each from a collected heap; medians.\n`,
);
console.log('| variant | median ms | vs JSON.parse |');
console.log('|---|---:|---:|');
for (const [name, xs] of Object.entries(times)) {
  console.log(`| ${name} | ${median(xs).toFixed(2)} | ${(median(xs) / baseline).toFixed(2)}x |`);
}
// The model card's cost (issue: describing adds at most 25% to opening).
const opened = median(times['openSafetensors (parse + validate + objects)']);
const described = median(times['openSafetensors + describe()']);
// Per round as well: the two ran side by side, so their ratio drifts less with the machine.
const paired = median(
  times['openSafetensors + describe()'].map((t, i) => t / times['openSafetensors (parse + validate + objects)'][i]),
);
// The lower quartiles: each variant's rounds split into those a garbage collection fell into
// and those it did not (about half and half here), and the median can land on either side.
const quartile = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 4)];
const lowerQuartiles =
  quartile(times['openSafetensors + describe()']) / quartile(times['openSafetensors (parse + validate + objects)']);
console.log(
  `\nopenSafetensors + describe() takes ${(described / opened).toFixed(2)}x the time of openSafetensors (+${(100 * (described / opened - 1)).toFixed(0)}%); median of the per-round ratios ${paired.toFixed(2)}x; lower quartiles ${lowerQuartiles.toFixed(2)}x.`,
);
console.log(
  `describe() alone, of a file just opened: ${median(describeOnly).toFixed(2)} ms = ${((100 * median(describeOnly)) / opened).toFixed(0)}% of openSafetensors.`,
);
console.log(
  `Then the first read of card.modules (the module tree, built then): ${median(treeOnly).toFixed(2)} ms = ${((100 * median(treeOnly)) / opened).toFixed(0)}% of openSafetensors.`,
);
