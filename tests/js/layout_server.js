// A server for big sharded layouts (tools/llama_layouts.js) over a slow network: each file is its
// first bytes followed by zeros up to its size, served with single byte ranges over HTTP/1.1 or
// HTTP/2 (TLS), every request answered after `delayMs` (the round trip to a far server), with
// CORS for pages on another origin. It counts what a client asked: requests, the most in flight
// at once, bytes sent, and round trips: a request's round is one more than the latest round whose
// answer had been sent when it arrived, so requests sent together share a round and a request
// that had to wait for an answer starts the next. The counts live in shared memory, so the
// server can run in a worker thread (serveLayoutInWorker) and leave the client's thread alone.
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';
import { llamaLayout } from '../../tools/llama_layouts.js';
import { answerCors } from './cors.js';

const SLOTS = { requests: 0, inFlight: 1, maxInFlight: 2, rounds: 3, bytes: 4, generation: 5 };

/**
 * A layout's files by path under `/m/`: shards as first bytes and size, the index and config.json whole.
 * @param {ReturnType<typeof llamaLayout>} layout
 * @returns {Map<string, { head: Uint8Array, size: number }>}
 */
export function layoutFiles(layout) {
  const files = new Map([...layout.shards].map(([name, shard]) => [`/m/${name}`, shard]));
  files.set('/m/model.safetensors.index.json', { head: layout.index, size: layout.index.byteLength });
  files.set('/m/config.json', { head: layout.config, size: layout.config.byteLength });
  return files;
}

/**
 * The counts as an object, from the shared slots.
 * @param {Int32Array} slots
 */
function countsOf(slots) {
  return {
    requests: Atomics.load(slots, SLOTS.requests),
    maxInFlight: Atomics.load(slots, SLOTS.maxInFlight),
    rounds: Atomics.load(slots, SLOTS.rounds),
    bytes: Atomics.load(slots, SLOTS.bytes),
  };
}

/** Zeroes the counts; the server starts its rounds again at its next request. @param {Int32Array} slots */
function resetCounts(slots) {
  for (const slot of [SLOTS.requests, SLOTS.maxInFlight, SLOTS.rounds, SLOTS.bytes]) Atomics.store(slots, slot, 0);
  Atomics.add(slots, SLOTS.generation, 1);
}

/**
 * Serves `files` on 127.0.0.1.
 * @param {Map<string, { head: Uint8Array, size: number }>} files
 * @param {{ delayMs?: number | ((path: string) => number), tls?: { key: string, cert: string } | null,
 *   streams?: number, slots?: Int32Array }} [options]
 *   delayMs: for every request, or by path; tls: HTTP/2 over TLS with this key and certificate;
 *   streams: HTTP/2 streams a client may have open at once (128, nginx's
 *   http2_max_concurrent_streams); slots: where the counts go (shared memory)
 */
export async function serveFiles(files, { delayMs = 0, tls = null, streams = 128, slots = new Int32Array(8) } = {}) {
  /**
   * Each request: its round, how many were in flight when it arrived (itself included), and
   * whether the client gave it up before its answer (abandoned), when it arrived (ms, performance.now()).
   * @type {{ path: string, range: string | undefined, method: string, round: number, inFlight: number, abandoned: boolean, at: number }[]}
   */
  const log = [];
  let generation = Atomics.load(slots, SLOTS.generation);
  let answeredRound = 0; // the latest round whose answer was sent
  const delayFor = typeof delayMs === 'function' ? delayMs : () => delayMs;
  /** @param {any} req @param {any} res */
  const handler = (req, res) => {
    if (Atomics.load(slots, SLOTS.generation) !== generation) {
      generation = Atomics.load(slots, SLOTS.generation);
      answeredRound = 0;
      log.length = 0;
    }
    const round = answeredRound + 1;
    Atomics.add(slots, SLOTS.requests, 1);
    if (Atomics.load(slots, SLOTS.rounds) < round) Atomics.store(slots, SLOTS.rounds, round);
    const inFlight = Atomics.add(slots, SLOTS.inFlight, 1) + 1;
    if (Atomics.load(slots, SLOTS.maxInFlight) < inFlight) Atomics.store(slots, SLOTS.maxInFlight, inFlight);
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const at = performance.now();
    const entry = { path, range: req.headers.range, method: req.method, round, inFlight, abandoned: false, at };
    log.push(entry);
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      Atomics.sub(slots, SLOTS.inFlight, 1);
      answeredRound = Math.max(answeredRound, round);
      answer(req, res, files.get(path), slots);
    }, delayFor(path));
    res.on('close', () => {
      if (answered) return;
      entry.abandoned = true;
      clearTimeout(timer);
      Atomics.sub(slots, SLOTS.inFlight, 1);
    });
  };
  const server = tls
    ? createSecureServer({ key: tls.key, cert: tls.cert, settings: { maxConcurrentStreams: streams } }, handler)
    : createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    origin,
    url: (/** @type {string} */ path) => origin + path,
    log,
    counts: () => countsOf(slots),
    reset: () => resetCounts(slots),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * One answer: CORS headers, a preflight's 204, 404 for unknown paths, HEAD's size, the whole
 * file without Range (416 for a shard, held as its first bytes only), else the range asked for (206).
 * @param {any} req
 * @param {any} res
 * @param {{ head: Uint8Array, size: number } | undefined} file
 * @param {Int32Array} slots
 */
function answer(req, res, file, slots) {
  if (answerCors(req, res)) return;
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.setHeader('ETag', `"${file.size}"`);
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'Content-Length': file.size, 'Accept-Ranges': 'bytes' }).end();
    return;
  }
  const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  if (!m && file.size > file.head.byteLength) {
    // Only what it holds whole is sent whole (a shard's zeros would be gigabytes).
    res.writeHead(416, { 'Content-Range': `bytes */${file.size}` }).end();
    return;
  }
  const start = m ? Number(m[1]) : 0;
  const end = m ? Math.min(Number(m[2]), file.size - 1) : file.size - 1;
  const body = new Uint8Array(end - start + 1);
  if (start < file.head.byteLength) body.set(file.head.subarray(start, Math.min(end + 1, file.head.byteLength)));
  Atomics.add(slots, SLOTS.bytes, body.byteLength);
  if (!m) {
    res.writeHead(200, { 'Content-Length': body.byteLength }).end(body);
    return;
  }
  res.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${file.size}`, 'Content-Length': body.byteLength });
  res.end(body);
}

/**
 * A Llama layout served from a worker thread, so that the server's work is not the client's:
 * the same interface as serveFiles, without the log.
 * @param {keyof import('../../tools/llama_layouts.js').LLAMA_LAYOUTS} which
 * @param {{ delayMs?: number }} [options]
 */
export async function serveLayoutInWorker(which, { delayMs = 0 } = {}) {
  const slots = new Int32Array(new SharedArrayBuffer(8 * 4));
  const worker = new Worker(new URL(import.meta.url), { workerData: { layoutServer: { which, delayMs, slots } } });
  const origin = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    origin,
    url: (/** @type {string} */ path) => origin + path,
    counts: () => countsOf(slots),
    reset: () => resetCounts(slots),
    close: () => worker.terminate(),
  };
}

if (!isMainThread && workerData?.layoutServer) {
  const { which, delayMs, slots } = workerData.layoutServer;
  const server = await serveFiles(layoutFiles(llamaLayout(which)), { delayMs, slots });
  parentPort?.postMessage(server.origin);
}
