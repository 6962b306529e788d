// A big sharded model by its index URL in Chromium over a slow network (issue 48): Llama 3.1
// 405B's layout (191 shards) from an HTTP/2 server (TLS, a certificate made here; Chromium runs
// with --ignore-certificate-errors; 128 streams at once, as nginx allows) and 70B's (30 shards)
// from an HTTP/1.1 server, every request answered after a delay, each opened by the API in the
// page and by <safetensors-card src=…>. The server counts round trips (tests/js/layout_server.js):
// over HTTP/2 the index and config.json share one, the shards' headers take the next one or two
// (128 streams, then the rest); over HTTP/1.1 the browser sends six at a time and queues the rest
// itself. Each open in a context of its own: new connections, nothing cached.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { demoBrowser } from './demo_browser.js';
import { answerTo, cardText, openCard } from './element_page.js';
import { layoutFiles, serveFiles } from '../js/layout_server.js';
import { LLAMA_LAYOUTS, llamaLayout } from '../../tools/llama_layouts.js';

/**
 * Each request's delay. Chromium here takes 100–200 ms of its own to send 191 fetches and more
 * to read their answers (2 cores, shared): with a delay well above that, the rounds counted are
 * the protocol's, not this machine's load (a request sent after an answer went out counts as the
 * next round trip). Times at 50 ms: tests/bench/sharded_latency.bench.js (Node).
 */
const DELAY_MS = 300;
const INDEX = '/m/model.safetensors.index.json';
/** HTTP/1.1 in Chromium: connections to one server at once (net/socket/client_socket_pool_manager.cc). */
const HTTP1_CONNECTIONS = 6;
/** HTTP/2: the streams the server lets a client have open at once (layout_server.js's default). */
const HTTP2_STREAMS = 128;

const ctx = demoBrowser('stw-round-trips-', ['web', 'demo', 'tests/browser'], ['--ignore-certificate-errors']);
/** @type {{ key: string, cert: string }} */
let tls;
beforeAll(async () => {
  // A self-signed P-256 certificate for 127.0.0.1, made by Debian's openssl for this run.
  const [key, cert] = ['key.pem', 'cert.pem'].map((name) => join(ctx.dir, name));
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  tls = { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
});

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/**
 * The layout served with the delay, over HTTP/2 (TLS) or HTTP/1.1, and a fresh page of the card.
 * @param {'405B' | '70B'} which
 * @param {boolean} http2
 */
async function setUp(which, http2) {
  const layout = llamaLayout(which);
  const server = await serveFiles(layoutFiles(layout), { delayMs: DELAY_MS, tls: http2 ? tls : null });
  const { page, errors } = await openCard(ctx);
  cleanups.push(
    () => server.close(),
    () => page.close(),
  );
  return { layout, server, page, errors, url: server.url(INDEX) };
}

/**
 * What the server was asked, without CORS preflights: GETs per path, and the preflights.
 * @param {Awaited<ReturnType<typeof serveFiles>>} server
 */
function asked(server) {
  const gets = server.log.filter((r) => r.method === 'GET');
  /** @type {Map<string, number>} */
  const perPath = new Map();
  for (const r of gets) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
  return { gets: gets.length, perPath, preflights: server.log.length - gets.length };
}

/**
 * One GET per shard, plus the index and config.json.
 * @param {Awaited<ReturnType<typeof serveFiles>>} server
 * @param {'405B' | '70B'} which
 */
function expectOneGetPerShard(server, which) {
  const { gets, perPath } = asked(server);
  const { shards } = LLAMA_LAYOUTS[which];
  expect(gets).toBe(shards + 2);
  expect(perPath.get(INDEX)).toBe(1);
  expect(perPath.get('/m/config.json')).toBe(1);
  expect([...perPath].filter(([path, n]) => path.endsWith('.safetensors') && n === 1)).toHaveLength(shards);
}

/** Opens and describes the model with the API in the page; the facts a card is checked on. */
const openInPage = (/** @type {import('playwright-core').Page} */ page, /** @type {string} */ url) =>
  // A string, not a function: Vitest rewrites import() inside functions it compiles.
  page.evaluate(`(async (indexUrl) => {
    const { openSafetensorsIndex } = await import('/web/index.js');
    const model = await openSafetensorsIndex(indexUrl);
    const card = await model.describe();
    return {
      findings: model.findings.map((f) => f.code),
      tensors: model.tensors.length,
      parameters: card.parameters.total,
      kvBytesPerToken: card.memory.kvCache?.bytesPerToken ?? null,
    };
  })(${JSON.stringify(url)})`);

describe.each([
  { transport: 'HTTP/2', which: /** @type {const} */ ('405B'), http2: true },
  { transport: 'HTTP/1.1', which: /** @type {const} */ ('70B'), http2: false },
])('Llama 3.1 $which over $transport, a delay per request (Chromium)', ({ which, http2 }) => {
  const { shards, layers } = LLAMA_LAYOUTS[which];
  /** The fewest round trips the transport allows: 128 streams at a time, or six connections. */
  const floor = 1 + Math.ceil(shards / (http2 ? HTTP2_STREAMS : HTTP1_CONNECTIONS));

  /** @param {Awaited<ReturnType<typeof serveFiles>>} server */
  function expectRoundTrips(server) {
    const { rounds, maxInFlight } = server.counts();
    const { preflights } = asked(server);
    // Over HTTP/2 the 405B layout within five round trips (issue 48); over HTTP/1.1 the browser's
    // queue, and at most two more (CORS preflights, a straggler on a loaded machine).
    expect(rounds, `${preflights} preflights`).toBeLessThanOrEqual(http2 ? 5 : floor + 2);
    expect(rounds).toBeGreaterThanOrEqual(floor);
    // As many at once as the transport lets through: nothing held back here (within a tenth: on
    // a loaded machine the first answers can come back before the last of a batch is sent).
    const limit = http2 ? HTTP2_STREAMS : HTTP1_CONNECTIONS;
    expect(maxInFlight).toBeLessThanOrEqual(limit);
    expect(maxInFlight).toBeGreaterThanOrEqual(Math.floor(limit * 0.9));
  }

  test('openSafetensorsIndex + describe() in the page: one GET per shard, the round trips the transport allows, the card right', async () => {
    const { layout, server, page, errors, url } = await setUp(which, http2);
    const facts = await openInPage(page, url);
    expect(facts).toEqual({
      findings: [],
      tensors: layout.tensors,
      parameters: layout.parameters,
      kvBytesPerToken: layout.kvBytesPerToken,
    });
    expectOneGetPerShard(server, which);
    expectRoundTrips(server);
    expect(errors).toEqual([]);
  });

  test('<safetensors-card src=…>: the same requests and round trips; the card shows the parameters and the KV cache', async () => {
    const { layout, server, page, errors, url } = await setUp(which, http2);
    const load = await answerTo(page, (src) => window.card.setAttribute('src', src), url);
    expect(load).toMatchObject({ type: 'load', detail: { kind: 'model', loadable: true, opened: 'ShardedModel' } });
    const card = await page.evaluate(() => ({
      parameters: window.card.card.parameters.total,
      kv: window.card.card.memory.kvCache?.bytesPerToken,
    }));
    expect(card).toEqual({ parameters: layout.parameters, kv: layout.kvBytesPerToken });
    expect(await cardText(page, 'card-kv-cache')).toContain(`${layers} layers × 8 KV heads × 128 × BF16`);
    expectOneGetPerShard(server, which);
    expectRoundTrips(server);
    expect(errors).toEqual([]);
  });
});
