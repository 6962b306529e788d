// Loading the wasm modules in Chromium (web/core/modules.js, web/core/wasm_fetch.js): a .wasm
// served as application/wasm is compiled while it downloads (compileStreaming), one served as
// another type from its bytes; the core's is asked for at the package's import, the card's at
// openSafetensors(file, { preloadCard: true }); preload() loads the core and the card module, each
// once, so that describe() fetches nothing more; a .wasm that cannot be fetched is InitError
// naming it, and the next call loads it.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { demoBrowser } from './demo_browser.js';
import { openSafetensors } from '../../web/index.js';

const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
const CORE = '/web/wasm/safetensors_core.wasm';
const CARD = '/web/wasm/safetensors_card.wasm';
const CARD_JS = '/web/wasm/safetensors_card.js';

const demo = demoBrowser('stw-wasm-loading-', ['web', 'tests', 'demo']);

/**
 * A fresh page with the sample picked; it records the URLs WebAssembly.compileStreaming is given
 * (streamed) and the paths of the .wasm files fetch() is asked for, when asked (requested).
 */
async function freshPage(before = async () => {}) {
  const page = await demo.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const original = WebAssembly.compileStreaming;
    window.streamed = [];
    window.requested = [];
    const fetchAs = window.fetch;
    window.fetch = (url, init) => {
      const path = new URL(url, location.href).pathname;
      if (path.endsWith('.wasm')) window.requested.push(path);
      return fetchAs.call(window, url, init);
    };
    WebAssembly.compileStreaming = async (source) => {
      const response = await source;
      window.streamed.push(new URL(response.url).pathname);
      return original.call(WebAssembly, response);
    };
  });
  await before(page);
  await page.goto(`${demo.url}tests/browser/wasm_loading_page.html`);
  await page.setInputFiles('#file', SAMPLE);
  return { page, errors };
}

// A string, not a function: Vitest rewrites import() inside functions it compiles. The page
// opens and describes the picked file, calling preload() first when told, opening with
// `openOptions`; it reports the wasm files (and the card's loader) fetched after each step, and
// the .wasm files asked for at the import and once openSafetensors was called.
const openAndDescribe = (preload, openOptions = {}) => `(async () => {
  const api = await import('/web/index.js');
  const atImport = window.requested.slice();
  const fetched = () => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)
    .filter((p) => p.endsWith('.wasm') || p.endsWith('safetensors_card.js'));
  if (${preload}) await api.preload();
  const afterPreload = fetched();
  const opening = api.openSafetensors(document.getElementById('file').files[0], ${JSON.stringify(openOptions)});
  const atOpen = window.requested.slice();
  const st = await opening;
  const afterOpen = fetched();
  const card = await st.describe();
  return { atImport, atOpen, afterPreload, afterOpen, afterDescribe: fetched(), streamed: window.streamed,
    tensors: st.tensors.length, kind: card.kind, parameters: card.parameters.total };
})()`;

describe('loading the wasm modules in Chromium', () => {
  test('preload() loads the core and the card module, each compiled while it downloads and fetched once; describe() then fetches nothing', async () => {
    const st = await openSafetensors(new Uint8Array(await readFile(SAMPLE)));
    const card = await st.describe();
    const expected = { tensors: st.tensors.length, kind: card.kind, parameters: card.parameters.total };
    const all = [CARD_JS, CARD, CORE];

    const preloaded = await freshPage();
    const withPreload = await preloaded.page.evaluate(openAndDescribe(true));
    expect(withPreload).toMatchObject(expected);
    expect(withPreload.afterPreload.sort()).toEqual(all);
    expect(withPreload.afterDescribe.sort()).toEqual(all);
    expect(withPreload.streamed.sort()).toEqual([CARD, CORE]);
    expect(preloaded.errors).toEqual([]);

    // Without it, the import asks for the core only (opening too), and describe() for the card's files.
    const plain = await freshPage();
    const without = await plain.page.evaluate(openAndDescribe(false));
    expect(without).toMatchObject(expected);
    expect(without.atImport).toEqual([CORE]);
    expect(without.atOpen).toEqual([CORE]);
    expect(without.afterOpen).toEqual([CORE]);
    expect(without.afterDescribe.sort()).toEqual(all);
    expect(without.streamed.sort()).toEqual([CARD, CORE]);
    expect(plain.errors).toEqual([]);

    // Opened with { preloadCard: true }, the card's .wasm is asked for as the open starts, once.
    const hinted = await freshPage();
    const withHint = await hinted.page.evaluate(openAndDescribe(false, { preloadCard: true }));
    expect(withHint).toMatchObject(expected);
    expect(withHint.atImport).toEqual([CORE]);
    expect(withHint.atOpen).toEqual([CORE, CARD]);
    expect(withHint.afterDescribe.sort()).toEqual(all);
    expect(withHint.streamed.sort()).toEqual([CARD, CORE]);
    expect(hinted.errors).toEqual([]);
    await Promise.all([preloaded.page.close(), plain.page.close(), hinted.page.close()]);
  });

  test('a .wasm served as another type than application/wasm (or with parameters) is compiled from its bytes', async () => {
    const bytes = await readFile(fileURLToPath(new URL(`../..${CORE}`, import.meta.url)));
    for (const contentType of ['application/octet-stream', 'application/wasm; charset=binary']) {
      const { page, errors } = await freshPage((p) =>
        p.route(`**${CORE}`, (route) => route.fulfill({ body: bytes, contentType })),
      );
      const shown = await page.evaluate(openAndDescribe(false));
      expect(shown.tensors, contentType).toBeGreaterThan(0);
      expect(shown.streamed, contentType).toEqual([CARD]); // the card's .wasm is served as application/wasm
      expect(errors, contentType).toEqual([]);
      await page.close();
    }
  });

  test('a .wasm that cannot be fetched is InitError naming it and the status, from openSafetensors and preload(); the next call loads it', async () => {
    let missing = true; // until both calls have failed
    const { page, errors } = await freshPage((p) =>
      p.route(`**${CORE}`, (route) => (missing ? route.fulfill({ status: 404, body: 'not here' }) : route.continue())),
    );
    const result = await page.evaluate(`(async () => {
      const api = await import('/web/index.js');
      const file = document.getElementById('file').files[0];
      const failure = (e) => ({ name: e.name, code: e.code, message: e.message });
      const opened = await api.openSafetensors(file).then(() => null, failure);
      const preloaded = await api.preload({ card: false }).then(() => null, failure);
      return { opened, preloaded };
    })()`);
    missing = false;
    result.tensors = await page.evaluate(`(async () => {
      const api = await import('/web/index.js');
      return (await api.openSafetensors(document.getElementById('file').files[0])).tensors.length;
    })()`);
    for (const failure of [result.opened, result.preloaded]) {
      expect(failure).toMatchObject({ name: 'SafetensorsError', code: 'InitError' });
      expect(failure.message).toContain('safetensors_core.wasm');
      expect(failure.message).toContain('HTTP 404');
    }
    expect(result.tensors).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
