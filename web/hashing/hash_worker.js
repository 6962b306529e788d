// A SHA-256 lane in a worker (web/hashing/sha256_lane.js): hashes the byte pieces it is sent, in
// order; `cut` answers the digest so far and starts again. Runs as a browser module worker
// or a Node worker thread.
import { createSHA256 } from 'hash-wasm';

async function hostPort() {
  if (typeof (/** @type {any} */ (globalThis).WorkerGlobalScope) !== 'undefined') {
    return { post: (message) => self.postMessage(message), listen: (fn) => { self.onmessage = (event) => fn(event.data); } };
  }
  const threads = 'node:worker_threads';
  const { parentPort } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  return { post: (message) => parentPort.postMessage(message), listen: (fn) => parentPort.on('message', fn) };
}

// No top-level await: bundlers build workers as classic scripts by default (Vite: iife).
async function main() {
  const port = await hostPort();
  const hasher = await createSHA256();
  hasher.init();
  port.listen((message) => {
    try {
      if (message.bytes) {
        hasher.update(message.bytes);
        port.post({ done: message.bytes.byteLength });
      } else if (message.cut) {
        port.post({ digest: hasher.digest('hex') });
        hasher.init();
      }
    } catch (error) {
      port.post({ error: error instanceof Error ? error.message : String(error) });
    }
  });
  port.post({ ready: true });
}

// A failed start (hash-wasm not loadable) is thrown outside the promise, so that the worker's
// error event tells the host, as a failed import would.
main().catch((error) => setTimeout(() => { throw error; }));
