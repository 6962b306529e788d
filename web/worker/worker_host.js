// The worker side of openInWorker (web/worker.js): opens the source it is sent with the
// package, runs each request on it and answers with plain objects; arrays are transferred,
// not copied. Runs as a browser module worker or a Node worker thread.
import { SafetensorsError, openSafetensors } from '../index.js';
import { portReader } from './read_port.js';

/** @typedef {import('../index.js').SafetensorsFile} SafetensorsFile */
/** @typedef {{ port: import('./read_port.js').Port, size: number }} ServedSource  a source the page reads for this worker (read_port.js) */
/** @typedef {import('../index.js').TensorArray} TensorArray */
/** @typedef {(done: number, total: number) => void} Progress */
/** @typedef {import('../tensors/decode.js').TensorPiece} Piece  one streamed piece, its array moved */
/** @typedef {Pick<import('../index.js').SafetensorsFile, 'tensors' | 'metadata' | 'headerSize' | 'dataStart' | 'fileSize' | 'findings' | 'report'>} OpenAnswer */
/**
 * Each request the page makes: its fields (besides `id`, `op` and `progress`) and the value the
 * worker answers. Options come without signal and onProgress: the worker makes its own.
 * @typedef {{
 *   open: { fields: { source: Blob | ArrayBuffer | Uint8Array | string | ServedSource, options: { headers?: HeadersInit, firstRead?: number } }, answer: OpenAnswer },
 *   getTensor: { fields: { name: string, options: Omit<import('../index.js').GetTensorOptions, 'signal' | 'onProgress' | 'into'> }, answer: TensorArray },
 *   getTensors: { fields: { names: string[], options: Omit<import('../index.js').GetTensorsOptions, 'signal' | 'onProgress'> }, answer: Map<string, TensorArray> },
 *   describe: { fields: { options: { readAlpha?: boolean } }, answer: import('../index.js').ModelCard },
 *   hash: { fields: { options: Omit<import('../index.js').HashOptions, 'signal' | 'onProgress'> }, answer: import('../index.js').HashResult },
 *   stream: { fields: { name: string, options: Omit<import('../index.js').StreamTensorOptions, 'signal' | 'onProgress'> }, answer: null },
 * }} Requests
 */
/**
 * What the page posts (web/worker/channel.js): request `id` of `op` with its fields, or
 * `abort` or `credit` (one more piece may be sent ahead) for the request `target`.
 * @typedef {{ [K in keyof Requests]: { id: number, op: K, progress: boolean } & Requests[K]['fields'] }[keyof Requests]
 *   | { id?: undefined, op: 'abort', target: number } | { id?: undefined, op: 'credit', target: number }} PageMessage
 */
/**
 * What the worker posts: `ready` once it listens; then, for request `id`, its progress, its
 * streamed pieces, and last its value or error.
 * @typedef {{ ready: true, id?: undefined }
 *   | { ready?: undefined, id: number, progress?: [number, number], piece?: Piece, value?: unknown, error?: ErrorMessage }} HostMessage
 */
/**
 * A thrown value in a message: enough to throw the same kind on the page.
 * @typedef {{ kind: 'SafetensorsError', code: import('../index.js').ErrorCode, message: string, tensor?: string, status?: number,
 *   report?: import('../index.js').ValidationReport, findings: import('../index.js').Finding[] }} SafetensorsErrorMessage
 * @typedef {SafetensorsErrorMessage | { kind: string, message: string }} ErrorMessage
 */

/** @typedef {{ postMessage(message: unknown, transfer: ArrayBuffer[]): void }} WorkerScope */
/** @typedef {import('node:worker_threads').MessagePort} MessagePort */
/**
 * How the worker answers each request: its value, and the buffers to move rather than copy.
 * @typedef {{ [K in keyof Requests]: (message: Requests[K]['fields'] & { id: number }, signal: AbortSignal, progress?: Progress)
 *   => Promise<{ value: Requests[K]['answer'], transfer?: ArrayBuffer[] }> }} Handlers
 */

/** Pieces of a stream sent ahead of the page's reading; then the worker waits for credit. */
const STREAM_WINDOW = 4;

/**
 * This worker's end of its channel: `post` sends a message (moving the buffers in `transfer`),
 * `listen` receives the page's.
 * @returns {Promise<{ post(message: HostMessage, transfer?: ArrayBuffer[]): void, listen(fn: (message: PageMessage) => void): void }>}
 */
async function hostPort() {
  if (typeof (/** @type {{ WorkerGlobalScope?: unknown }} */ (globalThis).WorkerGlobalScope) !== 'undefined') {
    // `self` is a worker's global scope (DedicatedWorkerGlobalScope), which the DOM lib types as a Window.
    return {
      post: (message, transfer) => /** @type {WorkerScope} */ (self).postMessage(message, transfer ?? []),
      listen: (fn) => {
        self.onmessage = (event) => fn(event.data);
      },
    };
  }
  const threads = 'node:worker_threads';
  /** @type {typeof import('node:worker_threads')} */
  const { parentPort } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  // parentPort is set in a worker thread.
  return {
    post: (message, transfer) => /** @type {MessagePort} */ (parentPort).postMessage(message, transfer ?? []),
    listen: (fn) => /** @type {MessagePort} */ (parentPort).on('message', fn),
  };
}

/**
 * What a thrown value becomes in a message: enough to throw the same kind on the page.
 * @param {unknown} error
 * @returns {ErrorMessage}
 */
function errorMessage(error) {
  if (error instanceof SafetensorsError) {
    const { code, message, tensor, status, report } = error;
    return { kind: 'SafetensorsError', code, message, tensor, status, report, findings: error.findings };
  }
  if (error instanceof Error) return { kind: error.name, message: error.message };
  return { kind: 'Error', message: String(error) };
}

// A read's arrays each have a buffer of their own, never a SharedArrayBuffer: they can be moved.
const buffersOf = (/** @type {TensorArray[]} */ arrays) => arrays.map((a) => /** @type {ArrayBuffer} */ (a.buffer));

async function main() {
  const port = await hostPort();
  /** @type {SafetensorsFile | null} set by open; the listener answers nothing else before */
  let st = null;
  /** @type {Map<number, AbortController>} */
  const running = new Map();
  /** @type {Map<number, { credit: number, wake: ((value?: unknown) => void) | null }>} */
  const streams = new Map();

  /**
   * @param {number} id
   * @param {string} name
   * @param {Requests['stream']['fields']['options']} options
   * @param {AbortSignal} signal
   */
  async function stream(id, name, options, signal) {
    /** @type {{ credit: number, wake: ((value?: unknown) => void) | null }} */
    const state = { credit: STREAM_WINDOW, wake: null };
    streams.set(id, state);
    const onAbort = () => state.wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      for await (const { offset, values } of /** @type {SafetensorsFile} */ (st).streamTensor(name, {
        ...options,
        signal,
      })) {
        while (state.credit === 0 && !signal.aborted)
          await new Promise((resolve) => {
            state.wake = resolve;
          });
        if (signal.aborted) throw signal.reason;
        state.credit--;
        const copy = values.slice();
        port.post({ id, piece: { offset, values: copy } }, [copy.buffer]);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      streams.delete(id);
    }
    return null;
  }

  /** @type {Handlers} */
  const requests = {
    async open({ source, options }) {
      const served = typeof source === 'object' && source !== null && 'port' in source;
      st = await openSafetensors(served ? portReader(source.port, source.size) : source, options);
      const { tensors, metadata, headerSize, dataStart, fileSize, findings, report } = st;
      return { value: { tensors, metadata, headerSize, dataStart, fileSize, findings, report } };
    },
    async getTensor({ name, options }, signal, progress) {
      const array = await /** @type {SafetensorsFile} */ (st).getTensor(name, {
        ...options,
        signal,
        onProgress: progress,
      });
      return { value: array, transfer: [/** @type {ArrayBuffer} */ (array.buffer)] };
    },
    async getTensors({ names, options }, signal, progress) {
      const map = await /** @type {SafetensorsFile} */ (st).getTensors(names, {
        ...options,
        signal,
        onProgress: progress,
      });
      return { value: map, transfer: buffersOf([...map.values()]) };
    },
    async describe({ options }, signal) {
      return { value: await /** @type {SafetensorsFile} */ (st).describe({ ...options, signal }) };
    },
    async hash({ options }, signal, progress) {
      return { value: await /** @type {SafetensorsFile} */ (st).hash({ ...options, signal, onProgress: progress }) };
    },
    async stream({ id, name, options }, signal) {
      return { value: await stream(id, name, options, signal) };
    },
  };

  port.listen(async (message) => {
    const { id, op } = message;
    if (op === 'abort') {
      running.get(message.target)?.abort(new Error('aborted'));
      return;
    }
    if (op === 'credit') {
      const state = streams.get(message.target);
      if (state) {
        state.credit++;
        state.wake?.();
        state.wake = null;
      }
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const progress = message.progress
      ? (/** @type {number} */ done, /** @type {number} */ total) => port.post({ id, progress: [done, total] })
      : undefined;
    try {
      // The message holds the fields of its op, whose handler this is.
      const handler =
        /** @type {(message: PageMessage, signal: AbortSignal, progress?: Progress) => ReturnType<Handlers[keyof Handlers]>} */ (
          requests[op]
        );
      if (!handler) throw new TypeError(`unknown request ${op}`);
      if (op !== 'open' && st === null) throw new TypeError('no file is open in this worker');
      const { value, transfer } = await handler(message, controller.signal, progress);
      port.post({ id, value }, transfer);
    } catch (error) {
      if (!controller.signal.aborted) port.post({ id, error: errorMessage(error) });
    } finally {
      running.delete(id);
    }
  });
  port.post({ ready: true });
}

// A failed start is thrown outside the promise, so that the worker's error event says so.
main().catch((error) =>
  setTimeout(() => {
    throw error;
  }),
);
