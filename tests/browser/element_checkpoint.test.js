// A PyTorch checkpoint in <safetensors-card>, in Chromium: os_system.pt (a pickle that would call
// os.system) is `unsafe` with posix.system among its globals, never run; Convert is refused
// (UnsafeCheckpoint, nothing saved) until "tensors only", whose download is a loadable
// .safetensors file naming the global left behind. A safe checkpoint is saved through the save
// picker where the browser has one (here the origin private file system's handle), with progress.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHECKPOINTS, cardText, elementBrowser, inCard, openCard, pickFiles, progressEvents } from './element_page.js';
import { expectSameTensors, globalRows } from './checkpoint_page.js';
import { openCheckpoint } from '../../web/index.js';
import { LEFT_BEHIND_KEY } from '../../web/pickle/checkpoint_convert.js';

const ctx = elementBrowser('stw-element-ckpt-');

/** What toSafetensors throws for `ckpt`, in Node. */
async function refusal(ckpt) {
  try {
    await ckpt.toSafetensors();
  } catch (error) {
    return error;
  }
  throw new Error('expected toSafetensors to refuse');
}

/** Waits until the convert status line matches `pattern`; its text. */
async function convertStatus(page, pattern) {
  await page.waitForFunction(
    ([source]) =>
      new RegExp(source).test(window.card.shadowRoot.querySelector('[data-testid=convert-status]')?.textContent ?? ''),
    [pattern.source],
    { timeout: 30_000 },
  );
  return cardText(page, 'convert-status');
}

describe('a checkpoint in <safetensors-card> (Chromium)', () => {
  test('os_system.pt: unsafe, posix.system listed; Convert refused, nothing saved; "tensors only" downloads a loadable file naming the global', async () => {
    const path = join(CHECKPOINTS, 'os_system.pt');
    const ckpt = await openCheckpoint(path);
    const refused = await refusal(ckpt);
    expect(refused.code).toBe('UnsafeCheckpoint');
    const { page, errors } = await openCard(ctx);
    await page.evaluate(() => delete window.showSaveFilePicker); // so that the card downloads
    let downloads = 0;
    page.on('download', () => downloads++);
    await pickFiles(page, path, { one: true });

    expect(await page.getAttribute(inCard('ckpt-verdict'), 'data-verdict')).toBe('unsafe');
    expect((await cardText(page, 'ckpt-verdict')).trim()).toBe('unsafe');
    expect(await page.locator('safetensors-card [part=verdict]').textContent()).toContain('It names posix.system,');
    const globals = await page
      .locator(inCard('ckpt-global'))
      .evaluateAll((trs) => trs.map((r) => [...r.cells].map((c) => c.textContent.trim())));
    expect(globals).toEqual(globalRows(ckpt));
    expect(globals[0]).toEqual(['posix.system', 'unsafe', '1']);
    expect(await page.locator(inCard('convert-tensors-button')).count()).toBe(0);

    await page.click(inCard('convert-button'));
    expect(await convertStatus(page, /^Refused: /)).toBe(
      `Refused: ${refused.message}. “Convert the tensors only” writes its tensors and leaves the globals behind.`,
    );
    expect(downloads).toBe(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click(inCard('convert-tensors-button'))]);
    expect(download.suggestedFilename()).toBe('os_system.safetensors');
    const saved = join(ctx.dir, 'os_system.safetensors');
    await download.saveAs(saved);
    const st = await expectSameTensors(new Uint8Array(await readFile(saved)), ckpt);
    expect(st.report.loadable).toBe(true);
    expect(st.metadata).toEqual({ format: 'pt', [LEFT_BEHIND_KEY]: 'posix.system' });
    const status = await convertStatus(page, /^Downloaded /);
    expect(status).toMatch(/^Downloaded os_system\.safetensors: 1 tensor, .*, loadable\. /);
    expect(status).toContain(`(${LEFT_BEHIND_KEY}): posix.system.`);
    expect(downloads).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('lightning.ckpt (safe): converted at once and saved through the save picker, its bytes streamed with progress', async () => {
    const path = join(CHECKPOINTS, 'lightning.ckpt');
    const ckpt = await openCheckpoint(path);
    expect(ckpt.verdict).toBe('safe');
    const { page, errors } = await openCard(ctx);
    // The save picker answers with a handle in the origin private file system.
    await page.evaluate(() => {
      window.showSaveFilePicker = async (options) => {
        window.suggested = options.suggestedName;
        return (await navigator.storage.getDirectory()).getFileHandle('picked.safetensors', { create: true });
      };
    });
    await pickFiles(page, path, { one: true });
    expect(await page.getAttribute(inCard('ckpt-verdict'), 'data-verdict')).toBe('safe');
    await page.click(inCard('convert-button'));
    expect(await convertStatus(page, /^Saved /)).toMatch(/^Saved picked\.safetensors: 4 tensors, .*, loadable\.$/);
    expect(await page.evaluate(() => window.suggested)).toBe('lightning.safetensors');
    const bytes = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const file = await (await root.getFileHandle('picked.safetensors')).getFile();
      return [...new Uint8Array(await file.arrayBuffer())];
    });
    const st = await expectSameTensors(Uint8Array.from(bytes), ckpt);
    expect(st.metadata).toEqual({ format: 'pt' });
    const progress = (await progressEvents(page)).filter((p) => p.phase === 'convert');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({ phase: 'convert', done: bytes.length, total: bytes.length });
    expect(errors).toEqual([]);
    await page.close();
  });
});
