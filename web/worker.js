// safetensors-wasm/worker: openInWorker(source) opens a file in one or more workers and gives
// the read API of openSafetensors, its work done there: the page's thread only receives the
// results, transferred (not copied). Browsers: module workers; Node: worker threads.
import { isNode } from './core/platform.js';
import { SafetensorsError, errorText } from './core/errors.js';
import { throwIfAborted } from './core/abort.js';

/** A worker as { post, listen, stop }. */
async function spawn() {
  const url = new URL('./worker/worker_host.js', import.meta.url);
  if (!isNode()) {
    // Written out in full so that bundlers find the worker and its imports.
    const worker = new Worker(new URL('./worker/worker_host.js', import.meta.url), { type: 'module' });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer ?? []),
      listen(onMessage, onFailure) {
        worker.onmessage = (event) => onMessage(event.data);
        worker.onerror = (event) => { event.preventDefault?.(); onFailure(event.message || 'the worker script failed to load'); };
      },
      stop: () => worker.terminate(),
    };
  }
  const threads = 'node:worker_threads';
  const { Worker: NodeWorker } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  const worker = new NodeWorker(url);
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    listen(onMessage, onFailure) {
      worker.on('message', onMessage);
      worker.on('error', (error) => onFailure(errorText(error)));
    },
    stop: () => { worker.terminate().catch(() => {}); },
  };
}

/** The error a worker reported, as the same kind of error here. */
function rebuild(error) {
  if (error.kind === 'SafetensorsError') {
    const { code, message, tensor, status, report, findings } = error;
    return new SafetensorsError(code, message, { tensor, status, report, findings });
  }
  if (error.kind === 'TypeError') return new TypeError(error.message);
  if (error.kind === 'RangeError') return new RangeError(error.message);
  return new Error(error.message);
}

/** One worker and the requests it is working on. */
class Lane {
  constructor(endpoint) {
    this.endpoint = endpoint;
    /** @type {Map<number, { resolve: (v: any) => void, reject: (e: unknown) => void, onProgress?: Function, onPiece?: Function }>} */
    this.pending = new Map();
    this.next = 1;
    this.failure = null;
    this.ready = new Promise((resolve, reject) => {
      endpoint.listen((message) => {
        if (message.ready) return resolve(undefined);
        const request = this.pending.get(message.id);
        if (!request) return undefined;
        if (message.progress) return request.onProgress?.(...message.progress);
        if (message.piece) return request.onPiece?.(message.piece);
        this.pending.delete(message.id);
        return message.error ? request.reject(rebuild(message.error)) : request.resolve(message.value);
      }, (why) => {
        this.failure = new SafetensorsError('InitError', `the worker stopped: ${why}`);
        reject(this.failure);
        for (const request of this.pending.values()) request.reject(this.failure);
        this.pending.clear();
      });
    });
  }

  /**
   * Sends a request; resolves to its answer. An abort rejects at once with the signal's
   * reason and tells the worker to stop.
   * @param {string} op
   * @param {object} payload
   * @param {{ signal?: AbortSignal, onProgress?: Function, onPiece?: Function }} [handlers]
   * @returns {Promise<any>}
   */
  request(op, payload, { signal, onProgress, onPiece } = {}) {
    throwIfAborted(signal);
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.endpoint.post({ op: 'abort', target: id });
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (fn) => (value) => {
        signal?.removeEventListener('abort', onAbort);
        fn(value);
      };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject), onProgress, onPiece });
      this.endpoint.post({ id, op, progress: Boolean(onProgress), ...payload });
    }).finally(() => this.pending.delete(id));
  }

  get busy() {
    return this.pending.size;
  }
}

const checkOptions = (options) => {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  if (options.into !== undefined) throw new TypeError('options.into cannot cross to a worker: the array comes back transferred');
  const { signal, onProgress, ...rest } = options;
  return { signal, onProgress, rest };
};

/**
 * Opens `source` in `concurrency` workers (each opens it once) and returns the read API of a
 * SafetensorsFile whose work runs there.
 * @param {Blob | ArrayBuffer | Uint8Array | string | URL} source anything openSafetensors takes that can be posted to a worker
 * @param {{ concurrency?: number, signal?: AbortSignal, fetch?: never, headers?: HeadersInit, firstRead?: number }} [options]
 */
export async function openInWorker(source, options = {}) {
  const { concurrency = 1, signal, ...openOptions } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new TypeError('options.concurrency must be a positive integer');
  if (openOptions.fetch !== undefined) throw new TypeError('options.fetch cannot cross to a worker');
  throwIfAborted(signal);
  const lanes = await Promise.all(Array.from({ length: concurrency }, async () => new Lane(await spawn())));
  const stop = () => { for (const lane of lanes) lane.endpoint.stop(); };
  let info;
  try {
    await Promise.all(lanes.map((lane) => lane.ready));
    const plain = source instanceof URL ? source.href : source;
    [info] = await Promise.all(lanes.map((lane) => lane.request('open', { source: plain, options: openOptions }, { signal })));
  } catch (error) {
    stop();
    throw error;
  }
  const pick = () => lanes.reduce((best, lane) => (lane.busy < best.busy ? lane : best));
  const byName = new Map(info.tensors.map((/** @type {any} */ t) => [t.name, t]));
  return {
    ...info,
    async getTensor(name, tensorOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(tensorOptions);
      return pick().request('getTensor', { name, options: rest }, { signal: s, onProgress });
    },
    async getTensors(names, batchOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(batchOptions);
      const wanted = names ?? info.tensors.map((/** @type {any} */ t) => t.name);
      if (!Array.isArray(wanted)) throw new TypeError('names must be an array of tensor names');
      // Split by bytes over the workers, each reading its share in one pass.
      const shares = lanes.map(() => /** @type {string[]} */ ([]));
      const loads = lanes.map(() => 0);
      for (const name of [...new Set(wanted)].sort((a, b) => (byName.get(b)?.byteLength ?? 0) - (byName.get(a)?.byteLength ?? 0))) {
        const k = loads.indexOf(Math.min(...loads));
        shares[k].push(name);
        loads[k] += byName.get(name)?.byteLength ?? 0;
      }
      const total = wanted.reduce((sum, n) => sum + (byName.get(n)?.byteLength ?? 0), 0);
      const seen = lanes.map(() => 0);
      let done = 0;
      const maps = await Promise.all(lanes.map((lane, k) => (shares[k].length === 0 ? new Map() : lane.request('getTensors', { names: shares[k], options: rest }, {
        signal: s,
        onProgress: onProgress && ((/** @type {number} */ d) => { done += d - seen[k]; seen[k] = d; onProgress(done, total); }),
      }))));
      const merged = new Map(maps.flatMap((m) => [...m]));
      return new Map(wanted.map((n) => [n, merged.get(n)]));
    },
    async* streamTensor(name, streamOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(streamOptions);
      const lane = pick();
      const pieces = [];
      /** @type {(value?: unknown) => void} */
      let wake = () => {};
      let finished = false;
      let failed = null;
      const request = lane.request('stream', { name, options: rest }, {
        signal: s,
        onProgress,
        onPiece: (piece) => { pieces.push(piece); wake(); },
      }).then(() => { finished = true; wake(); }, (error) => { failed = error; wake(); });
      const id = lane.next - 1;
      try {
        for (;;) {
          if (pieces.length > 0) {
            lane.endpoint.post({ op: 'credit', target: id });
            yield pieces.shift();
            continue;
          }
          if (failed) throw failed;
          if (finished) return;
          await new Promise((resolve) => { wake = resolve; });
        }
      } finally {
        // Left early: the worker stops, and nothing more is awaited from it.
        if (!finished && !failed) {
          lane.pending.delete(id);
          lane.endpoint.post({ op: 'abort', target: id });
        } else {
          await request;
        }
      }
    },
    async describe(describeOptions = {}) {
      const { signal: s, rest } = checkOptions(describeOptions);
      return lanes[0].request('describe', { options: rest }, { signal: s });
    },
    async hash(hashOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(hashOptions);
      return lanes[0].request('hash', { options: rest }, { signal: s, onProgress });
    },
    /** Stops the workers; later calls reject. */
    close: stop,
  };
}
