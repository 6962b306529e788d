// One remote file read through Range requests: each response checked (206 with a matching
// Content-Range, no content encoding, the same size and ETag as the first response) and its
// body streamed as exactly the bytes asked for.
import { SafetensorsError, readError } from '../core/errors.js';
import { CORS_HINT, fetchRetrying, httpError, readBody, readWhole, requestOptions } from './http_fetch.js';

/** A server that ignores Range has its file read whole, in one GET, up to this size. */
export const WHOLE_FILE_LIMIT = 64 << 20;

/**
 * "bytes 0-99/1234" -> { start: 0, end: 99, total: 1234 }; "bytes * /1234" (no space) ->
 * { start: -1, end: -1, total: 1234 }; total -1 for "*"; null when unreadable.
 * @param {string | null} value
 */
export function parseContentRange(value) {
  const m = /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i.exec((value ?? '').trim());
  if (!m) return null;
  const number = (/** @type {string | undefined} */ text) => (text === undefined || text === '*' ? -1 : Number(text));
  return { start: number(m[1]), end: number(m[2]), total: number(m[3]) };
}

/** A file on a server: where it is, how to ask for it, and what its first response said. */
export class Remote {
  /**
   * @param {string} url
   * @param {import('./http_fetch.js').FetchOptions & { firstRead: number }} options
   */
  constructor(url, options) {
    const { firstRead } = options;
    if (!Number.isSafeInteger(firstRead) || firstRead < 8)
      throw new TypeError('options.firstRead must be an integer of at least 8');
    const { fetchFn, headers } = requestOptions(options);
    this.url = url;
    this.fetch = fetchFn;
    this.headers = headers;
    this.firstRead = firstRead;
    this.size = -1; // known after the first response
    /** @type {string | null} */
    this.etag = null;
    this.requests = 0;
  }

  /**
   * A response for bytes [start, end] (inclusive), its status checked; retries 5xx and
   * network failures. `first`: the size is not known yet.
   * @param {number} start
   * @param {number} end
   * @param {AbortSignal} [signal]
   */
  async request(start, end, signal, first = false) {
    const init = { headers: { ...this.headers, Range: `bytes=${start}-${end}` } };
    const response = await fetchRetrying(this.fetch, this.url, init, signal, () => this.requests++);
    return this.checked(response, start, end, first);
  }

  /**
   * @param {Response} response
   * @param {number} start
   * @param {number} end
   * @param {boolean} first
   * @returns {Promise<{ response: Response | null, length: number, whole?: boolean }>} no response when there
   *   is nothing to send; `whole`: the response is the whole file (200), its length -1 when not given
   */
  async checked(response, start, end, first) {
    const { status } = response;
    const drop = () => response.body?.cancel().catch(() => {});
    if (status === 206) {
      const range = parseContentRange(response.headers.get('content-range'));
      if (!range || range.total < 0 || range.start < 0) {
        drop();
        throw readError(`${this.url} answered 206 without a readable Content-Range; ${CORS_HINT}`);
      }
      const encoding = response.headers.get('content-encoding');
      if (encoding && encoding.toLowerCase() !== 'identity') {
        drop();
        throw readError(
          `${this.url} sent a range with Content-Encoding: ${encoding}; byte ranges must be sent as stored (no compression)`,
        );
      }
      this.checkSame(range.total, response.headers.get('etag'), first, drop);
      if (range.start !== start || range.end > end) {
        drop();
        throw readError(`${this.url} sent bytes ${range.start}-${range.end} for a request of ${start}-${end}`);
      }
      return { response, length: range.end - range.start + 1 };
    }
    if (status === 416) {
      drop();
      const range = parseContentRange(response.headers.get('content-range'));
      // The first request of an empty file: nothing to send. Later: the file got shorter.
      if (first && range?.total === 0) {
        this.checkSame(0, response.headers.get('etag'), first, drop);
        return { response: null, length: 0 };
      }
      throw readError(`${this.url} has no bytes ${start}-${end} any more (416): the file changed on the server`);
    }
    if (status === 200) {
      // The server ignored Range and sends the whole file: fine the first time for a file of
      // at most WHOLE_FILE_LIMIT bytes (read whole, see readWholeFile); else stopped at once.
      const declared = response.headers.get('content-length');
      if (first && (declared === null || Number(declared) <= WHOLE_FILE_LIMIT))
        return { response, length: declared === null ? -1 : Number(declared), whole: true };
      drop();
      throw this.rangeNotSupported(response, declared === null ? null : Number(declared), first);
    }
    drop();
    if (status >= 400) throw httpError(this.url, status, response.statusText);
    throw readError(`${this.url} answered ${status} to a Range request`);
  }

  /**
   * The body of a first response that is the whole file (200): at most WHOLE_FILE_LIMIT
   * bytes, kept; the size is what arrived (a compressed response arrives decoded).
   * @param {Response} response
   * @param {AbortSignal} [signal]
   */
  async readWholeFile(response, signal) {
    const bytes = await readWhole(response, this.url, signal, WHOLE_FILE_LIMIT, (size) =>
      this.rangeNotSupported(response, size, true),
    );
    this.checkSame(bytes.byteLength, response.headers.get('etag'), true, () => {});
    return bytes;
  }

  /**
   * RangeNotSupported for a 200 answer to a Range request, naming the server's reply.
   * @param {Response} response
   * @param {number | null} size its Content-Length, or the bytes it sent before it was stopped
   * @param {boolean} first
   */
  rangeNotSupported(response, size, first) {
    const reply = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}${size === null ? '' : ` with ${size} bytes`}`;
    const why = first
      ? `files over ${WHOLE_FILE_LIMIT / (1 << 20)} MiB are read only through byte ranges`
      : 'it had answered the first request with a range';
    return new SafetensorsError(
      'RangeNotSupported',
      `${this.url} ignored the Range request and answered ${reply} (the whole file); it was stopped: ${why}. Serve the file from a server that supports byte ranges (206 Partial Content, as the Hugging Face Hub, S3, nginx and most CDNs do)`,
      { status: response.status },
    );
  }

  /**
   * @param {number} total the size a response gave
   * @param {string | null} etag its ETag
   * @param {boolean} first
   * @param {() => void} drop cancels the response's body
   */
  checkSame(total, etag, first, drop) {
    if (first) {
      this.size = total;
      this.etag = etag;
      return;
    }
    if (total !== this.size || (this.etag !== null && etag !== null && etag !== this.etag)) {
      drop();
      throw readError(
        `the file changed on the server: ${this.url} now has ${total} bytes${etag !== this.etag ? ` and ETag ${etag}` : ''}, not ${this.size}${this.etag ? ` and ETag ${this.etag}` : ''} as when opened`,
      );
    }
  }
}

/**
 * The body of a checked response as chunks, exactly `length` bytes; a stall of
 * IDLE_TIMEOUT_MS, a short or long body are ReadErrors; abort cancels it.
 * @param {Remote} remote
 * @param {Response | null} response null only when `length` is 0
 * @param {number} length
 * @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<Uint8Array, void, undefined>}
 */
export async function* bodyChunks(remote, response, length, signal) {
  if (length === 0) return;
  // A checked response with bytes to send (206, or a first 200) has a body.
  const reader = /** @type {ReadableStream<Uint8Array>} */ (/** @type {Response} */ (response).body).getReader();
  let received = 0;
  let finished = false;
  try {
    while (received < length) {
      const step = await readBody(reader, remote.url, signal, `${received} of ${length} bytes`);
      if (step.done) break;
      const chunk = step.value;
      const take = Math.min(chunk.byteLength, length - received);
      received += chunk.byteLength;
      yield take === chunk.byteLength ? chunk : chunk.subarray(0, take);
    }
    finished = received === length;
  } finally {
    if (!finished) reader.cancel().catch(() => {});
  }
  if (received < length)
    throw readError(
      `${remote.url} ended after ${received} of ${length} bytes; the connection was cut or the file changed on the server`,
    );
}
