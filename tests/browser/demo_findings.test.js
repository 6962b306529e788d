// The demo in real Chromium: every finding shown on the file crafted for it, a tensor's preview
// decoded in the page, and a picked file changed on disk afterwards (a ReadError, the page stays
// usable). The sample, the card and the reads: demo.test.js.
import { describe, expect, test } from 'vitest';
import { demoBrowser, openDemo as openDemoPage } from './demo_browser.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { writeFindingFiles } from '../../tools/finding_files.js';
import { pick, previewOf, runRead } from './demo_pick.js';

const demo = demoBrowser('stw-browser-');
const openDemo = () => openDemoPage(demo);

describe('demo page in Chromium', () => {
  test('every finding shows in the findings list on the file crafted for it; scan findings after a scan', async () => {
    const cases = await writeFindingFiles(demo.dir);
    const { page, errors } = await openDemo();
    for (const c of cases) {
      const shown = await pick(page, c.path);
      const rejected =
        c.code === 'NotSafetensors'
          ? 'not loadable: HeaderTooLarge; this is a Git LFS pointer, not a safetensors file'
          : 'not loadable: MetadataIncompleteBuffer';
      expect(shown.verdict, c.code).toBe(c.loadable ? 'loadable' : rejected);
      if (c.hash) {
        expect(shown.findings, c.code).not.toContain(c.code);
        await runRead(page, 'hash');
        expect(
          await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code ?? '')),
          c.code,
        ).toContain(c.code);
        expect(await page.$$eval('[data-testid=hash-check]', (li) => li.map((x) => x.className))).toEqual(['bad']);
        continue;
      }
      if (!c.scan) {
        expect(shown.findings, c.code).toContain(c.code);
        continue;
      }
      expect(shown.findings, c.code).not.toContain(c.code);
      await runRead(page, 'scan');
      const after = await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code ?? ''));
      expect(after, c.code).toContain(c.code);
      expect(await page.textContent('[data-testid=scan-status]')).toMatch(
        /^Scanned 12 bytes in \d+ ms: [01] tensor\(s\) with NaN or infinities, [01] all-zero\.$/,
      );
      const cells = await page.$$eval('[data-testid=scan-cell]', (tds) => tds.map((td) => td.textContent));
      expect(cells).toEqual([c.code === 'NonFiniteValues' ? '1 NaN, 1 −inf' : 'all zero']);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  test('clicking a tensor previews its first values, decoded in the page', async () => {
    const values = new Float32Array([1.5, -2, 3, 0.25, 5, 6]);
    const path = join(demo.dir, 'preview.safetensors');
    await writeFile(
      path,
      writeSafetensors([
        { name: 'm', dtype: 'F32', shape: [3, 2], data: new Uint8Array(values.buffer) },
        { name: 'h', dtype: 'F16', shape: [], data: new Uint8Array([0x00, 0x3c]) },
      ]),
    );
    const { page, errors } = await openDemo();
    await pick(page, path);
    for (const [name, expected] of [
      ['m', 'm (F32, rows 0–3 of 3, 6 values'],
      ['h', 'h (F16, scalar, 1 values'],
    ]) {
      const text = await previewOf(page, name);
      expect(text).toContain(expected);
      expect(text.split('\n')[1]).toBe(name === 'm' ? '1.50000, -2, 3, 0.250000, 5, 6' : '1');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a picked file changed on disk afterwards: preview and scan report a ReadError, the page stays usable', async () => {
    const path = join(demo.dir, 'changing.safetensors');
    const data = new Uint8Array(new Float32Array(4096).fill(1).buffer);
    await writeFile(path, writeSafetensors([{ name: 'w', dtype: 'F32', shape: [4096], data }]));
    const { page, errors } = await openDemo();
    expect((await pick(page, path)).verdict).toBe('loadable');
    await writeFile(path, new Uint8Array(100)); // truncated after it was picked
    expect(await previewOf(page, 'w')).toMatch(/^w: ReadError: /);
    expect(await runRead(page, 'scan')).toMatch(/^Scan failed: /);
    expect(errors).toEqual([]);
    await page.close();
  });
});
