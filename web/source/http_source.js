// Files on HTTP(S) servers, read through Range requests: the byte-source interface of
// byte_source.js over fetch(). The first request asks for the first `firstRead` bytes; its
// Content-Range gives the file's size, and it usually holds the whole header, so a file opens
// with one request (two when the header is longer). No HEAD request, and no conditional
// headers (If-Match, If-Range): they are not CORS-safelisted, so they would cost a preflight
// request per read in browsers. Instead every response's size and ETag are compared with the
// first one's, which finds a file replaced on the server just as well.
import { SafetensorsError, errorText, readError } from '../core/errors.js';

/** Bytes asked for by the first request (the length prefix and, usually, the whole header). */
export const FIRST_READ_BYTES = 256 << 10;
/** Attempts per request when the server answers 5xx or the network fails (never on 4xx). */
export const ATTEMPTS = 3;
/** Wait before the second attempt; doubled before each next one. */
export const BACKOFF_MS = 200;
/** A response that sends nothing for this long is given up (abort ends it sooner). */
export const IDLE_TIMEOUT_MS = 30_000;

const CORS_HINT =
  'if the file is on another origin than the page, its server must send Access-Control-Allow-Origin and list Content-Range (and ETag) in Access-Control-Expose-Headers';

/** Whether `source` names an http(s) URL (a URL object, or a string starting with http:// or https://). */
export function isHttpUrl(source) {
  if (typeof URL !== 'undefined' && source instanceof URL) return source.protocol === 'http:' || source.protocol === 'https:';
  return typeof source === 'string' && /^https?:\/\//i.test(source);
}

/** A typed error for an HTTP status, with `.status`. */
function httpError(url, status, statusText) {
  let hint = '';
  if (status === 401 || status === 403) hint = '; for a gated or private model pass a token: { headers: { Authorization: "Bearer <token>" } }';
  else if (status === 404) hint = '; check the URL';
  return new SafetensorsError('HttpError', `${url} answered ${status}${statusText ? ` ${statusText}` : ''}${hint}`, { status });
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/**
 * "bytes 0-99/1234" -> { start: 0, end: 99, total: 1234 }; "bytes * /1234" (no space) ->
 * { start: -1, end: -1, total: 1234 }; total -1 for "*"; null when unreadable.
 */
export function parseContentRange(value) {
  const m = /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i.exec((value ?? '').trim());
  if (!m) return null;
  const number = (/** @type {string | undefined} */ text) => (text === undefined || text === '*' ? -1 : Number(text));
  return { start: number(m[1]), end: number(m[2]), total: number(m[3]) };
}

/**
 * fetch() that retries network failures and 5xx answers (ATTEMPTS in all, with backoff),
 * never 4xx; `count` is called before each attempt. The last 5xx response is returned.
 */
async function fetchRetrying(fetchFn, url, init, signal, count = () => {}) {
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    let response;
    try {
      count();
      response = await fetchFn(url, { ...init, signal });
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (attempt < ATTEMPTS) {
        await sleep(BACKOFF_MS * 2 ** (attempt - 1), signal);
        continue;
      }
      throw readError(`could not fetch ${url} (${ATTEMPTS} attempts): ${errorText(cause)}; ${CORS_HINT}`, cause);
    }
    if (response.status >= 500 && attempt < ATTEMPTS) {
      await response.body?.cancel().catch(() => {});
      await sleep(BACKOFF_MS * 2 ** (attempt - 1), signal);
      continue;
    }
    return response;
  }
}

/** Options shared by every request: the fetch to use and headers as a plain object. */
function requestOptions({ fetch: fetchFn = globalThis.fetch, headers = {} }) {
  if (typeof fetchFn !== 'function') throw new TypeError('options.fetch must be a function (this runtime has no global fetch)');
  if (headers === null || typeof headers !== 'object') throw new TypeError('options.headers must be an object or a Headers');
  /** @type {Record<string, string>} */
  const plain = {}; // from a Headers, an object or entries
  new Headers(/** @type {HeadersInit} */ (headers)).forEach((value, key) => {
    plain[key] = value;
  });
  return { fetchFn, headers: plain };
}

/** One read of a response body that gives up after IDLE_TIMEOUT_MS of silence. */
async function readOrIdle(reader, url) {
  let timer;
  const idle = new Promise((_, reject) => {
    timer = setTimeout(() => reject(readError(`${url} sent nothing for ${IDLE_TIMEOUT_MS / 1000} s; the read was given up`)), IDLE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

class Remote {
  constructor(url, options) {
    const { firstRead = FIRST_READ_BYTES } = options;
    if (!Number.isSafeInteger(firstRead) || firstRead < 8) throw new TypeError('options.firstRead must be an integer of at least 8');
    const { fetchFn, headers } = requestOptions(options);
    this.url = url;
    this.fetch = fetchFn;
    this.headers = headers;
    this.firstRead = firstRead;
    this.size = -1; // known after the first response
    this.etag = null;
    this.requests = 0;
  }

  /**
   * A response for bytes [start, end] (inclusive), its status checked; retries 5xx and
   * network failures. `first`: the size is not known yet.
   */
  async request(start, end, signal, first = false) {
    const init = { headers: { ...this.headers, Range: `bytes=${start}-${end}` } };
    const response = await fetchRetrying(this.fetch, this.url, init, signal, () => this.requests++);
    return this.checked(response, start, end, first);
  }

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
        throw readError(`${this.url} sent a range with Content-Encoding: ${encoding}; byte ranges must be sent as stored (no compression)`);
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
      // The server ignored Range. A small whole file is fine the first time; anything else
      // would be a download of the whole file, so stop at once.
      const length = Number(response.headers.get('content-length'));
      if (first && response.headers.get('content-length') !== null && length <= end - start + 1 && !response.headers.get('content-encoding')) {
        this.checkSame(length, response.headers.get('etag'), first, drop);
        return { response, length };
      }
      drop();
      throw new SafetensorsError(
        'RangeNotSupported',
        `${this.url} ignored the Range request and started sending the whole file (200); it was stopped. Serve the file from a server that supports byte ranges (206 Partial Content, as the Hugging Face Hub, S3, nginx and most CDNs do)`,
      );
    }
    drop();
    if (status >= 400) throw httpError(this.url, status, response.statusText);
    throw readError(`${this.url} answered ${status} to a Range request`);
  }

  checkSame(total, etag, first, drop) {
    if (first) {
      this.size = total;
      this.etag = etag;
      return;
    }
    if (total !== this.size || (this.etag !== null && etag !== null && etag !== this.etag)) {
      drop();
      throw readError(`the file changed on the server: ${this.url} now has ${total} bytes${etag !== this.etag ? ` and ETag ${etag}` : ''}, not ${this.size}${this.etag ? ` and ETag ${this.etag}` : ''} as when opened`);
    }
  }
}

/**
 * The body of a checked response as chunks, exactly `length` bytes; a stall of
 * IDLE_TIMEOUT_MS, a short or long body are ReadErrors; abort cancels it.
 */
async function* bodyChunks(remote, response, length, signal) {
  if (length === 0) return;
  const reader = response.body.getReader();
  let received = 0;
  let finished = false;
  try {
    while (received < length) {
      let step;
      try {
        step = await readOrIdle(reader, remote.url);
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (cause instanceof SafetensorsError) throw cause;
        throw readError(`reading ${remote.url} failed after ${received} of ${length} bytes: ${errorText(cause)}`, cause);
      }
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
  if (received < length) throw readError(`${remote.url} ended after ${received} of ${length} bytes; the connection was cut or the file changed on the server`);
}

/**
 * An http(s) URL as a byte source ({ size, read, chunks }, see byte_source.js). Reads and
 * chunks take an optional AbortSignal as their last argument, passed to fetch(); `signal`
 * here is for the first request only.
 * @param {string | URL} url
 * @param {{ fetch?: typeof fetch, headers?: Record<string, string>, signal?: AbortSignal, firstRead?: number }} [options]
 */
export async function fromUrl(url, options = {}) {
  const href = String(url);
  const remote = new Remote(href, options);
  const { signal } = options;
  const ask = Math.max(8, remote.firstRead);
  const { response, length } = await remote.request(0, ask - 1, signal, true);
  // The first bytes are kept: reads inside them (the length prefix, a header that fits) cost nothing.
  const head = new Uint8Array(length);
  let at = 0;
  if (response) {
    for await (const chunk of bodyChunks(remote, response, length, signal)) {
      head.set(chunk, at);
      at += chunk.byteLength;
    }
  }

  async function* chunks(offset, count, readSignal) {
    const end = offset + count;
    if (offset < head.byteLength) {
      yield head.subarray(offset, Math.min(end, head.byteLength));
      offset = head.byteLength;
    }
    if (offset >= end) return;
    const { response: r, length: n } = await remote.request(offset, end - 1, readSignal);
    if (n !== end - offset) {
      r?.body?.cancel().catch(() => {});
      throw readError(`${href} sent ${n} bytes for a request of ${end - offset} at offset ${offset}`);
    }
    yield* bodyChunks(remote, r, n, readSignal);
  }

  return {
    size: remote.size,
    url: href,
    /** Requests made so far (for tests and benchmarks). */
    get requests() {
      return remote.requests;
    },
    chunks,
    async read(offset, count, readSignal) {
      if (offset + count <= head.byteLength) return head.subarray(offset, offset + count);
      const out = new Uint8Array(count);
      let filled = 0;
      for await (const chunk of chunks(offset, count, readSignal)) {
        out.set(chunk, filled);
        filled += chunk.byteLength;
      }
      return out;
    },
  };
}

/**
 * The whole body of a GET of `url` (no Range), for small files such as an index.json:
 * retries as for ranges; 4xx is HttpError; a body over `limit` bytes is stopped and
 * `tooLarge(bytes)` thrown.
 * @param {string} url
 * @param {{ fetch?: typeof fetch, headers?: HeadersInit, signal?: AbortSignal }} options
 * @param {number} limit
 * @param {(bytes: number) => Error} tooLarge
 * @returns {Promise<Uint8Array>}
 */
export async function fetchWhole(url, options, limit, tooLarge) {
  const { fetchFn, headers } = requestOptions(options);
  const { signal } = options;
  const response = await fetchRetrying(fetchFn, url, { headers }, signal);
  if (!response.ok) {
    response.body?.cancel().catch(() => {});
    if (response.status >= 400) throw httpError(url, response.status, response.statusText);
    throw readError(`${url} answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) {
    response.body?.cancel().catch(() => {});
    throw tooLarge(declared);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts = [];
  let received = 0;
  let finished = false;
  try {
    for (;;) {
      let step;
      try {
        step = await readOrIdle(reader, url);
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (cause instanceof SafetensorsError) throw cause;
        throw readError(`reading ${url} failed after ${received} bytes: ${errorText(cause)}`, cause);
      }
      if (step.done) break;
      received += step.value.byteLength;
      if (received > limit) throw tooLarge(received);
      parts.push(step.value);
    }
    finished = true;
  } finally {
    if (!finished) reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
