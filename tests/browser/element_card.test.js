// What <safetensors-card> shows, in Chromium, against what the package says in Node: the verdict
// first, each finding's code, a real LoKr's card facts (adapter, rank, trigger words), the
// metadata collapsed and then every key once, the cover image only as a data: URL (a URL in the
// metadata is never fetched), hashes on request equal to node:crypto's with progress, and the
// data scan's counts per tensor.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  SAMPLE,
  cardText,
  elementBrowser,
  findingCodes,
  inCard,
  openCard,
  pickFiles,
  progressEvents,
} from './element_page.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';
import { startServer } from '../js/http_server.js';
import { pseudoRandomBytes, rawFile, writeSafetensors } from '../../tools/write_safetensors.js';
import { adapterText, grouped } from '../../web/card/card_text.js';
import { openSafetensors, validateSafetensors } from '../../web/index.js';

const ctx = elementBrowser('stw-element-card-');
const f32 = (...values) => new Uint8Array(new Float32Array(values).buffer);

/** The metadata table's rows once opened: [key, value shown]. */
const metadataRows = (page) =>
  page
    .locator(inCard('metadata'))
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.cells[0]?.textContent ?? '', tr.cells.length > 1 ? tr.cells[1].textContent : '']),
    );

describe('what <safetensors-card> shows (Chromium)', () => {
  test('the sample: the verdict first, the cover only as a data: URL, the metadata collapsed then every key once (long values cut)', async () => {
    const st = await openSafetensors(SAMPLE);
    const card = await st.describe();
    const { page, errors } = await openCard(ctx);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await pickFiles(page, SAMPLE, { one: true });
    const parts = await page.evaluate(() =>
      [...window.card.shadowRoot.querySelectorAll('[part]')]
        .map((e) => e.getAttribute('part'))
        .filter((p) => p !== 'cover'),
    );
    expect(parts.slice(0, 2)).toEqual(['frame', 'header']);
    expect(parts[2]).toBe('verdict'); // right after the title: before the findings, the card, the actions and the tensors
    for (const later of ['findings', 'facts', 'actions', 'metadata', 'tensors'])
      expect(parts.indexOf(later)).toBeGreaterThan(2);
    expect(await cardText(page, 'findings')).toContain('Nothing to report.');

    const cover = page.locator(inCard('card-image'));
    expect(await cover.getAttribute('src')).toBe(card.images[0].dataUrl);
    expect(card.images[0].dataUrl).toMatch(/^data:image\/png;base64,/);
    expect(await cover.evaluate((img) => img.complete && img.naturalWidth)).toBe(64);
    expect(requests.filter((url) => !url.startsWith(ctx.url))).toEqual([]);

    const box = page.locator(inCard('metadata-box'));
    expect(await box.evaluate((d) => d.open)).toBe(false);
    expect(await page.locator(inCard('metadata')).count()).toBe(0); // no rows made while collapsed
    expect(await box.locator('summary').textContent()).toBe(`Metadata (${Object.keys(st.metadata).length} keys)`);
    await box.locator('summary').click();
    await page.locator(inCard('metadata')).waitFor();
    const rows = await metadataRows(page);
    expect(rows.map(([key]) => key)).toEqual(Object.keys(st.metadata));
    for (const [key, shown] of rows) {
      const value = st.metadata[key];
      expect(shown, key).toBe(
        value.length > 400 ? `${value.slice(0, 400)}… (${grouped(value.length)} characters)` : value,
      );
    }
    expect(rows.some(([, shown]) => shown.endsWith(' characters)'))).toBe(true); // the cover image's base64
    expect(errors).toEqual([]);
    await page.close();
  });

  test('findings by code, as validateSafetensors gives them; a cover image named by URL is not fetched', async () => {
    const server = await startServer();
    server.files.set('/cover.png', { bytes: new Uint8Array(16), etag: '"c"' });
    // Unpadded header, an unusual format, an unknown key, unlabelled integer weights, an empty tensor.
    const metadata = { format: 'weird', my_key: 'x', 'modelspec.thumbnail': server.url('/cover.png') };
    const path = join(ctx.dir, 'findings.safetensors');
    await writeFile(
      path,
      rawFile(
        `{"__metadata__":${JSON.stringify(metadata)},"a.weight":{"dtype":"I8","shape":[3],"data_offsets":[0,3]},"b.bias":{"dtype":"F32","shape":[0],"data_offsets":[3,3]}}`,
        3,
      ),
    );
    const report = await validateSafetensors(path);
    expect(report.loadable).toBe(true);
    expect(report.findings.length).toBeGreaterThanOrEqual(4);
    const { page, errors } = await openCard(ctx);
    try {
      await pickFiles(page, path, { one: true });
      expect(await findingCodes(page)).toEqual(report.findings.map((f) => f.code));
      const items = await page.locator('safetensors-card [data-testid=findings] li[data-code]').allTextContents();
      report.findings.forEach((f, i) => expect(items[i]).toContain(f.message));
      expect(await page.locator(inCard('card-image')).count()).toBe(0);
      await page.waitForTimeout(300);
      expect(server.log).toEqual([]);
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  test.skipIf(!HAVE_REAL)(
    'a real LoKr (LyCORIS, kohya): adapter type and rank, trigger words, family, as describe() gives them',
    async () => {
      const path = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
      const st = await openSafetensors(path);
      const card = await st.describe({ readAlpha: true });
      const { page, errors } = await openCard(ctx);
      await pickFiles(page, path, { one: true });
      const adapter = await cardText(page, 'card-adapter');
      expect(adapter).toBe(adapterText(card));
      expect(adapter).toMatch(/^LoKr .*rank 4/);
      expect(await cardText(page, 'card-what')).toBe('LoKr adapter · Stable Diffusion 1.x');
      expect(await cardText(page, 'card-title')).toBe(card.title);
      const words = await page.locator(inCard('trigger-word')).allTextContents();
      expect(words).toEqual(card.triggerWords.slice(0, 12).map((w) => w.text));
      expect(words).toContain('hair bow');
      expect(await cardText(page, 'tensor-range')).toBe(`1–100 of ${grouped(st.tensors.length)}`);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  test('hashes on request: node:crypto’s SHA-256 of the file and of its data, AutoV2, with progress events and bar', async () => {
    const data = pseudoRandomBytes(12 << 20, 5);
    const file = writeSafetensors([{ name: 'w', dtype: 'U8', shape: [data.byteLength], data }], { format: 'pt' });
    const path = join(ctx.dir, 'hashed.safetensors');
    await writeFile(path, file);
    const sha256 = createHash('sha256').update(file).digest('hex');
    const dataStart = 8 + Number(new DataView(file.buffer).getBigUint64(0, true));
    const { page, errors } = await openCard(ctx);
    await pickFiles(page, path, { one: true });
    expect(await page.locator(inCard('hashes')).count()).toBe(0);
    // While it runs: the button says Stop and a progress bar shows.
    await page.evaluate(() => {
      window.whileHashing = new Set();
      new MutationObserver(() => {
        const root = window.card.shadowRoot;
        if (root.querySelector('[data-testid=hash-progress]')) window.whileHashing.add('bar');
        if (root.querySelector('[data-testid=hash-button]').textContent.trim() === 'Stop')
          window.whileHashing.add('stop');
      }).observe(window.card.shadowRoot, { subtree: true, childList: true, characterData: true });
    });
    await page.click(inCard('hash-button'));
    await page.waitForFunction(() => window.card.shadowRoot.querySelector('[data-testid=hash-sha256]'), null, {
      timeout: 30_000,
    });
    expect(await cardText(page, 'hash-sha256')).toBe(sha256);
    expect(await cardText(page, 'hash-autov2')).toBe(sha256.slice(0, 10));
    expect(await cardText(page, 'hash-data')).toBe(createHash('sha256').update(file.subarray(dataStart)).digest('hex'));
    expect(await cardText(page, 'hash-status')).toMatch(
      new RegExp(`^Hashed 12\\.0 MiB \\(${grouped(file.byteLength)} bytes\\) in \\d+ ms\\.$`),
    );
    expect((await cardText(page, 'hash-button')).trim()).toBe('Compute hashes');
    expect(await page.evaluate(() => [...window.whileHashing].sort())).toEqual(['bar', 'stop']);
    expect(await page.locator(inCard('hash-progress')).count()).toBe(0);
    const progress = (await progressEvents(page)).filter((p) => p.phase === 'hash');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((p, i) => p.done <= p.total && (i === 0 || p.done >= progress[i - 1].done))).toBe(true);
    expect(progress.at(-1).done).toBe(progress.at(-1).total);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the data scan: NaN, infinities and all-zero tensors per row, and the findings it adds', async () => {
    const path = join(ctx.dir, 'scan.safetensors');
    await writeFile(
      path,
      writeSafetensors(
        [
          { name: 'has_nan', dtype: 'F32', shape: [4], data: f32(NaN, 1, 2, NaN) },
          { name: 'has_inf', dtype: 'F32', shape: [4], data: f32(1, Infinity, -Infinity, 0) },
          { name: 'zero', dtype: 'F32', shape: [4], data: f32(0, -0, 0, 0) },
          { name: 'fine', dtype: 'F32', shape: [4], data: f32(1, 2, 3, 4) },
        ],
        { format: 'pt' },
      ),
    );
    const before = await validateSafetensors(path);
    const after = await validateSafetensors(path, { scanData: true });
    const { page, errors } = await openCard(ctx);
    await pickFiles(page, path, { one: true });
    expect(await page.locator(inCard('scan-cell')).count()).toBe(0);
    await page.click(inCard('scan-button'));
    await page.waitForFunction(() =>
      /^Scanned /.test(window.card.shadowRoot.querySelector('[data-testid=scan-status]').textContent),
    );
    const cells = await page
      .locator('safetensors-card [data-testid=tensor-table] tbody tr')
      .evaluateAll((trs) =>
        Object.fromEntries(trs.map((tr) => [tr.dataset.name, tr.querySelector('[data-testid=scan-cell]').textContent])),
      );
    expect(cells).toEqual({ has_nan: '2 NaN', has_inf: '1 +inf, 1 −inf', zero: 'all zero', fine: 'ok' });
    expect(await cardText(page, 'scan-status')).toMatch(/: 2 tensor\(s\) with NaN or infinities, 1 all-zero\.$/);
    expect(await findingCodes(page)).toEqual(after.findings.map((f) => f.code));
    expect(after.findings.length).toBeGreaterThan(before.findings.length);
    expect(errors).toEqual([]);
    await page.close();
  });
});
