// The package in three engines (issue 46): Chromium, Firefox ESR and WebKitGTK (Safari's engine),
// each driven as tests/browser/engines.js says. In each, the same checks (engine_checks.js: the
// verdict, the card, every dtype's decode, streamTensor, getTensors, hashes, a URL by Range, a
// sharded model, openInWorker, a checkpoint and its conversion, writing and editing, a
// signature) answer as they do in Node; <safetensors-card> shows a card; and the demo's main
// flows work: a pick, a drop, a checkpoint converted (a download where the engine has no save
// picker); the offline app, built as make demo builds it, shows its card and is served by its
// service worker once reloaded. Engines missing here are skipped, saying so; under CI=true, make test installs them
// and a missing one fails.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from '../../web/index.js';
import * as worker from '../../web/worker.js';
import { startDemoServer } from '../../demo/serve.js';
import { runChecks } from './engine_checks.js';
import { ENGINES, haveEngine, launchEngine, waitInPage } from './engines.js';
import { buildApp, serveFolder } from './offline_app.js';
import { allDtypesFile, signedModel, twoShardModel, writeFolder } from './test_models.js';

const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
const CHECKPOINT = fileURLToPath(new URL('../checkpoints/lightning.ckpt', import.meta.url));
const ctx = { work: '', server: null, url: '', app: null, paths: [], names: {}, options: {}, expected: null };

beforeAll(async () => {
  ctx.work = await mkdtemp(join(tmpdir(), 'stw-engines-'));
  const dir = join(ctx.work, 'files');
  const shards = twoShardModel();
  const { model, signature, pem } = signedModel();
  await writeFolder(join(dir, 'signed'), new Map([...model, ['model.sig', signature]]));
  await writeFolder(dir, { 'dtypes.safetensors': allDtypesFile(), ...shards });
  await copyFile(SAMPLE, join(dir, 'sample.safetensors'));
  await copyFile(CHECKPOINT, join(dir, 'lightning.ckpt'));
  // Each file by its key in engine_checks.js, and the name it is picked by (unique basenames).
  const keyed = {
    sample: 'sample.safetensors',
    dtypes: 'dtypes.safetensors',
    shard1: 'model-00001-of-00002.safetensors',
    shard2: 'model-00002-of-00002.safetensors',
    index: 'model.safetensors.index.json',
    checkpoint: 'lightning.ckpt',
  };
  const signedPaths = [...model.keys(), 'model.sig'];
  ctx.paths = [...Object.values(keyed).map((n) => join(dir, n)), ...signedPaths.map((p) => join(dir, 'signed', p))];
  ctx.names = { ...keyed, ...Object.fromEntries(signedPaths.map((p) => [`signed/${p}`, basename(p)])) };
  ({ server: ctx.server, url: ctx.url } = await startDemoServer(0, '127.0.0.1', ['web', 'demo', 'tests/browser']));
  // The offline app as make demo builds it, on a plain static server.
  await buildApp(join(ctx.work, 'app'));
  ctx.app = await serveFolder(join(ctx.work, 'app'));
  ctx.options = { sampleUrl: `${ctx.url}demo/sample.safetensors`, publicKey: pem };
  // What Node answers, on the same bytes.
  const files = {};
  for (const [key, name] of Object.entries(ctx.names)) {
    const path = ctx.paths.find((p) => p.endsWith(`/${key.startsWith('signed/') ? key : name}`));
    files[key] = new File([await readFile(path)], name);
  }
  ctx.expected = await runChecks(api, worker, files, ctx.options);
}, 120_000);

afterAll(async () => {
  ctx.server?.close();
  await ctx.app?.close();
  if (ctx.work) await rm(ctx.work, { recursive: true, force: true });
});

describe.each(ENGINES)('%s', (engine) => {
  const installed = haveEngine(engine);
  if (!installed && process.env.CI === 'true')
    test(`${engine} is installed (make test installs it)`, () => expect(installed).toBe(true));
  if (!installed) console.log(`${engine} is not installed here: its tests are skipped (make test installs it)`);
  const run = { driver: null };

  beforeAll(async () => {
    if (installed) run.driver = await launchEngine(engine);
  }, 120_000);
  afterAll(async () => {
    await run.driver?.close();
  });

  test.skipIf(!installed)(
    'the API answers as it does in Node',
    async () => {
      const d = run.driver;
      await d.goto(`${ctx.url}tests/browser/engine_page.html`);
      await waitInPage(d, () => document.body.dataset.ready === 'yes');
      await d.upload('#files', ctx.paths);
      const answers = await d.evaluate((spec) => window.checks(spec), { names: ctx.names, ...ctx.options });
      for (const name of Object.keys(ctx.expected))
        expect(answers[name], `${engine}: ${name}`).toEqual(ctx.expected[name]);
      expect(ctx.expected.signature.verified).toBe(true);
      expect(ctx.expected.checkpoint.verdict).toBe('safe');
      expect(ctx.expected.gpu).toMatch(/^TypeError: toGPU needs a GPUDevice/);
    },
    180_000,
  );

  test.skipIf(!installed)(
    '<safetensors-card> shows the card of a picked file',
    async () => {
      const d = run.driver;
      const shown = await d.evaluate((name) => window.showCard(name), 'sample.safetensors');
      expect(shown).toEqual({ title: 'Demo sample LoRA', verdict: 'loadable', rows: 16 });
      const features = await d.evaluate(() => window.features());
      if (engine !== 'chromium') expect(features).toEqual({ savePicker: 'undefined', gpu: 'undefined' });
    },
    60_000,
  );

  test.skipIf(!installed)(
    'the built offline app shows its card, and its service worker controls the page once reloaded',
    async () => {
      const d = run.driver;
      const title = () =>
        document.getElementById('card').shadowRoot.querySelector('[data-testid=card-title]')?.textContent.trim();
      await d.goto(ctx.app.url);
      await waitInPage(d, () => document.body.dataset.state === 'done');
      expect(await d.evaluate(title)).toBe('Demo sample LoRA');
      // Workbox's worker installs (precaching the app), then controls the next load.
      await waitInPage(d, async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated');
      await d.goto(ctx.app.url);
      await waitInPage(d, () => document.body.dataset.state === 'done');
      expect(await d.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
      expect(await d.evaluate(title)).toBe('Demo sample LoRA');
    },
    120_000,
  );

  test.skipIf(!installed)(
    'the demo: a pick, a drop, and a checkpoint converted to a download',
    async () => {
      const d = run.driver;
      const state = () => document.body.dataset.state;
      const title = () =>
        document.getElementById('card').shadowRoot.querySelector('[data-testid=card-title]')?.textContent.trim();
      await d.goto(ctx.url);
      await waitInPage(d, () => document.body.dataset.state === 'done');
      expect(await d.evaluate(title)).toBe('Demo sample LoRA');
      const pick = async (path) => {
        await d.evaluate(() => {
          document.body.dataset.state = 'picking';
        });
        await d.upload('[data-testid=file-input]', [path]);
        await waitInPage(d, () => ['done', 'error'].includes(document.body.dataset.state));
      };
      // A pick: the sharded model's first shard, one file.
      await pick(ctx.paths[2]);
      expect(await d.evaluate(title)).toBe('model-00001-of-00002.safetensors');
      // A drop of what was picked: the page takes the DataTransfer's files.
      await d.evaluate(() => {
        document.body.dataset.state = 'dropping';
        const transfer = new DataTransfer();
        for (const file of document.querySelector('[data-testid=file-input]').files) transfer.items.add(file);
        const drop = new Event('drop', { bubbles: true, cancelable: true });
        Object.defineProperty(drop, 'dataTransfer', { value: transfer });
        document.getElementById('drop').dispatchEvent(drop);
      });
      await waitInPage(d, () => ['done', 'error'].includes(document.body.dataset.state));
      expect(await d.evaluate(state)).toBe('done');
      expect(await d.evaluate(title)).toBe('model-00001-of-00002.safetensors');
      // A checkpoint: safe, converted; without a save picker, a download (the click recorded).
      await pick(ctx.paths[5]);
      const verdict = await d.evaluate(() =>
        document.getElementById('card').shadowRoot.querySelector('[data-testid=ckpt-verdict]').textContent.trim(),
      );
      expect(verdict).toBe('safe');
      await d.evaluate(() => {
        delete window.showSaveFilePicker; // Chromium has one: take the path the others take
        window.downloads = [];
        HTMLAnchorElement.prototype.click = function recorded() {
          window.downloads.push(this.download);
        };
        document.getElementById('card').shadowRoot.querySelector('[data-testid=convert-button]').click();
      });
      const status = await waitInPage(d, () => {
        const text =
          document.getElementById('card').shadowRoot.querySelector('[data-testid=convert-status]')?.textContent ?? '';
        return /^(Downloaded|Saved|Conversion failed|Refused)/.test(text) ? text : null;
      });
      expect(status).toMatch(/^Downloaded lightning\.safetensors: 4 tensors, /);
      expect(await d.evaluate(() => window.downloads)).toEqual(['lightning.safetensors']);
    },
    120_000,
  );
});
