// make bench: sharded checkpoints (issue 11).
// 1. A 191-shard model (Llama 3.1 405B's layout: 126 layers, about 6 tensors per shard, shards
//    of ~4.3 GB) over loopback HTTP: requests, bytes and time of openSafetensorsIndex, beside the
//    four-requests-per-file scheme of @huggingface/hub's parseSafetensorsMetadata (HEAD, a
//    1-byte range, the 8-byte prefix, the header), written here with fetch, and beside our
//    own reader with the single-file first read (256 KiB per shard).
// 2. A 500,000-entry index (100 shards of 5,000 tensors): reading and checking it, beside
//    JSON.parse of the same text, and the whole open with every shard's header.
// Prints Markdown for BENCHMARKS.md. Side by side, alternating, medians (the machine is noisy).
// COMPARE_WITH=DIR adds the openSafetensorsIndex of another built checkout (e.g. a git worktree
// of an earlier commit) to the 500,000-entry alternation.
import { performance } from 'node:perf_hooks';
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initSafetensors, openSafetensorsIndex } from '../../web/index.js';
import { parseIndex } from '../../web/sharded/shard_index.js';
import { checkShards } from '../../web/sharded/shard_checks.js';
import { median } from './timing.js';
import { LLAMA_LAYOUTS, headerOf, llamaLayout } from '../../tools/llama_layouts.js';
import { layoutFiles, serveFiles } from '../js/layout_server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

// ---- 1. 191 shards over HTTP ----
const SHARDS = LLAMA_LAYOUTS['405B'].shards;

/** The four-requests-per-file scheme, 8 shards at a time as well: HEAD, bytes=0-0, the prefix, the header. */
async function fourRequestsPerFile(indexUrl) {
  const index = await (await fetch(indexUrl)).json();
  const shards = [...new Set(Object.values(index.weight_map))];
  const headers = new Array(shards.length);
  let next = 0;
  const worker = async () => {
    while (next < shards.length) {
      const i = next++;
      const url = new URL(shards[i], indexUrl).href;
      await fetch(url, { method: 'HEAD' });
      await (await fetch(url, { headers: { Range: 'bytes=0-0' } })).arrayBuffer();
      const prefix = new DataView(await (await fetch(url, { headers: { Range: 'bytes=0-7' } })).arrayBuffer());
      const length = Number(prefix.getBigUint64(0, true));
      headers[i] = JSON.parse(await (await fetch(url, { headers: { Range: `bytes=8-${7 + length}` } })).text());
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return headers;
}

async function benchShards() {
  const model = llamaLayout('405B');
  const server = await serveFiles(layoutFiles(model)); // in this process, no delay
  const indexUrl = server.url('/m/model.safetensors.index.json');
  const variants = {
    'openSafetensorsIndex (first reads sized from the index)': async () => openSafetensorsIndex(indexUrl),
    'openSafetensorsIndex with firstRead 256 KiB per shard': async () =>
      openSafetensorsIndex(indexUrl, { firstRead: 256 << 10 }),
    'four requests per file (HEAD, 1 byte, prefix, header), JSON.parse': async () => fourRequestsPerFile(indexUrl),
  };
  const rows = Object.fromEntries(Object.keys(variants).map((k) => [k, { ms: [], requests: 0, bytes: 0 }]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, run] of Object.entries(variants)) {
      server.reset();
      const start = performance.now();
      const result = await run();
      const ms = performance.now() - start;
      if (result.findings && result.findings.length) throw new Error(`findings: ${JSON.stringify(result.findings[0])}`);
      if (round === 0) continue; // warm-up
      rows[name].ms.push(ms);
      ({ requests: rows[name].requests, bytes: rows[name].bytes } = server.counts());
    }
  }
  await server.close();
  console.log(
    `### ${SHARDS} shards over loopback HTTP (${model.tensors.toLocaleString('en')} tensors, ${(model.totalSize / 1e9).toFixed(0)} GB of BF16 data, never read)\n`,
  );
  console.log('| variant | requests | bytes received | median ms | vs ours |');
  console.log('|---|---:|---:|---:|---:|');
  const ours = median(rows[Object.keys(variants)[0]].ms);
  for (const [name, r] of Object.entries(rows)) {
    console.log(
      `| ${name} | ${r.requests} | ${r.bytes.toLocaleString('en')} | ${median(r.ms).toFixed(0)} | ${(median(r.ms) / ours).toFixed(2)}x |`,
    );
  }
}

// ---- 2. a 500,000-entry index ----
async function benchBigIndex() {
  const N = 500_000;
  const SHARD_COUNT = 100;
  const per = N / SHARD_COUNT;
  const big = (s) => `model-${String(s + 1).padStart(5, '0')}-of-${String(SHARD_COUNT).padStart(5, '0')}.safetensors`;
  const names = Array.from(
    { length: N },
    (_, i) =>
      `model.layers.${Math.floor(i / 2000)}.mlp.experts.${Math.floor(i / 8) % 250}.${['gate', 'up', 'down', 'gate_scale', 'up_scale', 'down_scale', 'gate_zero', 'up_zero'][i % 8]}.weight`,
  );
  const weightMap = {};
  for (let i = 0; i < N; i++) weightMap[names[i]] = big(Math.floor(i / per));
  const text = JSON.stringify({ metadata: { total_size: N * 8 }, weight_map: weightMap }, null, 2);
  const shards = new Map();
  for (let s = 0; s < SHARD_COUNT; s++) {
    const { head } = headerOf(
      names.slice(s * per, (s + 1) * per).map((name) => ({ name, dtype: 'F32', shape: [2], bytes: 8 })),
    );
    const file = new Uint8Array(head.byteLength + per * 8);
    file.set(head);
    shards.set(big(s), file);
  }
  await initSafetensors();
  const opened = await openSafetensorsIndex({ index: text, resolve: (n) => shards.get(n) });
  if (opened.tensors.length !== N || opened.findings.length) throw new Error('500,000-entry model is wrong');
  const shardTensors = opened.shards.map((s) => ({ name: s.name, tensors: s.tensors }));
  const other = process.env.COMPARE_WITH;
  const otherOpen = other
    ? (await import(pathToFileURL(resolvePath(other, 'web/index.js')).href)).openSafetensorsIndex
    : null;
  const times = { json: [], index: [], viaJson: [], open: [], other: [] };
  const timed = async (key, fn) => {
    const start = performance.now();
    await fn();
    return [key, performance.now() - start];
  };
  for (let round = 0; round < ROUNDS + 1; round++) {
    const results = [
      await timed('json', () => JSON.parse(text)),
      await timed('index', () => checkShards(parseIndex(text, 'index'), shardTensors, () => 'error')),
      await timed('viaJson', () => checkShards(parseIndex(JSON.parse(text), 'index'), shardTensors, () => 'error')),
      await timed('open', () => openSafetensorsIndex({ index: text, resolve: (n) => shards.get(n) })),
    ];
    if (otherOpen) results.push(await timed('other', () => otherOpen({ index: text, resolve: (n) => shards.get(n) })));
    if (round === 0) continue;
    for (const [key, ms] of results) times[key].push(ms);
  }
  const base = median(times.json);
  const OPEN_ROW = "openSafetensorsIndex: that plus every shard's header (500,000 tensors)";
  console.log(
    `\n### A ${N.toLocaleString('en')}-entry index (${(text.length / 1e6).toFixed(1)} MB, ${SHARD_COUNT} shards of ${per.toLocaleString('en')} tensors, from memory)\n`,
  );
  console.log('| step | median ms | vs JSON.parse |');
  console.log('|---|---:|---:|');
  console.log(`| JSON.parse of the index text (the floor) | ${base.toFixed(0)} | 1.00x |`);
  const row = (what, key) =>
    console.log(`| ${what} | ${median(times[key]).toFixed(0)} | ${(median(times[key]) / base).toFixed(2)}x |`);
  row("the index read (web/sharded/index_scan.js) and checked against the shards' tensor lists", 'index');
  row('the same with the index read by JSON.parse (the path for escaped names)', 'viaJson');
  row(OPEN_ROW, 'open');
  if (otherOpen) row(`${OPEN_ROW} (COMPARE_WITH)`, 'other');
}

console.log(`Node ${process.version}, ${ROUNDS} rounds after 1 warm-up round, alternating, medians.\n`);
await benchShards();
await benchBigIndex();
