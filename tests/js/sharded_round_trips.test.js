// A big sharded model by its index URL over a slow network (issue 48): Llama 3.1 405B's and 70B's
// layouts (tools/llama_layouts.js) from a server that answers every request after a delay
// (layout_server.js), which counts round trips. The index and config.json in one round trip,
// every shard's header in the next, one request per shard; the in-flight limits (`concurrency`,
// `maxBytesInFlight`) as round trips and requests in flight; progress; an abort that stops every
// read in flight. Times: tests/bench/sharded_latency.bench.js.
import { afterEach, describe, expect, test } from 'vitest';
import { openSafetensorsIndex } from '../../web/index.js';
import { LLAMA_LAYOUTS, headerOf, llamaLayout } from '../../tools/llama_layouts.js';
import { layoutFiles, serveFiles } from './layout_server.js';
import { rejection } from './fixtures.js';

const INDEX = '/m/model.safetensors.index.json';
/**
 * Each request's delay: long enough that sending every shard's request takes less than one,
 * even in a cold process on a loaded machine (a request that arrives after an answer was sent
 * counts as the next round trip): with both cores kept busy by two other processes, 405B's 191
 * requests overran 200 ms in two runs of three, 400 ms in one of four. Shorter where requests
 * go one at a time anyway.
 */
const DELAY_MS = 400;
const SHORT_DELAY_MS = 60;

/**
 * Resolves once `ready()` holds (checked every 10 ms); fails after 20 s.
 * @param {() => boolean} ready
 */
async function until(ready) {
  for (let waited = 0; !ready(); waited += 10) {
    if (waited > 20_000) throw new Error(`still waiting for ${ready}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** @type {Awaited<ReturnType<typeof serveFiles>>[]} */
const servers = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * @param {Map<string, { head: Uint8Array, size: number }>} files
 * @param {number | ((path: string) => number)} [delayMs]
 */
async function serve(files, delayMs = DELAY_MS) {
  const server = await serveFiles(files, { delayMs });
  servers.push(server);
  return server;
}

describe('a big sharded model over a slow network', () => {
  test.each(['405B', '70B'])(
    "Llama 3.1 %s's layout: index and config.json in one round trip, every header in the next, one request per shard; the card right",
    async (which) => {
      const layout = llamaLayout(/** @type {'405B' | '70B'} */ (which));
      const server = await serve(layoutFiles(layout));
      const model = await openSafetensorsIndex(server.url(INDEX));
      const card = await model.describe();
      expect(model.findings).toEqual([]);
      expect(model.tensors).toHaveLength(layout.tensors);
      expect(card.parameters.total).toBe(layout.parameters);
      expect(card.memory.kvCache?.bytesPerToken).toBe(layout.kvBytesPerToken);
      const { shards } = LLAMA_LAYOUTS[/** @type {'405B' | '70B'} */ (which)];
      const round = (/** @type {string} */ path) => server.log.filter((r) => r.path === path).map((r) => r.round);
      expect(round(INDEX)).toEqual([1]);
      expect(round('/m/config.json')).toEqual([1]);
      const shardRequests = server.log.filter((r) => r.path.endsWith('.safetensors'));
      expect(new Set(shardRequests.map((r) => r.path)).size).toBe(shards);
      expect(shardRequests).toHaveLength(shards);
      expect(shardRequests.every((r) => r.round === 2)).toBe(true);
      expect(server.counts()).toMatchObject({ requests: shards + 2, rounds: 2 });
    },
  );

  test('`concurrency` caps the shards in flight: 30 shards 4 at a time take 8 round trips after the index', async () => {
    // The full delay: each answer frees a slot and the next request goes out as the client gets
    // to it, so a request sent more than a short delay after its batch's first counts as one more
    // round trip (10 instead of 9 once in make test, with 60 ms).
    const server = await serve(layoutFiles(llamaLayout('70B')));
    const model = await openSafetensorsIndex(server.url(INDEX), { concurrency: 4 });
    expect(model.findings).toEqual([]);
    const shardRequests = server.log.filter((r) => r.path.endsWith('.safetensors'));
    expect(Math.max(...shardRequests.map((r) => r.inFlight))).toBeLessThanOrEqual(4 + 1); // + config.json
    expect(server.counts().rounds).toBe(1 + Math.ceil(30 / 4));
  });

  test('`maxBytesInFlight` caps the header bytes in flight: one first read at a time, and headers longer than the limit read one at a time', async () => {
    const layout = llamaLayout('70B');
    const server = await serve(layoutFiles(layout), SHORT_DELAY_MS);
    const firstReads = () =>
      server.log
        .filter((r) => r.path.endsWith('.safetensors'))
        .map((r) => Number(/-(\d+)$/.exec(r.range ?? '')?.[1]) + 1);
    await openSafetensorsIndex(server.url(INDEX));
    const largest = Math.max(...firstReads());
    server.reset();
    const model = await openSafetensorsIndex(server.url(INDEX), { maxBytesInFlight: largest });
    expect(model.findings).toEqual([]);
    expect(firstReads().length).toBe(30);
    expect(server.counts().rounds).toBe(1 + 30); // every shard in a round trip of its own

    // Four small shards and two with 300 KB of metadata each (a second read of ~300 KB), a limit
    // of 64 KiB: without it, both second reads would go in the same round trip.
    const tensor = (/** @type {string} */ name) => ({ name, dtype: 'F32', shape: [2], bytes: 8 });
    const files = new Map();
    /** @type {Record<string, string>} */
    const weightMap = {};
    const long = ['/x/s1.safetensors', '/x/s3.safetensors'];
    for (let s = 0; s < 6; s++) {
      const metadata = long.includes(`/x/s${s}.safetensors`) ? { notes: 'x'.repeat(300_000) } : undefined;
      files.set(`/x/s${s}.safetensors`, headerOf([tensor(`t${s}`)], metadata));
      weightMap[`t${s}`] = `s${s}.safetensors`;
    }
    const index = new TextEncoder().encode(JSON.stringify({ weight_map: weightMap }));
    files.set('/x/model.safetensors.index.json', { head: index, size: index.byteLength });
    const small = await serve(files, SHORT_DELAY_MS);
    const opened = await openSafetensorsIndex(small.url('/x/model.safetensors.index.json'), {
      maxBytesInFlight: 64 << 10,
    });
    expect(opened.findings).toEqual([]);
    const secondReads = long.map((path) => small.log.filter((r) => r.path === path)[1]);
    expect(secondReads.map((r) => r.inFlight)).toEqual([1, 1]);
    expect(secondReads[0].round).not.toBe(secondReads[1].round);
  });

  test('progress counts shards answered of all; an abort rejects at once and stops every read in flight', async () => {
    const layout = llamaLayout('405B');
    const server = await serve(layoutFiles(layout));
    /** @type {[number, number][]} */
    const progress = [];
    await openSafetensorsIndex(server.url(INDEX), { onProgress: (done, total) => progress.push([done, total]) });
    expect(progress).toEqual(Array.from({ length: 191 }, (_, i) => [i + 1, 191]));

    // The index and config.json answered at once, the shards never (unless the client gives up).
    const slow = await serve(layoutFiles(layout), (path) => (path.endsWith('.safetensors') ? 600_000 : 0));
    const isShard = (/** @type {{ path: string }} */ r) => r.path.endsWith('.safetensors');
    const controller = new AbortController();
    const opening = openSafetensorsIndex(slow.url(INDEX), { signal: controller.signal });
    await until(() => slow.log.filter(isShard).length === 191);
    controller.abort(new Error('stop'));
    expect((await rejection(opening)).message).toBe('stop');
    await until(() => slow.log.filter(isShard).every((r) => r.abandoned));
    const asked = slow.log.length;
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    expect(slow.log.length).toBe(asked); // nothing asked after the abort
  });
});
