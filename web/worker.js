// safetensors-wasm/worker: openInWorker(source) opens a file in one or more workers and gives
// the read API of openSafetensors, its work done there: the page's thread only receives the
// results, transferred (not copied). Browsers: module workers; Node: worker threads.
import { throwIfAborted } from './core/abort.js';
import { spawn } from './worker/spawn.js';
import { Channel } from './worker/channel.js';
import { workerFile } from './worker/remote_file.js';

/**
 * Opens `source` in `concurrency` workers (each opens it once) and returns the read API of a
 * SafetensorsFile whose work runs there.
 * @param {Blob | ArrayBuffer | Uint8Array | string | URL} source anything openSafetensors takes that can be posted to a worker
 * @param {{ concurrency?: number, signal?: AbortSignal, fetch?: never, headers?: HeadersInit, firstRead?: number }} [options]
 */
export async function openInWorker(source, options = {}) {
  const { concurrency = 1, signal, ...openOptions } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new TypeError('options.concurrency must be a positive integer');
  if (openOptions.fetch !== undefined) throw new TypeError('options.fetch cannot cross to a worker');
  throwIfAborted(signal);
  const channels = await Promise.all(Array.from({ length: concurrency }, async () => new Channel(await spawn())));
  const stop = () => {
    for (const channel of channels) channel.endpoint.stop();
  };
  let info;
  try {
    await Promise.all(channels.map((channel) => channel.ready));
    const plain = source instanceof URL ? source.href : source;
    [info] = await Promise.all(
      channels.map((channel) => channel.request('open', { source: plain, options: openOptions }, { signal })),
    );
  } catch (error) {
    stop();
    throw error;
  }
  return workerFile(channels, info);
}
