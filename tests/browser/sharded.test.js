// Sharded models in the demo, in Chromium: the real sharded model picked as files and opened
// by URL from a server on another origin (CORS), a broken copy's finding, and a server that
// sends no CORS headers; a diffusers pipeline picked as a folder and by URL.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo } from './demo_browser.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';
import { startServer } from '../js/http_server.js';
import { INDEX_NAME, writeShardCases } from '../../tools/shard_cases.js';
import { writePipelineCase } from '../../tools/pipeline_case.js';
import { previewOf, runRead, shownCard } from './demo_pick.js';

const SHARDED = join(REAL_DIR, 'sharded');
const demo = demoBrowser('stw-shards-');

async function shown(page) {
  await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error');
  const { verdict, count } = await shownCard(page);
  return {
    verdict,
    count,
    failure: (await page.locator('[data-testid=failure]').count())
      ? await page.textContent('[data-testid=failure]')
      : '',
    // The first list (a pipeline's, above its component's): each finding's code, or what it says.
    findings: await page.$eval('safetensors-card', (card) => {
      const list = card.shadowRoot.querySelector('[data-testid=findings]');
      return list ? [...list.querySelectorAll('li')].map((li) => li.dataset.code ?? li.textContent) : [];
    }),
    // name, tensors, verdict (the fourth cell gets the shard's SHA-256 after hashing)
    shards: await page.$$eval('[data-testid=shard-row]', (rows) =>
      rows.map((r) => [...r.cells].slice(0, 3).map((c) => c.textContent)),
    ),
  };
}

async function pickFiles(page, paths) {
  await page.evaluate(() => {
    document.body.dataset.state = 'picking';
  });
  await page.setInputFiles('[data-testid=file-input]', paths);
  return shown(page);
}

async function openUrl(page, url) {
  await page.evaluate(() => {
    document.body.dataset.state = 'picking';
  });
  await page.fill('[data-testid=url-input]', url);
  await page.click('[data-testid=url-open]');
  return shown(page);
}

const folderFiles = async (dir) => (await readdir(dir)).sort().map((name) => join(dir, name));

describe.skipIf(!HAVE_REAL)('sharded models in the demo (Chromium)', () => {
  test('the real sharded model picked as files: six loadable shards, one model, a tensor previewed from its shard', async () => {
    const { page, errors } = await openDemo(demo);
    const model = await pickFiles(page, await folderFiles(SHARDED));
    expect(model.verdict).toBe('loadable');
    expect(model.count).toBe('36');
    expect(model.findings).toEqual(['Nothing to report.']);
    expect(model.shards).toEqual([
      [`model-00001-of-00006.safetensors`, '19', 'loadable'],
      ['model-00002-of-00006.safetensors', '1', 'loadable'],
      ['model-00003-of-00006.safetensors', '2', 'loadable'],
      ['model-00004-of-00006.safetensors', '4', 'loadable'],
      ['model-00005-of-00006.safetensors', '7', 'loadable'],
      ['model-00006-of-00006.safetensors', '3', 'loadable'],
    ]);
    await page.click('[data-testid=metadata-box] summary');
    expect(await page.textContent('[data-testid=metadata]')).toContain('4305');
    expect(await previewOf(page, 'float32_357')).toMatch(/^float32_357 \(F32, rows 0–3 of 3, 105 values/);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a broken copy picked as files: the shard that is missing and the finding', async () => {
    const cases = await writeShardCases(SHARDED, join(demo.dir, 'cases'));
    const { page, errors } = await openDemo(demo);
    const missing = await pickFiles(page, await folderFiles(cases.find((c) => c.code === 'ShardMissing').dir));
    expect(missing.verdict).toBe('not loadable: 1 error across the shards');
    expect(missing.findings).toEqual(['ShardMissing']);
    expect(missing.shards[3]).toEqual(['model-00004-of-00006.safetensors', '0', 'not loadable: ShardMissing']);
    const rejected = await pickFiles(page, await folderFiles(cases.find((c) => c.code === 'ShardNotLoadable').dir));
    expect(rejected.shards[4]).toEqual([
      'model-00005-of-00006.safetensors',
      '7',
      'not loadable: MetadataIncompleteBuffer',
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('by URL from another origin: an index and a single shard with CORS; without CORS a clear error', async () => {
    const server = await startServer();
    const closed = await startServer({ cors: false });
    try {
      for (const name of await readdir(SHARDED)) {
        for (const s of [server, closed])
          s.files.set(`/m/${name}`, { bytes: readFileSync(join(SHARDED, name)), etag: `"${name}"` });
      }
      expect(new URL(server.url('/')).port).not.toBe(new URL(demo.url).port);
      const { page, errors } = await openDemo(demo);
      const model = await openUrl(page, server.url(`/m/${INDEX_NAME}`));
      expect(model.verdict).toBe('loadable');
      expect(model.count).toBe('36');
      expect(model.shards).toHaveLength(6);
      // One request for the index, one per shard, and the card's for a config.json beside the
      // index (none here: 404).
      const requests = server.log.filter((r) => r.headers.origin);
      expect(requests.length).toBe(8);
      expect(requests.filter((r) => r.path === '/m/config.json')).toHaveLength(1);
      const single = await openUrl(page, server.url('/m/model-00005-of-00006.safetensors'));
      expect(single.verdict).toBe('loadable');
      expect(single.count).toBe('7');
      const blocked = await openUrl(page, closed.url(`/m/${INDEX_NAME}`));
      expect(blocked.verdict).toBe('could not read the source');
      expect(blocked.failure).toContain('Access-Control-Allow-Origin');
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await server.close();
      await closed.close();
    }
  }, 30_000);
});

describe('a diffusers pipeline in the demo (Chromium)', () => {
  const components = (page) =>
    page.$$eval('[data-testid=component-row]', (rows) =>
      rows.map((r) => [...r.cells].map((c) => c.textContent.trim())),
    );

  test("picked as a folder and by URL: every component's verdict, the missing VAE, a component shown on a click", async () => {
    const dir = await writePipelineCase(join(demo.dir, 'pipeline'), HAVE_REAL ? SHARDED : null);
    const { page, errors } = await openDemo(demo);
    await page.evaluate(() => {
      document.body.dataset.state = 'picking';
    });
    await page.setInputFiles('[data-testid=folder-input]', dir);
    const picked = await shown(page);
    expect(picked.verdict).toBe('not loadable: 1 error across the components');
    expect(picked.findings).toEqual(['ComponentMissing']);
    const rows = await components(page);
    expect(rows.map((r) => [r[0], r[4]])).toEqual([
      ['feature_extractor', ''],
      ['safety_checker', ''],
      ['scheduler', ''],
      ['text_encoder', 'loadable'],
      ['tokenizer', ''],
      ['unet', 'loadable'],
      ['vae', 'missing'],
    ]);
    // The pipeline's summary (issue 30, item 16): what its components hold, in all.
    expect(await page.textContent('[data-testid=components-summary]')).toMatch(
      /^2 with weights \(1 sharded\), 4 without, 1 missing · [\d.]+K? parameters · [\d.]+ (B|KiB) \([\d,]+ bytes\) of tensors/,
    );
    // The first component with weights is shown: the sharded text encoder, with its shards.
    expect(await page.locator('[data-testid=card-title]').allTextContents()).toEqual([
      'pipeline',
      'pipeline › text_encoder',
    ]);
    expect(picked.shards.length).toBeGreaterThan(1);
    await page.evaluate(() => {
      document.body.dataset.state = 'picking';
    });
    await page.click('[data-testid=component-row] button:text-is("unet")');
    const unet = await shown(page);
    expect(unet.count).toBe('4');
    expect(await page.locator('[data-testid=shards]').count()).toBe(0);
    expect(await previewOf(page, 'conv_in.bias')).toMatch(/^conv_in\.bias \(F32/);
    // A component's file is hashed from the picked folder.
    await runRead(page, 'hash');
    expect(await page.textContent('[data-testid=hash-sha256]')).toBe(
      createHash('sha256')
        .update(readFileSync(join(dir, 'unet/diffusion_pytorch_model.safetensors')))
        .digest('hex'),
    );

    const server = await startServer();
    try {
      for (const path of await readdir(dir, { recursive: true })) {
        const bytes = await readFile(join(dir, path)).catch(() => null);
        if (bytes) server.files.set(`/p/${path}`, { bytes, etag: '"1"' });
      }
      await page.evaluate(() => {
        document.body.dataset.state = 'picking';
      });
      await page.fill('[data-testid=url-input]', server.url('/p/model_index.json'));
      await page.click('[data-testid=url-open]');
      const remote = await shown(page);
      expect(remote.findings).toEqual(['ComponentMissing']);
      expect(await components(page)).toEqual(rows);
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);
});
