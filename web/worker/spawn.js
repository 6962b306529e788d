// Starting the worker that runs worker_host.js: a browser module worker or a Node worker
// thread, both seen as { post, listen, stop }.
import { isNode } from '../core/platform.js';
import { errorText } from '../core/errors.js';

/**
 * The page's end of a worker's channel: `post` sends a message (moving the buffers in
 * `transfer`), `listen` receives the worker's and hears of its failure, `stop` ends it.
 * @typedef {object} WorkerEndpoint
 * @property {(message: import('./worker_host.js').PageMessage, transfer?: ArrayBuffer[]) => void} post
 * @property {(onMessage: (message: import('./worker_host.js').HostMessage) => void, onFailure: (why: string) => void) => void} listen
 * @property {() => void} stop
 */

/**
 * A worker as { post, listen, stop }.
 * @returns {Promise<WorkerEndpoint>}
 */
export async function spawn() {
  const url = new URL('./worker_host.js', import.meta.url);
  if (!isNode()) {
    // Written out in full so that bundlers find the worker and its imports.
    const worker = new Worker(new URL('./worker_host.js', import.meta.url), { type: 'module' });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer ?? []),
      listen(onMessage, onFailure) {
        worker.onmessage = (event) => onMessage(event.data);
        worker.onerror = (event) => {
          event.preventDefault?.();
          onFailure(event.message || 'the worker script failed to load');
        };
      },
      stop: () => worker.terminate(),
    };
  }
  const threads = 'node:worker_threads';
  /** @type {typeof import('node:worker_threads')} */
  const { Worker: NodeWorker } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  const worker = new NodeWorker(url);
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    listen(onMessage, onFailure) {
      worker.on('message', onMessage);
      worker.on('error', (error) => onFailure(errorText(error)));
    },
    stop: () => {
      worker.terminate().catch(() => {});
    },
  };
}
