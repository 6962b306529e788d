// SHA-256 lanes: one hash over a sequence of byte pieces, cut into digests where a hashed
// range ends. A lane runs on this thread, or in a worker (web/hashing/hash_worker.js) so that the
// hashes of one read (file, data section, tensors) use several cores. SHA-256 is node:crypto's
// in Node, hash-wasm's in browsers (web/hashing/sha256.js).
import { SafetensorsError } from '../core/errors.js';
import { browserEndpoint, nodeEndpoint } from '../core/worker_endpoint.js';
import { isNode } from '../core/platform.js';
import { nodeSha256, wasmSha256 } from './sha256.js';
import { sha256Factory } from './load_sha256.js';

/** A worker lane holds at most this many bytes sent but not yet hashed before update() waits. */
export const LANE_IN_FLIGHT_BYTES = 16 << 20;
/** A worker that has not started after this long is given up (the lane runs here instead). */
const WORKER_START_MS = 10_000;

/**
 * A fresh SHA-256: node:crypto's in Node, hash-wasm's elsewhere (loaded on the first hash only).
 * @returns {Promise<import('./sha256.js').Sha256>}
 */
export async function newSha256() {
  if (isNode()) return nodeSha256();
  return wasmSha256(await sha256Factory());
}

/**
 * @typedef {{
 *   update(bytes: Uint8Array): void | Promise<void>,
 *   cut(): Promise<string>,
 *   close(): void,
 * }} Sha256Lane
 *   update: hashes the next piece (a worker lane copies it; the promise, when there is one,
 *     resolves once the worker has caught up); cut: the digest (lowercase hex) of the pieces
 *     since the last cut; close: frees the lane (any time, also after a failure)
 */

/** @returns {Promise<Sha256Lane>} a lane on this thread */
export async function localLane() {
  const hasher = await newSha256();
  return {
    update(bytes) {
      hasher.update(bytes);
    },
    async cut() {
      return hasher.digest();
    },
    close() {},
  };
}

/**
 * A hashing worker (web/core/worker_endpoint.js).
 * @typedef {import('../core/worker_endpoint.js').Endpoint<import('./hash_worker.js').LaneMessage, import('./hash_worker.js').LaneReply>} HashWorker
 */

/**
 * The worker, or null where there are no workers.
 * @returns {Promise<HashWorker | null>}
 */
async function spawn() {
  if (isNode()) return nodeEndpoint(new URL('./hash_worker.js', import.meta.url));
  if (typeof Worker === 'undefined') return null;
  // Written out in full so that bundlers find the worker and its imports.
  return browserEndpoint(new Worker(new URL('./hash_worker.js', import.meta.url), { type: 'module' }));
}

/**
 * A lane in a worker of its own, or null when no worker can be started here (no Worker,
 * the script or hash-wasm cannot be loaded).
 * @returns {Promise<Sha256Lane | null>}
 */
export async function workerLane() {
  let host;
  try {
    host = await spawn();
  } catch {
    return null;
  }
  if (host === null) return null;
  /** @type {{ resolve: (digest: string) => void, reject: (error: Error) => void }[]} */
  const digests = [];
  let answered = 0; // digests[answered] waits for the next digest (shift() is O(n) on long arrays)
  /** @type {{ resolve: () => void, reject: (error: Error) => void } | null} update()'s wait for the worker to catch up */
  let waiter = null;
  let inFlight = 0;
  /** @type {Error | null} */
  let failure = null;
  /** @type {(ok: boolean) => void} */
  let started = () => {};
  /** @type {Promise<boolean>} */
  const ready = new Promise((resolve) => {
    started = resolve;
  });
  const fail = (/** @type {string} */ reason) => {
    if (failure) return;
    failure = new SafetensorsError('InternalError', `the hashing worker failed: ${reason}`);
    started(false);
    for (const d of digests.splice(answered)) d.reject(failure);
    waiter?.reject(failure);
    waiter = null;
  };
  host.listen((message) => {
    if (message.ready) started(true);
    else if (message.done !== undefined) {
      inFlight -= message.done;
      if (waiter && inFlight <= LANE_IN_FLIGHT_BYTES / 2) {
        waiter.resolve();
        waiter = null;
      }
    } else if (message.digest !== undefined) {
      if (answered < digests.length) digests[answered++].resolve(message.digest);
      if (answered === digests.length) answered = digests.length = 0;
    } else if (message.error !== undefined) fail(message.error);
  }, fail);
  const timer = setTimeout(() => fail('it did not start'), WORKER_START_MS);
  const ok = await ready;
  clearTimeout(timer);
  if (!ok) {
    host.stop();
    return null;
  }
  return {
    update(bytes) {
      if (failure) throw failure;
      const copy = bytes.slice(); // the chunk stays ours (other lanes read it); the copy moves
      inFlight += copy.byteLength;
      host.post({ bytes: copy }, [copy.buffer]);
      if (inFlight <= LANE_IN_FLIGHT_BYTES) return;
      return new Promise((resolve, reject) => {
        waiter = { resolve: () => resolve(), reject };
      });
    },
    cut() {
      if (failure) return Promise.reject(failure);
      host.post({ cut: true });
      return new Promise((resolve, reject) => digests.push({ resolve, reject }));
    },
    close() {
      failure ??= new SafetensorsError('InternalError', 'the hashing lane was closed');
      host.stop();
    },
  };
}
