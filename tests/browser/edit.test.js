// Editing in the demo (issue 13), in Chromium: the kohya LoKr's metadata changed through the
// editor (card fields, a changed, a deleted and an added key), downloaded, then checked in Node:
// loadable, the new metadata, the data section byte for byte. And "Save as F16" on GPT-2.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';
import { openSafetensors } from '../../web/index.js';

const demo = demoBrowser('stw-edit-');
const dataSha = (bytes) =>
  createHash('sha256')
    .update(bytes.subarray(8 + Number(Buffer.from(bytes).readBigUInt64LE(0))))
    .digest('hex');

async function downloadOf(page, button, where) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  const path = join(demo.dir, where);
  await download.saveAs(path);
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-status]').textContent !== '');
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(path)) };
}

describe.skipIf(!HAVE_REAL)('editing in the demo (Chromium)', () => {
  test('the kohya LoKr: card fields and keys edited, the download loads with that metadata and the same data', async () => {
    const source = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
    const original = new Uint8Array(await readFile(source));
    const before = await openSafetensors(original);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, source);
    await page.click('[data-testid=edit-box] summary');
    await page.fill('[data-testid=edit-title]', 'My <b>LoKr</b>');
    await page.fill('[data-testid=edit-trigger]', 'sks dog, photo');
    await page.fill('[data-testid=edit-description]', 'line one\nline two');
    const row = (key) => page.locator(`[data-testid=edit-row][data-key="${key}"]`);
    await row('ss_output_name').locator('textarea').fill('renamed');
    await row('ss_tag_frequency').locator('[data-role=delete]').click();
    await page.click('[data-testid=edit-add]');
    const added = page.locator('[data-testid=edit-row]').last();
    await added.locator('input').fill('my_note');
    await added.locator('textarea').fill('added in the browser');
    const { name, bytes } = await downloadOf(page, '[data-testid=edit-download]', 'edited.safetensors');
    expect(name).toBe('kohya_lycoris_lokr_dim4_f16-edited.safetensors');
    expect(await page.textContent('[data-testid=edit-status]')).toMatch(
      /^Saved [\d,]+ bytes: \d+ metadata keys, loadable; the tensor data is the original's, byte for byte\.$/,
    );
    const after = await openSafetensors(bytes);
    expect(after.report.loadable).toBe(true);
    const expected = {
      ...before.metadata,
      ss_output_name: 'renamed',
      my_note: 'added in the browser',
      'modelspec.title': 'My <b>LoKr</b>',
      'modelspec.trigger_phrase': 'sks dog, photo',
      'modelspec.description': 'line one\nline two',
    };
    delete expected.ss_tag_frequency;
    expect(after.metadata).toEqual(expected);
    expect(dataSha(bytes)).toBe(dataSha(original));
    const card = await after.describe();
    expect([card.title, card.triggerWords[0]?.text, card.description]).toEqual([
      'My <b>LoKr</b>',
      'sks dog, photo',
      'line one\nline two',
    ]);
    // A key given twice is refused, and nothing is downloaded.
    await page.click('[data-testid=edit-add]');
    const twice = page.locator('[data-testid=edit-row]').last();
    await twice.locator('input').fill('my_note');
    await page.click('[data-testid=edit-download]');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=edit-status]').textContent.startsWith('Not saved'),
    );
    expect(await page.textContent('[data-testid=edit-status]')).toContain('"my_note" is given twice');
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  test('Save as F16: GPT-2 downloaded with every tensor F16, loadable', async () => {
    const { page, errors } = await openDemo(demo);
    await pickFile(page, join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors'));
    await page.click('[data-testid=edit-box] summary');
    const { name, bytes } = await downloadOf(page, '[data-testid=save-f16]', 'half.safetensors');
    expect(name).toBe('transformers_gpt2_tiny_f32-f16.safetensors');
    const st = await openSafetensors(bytes);
    expect(st.report.loadable).toBe(true);
    expect(new Set(st.tensors.map((t) => t.dtype))).toEqual(new Set(['F16']));
    expect(await page.textContent('[data-testid=edit-status]')).toMatch(
      /^Saved as F16: 52 of 52 tensors converted, [\d,]+ bytes, loadable\.$/,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);
});
