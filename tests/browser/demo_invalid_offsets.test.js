// The demo on files whose data_offsets are no byte range (issue 37): the verdict, not an
// internal error in red, and the card of what the header can be trusted for, saying so.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { shownCard } from './demo_pick.js';
import { invalidOffsetFiles } from '../fuzz/entry_mutants.js';

const demo = demoBrowser('stw-browser-offsets-');

describe('demo on invalid offsets', () => {
  test.each(Object.entries(invalidOffsetFiles()))(
    '%s: "not loadable: InvalidOffset" and a card from names, dtypes and shapes',
    async (name, bytes) => {
      const path = join(demo.dir, `${name}.safetensors`);
      await writeFile(path, bytes);
      const { page, errors } = await openDemo(demo);
      await pickFile(page, path);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe('done');
      expect(await page.textContent('[data-testid=verdict]')).toBe('not loadable: InvalidOffset');
      expect(await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code))).toContain(
        'InvalidOffset',
      );
      expect((await shownCard(page)).count).toBe('1');
      expect(await page.textContent('[data-testid=card-note]')).toContain(
        'data_offsets of its one tensor are invalid (InvalidOffset)',
      );
      expect(await page.textContent('[data-testid=card-parameters]')).toMatch(/^[01] /);
      // Set DEMO_SCREENSHOT_DIR to look at the page (a person checks what the demo shows).
      if (process.env.DEMO_SCREENSHOT_DIR)
        await page.screenshot({ path: join(process.env.DEMO_SCREENSHOT_DIR, `demo-${name}.png`), fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
