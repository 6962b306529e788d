// A worker seen from the thread that started it, as { post, listen, stop }: a browser module
// worker or a Node worker thread. Callers write `new Worker(new URL('./x.js', import.meta.url))`
// themselves, so that bundlers find the worker's script and its imports.
import { errorText } from './errors.js';

/**
 * `post` sends a message (moving the buffers in `transfer`), `listen` receives the worker's and
 * hears of its failure (a script that fails to load, an error, an exit), `stop` ends it.
 * @template Out, In what is sent to the worker, what it answers
 * @typedef {object} Endpoint
 * @property {(message: Out, transfer?: any[]) => void} post
 * @property {(onMessage: (message: In) => void, onFailure: (why: string) => void) => void} listen
 * @property {() => void} stop
 * @property {(busy: boolean) => void} [keepAlive] Node: whether the worker keeps the process
 *   alive (only while it has work: a script that forgets to stop it still exits)
 */

/**
 * A browser worker as an endpoint.
 * @template Out, In
 * @param {Worker} worker
 * @returns {Endpoint<Out, In>}
 */
export function browserEndpoint(worker) {
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    listen(onMessage, onFailure) {
      worker.onmessage = (event) => onMessage(event.data);
      worker.onerror = (event) => {
        event.preventDefault?.();
        onFailure(event.message || 'the worker script failed to load');
      };
      worker.onmessageerror = () => onFailure('a message could not be read');
    },
    stop: () => worker.terminate(),
  };
}

/**
 * A Node worker thread running the script at `url`, as an endpoint.
 * @template Out, In
 * @param {URL} url
 * @returns {Promise<Endpoint<Out, In>>}
 */
export async function nodeEndpoint(url) {
  const threads = 'node:worker_threads'; // a variable: bundlers do not follow it
  /** @type {typeof import('node:worker_threads')} */
  const { Worker: NodeWorker } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  const worker = new NodeWorker(url);
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    listen(onMessage, onFailure) {
      worker.on('message', onMessage);
      worker.on('error', (error) => onFailure(errorText(error)));
      worker.on('exit', (code) => onFailure(`the worker exited (code ${code})`));
    },
    stop: () => {
      worker.terminate().catch(() => {});
    },
    keepAlive: (busy) => (busy ? worker.ref() : worker.unref()),
  };
}
