// The offline app in Chromium (issue 45): the demo built as make demo builds it, served from a
// sub-path by a plain static server, in a profile of its own. First visit: the service worker
// (Workbox, vite-plugin-pwa) takes the page; the manifest names the model files the app opens and
// Chromium finds nothing that keeps it from being installed. Then with the network off: the page
// loads, the sample's card shows, a checkpoint converts to a download, hashes are computed, a
// signature checks with a local key, and a URL says the network is off. A second build of the
// app: the page says a new version is ready, and takes it on a click.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchPersistentChromium } from './chromium.js';
import { buildApp, serveFolder } from './offline_app.js';
import { runRead, text } from './demo_pick.js';
import { runVerification } from './sign_panel.js';
import { signedModel, writeFolder } from './test_models.js';
import { openSafetensors } from '../../web/index.js';

const BASE = '/safetensors-wasm/';
const CHECKPOINT = fileURLToPath(new URL('../checkpoints/lightning.ckpt', import.meta.url));
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const ctx = { work: '', app: '', server: null, context: null };

beforeAll(async () => {
  ctx.work = await mkdtemp(join(tmpdir(), 'stw-offline-'));
  ctx.app = join(ctx.work, 'app');
  await buildApp(ctx.app, BASE);
  ctx.server = await serveFolder(ctx.app, BASE);
  ctx.context = await launchPersistentChromium(join(ctx.work, 'profile'));
}, 120_000);

afterAll(async () => {
  await ctx.context?.close();
  await ctx.server?.close();
  if (ctx.work) await rm(ctx.work, { recursive: true, force: true });
});

/** The page once it has shown its card (or failed); `picking` first, so that a later state is the pick's. */
const settled = (page) =>
  page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 30_000 });

/** A signed folder (a key of its own), its public key's PEM. */
async function signedFolder() {
  const { model, signature, pem } = signedModel();
  return { folder: await writeFolder(join(ctx.work, 'signed'), new Map([...model, ['model.sig', signature]])), pem };
}

describe('the offline app (Chromium)', () => {
  test('installed by its first visit, it works with the network off, and says so when a new build is ready', async () => {
    const page = await ctx.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));

    // First visit: the worker installs, precaches the app and is ready to work offline.
    await page.goto(ctx.server.url);
    await settled(page);
    expect(await text(page, 'card-title')).toBe('Demo sample LoRA');
    expect(await text(page, 'privacy')).toContain('never uploaded');
    await page.waitForFunction(() => document.body.dataset.offline === 'ready', null, { timeout: 30_000 });
    await page.reload();
    await settled(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');

    // The manifest: its icons and the model files the installed app opens; nothing keeps it from
    // being installed.
    const manifest = await page.evaluate(async () =>
      (await fetch(document.querySelector('link[rel=manifest]').href)).json(),
    );
    expect(manifest).toMatchObject({ display: 'standalone', start_url: BASE, scope: BASE });
    expect(manifest.file_handlers).toEqual([
      {
        action: BASE,
        accept: { 'application/octet-stream': ['.safetensors', '.ckpt', '.pt', '.pth', '.bin', '.pkl'] },
      },
    ]);
    const icons = manifest.icons.map((i) => `${i.sizes}${i.purpose ? ` ${i.purpose}` : ''}`);
    expect(icons).toEqual(expect.arrayContaining(['192x192', '512x512', '512x512 maskable']));
    const cdp = await ctx.context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    await cdp.detach(); // attached, it kept the page's navigator.onLine true under setOffline

    // The network off: the app loads from its worker's cache, with its three .wasm files.
    const beforeOffline = ctx.server.requests.length;
    await ctx.context.setOffline(true);
    await page.reload();
    await settled(page);
    expect(ctx.server.requests.length).toBe(beforeOffline); // nothing reached the server
    expect(await text(page, 'card-title')).toBe('Demo sample LoRA');
    expect(await text(page, 'verdict')).toBe('loadable');

    // A checkpoint: its card, converted and saved (a download), the hashes of the file.
    await page.evaluate(() => {
      delete window.showSaveFilePicker;
      document.body.dataset.state = 'picking';
    });
    await page.setInputFiles('[data-testid=file-input]', CHECKPOINT);
    await settled(page);
    expect(await text(page, 'ckpt-verdict')).toBe('safe');
    const [download] = await Promise.all([page.waitForEvent('download'), runRead(page, 'convert')]);
    const converted = await openSafetensors(new Uint8Array(await readFile(await download.path())));
    expect(converted.report.loadable).toBe(true);
    expect(converted.tensors.length).toBeGreaterThan(0);
    expect(await runRead(page, 'hash')).toMatch(/^Hashed /);
    expect(await text(page, 'hash-sha256')).toBe(sha256(await readFile(CHECKPOINT)));

    // A signature, checked with a local key.
    const { folder, pem } = await signedFolder();
    await page.setInputFiles('[data-testid=folder-input]', folder);
    await page.waitForSelector('[data-testid=sign-box]:not([hidden])');
    await page.fill('[data-testid=sign-pem]', pem);
    expect((await runVerification(page)).status).toMatch(/^Verified: signed by P-256 key /);

    // A URL: the network is off, and the card says so.
    await page.evaluate(() => {
      document.body.dataset.state = 'picking';
    });
    await page.fill('[data-testid=url-input]', 'https://huggingface.co/x/y/resolve/main/model.safetensors');
    await page.click('[data-testid=url-open]');
    await settled(page);
    expect(await text(page, 'failure')).toMatch(/^ReadError: the network is off: https:\/\/huggingface\.co\//);

    // A new build: once the page checks, it says a new version is ready; a click takes it.
    await ctx.context.setOffline(false);
    const built = await text(page, 'built');
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a build time of its own
    await buildApp(ctx.app, BASE);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.waitForSelector('[data-testid=update]:not([hidden])', { timeout: 30_000 });
    await Promise.all([page.waitForEvent('load'), page.click('[data-testid=update-reload]')]);
    await settled(page);
    expect(await text(page, 'built')).not.toBe(built);
    expect(await page.isHidden('[data-testid=update]')).toBe(true);
    // Only the app is cached: nothing of a picked file, nor of the URL asked for.
    const cached = await page.evaluate(async () => {
      const urls = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      return urls;
    });
    expect(cached.length).toBeGreaterThan(30);
    expect(cached.filter((u) => !u.startsWith(ctx.server.url))).toEqual([]);
    expect(cached.filter((u) => /lightning|huggingface|adapter|model\.sig/.test(u))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test('files the system hands the installed app (launchQueue) are shown as a pick of them would be', async () => {
    const page = await ctx.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    // The File Handling API's queue, as Chromium gives it to an app launched with files: the
    // consumer the page sets is called with their handles (here files of the page's own storage).
    await page.addInitScript(() => {
      const queue = { setConsumer: (consumer) => (window.launchConsumer = consumer) };
      Object.defineProperty(window, 'launchQueue', { value: queue, configurable: true });
    });
    await page.goto(ctx.server.url);
    await settled(page);
    const bytes = [...(await readFile(CHECKPOINT))];
    await page.evaluate(async (data) => {
      document.body.dataset.state = 'picking';
      const root = await navigator.storage.getDirectory();
      const handle = await root.getFileHandle('lightning.ckpt', { create: true });
      const writable = await handle.createWritable();
      await writable.write(new Uint8Array(data));
      await writable.close();
      await window.launchConsumer({ files: [handle] });
    }, bytes);
    await settled(page);
    expect(await text(page, 'card-title')).toBe('lightning.ckpt');
    expect(await text(page, 'ckpt-verdict')).toBe('safe');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
