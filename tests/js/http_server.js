// A local HTTP server for the remote-source tests (127.0.0.1 only): serves byte arrays by path
// with single byte ranges, as the Hub and CDNs do, and lets a test answer differently.
import { createServer } from 'node:http';

/**
 * @param {{ cors?: boolean }} [options] cors: false sends no Access-Control-* headers (a server
 *   a page on another origin cannot read)
 * @returns {Promise<{ url(path: string): string, files: Map<string, { bytes: Uint8Array, etag: string }>,
 *   log: { path: string, range: string | undefined, headers: import('node:http').IncomingHttpHeaders }[],
 *   answer: ((req: any, res: any, file: any) => boolean) | null, close(): Promise<void> }>}
 */
export async function startServer({ cors = true } = {}) {
  const state = {
    files: new Map(),
    log: [],
    /** Return true when the request was answered; null or false: the default answer. */
    answer: null,
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = state.files.get(path);
    state.log.push({ path, range: req.headers.range, headers: req.headers });
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'Content-Range, ETag, Content-Length');
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.writeHead(204).end();
      return;
    }
    if (state.answer?.(req, res, file)) return;
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    const { bytes, etag } = file;
    res.setHeader('ETag', etag);
    res.setHeader('Accept-Ranges', 'bytes');
    const m = /^bytes=(\d+)-(\d+)?$/.exec(req.headers.range ?? '');
    if (!m) {
      res.writeHead(200, { 'Content-Length': bytes.byteLength }).end(bytes);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(m[2] === undefined ? bytes.byteLength - 1 : Number(m[2]), bytes.byteLength - 1);
    if (start >= bytes.byteLength) {
      res.writeHead(416, { 'Content-Range': `bytes */${bytes.byteLength}` }).end();
      return;
    }
    res.writeHead(206, {
      'Content-Range': `bytes ${start}-${end}/${bytes.byteLength}`,
      'Content-Length': end - start + 1,
    });
    res.end(bytes.subarray(start, end + 1));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return Object.assign(state, {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
