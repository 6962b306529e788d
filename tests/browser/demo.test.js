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
import { pick } from './demo_pick.js';

const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const demo = demoBrowser('stw-browser-');
const openDemo = () => openDemoPage(demo);

describe('demo page in Chromium', () => {
  test('shows the bundled sample', async () => {
    const { page, errors } = await openDemo();
    expect(await page.textContent('[data-testid=tensor-count]')).toBe('16');
    expect(await page.textContent('[data-testid=verdict]')).toBe('loadable');
    expect(await page.textContent('[data-testid=metadata]')).toContain('ss_network_dim');
    await page.click('[data-testid=expand-all]');
    expect(await page.$$eval('[data-testid=tensor-table] tbody tr', (rows) => rows.length)).toBe(16);
    // A clean sample: no findings, and a scan finds nothing either.
    expect(await page.textContent('[data-testid=findings]')).toBe('Nothing to report.');
    await page.click('[data-testid=scan-button]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    expect(await page.textContent('[data-testid=scan-status]')).toMatch(
      /: 0 tensor\(s\) with NaN or infinities, 0 all-zero\.$/,
    );
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
      // The card of the header, for the file cut short too, and what the panel says of it.
      expect(await page.textContent('[data-testid=card-parameters]'), path).toMatch(/^3 /);
      expect(await page.textContent('#card-status'), path).toContain(note);
      expect(await page.isVisible('#card-what'), path).toBe(true);
    }
    // A file with no readable header: no card, and no stray separator where kind and family were.
    const cut = join(demo.dir, 'once-cut.safetensors');
    await writeFile(cut, file.subarray(0, 5));
    expect((await pick(page, cut)).verdict).toBe('not loadable: HeaderTooSmall');
    expect(await page.textContent('[data-testid=card-title]')).toBe('(no model card: the file is not loadable)');
    expect(await page.isVisible('#card-what')).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("the sample's model card: title, kind, family, parameters, trigger words, cover image; hashes on request", async () => {
    const { page, errors } = await openDemo();
    expect(await page.textContent('[data-testid=card-title]')).toBe('Demo sample LoRA');
    expect(await page.textContent('[data-testid=card-kind]')).toBe(
      'adapter: LoRA (kohya, networks.lora), rank 8, alpha 4, on text_encoder, unet',
    );
    expect(await page.textContent('[data-testid=card-family]')).toBe('Stable Diffusion 1.x (sd1)');
    expect(await page.getAttribute('[data-testid=card-family]', 'title')).toContain('ss_base_model_version');
    expect(await page.textContent('[data-testid=card-parameters]')).toMatch(
      /^51,206 \(51\.2K; BF16 30,720, F16 20,484/,
    );
    expect(await page.$$eval('[data-testid=trigger-word]', (b) => b.map((x) => x.textContent))).toEqual(['wasm fox']);
    const image = await page.$eval('[data-testid=card-image]', (img) => ({
      src: img.src.slice(0, 22),
      width: img.naturalWidth,
      hidden: img.hidden,
    }));
    expect(image).toEqual({ src: 'data:image/png;base64,', width: 64, hidden: false });
    expect(await page.$$eval('#card a', (links) => links.map((a) => a.href))).toEqual([
      'https://github.com/huggingface/safetensors',
    ]);
    await page.click('[data-testid=hash-button]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    const sample = readFileSync(SAMPLE);
    const dataStart = 8 + Number(sample.readBigUInt64LE(0));
    expect(await page.textContent('[data-testid=hash-sha256]')).toBe(sha256(sample));
    expect(await page.textContent('[data-testid=hash-autov2]')).toBe(sha256(sample).slice(0, 10));
    expect(await page.textContent('[data-testid=hash-autov3]')).toBe(sha256(sample.subarray(dataStart)).slice(0, 12));
    // The tree: two top-level modules, opened on demand.
    expect(
      await page.$$eval('[data-testid=module-tree] > details > summary .module', (s) => s.map((x) => x.textContent)),
    ).toEqual(['lora_te_text_model_encoder_layers_0_mlp_fc1', 'lora_unet']);
    expect(errors).toEqual([]);
    await page.close();
  });

  test.skipIf(!HAVE_REAL)(
    'a picked real file (kohya LoKr, 1750 tensors): its card, a short tree, and its sshs_model_hash checked',
    async () => {
      const { page, errors } = await openDemo();
      const shown = await pick(page, join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors'));
      expect(shown.count).toBe('1750');
      expect(shown.verdict).toBe('loadable');
      expect(await page.textContent('[data-testid=card-kind]')).toContain('LoKr');
      expect((await page.$$eval('[data-testid=trigger-word]', (b) => b.map((x) => x.textContent)))[0]).toBe(
        'smart falcon \\(umamusume\\)',
      );
      expect(await page.$$eval('[data-testid=module-tree] details', (d) => d.length)).toBe(2);
      expect(await page.$$eval('[data-testid=module-tree] tr', (r) => r.length)).toBe(0);
      await page.click('[data-testid=module-tree] > details:first-child > summary');
      // <details> fires its toggle event (which builds the box) as a task of its own: wait for it.
      await page.waitForSelector('[data-testid=module-tree] > details:first-child > details');
      const names = await page.$$eval(
        '[data-testid=module-tree] > details:first-child > details > summary .module',
        (s) => s.map((x) => x.textContent),
      );
      expect(names.slice(0, 3)).toEqual([
        'text_model_encoder_layers_0',
        'text_model_encoder_layers_1',
        'text_model_encoder_layers_2',
      ]);
      await page.click('[data-testid=hash-button]');
      await page.waitForFunction(() => document.body.dataset.state === 'done');
      expect(await page.$$eval('[data-testid=hash-check]', (li) => li.map((x) => x.textContent))).toEqual([
        '✓ sshs_model_hash: matches',
        '✓ sshs_legacy_hash: matches',
      ]);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
