// A SHA-256 lane in a worker (web/hashing/sha256_lane.js): hashes the byte pieces it is sent, in
// order; `cut` answers the digest so far and starts again. Runs as a browser module worker
// (hash-wasm) or a Node worker thread (node:crypto).
import { isNode } from '../core/platform.js';
import { nodeSha256, wasmSha256 } from './sha256.js';
import { sha256Factory } from './load_sha256.js';

/**
 * What the lane sends: a piece to hash, or a cut (answer the digest so far and start again).
 * @typedef {{ bytes: Uint8Array, cut?: undefined } | { cut: true, bytes?: undefined }} LaneMessage
 * What the worker answers: started, bytes hashed, a digest, or a failure.
 * @typedef {{ ready?: true, done?: number, digest?: string, error?: string }} LaneReply
 */

/**
 * The page or thread that started this worker, as { post, listen }.
 * @returns {Promise<{ post: (message: LaneReply) => void, listen: (fn: (message: LaneMessage) => void) => void }>}
 */
async function hostPort() {
  if (typeof (/** @type {{ WorkerGlobalScope?: unknown }} */ (globalThis).WorkerGlobalScope) !== 'undefined') {
    return {
      post: (message) => self.postMessage(message),
      listen: (fn) => {
        self.onmessage = (event) => fn(event.data);
      },
    };
  }
  const threads = 'node:worker_threads';
  /** @type {typeof import('node:worker_threads')} */
  const { parentPort } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort); // always set in a worker thread
  return { post: (message) => port.postMessage(message), listen: (fn) => port.on('message', fn) };
}

// No top-level await: bundlers build workers as classic scripts by default (Vite: iife).
async function main() {
  const port = await hostPort();
  const hasher = isNode() ? await nodeSha256() : await wasmSha256(await sha256Factory());
  port.listen((message) => {
    try {
      if (message.bytes) {
        hasher.update(message.bytes);
        port.post({ done: message.bytes.byteLength });
      } else if (message.cut) {
        port.post({ digest: hasher.digest() });
      }
    } catch (error) {
      port.post({ error: error instanceof Error ? error.message : String(error) });
    }
  });
  port.post({ ready: true });
}

// A failed start (its SHA-256 not loadable) is thrown outside the promise, so that the worker's
// error event tells the host, as a failed import would.
main().catch((error) =>
  setTimeout(() => {
    throw error;
  }),
);
