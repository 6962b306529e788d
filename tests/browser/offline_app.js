// What the offline app's Chromium test shares (tests/browser/offline_app.test.js): the app built
// as `make demo` builds it (demo/vite.config.js, Vite with vite-plugin-pwa) into a folder of the
// test's, and that folder served by a plain static server, as any static host would.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONFIG = fileURLToPath(new URL('../../demo/vite.config.js', import.meta.url));

/** The types a static host gives the app's files (the .wasm one matters: docs/app.md). */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Builds the app into `out` as make demo does (NODE_ENV=production: Vitest's `test` would give
 * Lit's development build), under the sub-path `base`.
 * @param {string} out
 * @param {string} [base]
 */
export async function buildApp(out, base = '/') {
  const { build } = await import('vite');
  const saved = { ...process.env };
  Object.assign(process.env, { NODE_ENV: 'production', APP_OUT: out, APP_BASE: base });
  try {
    await build({ configFile: CONFIG, logLevel: 'error' });
  } finally {
    for (const key of ['NODE_ENV', 'APP_OUT', 'APP_BASE'])
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
  }
}

/**
 * A plain static server of `dir` on 127.0.0.1 (a path under `base`; a folder's index.html),
 * which answers nothing else; resolves to { url, close, requests } (every path asked for).
 * @param {string} dir
 * @param {string} [base]
 */
export function serveFolder(dir, base = '/') {
  const requests = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    try {
      if (!path.startsWith(base)) throw new Error('outside');
      let file = join(dir, normalize(path.slice(base.length)));
      if (!file.startsWith(dir)) throw new Error('outside');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}${base}`,
        requests,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}
