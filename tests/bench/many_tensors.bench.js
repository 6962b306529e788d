// make bench: every entry point on headers of 100,000 and 1,000,000 one-byte tensors (issue 37:
// each linear in the header, none over 8x a plain validate of the same file), against a plain
// validate and against File.slice + JSON.parse of the same header. The files are written to a
// temporary folder and opened as Node Blobs (openAsBlob), as a File picked in a page would be.
// Each round runs every entry point once, in a new order; medians of BENCH_ROUNDS (default 3)
// after one warm-up round. MANY_TENSORS=100000 runs one size.
import { performance } from 'node:perf_hooks';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkAdapter,
  diffSafetensors,
  initSafetensors,
  openSafetensors,
  validateSafetensors,
} from '../../web/index.js';
import { manyTensorsAdapter, manyTensorsFile } from '../js/many_tensors.js';
import { roundOrder } from './round_order.js';
import { median } from './timing.js';

const SIZES = (process.env.MANY_TENSORS ?? '100000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** File.slice + JSON.parse of the header: the least any reader of the header does. */
async function jsonParse(blob) {
  const prefix = new DataView(await blob.slice(0, 8).arrayBuffer());
  const length = Number(prefix.getBigUint64(0, true));
  return JSON.parse(await blob.slice(8, 8 + length).text());
}

async function measure(count, dir) {
  const write = async (name, bytes) => {
    const path = join(dir, `${name}-${count}.safetensors`);
    await writeFile(path, bytes);
    return openAsBlob(path);
  };
  const file = await write('a', manyTensorsFile(count));
  const other = await write('b', manyTensorsFile(count, { byte: (i) => (i % 1000 === 0 ? ~i & 255 : i & 255) }));
  const renamed = await write('c', manyTensorsFile(count, { prefix: 'other' }));
  // Half as many: a million LoRA tensors with PEFT's names would pass the 100 MB header limit.
  const pair = manyTensorsAdapter(count / 2);
  const adapter = await write('lora', pair.adapter);
  const base = await write('base', pair.base);
  const opened = await openSafetensors(file);
  const variants = {
    'File.slice + JSON.parse': () => jsonParse(file),
    validateSafetensors: () => validateSafetensors(file),
    'validateSafetensors({ describe: true })': () => validateSafetensors(file, { describe: true }),
    openSafetensors: () => openSafetensors(file),
    'openSafetensors + describe() + card.modules': async () => (await (await openSafetensors(file)).describe()).modules,
    'getTensors() (all)': () => opened.getTensors(),
    'hash({ tensors: true })': () => opened.hash({ tensors: true }),
    'diffSafetensors (other names)': () => diffSafetensors(file, renamed),
    'diffSafetensors({ data: true }) (1 in 1,000 bytes differ)': () => diffSafetensors(file, other, { data: true }),
    'checkAdapter (a LoRA and its base, half as many tensors each)': () => checkAdapter(adapter, base),
    "convert({ to: 'F16' })": () => opened.convert({ to: 'F16' }),
    'withMetadata (edit)': () => opened.withMetadata({ note: 'edited' }),
  };
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const shuffled = roundOrder(20261127 + count);
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, run] of shuffled(Object.entries(variants))) {
      const start = performance.now();
      const result = await run();
      const elapsed = performance.now() - start;
      if (result === undefined) throw new Error(`${name} returned nothing`);
      if (round > 0) times[name].push(elapsed);
    }
  }
  return {
    header: file.size - count,
    medians: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])),
  };
}

await initSafetensors();
const dir = await mkdtemp(join(tmpdir(), 'many-tensors-'));
try {
  const results = [];
  for (const count of SIZES) results.push({ count, ...(await measure(count, dir)) });
  console.log(
    `Node ${process.version}; one-byte U8 tensors (the adapter case: I8), files read as Blobs; medians of ${ROUNDS} rounds after a warm-up round, the entry points in a new order each round.\n`,
  );
  const head = results.map(
    (r) => `${r.count.toLocaleString('en')} tensors (${(r.header / 2 ** 20).toFixed(1)} MiB header)`,
  );
  console.log(`| entry point | ${head.map((h) => `${h}: ms | vs validate | vs JSON.parse`).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---:|---:|---:').join('|')}|`);
  for (const name of Object.keys(results[0].medians)) {
    const cells = results.map(({ medians }) => {
      const ms = medians[name];
      return `${ms.toFixed(0)} | ${(ms / medians.validateSafetensors).toFixed(2)}x | ${(ms / medians['File.slice + JSON.parse']).toFixed(2)}x`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  if (results.length > 1) {
    const [small, large] = [results[0], results[results.length - 1]];
    const growth = Object.keys(small.medians)
      .map((name) => `${name} ${(large.medians[name] / small.medians[name]).toFixed(1)}x`)
      .join(', ');
    console.log(`\n${large.count / small.count}x the tensors takes: ${growth}.`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
