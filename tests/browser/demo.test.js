// The demo in real Chromium (Debian's, driven by playwright-core): the bundled
// sample shows, and a picked file gets its tensor count, verdict and card. Findings, preview and a
// changed file: demo_findings.test.js.
import { describe, expect, test } from 'vitest';
import { demoBrowser, openDemo as openDemoPage } from './demo_browser.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSafetensors, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pick, runRead, shownCard } from './demo_pick.js';

const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const demo = demoBrowser('stw-browser-');
const openDemo = () => openDemoPage(demo);

describe('demo page in Chromium', () => {
  test('shows the bundled sample', async () => {
    const { page, errors } = await openDemo();
    const shown = await shownCard(page);
    expect(shown.count).toBe('16');
    expect(shown.verdict).toBe('loadable');
    await page.click('[data-testid=metadata-box] summary');
    expect(await page.textContent('[data-testid=metadata]')).toContain('ss_network_dim');
    expect(await page.$$eval('[data-testid=tensor-table] tbody tr', (rows) => rows.length)).toBe(16);
    // A clean sample: no findings, and a scan finds nothing either.
    expect(await page.textContent('[data-testid=findings]')).toContain('Nothing to report.');
    expect(await runRead(page, 'scan')).toMatch(/: 0 tensor\(s\) with NaN or infinities, 0 all-zero\.$/);
    expect(new Set(await page.$$eval('[data-testid=scan-cell]', (tds) => tds.map((td) => td.textContent)))).toEqual(
      new Set(['ok']),
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a picked file that is too long: not loadable, with the finding', async () => {
    const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [3], data: pseudoRandomBytes(12) }]);
    const path = join(demo.dir, 'appended.safetensors');
    await writeFile(path, Buffer.concat([file, Buffer.from('PK\x03\x04zip')]));
    const { page } = await openDemo();
    const shown = await pick(page, path);
    expect(shown.verdict).toBe('not loadable: MetadataIncompleteBuffer');
    expect(shown.count).toBe('1');
    expect(shown.findings).toContain('MetadataIncompleteBuffer');
    await page.close();
  });

  test('the header of a loadable file is read once (verdict, tensors and card); a rejected one whose header is whole once more, for its card', async () => {
    const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [3], data: pseudoRandomBytes(12) }]);
    const good = join(demo.dir, 'once.safetensors');
    const bad = join(demo.dir, 'once-bad.safetensors');
    await writeFile(good, file);
    await writeFile(bad, file.subarray(0, file.byteLength - 1));
    const { page, errors } = await openDemo();
    // Every read of a picked File goes through Blob.prototype.slice: count them.
    await page.evaluate(() => {
      const slice = Blob.prototype.slice;
      window.sliceCalls = 0;
      Blob.prototype.slice = function counted(...args) {
        window.sliceCalls += 1;
        return slice.apply(this, args);
      };
    });
    // Each read of the header is two slices: the 8-byte prefix, then the header.
    for (const [path, verdict, slices, note] of [
      [good, 'loadable', 2, ''],
      [bad, 'not loadable: MetadataIncompleteBuffer', 4, 'this card is read from its header'],
    ]) {
      await page.evaluate(() => {
        window.sliceCalls = 0;
      });
      const shown = await pick(page, path);
      expect(shown.verdict).toBe(verdict);
      expect(shown.count).toBe('1');
      expect(await page.evaluate(() => window.sliceCalls), path).toBe(slices);
      // The card of the header, for the file cut short too, and what the card says of it.
      expect(await page.textContent('[data-testid=card-parameters]'), path).toMatch(/^3 /);
      if (note) expect(await page.textContent('[data-testid=card-note]'), path).toContain(note);
      else expect(await page.locator('[data-testid=card-note]').count(), path).toBe(0);
      expect(await page.textContent('[data-testid=card-what]'), path).toBe(
        'kind not recognised · family not recognised',
      );
    }
    // A file with no readable header: no card, said so, its name as the title and nothing else.
    const cut = join(demo.dir, 'once-cut.safetensors');
    await writeFile(cut, file.subarray(0, 5));
    expect((await pick(page, cut)).verdict).toBe('not loadable: HeaderTooSmall');
    expect(await page.textContent('[data-testid=card-title]')).toBe('once-cut.safetensors');
    expect(await page.textContent('[data-testid=card-note]')).toBe('No model card: the header could not be read.');
    expect(await page.textContent('[data-testid=card-what]')).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  test("the sample's model card: title, kind, family, parameters, trigger words, cover image; hashes on request", async () => {
    const { page, errors } = await openDemo();
    expect(await page.textContent('[data-testid=card-title]')).toBe('Demo sample LoRA');
    expect(await page.textContent('[data-testid=card-what]')).toBe('LoRA adapter · Stable Diffusion 1.x');
    expect(await page.textContent('[data-testid=card-adapter]')).toBe(
      'LoRA (kohya, networks.lora), rank 8, alpha 4, on text_encoder, unet',
    );
    // The family, and the evidence that decided it.
    expect(await page.textContent('[data-testid=card-family]')).toBe(
      "Stable Diffusion 1.x (sd1), from ss_base_model_version = 'sd_v1'",
    );
    expect(await page.textContent('[data-testid=card-parameters]')).toMatch(
      /^51,206 \(51\.2K; BF16 30,720, F16 20,484/,
    );
    expect(await page.$$eval('[data-testid=trigger-word]', (b) => b.map((x) => x.textContent.trim()))).toEqual([
      'wasm fox',
    ]);
    const image = await page.$eval('[data-testid=card-image]', (img) => ({
      src: img.src.slice(0, 22),
      width: img.naturalWidth,
      hidden: img.hidden,
    }));
    expect(image).toEqual({ src: 'data:image/png;base64,', width: 64, hidden: false });
    expect(await page.$$eval('[data-testid=card] a', (links) => links.map((a) => a.href))).toEqual([
      'https://github.com/huggingface/safetensors',
    ]);
    expect(await runRead(page, 'hash')).toMatch(/^Hashed 116\.2 KiB \(118,940 bytes\) in \d+ ms\.$/);
    const sample = readFileSync(SAMPLE);
    const dataStart = 8 + Number(sample.readBigUInt64LE(0));
    expect(await page.textContent('[data-testid=hash-sha256]')).toBe(sha256(sample));
    expect(await page.textContent('[data-testid=hash-autov2]')).toBe(sha256(sample).slice(0, 10));
    expect(await page.textContent('[data-testid=hash-autov3]')).toBe(sha256(sample.subarray(dataStart)).slice(0, 12));
    expect(errors).toEqual([]);
    await page.close();
  });

  test.skipIf(!HAVE_REAL)(
    'a picked real file (kohya LoKr, 1750 tensors): its card, a page of its tensors, and its sshs_model_hash checked',
    async () => {
      const { page, errors } = await openDemo();
      const shown = await pick(page, join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors'));
      expect(shown.count).toBe('1750');
      expect(shown.verdict).toBe('loadable');
      expect(await page.textContent('[data-testid=card-what]')).toBe('LoKr adapter · Stable Diffusion 1.x');
      expect((await page.$$eval('[data-testid=trigger-word]', (b) => b.map((x) => x.textContent.trim())))[0]).toBe(
        'smart falcon \\(umamusume\\)',
      );
      // One page of rows (of 1,750), the first in the file's order.
      expect(await page.$$eval('[data-testid=tensor-table] tbody tr', (r) => r.length)).toBe(100);
      expect(await page.textContent('[data-testid=tensor-range]')).toBe('1–100 of 1,750');
      await runRead(page, 'hash');
      expect(await page.$$eval('[data-testid=hash-check]', (li) => li.map((x) => x.textContent))).toEqual([
        '✓ sshs_model_hash: matches',
        '✓ sshs_legacy_hash: matches',
      ]);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
