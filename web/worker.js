// safetensors-wasm/worker: openInWorker(source) opens a file in one or more workers and gives
// the read API of openSafetensors, its work done there: the page's thread only receives the
// results, transferred (not copied). Browsers: module workers; Node: worker threads.
import { throwIfAborted } from './core/abort.js';
import { spawn } from './worker/spawn.js';
import { Channel } from './worker/channel.js';
import { workerFile } from './worker/remote_file.js';
import { serveReads } from './worker/read_port.js';
import { toByteSource } from './source/byte_source.js';

/**
 * What a worker can be sent of `source`: the source itself when it can be posted (bytes, a
 * cloneable Blob, a URL or path), else a byte source of the page's whose reads the workers
 * ask for through a MessagePort (a FileHandle, a Blob from Node's fs.openAsBlob, any
 * { size, read }). What no source can be is a TypeError, before any worker starts.
 * @param {unknown} source
 * @returns {Promise<{ plain: unknown } | { served: import('./source/byte_source.js').ByteSource }>}
 */
async function postable(source) {
  if (typeof source === 'string') return { plain: source };
  if (typeof URL !== 'undefined' && source instanceof URL) return { plain: source.href };
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return { plain: source };
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    try {
      structuredClone(source); // a Blob is cloned by reference; Node's file-backed ones refuse
      return { plain: source };
    } catch {
      // served from here
    }
  }
  return { served: await toByteSource(source) };
}

/**
 * Opens `source` in `concurrency` workers (each opens it once) and returns the read API of a
 * SafetensorsFile whose work runs there.
 * @param {import('./index.js').SafetensorsSource} source anything openSafetensors takes (a FileHandle, a
 *   Node file-backed Blob or a { size, read } object is read on this thread, for the workers)
 * @param {{ concurrency?: number, signal?: AbortSignal, fetch?: never, headers?: HeadersInit, firstRead?: number }} [options]
 */
export async function openInWorker(source, options = {}) {
  const { concurrency = 1, signal, ...openOptions } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new TypeError('options.concurrency must be a positive integer');
  if (openOptions.fetch !== undefined) throw new TypeError('options.fetch cannot cross to a worker');
  throwIfAborted(signal);
  const posted = await postable(source);
  const channels = await Promise.all(Array.from({ length: concurrency }, async () => new Channel(await spawn())));
  const stop = () => {
    for (const channel of channels) channel.endpoint.stop();
  };
  let info;
  try {
    await Promise.all(channels.map((channel) => channel.ready));
    [info] = await Promise.all(
      channels.map((channel) => {
        if ('plain' in posted) {
          const plain = /** @type {Blob | ArrayBuffer | Uint8Array | string} */ (posted.plain); // checked by the worker's open
          return channel.request('open', { source: plain, options: openOptions }, { signal });
        }
        const { port1, port2 } = new MessageChannel();
        serveReads(port1, posted.served);
        const served = { port: port2, size: posted.served.size };
        return channel.request('open', { source: served, options: openOptions }, { signal, transfer: [port2] });
      }),
    );
  } catch (error) {
    stop();
    throw error;
  }
  return workerFile(channels, info);
}
