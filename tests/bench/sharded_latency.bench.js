// make bench: a big sharded model opened by its index URL and described, over a slow network
// (issue 48). Llama 3.1 405B's layout (191 shards) and 70B's (30 shards), headers only
// (tools/llama_layouts.js), served from a worker thread that answers every request after 0, 50
// or 100 ms (tests/js/layout_server.js). Per layout and delay: the time of openSafetensorsIndex
// + describe() (the card with its KV cache, so config.json is read), requests, round trips and
// the most requests in flight, beside the limit of three round trips (the index and config.json,
// every shard's header, one more for a header longer than its first read) and beside a floor of
// plain fetch() + JSON.parse. COMPARE_WITH=DIR adds the same for another built checkout (e.g. a
// git worktree of main), alternating in one run, its rows named as ours with " (COMPARE_WITH)".
// Prints Markdown for BENCHMARKS.md; medians.
import { performance } from 'node:perf_hooks';
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ours from '../../web/index.js';
import { serveLayoutInWorker } from '../js/layout_server.js';
import { LLAMA_LAYOUTS, llamaLayout } from '../../tools/llama_layouts.js';
import { median } from './timing.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const DELAYS = (process.env.DELAYS ?? '0,50,100').split(',').map(Number);
/**
 * The floor: fetch() of the index and config.json together, then of every shard's first 16 KiB
 * at once, each header JSON.parse'd; nothing checked, no card.
 * @param {string} url
 */
async function fetchAndParse(url) {
  const [index] = await Promise.all([
    fetch(url).then((r) => r.json()),
    fetch(new URL('config.json', url)).then((r) => r.json()),
  ]);
  const shards = [...new Set(Object.values(index.weight_map))];
  const headers = await Promise.all(
    shards.map(async (name) => {
      const head = new Uint8Array(
        await (await fetch(new URL(name, url), { headers: { Range: 'bytes=0-16383' } })).arrayBuffer(),
      );
      const length = Number(new DataView(head.buffer).getBigUint64(0, true));
      return JSON.parse(new TextDecoder().decode(head.subarray(8, 8 + length)));
    }),
  );
  return { findings: [], tensors: headers.reduce((n, h) => n + Object.keys(h).length - 1, 0) };
}

const other = process.env.COMPARE_WITH;
/** @type {Record<string, (url: string, layout: ReturnType<typeof llamaLayout>) => Promise<unknown>>} */
const variants = {
  'openSafetensorsIndex + describe()': (url, layout) => openAndDescribe(ours.openSafetensorsIndex, url, layout),
};
if (other) {
  const theirs = (await import(pathToFileURL(resolvePath(other, 'web/index.js')).href)).openSafetensorsIndex;
  // Named as ours with " (COMPARE_WITH)", as make bench-compare reads it (tests/bench/compare_tables.js).
  variants['openSafetensorsIndex + describe() (COMPARE_WITH)'] = (url, layout) => openAndDescribe(theirs, url, layout);
}
variants['fetch + JSON.parse of every header at once (nothing checked, no card: the floor)'] = (url) =>
  fetchAndParse(url);

/**
 * Opens and describes the model once; throws when the card is wrong.
 * @param {typeof ours.openSafetensorsIndex} open
 * @param {string} url
 * @param {ReturnType<typeof llamaLayout>} layout
 */
async function openAndDescribe(open, url, layout) {
  const model = await open(url);
  const card = await model.describe();
  if (model.findings.length || model.tensors.length !== layout.tensors)
    throw new Error(`the model is wrong: ${model.tensors.length} tensors, ${JSON.stringify(model.findings[0])}`);
  if (card.parameters.total !== layout.parameters || card.memory?.kvCache?.bytesPerToken !== layout.kvBytesPerToken)
    throw new Error(`the card is wrong: ${card.parameters.total} parameters, ${JSON.stringify(card.memory?.kvCache)}`);
}

console.log(
  `Node ${process.version}, ${ROUNDS} rounds after 1 warm-up round, variants alternating, medians. Three round trips: the limit (index and config.json, every header, one more for a long header). Round trips as the server counts them (at 0 ms they only show order).\n`,
);
console.log(
  '| layout | delay per request | variant | median ms | vs ours | three round trips | vs the limit | requests | round trips | most in flight |',
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const which of /** @type {(keyof typeof LLAMA_LAYOUTS)[]} */ (['405B', '70B'])) {
  const layout = llamaLayout(which);
  for (const delayMs of DELAYS) {
    const server = await serveLayoutInWorker(which, { delayMs });
    const url = server.url('/m/model.safetensors.index.json');
    const rows = Object.fromEntries(Object.keys(variants).map((k) => [k, { ms: [], counts: server.counts() }]));
    for (let round = 0; round < ROUNDS + 1; round++) {
      for (const [name, run] of Object.entries(variants)) {
        server.reset();
        const start = performance.now();
        await run(url, layout);
        const ms = performance.now() - start;
        if (round === 0) continue;
        rows[name].ms.push(ms);
        rows[name].counts = server.counts();
      }
    }
    await server.close();
    const limit = 3 * delayMs;
    const base = median(Object.values(rows)[0].ms);
    for (const [name, { ms, counts }] of Object.entries(rows)) {
      const m = median(ms);
      const vs = limit ? `${(m / limit).toFixed(2)}x` : '–';
      const trips = delayMs ? counts.rounds : '–';
      console.log(
        `| ${which} (${LLAMA_LAYOUTS[which].shards} shards) | ${delayMs} ms | ${name} | ${m.toFixed(0)} | ${(m / base).toFixed(2)}x | ${limit} | ${vs} | ${counts.requests} | ${trips} | ${counts.maxInFlight} |`,
      );
    }
  }
}
