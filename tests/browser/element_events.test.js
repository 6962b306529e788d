// <safetensors-card>'s events and state in Chromium (docs/element.md, "Events"): `load` with
// { kind, report, card, opened } for each kind of answer, a rejected file's included; the
// reflected `state` going loading → done or error; `source = null` emptying the card; and a new
// source aborting the previous one: a slow URL held by the server never fires nor overwrites
// the file given meanwhile.
import { describe, expect, test } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHECKPOINTS,
  SAMPLE,
  answerTo,
  answers,
  cardText,
  elementBrowser,
  findingCodes,
  inCard,
  openCard,
  pickFiles,
} from './element_page.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';
import { startServer } from '../js/http_server.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { openCheckpoint, validateSafetensors } from '../../web/index.js';

const ctx = elementBrowser('stw-element-events-');

/** The sample cut short by one byte: the reference rejects it (MetadataIncompleteBuffer). */
async function truncatedSample() {
  const path = join(ctx.dir, 'truncated.safetensors');
  const bytes = await readFile(SAMPLE);
  await writeFile(path, bytes.subarray(0, bytes.byteLength - 1));
  return path;
}

/** The states the card's `state` attribute took since the last call. */
const statesSince = (page) => page.evaluate(() => window.states.splice(0));

describe('<safetensors-card> events and state (Chromium)', () => {
  test('a rejected file is an answer: `load` with its report (not loadable), its header’s card, `opened` null', async () => {
    const path = await truncatedSample();
    const report = await validateSafetensors(path);
    expect(report.referenceError).toBe('MetadataIncompleteBuffer');
    const { page, errors } = await openCard(ctx);
    const load = await pickFiles(page, path, { one: true });
    expect(load).toEqual({
      type: 'load',
      state: 'done',
      detail: {
        kind: 'file',
        loadable: false,
        verdict: null,
        referenceError: 'MetadataIncompleteBuffer',
        title: 'Demo sample LoRA',
        opened: null,
        same: true,
      },
    });
    expect(await statesSince(page)).toEqual(['loading', 'done']);
    expect(await page.evaluate(() => window.card.state)).toBe('done');
    expect(await cardText(page, 'verdict')).toBe('not loadable: MetadataIncompleteBuffer');
    expect(await findingCodes(page)).toEqual(report.findings.map((f) => f.code));
    expect(await cardText(page, 'card-note')).toContain('The reference loader rejects this file');
    expect(await page.locator('safetensors-card [data-testid=tensor-table]').count()).toBe(0);

    // `source = null` empties the card: no state, nothing shown, no event.
    await page.evaluate(() => (window.card.source = null));
    expect(await statesSince(page)).toEqual([null]);
    expect(
      await page.evaluate(() => [window.card.state, window.card.report, window.card.card, window.card.opened]),
    ).toEqual(['', null, null, null]);
    expect(await page.locator('safetensors-card [data-testid=verdict]').count()).toBe(0);
    expect((await answers(page)).length).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  test.skipIf(!HAVE_REAL)(
    'a real rejected file (a header length past the end of the file): `load`, with the reference error',
    async () => {
      const path = join(REAL_DIR, 'invalid_header_len_exceeds_file.safetensors');
      const report = await validateSafetensors(path);
      const { page, errors } = await openCard(ctx);
      const load = await pickFiles(page, path, { one: true });
      expect(load).toMatchObject({
        type: 'load',
        detail: { kind: 'file', loadable: false, referenceError: report.referenceError, opened: null, same: true },
      });
      expect(await cardText(page, 'verdict')).toBe(`not loadable: ${report.referenceError}`);
      expect(await findingCodes(page)).toEqual(report.findings.map((f) => f.code));
      expect(await cardText(page, 'card-note')).toBe('No model card: the header could not be read.');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  test('`load` for a checkpoint (its scan as the report) and for separate files (one shown at a time, `load` again on a pick)', async () => {
    const ckptPath = join(CHECKPOINTS, 'lightning.ckpt');
    const ckpt = await openCheckpoint(ckptPath);
    const { page, errors } = await openCard(ctx);
    const load = await pickFiles(page, ckptPath);
    expect(load).toMatchObject({
      type: 'load',
      state: 'done',
      detail: { kind: 'checkpoint', loadable: null, verdict: ckpt.verdict, opened: 'Checkpoint', same: true },
    });
    expect(await page.evaluate(() => window.card.report === window.card.opened)).toBe(true);
    expect(await page.getAttribute('safetensors-card [data-testid=ckpt-verdict]', 'data-verdict')).toBe(ckpt.verdict);

    const truncated = await truncatedSample();
    const files = await pickFiles(page, [SAMPLE, truncated]);
    // A folder's `opened` is the file shown's: the first, the sample.
    expect(files).toMatchObject({
      type: 'load',
      detail: { kind: 'files', loadable: false, opened: 'SafetensorsFile', same: true },
    });
    expect(await cardText(page, 'verdict')).toBe('not loadable: 1 error across the files');
    const rows = () =>
      page
        .locator('safetensors-card [data-testid=file-row]')
        .evaluateAll((trs) => trs.map((r) => [r.cells[0].textContent.trim(), r.className]));
    expect(await rows()).toEqual([
      ['sample.safetensors', 'selected'],
      ['truncated.safetensors', ''],
    ]);
    expect(await page.evaluate(() => window.card.card.title)).toBe('Demo sample LoRA');
    const second = await answerTo(page, () =>
      window.card.shadowRoot.querySelector('[data-testid=file-row][data-index="1"] button').click(),
    );
    expect(second).toMatchObject({
      type: 'load',
      detail: { kind: 'files', loadable: false, opened: null, same: true },
    });
    expect(await rows()).toEqual([
      ['sample.safetensors', ''],
      ['truncated.safetensors', 'selected'],
    ]);
    expect(await page.locator('safetensors-card .part [data-testid=verdict]').textContent()).toBe(
      'not loadable: MetadataIncompleteBuffer',
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a new source aborts the previous one: a slow URL, held by the server, never fires nor overwrites the file given meanwhile', async () => {
    const slow = writeSafetensors([{ name: 'slow.weight', dtype: 'F32', shape: [4], data: new Uint8Array(16) }], {
      'modelspec.title': 'The slow file',
    });
    const server = await startServer();
    /** @type {{ res: import('node:http').ServerResponse, closed: boolean }[]} */
    const held = [];
    server.answer = (req, res) => {
      if (!req.url.startsWith('/slow/')) return false;
      const entry = { res, closed: false };
      res.on('close', () => (entry.closed = true));
      held.push(entry);
      return true; // answered later, or never
    };
    const { page, errors } = await openCard(ctx);
    try {
      await page.evaluate((url) => window.card.setAttribute('src', url), server.url('/slow/model.safetensors'));
      await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await page.getAttribute('safetensors-card', 'state')).toBe('loading');
      expect(await cardText(page, 'opening')).toBe('Reading the header…');

      const load = await pickFiles(page, SAMPLE, { one: true });
      expect(load).toMatchObject({ type: 'load', detail: { kind: 'file', title: 'Demo sample LoRA' } });
      // The slow request was aborted: Chromium closed its connection.
      await expect.poll(() => held.every((h) => h.closed), { timeout: 10_000 }).toBe(true);
      // Now the server answers anyway (where it still can): nothing changes.
      for (const { res } of held)
        if (!res.writableEnded) res.writeHead(200, { 'Content-Length': slow.byteLength }).end(slow);
      await page.waitForTimeout(800);
      expect(await answers(page)).toEqual([load]);
      expect(await cardText(page, 'card-title')).toBe('Demo sample LoRA');
      expect(await page.evaluate(() => [window.card.state, window.card.card.title])).toEqual([
        'done',
        'Demo sample LoRA',
      ]);
      expect(await statesSince(page)).toEqual(['loading', 'loading', 'done']);
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a new source stops the hashing of the previous one: its reads aborted, nothing of it shown on the new card', async () => {
    const data = new Uint8Array(8 << 20).fill(3);
    const remote = writeSafetensors([{ name: 'w', dtype: 'U8', shape: [data.byteLength], data }], { format: 'pt' });
    const server = await startServer();
    server.files.set('/m/remote.safetensors', { bytes: remote, etag: '"h1"' });
    /** @type {{ res: import('node:http').ServerResponse, closed: boolean }[]} */
    const held = [];
    let holding = false;
    server.answer = (req, res) => {
      if (!holding || req.method !== 'GET') return false;
      const entry = { res, closed: false };
      res.on('close', () => (entry.closed = true));
      held.push(entry);
      return true;
    };
    const { page, errors } = await openCard(ctx);
    try {
      await answerTo(page, (url) => window.card.setAttribute('src', url), server.url('/m/remote.safetensors'));
      holding = true; // from now on the server answers nothing: the hash's reads hang
      await page.click(inCard('hash-button'));
      await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await cardText(page, 'hash-button')).trim()).toBe('Stop');
      expect(await page.locator(inCard('hash-progress')).count()).toBe(1);

      const load = await pickFiles(page, SAMPLE, { one: true });
      expect(load).toMatchObject({ type: 'load', detail: { title: 'Demo sample LoRA' } });
      await expect.poll(() => held.every((h) => h.closed), { timeout: 10_000 }).toBe(true);
      for (const { res } of held) if (!res.writableEnded) res.writeHead(500).end();
      await page.waitForTimeout(500);
      expect((await cardText(page, 'hash-button')).trim()).toBe('Compute hashes');
      expect(await cardText(page, 'hash-status')).toBe('');
      expect(await page.locator(inCard('hash-progress')).count()).toBe(0);
      expect(await page.locator(inCard('hashes')).count()).toBe(0);
      expect((await answers(page)).map((a) => a.type)).toEqual(['load', 'load']);
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
