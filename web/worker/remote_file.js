// The read API of a file opened in workers (openInWorker): each call is a request to the least
// busy worker; getTensors splits its tensors over the workers by bytes; streamTensor receives
// pieces one credit at a time.

/**
 * A read's options split: what stays here (signal, onProgress) and the rest, which is posted.
 * @template {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void, into?: unknown }} O
 * @param {O} options as the caller gave them (checked here)
 */
const checkOptions = (options) => {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  if (options.into !== undefined)
    throw new TypeError('options.into cannot cross to a worker: the array comes back transferred');
  const { signal, onProgress, ...rest } = options;
  return { signal, onProgress, rest };
};

/**
 * A WorkerFile over channels to workers that each have the file open.
 * @param {import('./channel.js').Channel[]} channels
 * @param {import('./worker_host.js').OpenAnswer} info what the first worker's open answered: the file's fields
 * @returns {import('../worker.js').WorkerFile}
 */
export function workerFile(channels, info) {
  const pick = () => channels.reduce((best, channel) => (channel.busy < best.busy ? channel : best));
  const stop = () => {
    for (const channel of channels) channel.endpoint.stop();
  };
  const byName = new Map(info.tensors.map((t) => [t.name, t]));
  // One implementation per read serves its overloads, which narrow the array's type by `as`.
  return /** @type {import('../worker.js').WorkerFile} */ ({
    ...info,
    async getTensor(name, tensorOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(tensorOptions);
      return pick().request('getTensor', { name, options: rest }, { signal: s, onProgress });
    },
    async getTensors(names, batchOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(batchOptions);
      const wanted = names ?? info.tensors.map((t) => t.name);
      if (!Array.isArray(wanted)) throw new TypeError('names must be an array of tensor names');
      // Split by bytes over the workers, each reading its share in one pass.
      const shares = channels.map(() => /** @type {string[]} */ ([]));
      const loads = channels.map(() => 0);
      for (const name of [...new Set(wanted)].sort(
        (a, b) => (byName.get(b)?.byteLength ?? 0) - (byName.get(a)?.byteLength ?? 0),
      )) {
        const k = loads.indexOf(Math.min(...loads));
        shares[k].push(name);
        loads[k] += byName.get(name)?.byteLength ?? 0;
      }
      const total = wanted.reduce((sum, n) => sum + (byName.get(n)?.byteLength ?? 0), 0);
      const seen = channels.map(() => 0);
      let done = 0;
      const maps = await Promise.all(
        channels.map((channel, k) =>
          shares[k].length === 0
            ? new Map()
            : channel.request(
                'getTensors',
                { names: shares[k], options: rest },
                {
                  signal: s,
                  onProgress:
                    onProgress &&
                    ((/** @type {number} */ d) => {
                      done += d - seen[k];
                      seen[k] = d;
                      onProgress(done, total);
                    }),
                },
              ),
        ),
      );
      const merged = new Map(maps.flatMap((m) => [...m]));
      return new Map(wanted.map((n) => [n, merged.get(n)]));
    },
    async *streamTensor(name, streamOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(streamOptions);
      const channel = pick();
      /** @type {import('./worker_host.js').Piece[]} */
      const pieces = [];
      /** @type {(value?: unknown) => void} */
      let wake = () => {};
      let finished = false;
      /** @type {unknown} why the request failed */
      let failed = null;
      const request = channel
        .request(
          'stream',
          { name, options: rest },
          {
            signal: s,
            onProgress,
            onPiece: (piece) => {
              pieces.push(piece);
              wake();
            },
          },
        )
        .then(
          () => {
            finished = true;
            wake();
          },
          (error) => {
            failed = error;
            wake();
          },
        );
      const id = channel.next - 1;
      try {
        for (;;) {
          if (pieces.length > 0) {
            channel.endpoint.post({ op: 'credit', target: id });
            yield pieces.shift();
            continue;
          }
          if (failed) throw failed;
          if (finished) return;
          await new Promise((resolve) => {
            wake = resolve;
          });
        }
      } finally {
        // Left early: the worker stops, and nothing more is awaited from it.
        if (!finished && !failed) {
          channel.forget(id);
          channel.endpoint.post({ op: 'abort', target: id });
        } else {
          await request;
        }
      }
    },
    async describe(describeOptions = {}) {
      const { signal: s, rest } = checkOptions(describeOptions);
      return channels[0].request('describe', { options: rest }, { signal: s });
    },
    async hash(hashOptions = {}) {
      const { signal: s, onProgress, rest } = checkOptions(hashOptions);
      return channels[0].request('hash', { options: rest }, { signal: s, onProgress });
    },
    /** Stops the workers; later calls reject. */
    close: stop,
  });
}
