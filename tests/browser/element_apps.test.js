// <safetensors-card> in the apps its users write, against the packed package: docs/element.md's
// plain HTML, React 19 and Vue 3 snippets and README's element walk, each as written there,
// installed by name from the tarball and built by Vite (element_apps.js), opened in Chromium; a
// real file picked in each shows its card in the element's shadow root, the snippet's `load`
// handler shows the verdict, then a rejected file's verdict replaces it, with no page errors.
// What the element adds to a page's download stays within its budget, and the installed
// tarball's `safetensors-wasm/element` imports in Node without loading anything.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './chromium.js';
import { ROOT, run } from './packed_app.js';
import { buildElementApps, measureElementSize } from './element_apps.js';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { verdictText } from '../../web/file/verdict_text.js';

/**
 * What a page downloads for the element on top of what describe() loads, gzipped: every JS chunk
 * of the element's app (its entry's and the card module loader's, with their static imports)
 * less those of an app that opens a picked file, calls describe() and can open what the element
 * opens (element_apps.js, SIZE_APPS: why that app and not a describe() alone). Lit and
 * web/element/*, and whatever else of the package the element imports on its own.
 */
const ELEMENT_BUDGET_BYTES = 20_000;

/** What the element and the page's handler must show for a file, as the package says in Node. */
async function expectedFor(bytes, name) {
  const report = await validateSafetensors(bytes);
  const card = report.loadable ? await (await openSafetensors(bytes)).describe() : null;
  const word = report.loadable ? 'loadable' : 'not loadable';
  return { badge: verdictText(report), word, title: card ? (card.title ?? name) : null, family: card?.family?.name };
}

describe('<safetensors-card> in apps built from the packed package', () => {
  const ctx = {};
  beforeAll(async () => {
    ctx.work = await mkdtemp(join(tmpdir(), 'stw-element-apps-'));
    Object.assign(ctx, await buildElementApps(ctx.work));
    console.log('pack and install, build (ms):', ctx.timings);
    // A real LoRA (the demo's sample), and the same cut short by 8 bytes: rejected by the reference.
    const sample = await readFile(join(ROOT, 'demo', 'sample.safetensors'));
    ctx.files = { good: join(ctx.work, 'sample.safetensors'), cut: join(ctx.work, 'cut.safetensors') };
    await copyFile(join(ROOT, 'demo', 'sample.safetensors'), ctx.files.good);
    await writeFile(ctx.files.cut, sample.subarray(0, sample.length - 8));
    ctx.expected = {
      good: await expectedFor(new Uint8Array(sample), 'sample.safetensors'),
      cut: await expectedFor(new Uint8Array(sample.subarray(0, sample.length - 8)), 'cut.safetensors'),
    };
    const { preview } = await import('vite');
    ctx.server = await preview({
      root: ctx.app,
      configFile: false,
      logLevel: 'error',
      build: { outDir: ctx.dist },
      preview: { host: '127.0.0.1', port: 0, strictPort: true },
    });
    ctx.url = `http://127.0.0.1:${ctx.server.httpServer.address().port}/`;
    ctx.browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
    if (ctx.work) await rm(ctx.work, { recursive: true, force: true });
  });

  /**
   * Opens one page of the built app in a fresh context; returns the page, its errors (uncaught,
   * and console errors and warnings, a missing favicon aside) and the lines it logged.
   */
  async function openApp(path) {
    const context = await ctx.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    const logged = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // Warnings too: a development build's (Lit's dev mode, React's) would show here.
      if ((m.type() === 'error' || m.type() === 'warning') && !m.location().url.endsWith('/favicon.ico'))
        errors.push(`${m.type()}: ${m.text()}`);
      if (m.type() === 'log') logged.push(m.text());
    });
    await page.goto(ctx.url + path);
    // The element defined and in the page (React and Vue render it after their module runs).
    await page.waitForFunction(
      () => customElements.get('safetensors-card') && document.querySelector('safetensors-card') !== null,
    );
    // The test's own count of the element's `load` events, beside the app's handler.
    await page.evaluate(() => {
      window.loads = 0;
      document.querySelector('safetensors-card').addEventListener('load', () => window.loads++);
    });
    return { page, errors, logged, close: () => context.close() };
  }

  /** Picks `file` through `input` and waits for the element's n-th `load`; what its shadow root shows. */
  async function pick(page, input, file, n) {
    await page.setInputFiles(input, file);
    await page.waitForFunction((count) => window.loads === count, n, { timeout: 20_000 });
    return {
      title: await page.locator('safetensors-card [data-testid=card-title]').textContent(),
      badge: await page.locator('safetensors-card [data-testid=verdict]').textContent(),
      state: await page.getAttribute('safetensors-card', 'state'),
    };
  }

  /** The shadow root's card for a file picked in an app, checked against the package's answer in Node. */
  function expectCard(shown, expected) {
    expect(shown.state).toBe('done');
    expect(shown.badge.trim()).toBe(expected.badge);
    if (expected.title !== null) expect(shown.title.trim()).toBe(expected.title);
  }

  test("docs/element.md's plain HTML page: the picked file's card, and the page's load handler logs its verdict", async () => {
    const { page, errors, logged, close } = await openApp('html/');
    try {
      const input = 'safetensors-card [data-testid=pick-input]'; // the element's own picker
      const { good, cut } = ctx.expected;
      expect([good.word, cut.word]).toEqual(['loadable', 'not loadable']);
      expectCard(await pick(page, input, ctx.files.good, 1), good);
      await expect.poll(() => logged).toContain(`${good.word} ${good.family}`);
      expectCard(await pick(page, input, ctx.files.cut, 2), cut);
      await expect.poll(() => logged.filter((line) => line.startsWith('not loadable'))).toHaveLength(1);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  test.each([
    ['React 19', 'react/', '#root > input[type=file]', '#root > p'],
    ['Vue 3', 'vue/', '#app > input[type=file]', '#app > p'],
  ])(
    "docs/element.md's %s component: the picked file's card, and its load handler's verdict in the <p>",
    async (_, path, input, verdict) => {
      const { page, errors, close } = await openApp(path);
      try {
        const { good, cut } = ctx.expected;
        expect(await page.textContent(verdict)).toBe('');
        expectCard(await pick(page, input, ctx.files.good, 1), good);
        await expect.poll(() => page.textContent(verdict)).toBe(good.word);
        expectCard(await pick(page, input, ctx.files.cut, 2), cut);
        await expect.poll(() => page.textContent(verdict)).toBe(cut.word);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  test("README's element walk, as written: the picked file's card", async () => {
    const { page, errors, close } = await openApp('readme/');
    try {
      expectCard(await pick(page, 'safetensors-card [data-testid=pick-input]', ctx.files.good, 1), ctx.expected.good);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  test(`the element adds at most ${ELEMENT_BUDGET_BYTES.toLocaleString('en')} bytes of gzipped JS to what a page that calls describe() downloads`, async () => {
    const size = await measureElementSize(ctx.app);
    console.log(
      `the element adds ${size.added} bytes gzipped (${size.element.total} against ${size.cardPage.total} for a page that ` +
        `describes what the element opens; ${size.overDescribe} over describe() alone, ${size.describe.total}): ` +
        `Lit ${size.lit}, web/element/* ${size.own}, and the package's modules describe() does not load:`,
      size.beyond,
      { element: size.element.chunks, cardPage: size.cardPage.chunks, describe: size.describe.chunks },
    );
    // Both pages load the card module's loader (preload(), describe()); Lit and the element each
    // came out as a chunk of their own, or the shares measure nothing.
    expect(size.element.cardLoader && size.describe.cardLoader && size.cardPage.cardLoader).toBe(true);
    expect(size.lit).toBeGreaterThan(0);
    expect(size.own).toBeGreaterThan(0);
    expect(size.added, `the element adds ${size.added} bytes gzipped`).toBeLessThanOrEqual(ELEMENT_BUDGET_BYTES);
  }, 60_000);

  test("the installed tarball's safetensors-wasm/element imports in Node: its exports, nothing defined, no wasm load", async () => {
    const probe = join(ctx.app, 'element_import_probe.mjs');
    await copyFile(join(ROOT, 'tests', 'js', 'element_import_probe.js'), probe);
    const { stdout } = await run(process.execPath, [probe, 'safetensors-wasm/element'], { cwd: ctx.app });
    const seen = JSON.parse(stdout);
    expect(seen.exports).toEqual(['SafetensorsCard', 'TAG_NAME']);
    expect(seen.tagName).toBe('safetensors-card');
    expect(seen.defined).toBe(false);
    expect(seen.calls).toEqual([]);
  });
});
