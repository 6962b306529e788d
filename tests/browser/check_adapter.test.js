// checkAdapter in Chromium, through the API on picked Files and through the demo's panel (picked,
// and dropped together in either order): the same verdicts Node gives, on a real adapter (the
// LyCORIS LoKr of ../shared/fixtures/real) and a base header written as SD 1.5 and SDXL.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickInPage } from './demo_browser.js';
import { checkAdapter } from '../../web/index.js';
import { bases } from '../js/adapter_bases.js';
import { headerOnly } from '../js/header_only.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';

const demo = demoBrowser('stw-browser-adapter-');
const LOKR = `${REAL_DIR}kohya_lycoris_lokr_dim4_f16.safetensors`;

/** Waits for the panel's verdict after `act`, and returns it with the mismatch rows. */
async function panelVerdict(page, act) {
  await page.evaluate(() => {
    document.body.dataset.adapterState = 'waiting';
  });
  await act();
  await page.waitForFunction(() => document.body.dataset.adapterState === 'done');
  return {
    verdict: await page.textContent('[data-testid=adapter-verdict]'),
    rows: await page.$$eval('[data-testid=adapter-mismatch]', (rows) => rows.map((r) => r.cells[0].textContent)),
  };
}

describe.runIf(HAVE_REAL)('checkAdapter in Chromium', () => {
  test('the API on picked Files, and the demo panel picked and dropped', async () => {
    const sd15 = join(demo.dir, 'sd15.safetensors');
    const sdxl = join(demo.dir, 'sdxl.safetensors');
    await writeFile(sd15, headerOnly(bases.sd15Ldm()));
    await writeFile(sdxl, headerOnly(bases.sdxlLdm()));
    const { page, errors } = await openDemo(demo);
    await pickInPage(page, [LOKR, sdxl]);
    // A string, not a function: Vitest rewrites import() inside functions it compiles.
    const inPage = await page.evaluate(`(async () => {
      const { checkAdapter } = await import('/web/index.js');
      const [adapter, base] = document.querySelector('[data-testid=two-files]').files;
      return checkAdapter(adapter, base);
    })()`);
    expect(inPage).toEqual(await checkAdapter(LOKR, sdxl));
    expect(inPage.compatible).toBe(false);

    const picked = await panelVerdict(page, async () => {
      await page.setInputFiles('[data-testid=adapter-file]', LOKR);
      await page.setInputFiles('[data-testid=adapter-base]', sd15);
    });
    expect(picked.verdict).toBe(
      'Compatible: kohya_lycoris_lokr_dim4_f16.safetensors (kohya lokr) on sd15.safetensors (ldm): 350 of 350 adapted modules fit.',
    );
    expect(picked.rows).toEqual([]);

    // Dropped together, base first: the panel finds which one is the adapter.
    const droppedBoth = await panelVerdict(page, () =>
      page.evaluate(() => {
        const transfer = new DataTransfer();
        for (const file of document.querySelector('[data-testid=two-files]').files) transfer.items.add(file);
        const zone = document.querySelector('[data-testid=adapter-drop]');
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }),
    );
    expect(droppedBoth.verdict).toMatch(
      /^Not compatible: kohya_lycoris_lokr_dim4_f16.safetensors \(kohya lokr\) on sdxl.safetensors \(ldm\): \d+ of 350/,
    );
    // 189 modules do not fit (as in Node): the first 20 listed, then how many more.
    expect(droppedBoth.rows.length).toBe(20);
    expect(droppedBoth.rows[0]).toBe('lora_unet_down_blocks_0_attentions_0_proj_in');
    expect(await page.textContent('[data-testid=adapter-unmatched]')).toContain('… and 169 more');
    await page
      .locator('[data-testid=adapter-box]')
      .screenshot({ path: join(process.env.SCREENSHOT_DIR ?? demo.dir, 'adapter-panel.png') });
    expect(errors).toEqual([]);
  });
});
