// One worker and the requests it is working on: each request has an id, its answer (or error,
// rebuilt as the same kind of error here), its progress and streamed pieces; an abort tells
// the worker to stop that request.
import { SafetensorsError } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';

/** @typedef {import('./worker_host.js').Requests} Requests */
/** @typedef {import('./worker_host.js').Piece} Piece */
/** @typedef {import('./worker_host.js').Progress} Progress */

/**
 * The error a worker reported, as the same kind of error here.
 * @param {import('./worker_host.js').ErrorMessage} error
 */
function rebuild(error) {
  if (error.kind === 'SafetensorsError') {
    const { code, message, tensor, status, report, findings } =
      /** @type {import('./worker_host.js').SafetensorsErrorMessage} */ (error);
    return new SafetensorsError(code, message, { tensor, status, report, findings });
  }
  if (error.kind === 'TypeError') return new TypeError(error.message);
  if (error.kind === 'RangeError') return new RangeError(error.message);
  return new Error(error.message);
}

/** One worker and the requests it is working on. */
export class Channel {
  /** @param {import('./spawn.js').WorkerEndpoint} endpoint */
  constructor(endpoint) {
    this.endpoint = endpoint;
    /** @type {Map<number, { resolve: (value: unknown) => void, reject: (error: unknown) => void, onProgress?: Progress, onPiece?: (piece: Piece) => void }>} */
    this.pending = new Map();
    this.next = 1;
    /** @type {SafetensorsError | null} why the worker stopped */
    this.failure = null;
    this.ready = new Promise((resolve, reject) => {
      endpoint.listen(
        (message) => {
          if (message.ready) return resolve(undefined);
          const request = this.pending.get(message.id);
          if (!request) return undefined;
          if (message.progress) return request.onProgress?.(...message.progress);
          if (message.piece) return request.onPiece?.(message.piece);
          this.pending.delete(message.id);
          return message.error ? request.reject(rebuild(message.error)) : request.resolve(message.value);
        },
        (why) => {
          this.failure = new SafetensorsError('InitError', `the worker stopped: ${why}`);
          reject(this.failure);
          for (const request of this.pending.values()) request.reject(this.failure);
          this.pending.clear();
        },
      );
    });
  }

  /**
   * Sends a request; resolves to its answer. An abort rejects at once with the signal's
   * reason and tells the worker to stop.
   * @template {keyof Requests} K
   * @param {K} op
   * @param {Requests[K]['fields']} payload
   * @param {{ signal?: AbortSignal, onProgress?: Progress, onPiece?: (piece: Piece) => void, transfer?: any[] }} [handlers]
   *   transfer: what the message moves (a MessagePort)
   * @returns {Promise<Requests[K]['answer']>}
   */
  request(op, payload, { signal, onProgress, onPiece, transfer } = {}) {
    throwIfAborted(signal);
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    // A Node worker keeps the process alive only while it has requests to answer.
    if (this.pending.size === 0) this.endpoint.keepAlive?.(true);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.endpoint.post({ op: 'abort', target: id });
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      /** @type {<V>(fn: (value: V) => void) => (value: V) => void} */
      const settle = (fn) => (value) => {
        signal?.removeEventListener('abort', onAbort);
        fn(value);
      };
      // The worker answers request `id` with the value of its op.
      this.pending.set(id, {
        resolve: /** @type {(value: unknown) => void} */ (settle(resolve)),
        reject: settle(reject),
        onProgress,
        onPiece,
      });
      this.endpoint.post(
        /** @type {import('./worker_host.js').PageMessage} */ ({ id, op, progress: Boolean(onProgress), ...payload }),
        transfer,
      ); // payload is op's
    }).finally(() => {
      this.pending.delete(id);
      if (this.pending.size === 0) this.endpoint.keepAlive?.(false);
    });
  }

  /**
   * Stops waiting for request `id` (its answer will not come: the worker was told to abort it).
   * @param {number} id
   */
  forget(id) {
    this.pending.delete(id);
    if (this.pending.size === 0) this.endpoint.keepAlive?.(false);
  }

  get busy() {
    return this.pending.size;
  }
}
