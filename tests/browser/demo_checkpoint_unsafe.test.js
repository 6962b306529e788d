// An unsafe pickle in the demo, in Chromium (issue 35): os_system.pt is unsafe with posix.system
// listed, Convert is refused (nothing saved) until the explicit option, which writes the tensors
// and names the global in the metadata; a pickle's names and strings holding HTML stay text; a
// checkpoint under a .safetensors name is shown as the checkpoint it is.
import { describe, expect, test } from 'vitest';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { rows, runRead, text } from './demo_pick.js';
import { CHECKPOINTS, downloadAfter, downloadingDemo, expectSameTensors, globalRows } from './checkpoint_page.js';
import { openCheckpoint } from '../../web/index.js';
import { LEFT_BEHIND_KEY } from '../../web/pickle/checkpoint_convert.js';

const demo = demoBrowser('stw-ckpt-unsafe-');

describe('an unsafe pickle in the demo (Chromium)', () => {
  test('os_system.pt: unsafe, posix.system listed; convert refused and nothing saved; the explicit option writes the tensors and names the global', async () => {
    const path = join(CHECKPOINTS, 'os_system.pt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await downloadingDemo(demo);
    let downloads = 0;
    page.on('download', () => downloads++);
    await pickFile(page, path);
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('unsafe');
    expect(await text(page, 'ckpt-verdict')).toBe('unsafe');
    expect(await text(page, 'ckpt-words')).toContain('posix.system');
    const globals = await rows(page, 'ckpt-global');
    expect(globals).toEqual(globalRows(ckpt));
    expect(globals[0]).toEqual(['posix.system', 'unsafe', '1']);
    expect(await page.locator('[data-testid=convert-tensors-button]').count()).toBe(0);

    const refusal = await runRead(page, 'convert');
    expect(refusal).toMatch(/^Refused: /);
    expect(refusal).toContain('posix.system (unsafe)');
    expect(downloads).toBe(0);
    expect(await page.isVisible('[data-testid=convert-tensors-button]')).toBe(true);

    const { bytes } = await downloadAfter(demo, page, 'convert-tensors-button');
    const st = await expectSameTensors(bytes, ckpt);
    expect(st.metadata).toEqual({ format: 'pt', [LEFT_BEHIND_KEY]: 'posix.system' });
    expect(await text(page, 'convert-status')).toContain(`(${LEFT_BEHIND_KEY}): posix.system.`);
    expect(downloads).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("a pickle's global names and strings holding <img onerror> stay text", async () => {
    // Protocol 0 (docs/pickles.md): a dict of one string to another, then a key whose value is
    // a call of a global (c module \n name \n) on the tuple ('x',). Never run.
    const img = (n) => `<img src=x onerror="window.__pwned=${n}">`;
    const path = join(demo.dir, 'evil.pkl');
    await writeFile(path, `(dS'${img(1)}'\nS'${img(2)}'\nsS'call'\ncos${img(3)}\nsystem${img(4)}\n(S'x'\ntRs.`);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    expect(await rows(page, 'ckpt-global')).toEqual([[`os${img(3)}.system${img(4)}`, 'unknown', '1']]);
    expect(await text(page, 'ckpt-words')).toContain(`os${img(3)}.system${img(4)}`);
    expect(await text(page, 'ckpt-objects')).toBe(`${img(1)} = ${JSON.stringify(img(2))}`);
    expect(await page.locator('img').count()).toBe(0); // in the page or the card's shadow root
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.locator('[data-testid=convert-button]').count()).toBe(0); // a plain pickle has no storages
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a checkpoint named .safetensors is shown as the checkpoint it is, with the finding that says so', async () => {
    const path = join(demo.dir, 'model.safetensors');
    await copyFile(join(CHECKPOINTS, 'os_system.pt'), path);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('unsafe');
    const codes = await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code));
    expect(codes).toEqual((await openCheckpoint(path)).findings.map((f) => f.code));
    expect(codes).toContain('pickle-named-safetensors');
    expect(errors).toEqual([]);
    await page.close();
  });
});
