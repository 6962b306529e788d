// The worker side of openInWorker (web/worker.js): opens the source it is sent with the
// package, runs each request on it and answers with plain objects; arrays are transferred,
// not copied. Runs as a browser module worker or a Node worker thread.
import { SafetensorsError, openSafetensors } from '../index.js';

/** Pieces of a stream sent ahead of the page's reading; then the worker waits for credit. */
const STREAM_WINDOW = 4;

async function hostPort() {
  if (typeof (/** @type {any} */ (globalThis).WorkerGlobalScope) !== 'undefined') {
    return { post: (message, transfer) => self.postMessage(message, transfer ?? []), listen: (fn) => { self.onmessage = (event) => fn(event.data); } };
  }
  const threads = 'node:worker_threads';
  const { parentPort } = await import(/* @vite-ignore */ /* webpackIgnore: true */ threads);
  return { post: (message, transfer) => parentPort.postMessage(message, transfer ?? []), listen: (fn) => parentPort.on('message', fn) };
}

/** What a thrown value becomes in a message: enough to throw the same kind on the page. */
function errorMessage(error) {
  if (error instanceof SafetensorsError) {
    const { code, message, tensor, status, report } = /** @type {any} */ (error);
    return { kind: 'SafetensorsError', code, message, tensor, status, report, findings: error.findings };
  }
  if (error instanceof Error) return { kind: error.name, message: error.message };
  return { kind: 'Error', message: String(error) };
}

const buffersOf = (arrays) => arrays.map((a) => a.buffer);

async function main() {
  const port = await hostPort();
  /** @type {import('../index.js').SafetensorsFile | null} */
  let st = null;
  /** @type {Map<number, AbortController>} */
  const running = new Map();
  /** @type {Map<number, { credit: number, wake: ((value?: unknown) => void) | null }>} */
  const streams = new Map();

  async function stream(id, name, options, signal) {
    /** @type {{ credit: number, wake: ((value?: unknown) => void) | null }} */
    const state = { credit: STREAM_WINDOW, wake: null };
    streams.set(id, state);
    const onAbort = () => state.wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      for await (const { offset, values } of /** @type {any} */ (st).streamTensor(name, { ...options, signal })) {
        while (state.credit === 0 && !signal.aborted) await new Promise((resolve) => { state.wake = resolve; });
        if (signal.aborted) throw signal.reason;
        state.credit--;
        const copy = values.slice();
        port.post({ id, piece: { offset, values: copy } }, [copy.buffer]);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      streams.delete(id);
    }
    return null;
  }

  const requests = {
    async open({ source, options }) {
      st = await openSafetensors(source, options);
      const { tensors, metadata, headerSize, dataStart, fileSize, findings, report } = st;
      return { value: { tensors, metadata, headerSize, dataStart, fileSize, findings, report } };
    },
    async getTensor({ name, options }, signal, progress) {
      const array = await /** @type {any} */ (st).getTensor(name, { ...options, signal, onProgress: progress });
      return { value: array, transfer: [array.buffer] };
    },
    async getTensors({ names, options }, signal, progress) {
      const map = await /** @type {any} */ (st).getTensors(names, { ...options, signal, onProgress: progress });
      return { value: map, transfer: buffersOf([...map.values()]) };
    },
    async describe({ options }, signal) {
      return { value: await /** @type {any} */ (st).describe({ ...options, signal }) };
    },
    async hash({ options }, signal, progress) {
      return { value: await /** @type {any} */ (st).hash({ ...options, signal, onProgress: progress }) };
    },
    async stream({ id, name, options }, signal) {
      return { value: await stream(id, name, options, signal) };
    },
  };

  port.listen(async (message) => {
    const { id, op } = message;
    if (op === 'abort') {
      running.get(message.target)?.abort(new Error('aborted'));
      return;
    }
    if (op === 'credit') {
      const state = streams.get(message.target);
      if (state) {
        state.credit++;
        state.wake?.();
        state.wake = null;
      }
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const progress = message.progress ? (/** @type {number} */ done, /** @type {number} */ total) => port.post({ id, progress: [done, total] }) : undefined;
    try {
      const handler = /** @type {any} */ (requests)[op];
      if (!handler) throw new TypeError(`unknown request ${op}`);
      if (op !== 'open' && st === null) throw new TypeError('no file is open in this worker');
      const { value, transfer } = await handler(message, controller.signal, progress);
      port.post({ id, value }, transfer);
    } catch (error) {
      if (!controller.signal.aborted) port.post({ id, error: errorMessage(error) });
    } finally {
      running.delete(id);
    }
  });
  port.post({ ready: true });
}

// A failed start is thrown outside the promise, so that the worker's error event says so.
main().catch((error) => setTimeout(() => { throw error; }));
