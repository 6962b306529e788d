// The demo's server (demo/serve.js) answers Range requests as the Hub and CDNs do: 206 with
// Content-Range for one range, 416 past the end, 200 without Range; and a file it serves
// opens over HTTP through ranges.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IMPORT_MAP_PLACE, startDemoServer, byteRange } from '../../demo/serve.js';
import { openSafetensors } from '../../web/index.js';

// A static file: the server serves it as it is (HTML pages get their import map written in).
const PAGE = readFileSync(fileURLToPath(new URL('../../demo/style.css', import.meta.url)));
const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
let demo;
beforeAll(async () => {
  demo = await startDemoServer(0);
});
afterAll(() => demo?.server.close());

const get = (path, range) => fetch(new URL(path, demo.url), { headers: range ? { Range: range } : {} });

test('one byte range: 206 with Content-Range and exactly those bytes', async () => {
  const size = PAGE.byteLength;
  for (const [range, first, last] of [
    ['bytes=0-9', 0, 9],
    ['bytes=10-', 10, size - 1],
    ['bytes=-5', size - 5, size - 1],
    [`bytes=5-${size + 100}`, 5, size - 1],
  ]) {
    const r = await get('demo/style.css', range);
    expect(r.status, range).toBe(206);
    expect(r.headers.get('content-range'), range).toBe(`bytes ${first}-${last}/${size}`);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await r.arrayBuffer()).equals(PAGE.subarray(first, last + 1)), range).toBe(true);
  }
});

test('past the end: 416 with the size; no Range or several: 200 and the whole file', async () => {
  const size = PAGE.byteLength;
  const past = await get('demo/style.css', `bytes=${size}-`);
  expect(past.status).toBe(416);
  expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  for (const range of [undefined, 'bytes=0-1,5-6', 'items=0-1']) {
    const r = await get('demo/style.css', range);
    expect(r.status, range).toBe(200);
    expect(Buffer.from(await r.arrayBuffer()).equals(PAGE), range).toBe(true);
  }
  expect((await get('../package.json')).status).toBe(404);
  expect(byteRange('bytes=9-3', 100)).toBeNull();
});

test('the sample opens from it by URL through range reads (206 each)', async () => {
  const statuses = [];
  const counted = (url, init) =>
    fetch(url, init).then((r) => {
      statuses.push(r.status);
      return r;
    });
  const st = await openSafetensors(new URL('demo/sample.safetensors', demo.url).href, {
    firstRead: 64,
    fetch: counted,
  });
  const local = await openSafetensors(readFileSync(SAMPLE));
  expect(st.tensors).toEqual(local.tensors);
  const t = st.tensors.at(-1);
  expect(await st.getTensor(t.name)).toEqual(await local.getTensor(t.name));
  expect(statuses.length).toBeGreaterThanOrEqual(3);
  expect(new Set(statuses)).toEqual(new Set([206]));
});

/** One module under each prefix mapping of the import map. */
const UNDER_PREFIX = {
  '@noble/hashes/': 'sha2.js',
  'lit/': 'index.js',
  'lit-html/': 'lit-html.js',
  'lit-element/': 'lit-element.js',
  '@lit/reactive-element/': 'reactive-element.js',
};

test("a page gets the dependencies' import map where it asks for it, and every mapped module is served", async () => {
  const source = readFileSync(fileURLToPath(new URL('../../demo/index.html', import.meta.url)), 'utf8');
  expect(source).toContain(IMPORT_MAP_PLACE);
  const page = await (await get('/')).text();
  expect(page).not.toContain(IMPORT_MAP_PLACE);
  const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/s.exec(page)[1]);
  expect(Object.keys(map.imports)).toContain('hash-wasm');
  for (const [name, path] of Object.entries(map.imports)) {
    // A prefix mapping ("@noble/hashes/", "lit/") is checked with one module under it.
    const module = path.endsWith('/') ? `${path}${UNDER_PREFIX[name]}` : path;
    const r = await get(module);
    expect(r.status, name).toBe(200);
    expect(r.headers.get('content-type'), name).toMatch(/^text\/javascript/);
  }
});
