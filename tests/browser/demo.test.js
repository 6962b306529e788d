// The demo in real Chromium (Debian's, driven by playwright-core): the bundled
// sample shows, and a picked file gets its tensor count and verdict.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/serve.js';
import { writeSafetensors, pseudoRandomBytes } from '../js/write_safetensors.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

let server;
let url;
let browser;
let dir;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: make test installs Debian's chromium`);
  ({ server, url } = await startDemoServer(0));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  dir = await mkdtemp(join(tmpdir(), 'stw-browser-'));
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openDemo() {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.state === 'done');
  return { page, errors };
}

async function pick(page, path) {
  await page.evaluate(() => { document.body.dataset.state = 'picking'; });
  await page.setInputFiles('[data-testid=file-input]', path);
  await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error');
  return {
    count: await page.textContent('[data-testid=tensor-count]'),
    verdict: await page.textContent('[data-testid=verdict]'),
    findings: await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code ?? '')),
  };
}

describe('demo page in Chromium', () => {
  test('shows the bundled sample', async () => {
    const { page, errors } = await openDemo();
    expect(await page.textContent('[data-testid=tensor-count]')).toBe('16');
    expect(await page.textContent('[data-testid=verdict]')).toBe('loadable');
    expect(await page.textContent('[data-testid=metadata]')).toContain('ss_network_dim');
    expect(await page.$$eval('[data-testid=tensor-table] tbody tr', (rows) => rows.length)).toBe(16);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a picked file that is too long: not loadable, with the finding', async () => {
    const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [3], data: pseudoRandomBytes(12) }]);
    const path = join(dir, 'appended.safetensors');
    await writeFile(path, Buffer.concat([file, Buffer.from('PK\x03\x04zip')]));
    const { page } = await openDemo();
    const shown = await pick(page, path);
    expect(shown.verdict).toBe('not loadable: MetadataIncompleteBuffer');
    expect(shown.count).toBe('1');
    expect(shown.findings).toContain('MetadataIncompleteBuffer');
    await page.close();
  });

  test.skipIf(!HAVE_REAL)('a picked real file (kohya LoKr, 1750 tensors)', async () => {
    const { page } = await openDemo();
    const shown = await pick(page, join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors'));
    expect(shown.count).toBe('1750');
    expect(shown.verdict).toBe('loadable');
    await page.close();
  });
});
