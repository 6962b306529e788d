// What the Chromium tests share: Debian's Chromium with the flags for a headless CI machine,
// the demo server, a temporary folder, and the demo page opened and given a file.
import { afterAll, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/serve.js';
import { launchChromium } from './chromium.js';

/**
 * Starts the demo server, Chromium and a temporary folder before the file's tests and stops
 * them after; the returned object holds { url, browser, dir } once the tests run.
 * @param {string} prefix the temporary folder's name prefix
 * @param {string[]} [dirs] folders of the project to serve (the server's default otherwise)
 * @param {string[]} [flags] more Chromium flags (chromium.js: WEBGPU_FLAGS)
 */
export function demoBrowser(prefix, dirs, flags = []) {
  const ctx = { url: '', browser: null, dir: '', server: null };
  beforeAll(async () => {
    ({ server: ctx.server, url: ctx.url } = await startDemoServer(0, '127.0.0.1', ...(dirs ? [dirs] : [])));
    ctx.browser = await launchChromium(flags);
    ctx.dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await ctx.browser?.close();
    ctx.server?.close();
    if (ctx.dir) await rm(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}

/**
 * A new page on the demo, once it has shown its sample; `errors` collects page errors.
 * `before(page)` runs before the page loads (to watch or route its requests).
 */
export async function openDemo(ctx, before = async () => {}) {
  const page = await ctx.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await before(page);
  await page.goto(ctx.url);
  await page.waitForFunction(() => document.body.dataset.state === 'done');
  return { page, errors };
}

/** Picks `path` in the demo's file input and waits until the page has shown it (or failed). */
export async function pickFile(page, path) {
  await page.evaluate(() => {
    document.body.dataset.state = 'picking';
  });
  await page.setInputFiles('[data-testid=file-input]', path);
  await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error');
}

/** Adds a multiple-file input to the page and picks `paths` with it; the page's script reads
 * them as `document.querySelector('[data-testid=two-files]').files`. */
export async function pickInPage(page, paths) {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.dataset.testid = 'two-files';
    document.body.append(input);
  });
  await page.setInputFiles('[data-testid=two-files]', paths);
}
