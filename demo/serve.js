// Serves the demo page and the package it imports, on loopback only.
// Usage: node demo/serve.js [--port 8080]   (port 0 picks a free one)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The package's runtime dependencies, which the page's import map points at: hash-wasm, and
// PKI.js with its own (for certificate and keyless signatures).
const SERVED_DIRS = [
  'demo',
  'web',
  'node_modules/hash-wasm/dist',
  'node_modules/pkijs/build',
  'node_modules/asn1js/build',
  'node_modules/@peculiar/utils/build',
  'node_modules/bytestreamjs/build',
  'node_modules/@noble/hashes',
];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.safetensors': 'application/octet-stream',
};

/**
 * Starts the server; resolves to { server, url }.
 * @param {string[]} [dirs] folders of the project to serve (the benchmarks add theirs)
 */
export function startDemoServer(port = 8080, host = '127.0.0.1', dirs = SERVED_DIRS) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const relative = path === '/' ? 'demo/index.html' : normalize(path.slice(1));
    const allowed = dirs.some((dir) => relative.startsWith(dir + sep)) && !relative.includes('..');
    try {
      if (!allowed) throw Object.assign(new Error('not served'), { code: 'ENOENT' });
      const body = await readFile(join(ROOT, relative));
      res.writeHead(200, {
        'content-type': TYPES[extname(relative)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    }
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
