// Starting the worker that runs worker_host.js: a browser module worker or a Node worker
// thread, both seen as { post, listen, stop }.
import { isNode } from '../core/platform.js';
import { browserEndpoint, nodeEndpoint } from '../core/worker_endpoint.js';

/**
 * The page's end of a worker's channel (web/core/worker_endpoint.js).
 * @typedef {import('../core/worker_endpoint.js').Endpoint<import('./worker_host.js').PageMessage, import('./worker_host.js').HostMessage>} WorkerEndpoint
 */

/**
 * A worker running worker_host.js.
 * @returns {Promise<WorkerEndpoint>}
 */
export async function spawn() {
  if (isNode()) return nodeEndpoint(new URL('./worker_host.js', import.meta.url));
  // Written out in full so that bundlers find the worker and its imports.
  return browserEndpoint(new Worker(new URL('./worker_host.js', import.meta.url), { type: 'module' }));
}
