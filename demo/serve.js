// The demo's development server (make demo-dev; make demo builds and serves the offline app
// instead, docs/app.md): the page's modules unbuilt and the package they import, on loopback
// only, with single byte ranges (206, Content-Range; 416 past the end) as the Hub and CDNs do,
// so URLs of files it serves open in the demo as remote files do. The tests serve their own
// pages with it too.
// Usage: node demo/serve.js [--port 8080]   (port 0 picks a free one)
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The package's runtime dependencies, for pages without a bundler: hash-wasm, PKI.js with its
 * own (for certificate and keyless signatures), and Lit (for the element). Each is served from node_modules, and an
 * HTML page gets them as its import map where it says IMPORT_MAP_PLACE.
 */
const IMPORTS = {
  'hash-wasm': 'node_modules/hash-wasm/dist/index.esm.js',
  pkijs: 'node_modules/pkijs/build/index.js',
  asn1js: 'node_modules/asn1js/build/index.js',
  '@peculiar/utils': 'node_modules/@peculiar/utils/build/index.js',
  bytestreamjs: 'node_modules/bytestreamjs/build/index.js',
  '@noble/hashes/': 'node_modules/@noble/hashes/',
  // Lit, which <safetensors-card> is built on (web/element/), and the three packages it is made of.
  lit: 'node_modules/lit/index.js',
  'lit/': 'node_modules/lit/',
  'lit-html': 'node_modules/lit-html/lit-html.js',
  'lit-html/': 'node_modules/lit-html/',
  'lit-element/': 'node_modules/lit-element/',
  '@lit/reactive-element': 'node_modules/@lit/reactive-element/reactive-element.js',
  '@lit/reactive-element/': 'node_modules/@lit/reactive-element/',
};
export const IMPORT_MAP_PLACE = '<!-- import map (demo/serve.js) -->';
const IMPORT_MAP = `<script type="importmap">${JSON.stringify({
  imports: Object.fromEntries(Object.entries(IMPORTS).map(([name, path]) => [name, `/${path}`])),
})}</script>`;
// Where the imports are served from: their folders.
const DEPENDENCY_DIRS = Object.values(IMPORTS).map((path) =>
  path.endsWith('/') ? path.slice(0, -1) : path.slice(0, path.lastIndexOf('/')),
);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.safetensors': 'application/octet-stream',
};

/**
 * The bytes a Range header asks for, as [first, last] (inclusive): `bytes=a-b`, `bytes=a-` or
 * `bytes=-n` (the last n). null: no Range, or one this server answers with the whole file
 * (several ranges, another unit: RFC 9110 allows ignoring them); 'unsatisfiable': past the end.
 * @param {string | undefined} header
 * @param {number} size
 * @returns {[number, number] | null | 'unsatisfiable'}
 */
export function byteRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null; // invalid: ignored
  return start >= size ? 'unsatisfiable' : [start, end];
}

/**
 * Starts the server; resolves to { server, url }.
 * @param {string[]} [pageDirs] folders of the project to serve (tests and benchmarks serve
 *   theirs), besides the dependencies' folders, which are always served
 */
export function startDemoServer(port = 8080, host = '127.0.0.1', pageDirs = ['demo', 'web']) {
  const dirs = [...pageDirs, ...DEPENDENCY_DIRS];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    // The demo page is demo/index.html, its modules beside it (./app.js) and the package at /web/.
    if (path === '/' || path === '/demo') {
      res.writeHead(302, { location: '/demo/' }).end();
      return;
    }
    const relative = path === '/demo/' ? 'demo/index.html' : normalize(path.slice(1));
    const allowed = dirs.some((dir) => relative.startsWith(dir + sep)) && !relative.includes('..');
    let info;
    try {
      if (!allowed) throw new Error('not served');
      info = await stat(join(ROOT, relative));
      if (!info.isFile()) throw new Error('not a file');
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
      return;
    }
    const headers = {
      'content-type': TYPES[extname(relative)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'accept-ranges': 'bytes',
    };
    if (extname(relative) === '.html') {
      const page = (await readFile(join(ROOT, relative), 'utf8')).replace(IMPORT_MAP_PLACE, IMPORT_MAP);
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    const range = byteRange(req.headers.range, info.size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${info.size}` });
      res.end();
      return;
    }
    const [start, end] = range ?? [0, info.size - 1];
    res.writeHead(range ? 206 : 200, {
      ...headers,
      'content-length': String(end - start + 1),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${info.size}` } : {}),
    });
    if (req.method === 'HEAD' || end < start) {
      res.end();
      return;
    }
    const stream = createReadStream(join(ROOT, relative), { start, end });
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 8080;
  const { url } = await startDemoServer(port);
  console.log(`safetensors-wasm demo: ${url}  (Ctrl+C to stop)`);
}
