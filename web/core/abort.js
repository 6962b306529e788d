// Aborting: every wait on a source can be cut short by an AbortSignal, at once.

/**
 * Rejects with the signal's reason (an AbortError DOMException by default) when aborted.
 * @param {AbortSignal} [signal]
 */
export function throwIfAborted(signal) {
  if (signal?.aborted) throw abortReason(signal);
}

/**
 * @param {AbortSignal} signal
 * @returns {unknown} whatever abort() was given, else an AbortError
 */
function abortReason(signal) {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts: a read that
 * never settles (a stalled network source, say) cannot hold up an aborted call.
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal} [signal]
 * @returns {Promise<T>}
 */
export function untilAborted(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {}); // settles later, unobserved
    return Promise.reject(abortReason(signal));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The chunks of `iterable`, each wait for the next one abortable by `signal`.
 * @template T
 * @param {AsyncIterable<T>} iterable
 * @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<T, void, undefined>}
 */
export async function* chunksUntilAborted(iterable, signal) {
  const it = iterable[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await untilAborted(it.next(), signal);
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // Stops the source (cancels its stream) when we leave early; a stalled read is left behind.
    if (!finished) it.return?.()?.catch?.(() => {});
  }
}
