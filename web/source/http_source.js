// Files on HTTP(S) servers, read through Range requests: the byte-source interface of
// byte_source.js over fetch(). The first request asks for the first `firstRead` bytes; its
// Content-Range gives the file's size, and it usually holds the whole header, so a file opens
// with one request (two when the header is longer). No HEAD request, and no conditional
// headers (If-Match, If-Range): they are not CORS-safelisted, so they would cost a preflight
// request per read in browsers. Instead every response's size and ETag are compared with the
// first one's, which finds a file replaced on the server just as well. A server that ignores
// Range has a file of up to 64 MiB read whole by that first request (http_range.js).
import { readError } from '../core/errors.js';
import { Remote, bodyChunks } from './http_range.js';

export { isHttpUrl, fetchWhole } from './http_fetch.js';

/** Bytes asked for by the first request (the length prefix and, usually, the whole header). */
export const FIRST_READ_BYTES = 256 << 10;

/**
 * An http(s) URL as a byte source ({ size, read, chunks }, see byte_source.js). Reads and
 * chunks take an optional AbortSignal as their last argument, passed to fetch(); `signal`
 * here is for the first request only.
 * @param {string | URL} url
 * @param {import('../index.js').ReadOptions} [options]
 * @returns {Promise<import('./byte_source.js').ByteSource & { url: string, readonly requests: number }>}
 */
export async function fromUrl(url, options = {}) {
  const href = String(url);
  const remote = new Remote(href, { ...options, firstRead: options.firstRead ?? FIRST_READ_BYTES });
  const { signal } = options;
  const ask = Math.max(8, remote.firstRead);
  const { response, length, whole } = await remote.request(0, ask - 1, signal, true);
  // The first bytes are kept: reads inside them (the length prefix, a header that fits) cost
  // nothing. A server without Range support sent the whole file: all of it is kept.
  const head = whole ? await remote.readWholeFile(/** @type {Response} */ (response), signal) : new Uint8Array(length);
  let at = 0;
  if (response && !whole) {
    for await (const chunk of bodyChunks(remote, response, length, signal)) {
      head.set(chunk, at);
      at += chunk.byteLength;
    }
  }

  /**
   * @param {number} offset
   * @param {number} count
   * @param {AbortSignal} [readSignal]
   */
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
