// A local HTTP server for the remote-source tests (127.0.0.1 only): serves byte arrays by path
// with single byte ranges, as the Hub and CDNs do, and lets a test answer differently.
import { createServer } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { answerCors } from './cors.js';

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
    if (answerCors(req, res, cors)) return;
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

/**
 * A server and a temporary folder for a test file's tests (started before them, stopped and
 * removed after); `folder(name, files)` writes `files` (path in the folder -> bytes or text) to
 * the folder `name` in it and serves each at /name/path, resolving to the folder's path.
 * @param {string} prefix the temporary folder's name prefix
 */
export function servedFolders(prefix) {
  const ctx = {
    /** @type {Awaited<ReturnType<typeof startServer>>} */
    server: /** @type {any} */ (null),
    dir: '',
    async folder(/** @type {string} */ name, /** @type {Record<string, Uint8Array | string>} */ files) {
      const dir = join(ctx.dir, name);
      for (const [file, content] of Object.entries(files)) {
        const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
        await mkdir(join(dir, file, '..'), { recursive: true });
        await writeFile(join(dir, file), bytes);
        ctx.server.files.set(`/${name}/${file}`, { bytes, etag: `"${name}/${file}"` });
      }
      return dir;
    },
  };
  beforeAll(async () => {
    ctx.dir = await mkdtemp(join(tmpdir(), prefix));
    ctx.server = await startServer();
  });
  afterAll(async () => {
    await ctx.server?.close();
    if (ctx.dir) await rm(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}
