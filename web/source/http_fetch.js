// Requests to HTTP(S) servers as every remote read makes them: retries of network failures
// and 5xx answers with backoff (never 4xx), headers as a plain object, body reads that give up
// after a silence, typed errors (HttpError with `.status`, ReadError), and whole small files.
import { SafetensorsError, errorText, readError } from '../core/errors.js';

/** Attempts per request when the server answers 5xx or the network fails (never on 4xx). */
export const ATTEMPTS = 3;
/** Wait before the second attempt; doubled before each next one. */
export const BACKOFF_MS = 200;
/** A response that sends nothing for this long is given up (abort ends it sooner). */
export const IDLE_TIMEOUT_MS = 30_000;

/**
 * How remote files are fetched: the fetch to use, headers sent with every request, and the signal.
 * @typedef {Omit<import('../index.js').ReadOptions, 'firstRead'>} FetchOptions
 */

export const CORS_HINT =
  'if the file is on another origin than the page, its server must send Access-Control-Allow-Origin and list Content-Range (and ETag) in Access-Control-Expose-Headers';

/**
 * Whether `source` names an http(s) URL (a URL object, or a string starting with http:// or https://).
 * @param {unknown} source
 * @returns {boolean}
 */
export function isHttpUrl(source) {
  if (typeof URL !== 'undefined' && source instanceof URL)
    return source.protocol === 'http:' || source.protocol === 'https:';
  return typeof source === 'string' && /^https?:\/\//i.test(source);
}

/**
 * A typed error for an HTTP status, with `.status`.
 * @param {string} url
 * @param {number} status
 * @param {string} [statusText]
 */
export function httpError(url, status, statusText) {
  let hint = '';
  if (status === 401 || status === 403)
    hint = '; for a gated or private model pass a token: { headers: { Authorization: "Bearer <token>" } }';
  else if (status === 404) hint = '; check the URL';
  return new SafetensorsError('HttpError', `${url} answered ${status}${statusText ? ` ${statusText}` : ''}${hint}`, {
    status,
  });
}

/**
 * @param {number} ms
 * @param {AbortSignal} [signal]
 * @returns {Promise<void>}
 */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * fetch() that retries network failures and 5xx answers (ATTEMPTS in all, with backoff),
 * never 4xx; `count` is called before each attempt. The last 5xx response is returned.
 * @param {typeof fetch} fetchFn
 * @param {string} url
 * @param {RequestInit} init
 * @param {AbortSignal} [signal]
 * @param {() => void} [count]
 * @returns {Promise<Response>}
 */
export async function fetchRetrying(fetchFn, url, init, signal, count = () => {}) {
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

/**
 * Options shared by every request: the fetch to use and headers as a plain object.
 * @param {FetchOptions} options
 */
export function requestOptions({ fetch: fetchFn = globalThis.fetch, headers = {} }) {
  if (typeof fetchFn !== 'function')
    throw new TypeError('options.fetch must be a function (this runtime has no global fetch)');
  if (headers === null || typeof headers !== 'object')
    throw new TypeError('options.headers must be an object or a Headers');
  /** @type {Record<string, string>} */
  const plain = {}; // from a Headers, an object or entries
  new Headers(headers).forEach((value, key) => {
    plain[key] = value;
  });
  return { fetchFn, headers: plain };
}

/**
 * One read of a response body that gives up after IDLE_TIMEOUT_MS of silence.
 * @param {ReadableStreamDefaultReader<Uint8Array>} reader
 * @param {string} url
 */
async function readOrIdle(reader, url) {
  let timer;
  /** @type {Promise<never>} */
  const idle = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(readError(`${url} sent nothing for ${IDLE_TIMEOUT_MS / 1000} s; the read was given up`)),
      IDLE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The next read of a response body: abort rejects with the signal's reason, silence and
 * failures are ReadErrors that say how far the body got (`after`).
 * @param {ReadableStreamDefaultReader<Uint8Array>} reader
 * @param {string} url
 * @param {AbortSignal | undefined} signal
 * @param {string} after
 */
export async function readBody(reader, url, signal, after) {
  try {
    return await readOrIdle(reader, url);
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    if (cause instanceof SafetensorsError) throw cause;
    throw readError(`reading ${url} failed after ${after}: ${errorText(cause)}`, cause);
  }
}

/**
 * The whole body of a GET of `url` (no Range), for small files such as an index.json:
 * retries as for ranges; 4xx is HttpError; a body over `limit` bytes is stopped and
 * `tooLarge(bytes)` thrown.
 * @param {string} url
 * @param {FetchOptions} options
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
  return readWhole(response, url, signal, limit, tooLarge);
}

/**
 * A response's whole body, at most `limit` bytes: a larger one (by its Content-Length, or as
 * it arrives) is stopped and `tooLarge(bytes)` thrown.
 * @param {Response} response
 * @param {string} url
 * @param {AbortSignal | undefined} signal
 * @param {number} limit
 * @param {(bytes: number) => Error} tooLarge
 * @returns {Promise<Uint8Array>}
 */
export async function readWhole(response, url, signal, limit, tooLarge) {
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
      const step = await readBody(reader, url, signal, `${received} bytes`);
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
