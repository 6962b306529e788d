// What the Chromium tests of a checkpoint in the demo share: the committed checkpoints, the
// globals table as openCheckpoint's globals give it, the page's fetches of the code loaded on
// first use, a download caught and read back, a written file's tensors compared with the
// checkpoint's, and a demo page without showSaveFilePicker (so that Convert downloads).
import { expect } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDemo } from './demo_browser.js';
import { openSafetensors } from '../../web/index.js';

export const CHECKPOINTS = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const RANK = { unsafe: 0, unknown: 1, safe: 2 };

/** What the globals table should hold: openCheckpoint's globals, the least safe first. */
export const globalRows = (ckpt) =>
  [...ckpt.globals]
    .sort((a, b) => RANK[a.safety] - RANK[b.safety])
    .map((g) => [`${g.module}.${g.name}`, g.safety, String(g.count)]);

/** The page's fetches of the code loaded with the first checkpoint, and of the pickle module. */
export const lazyFetches = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop())
      .filter((p) => /^(checkpoint_view\.js|open_others\.js|open_checkpoint\.js|safetensors_pickle\.wasm)$/.test(p))
      .sort(),
  );

/**
 * Clicks `testid` (a conversion's button) and resolves with the download it starts, saved under
 * the tests' folder, once the card's conversion has said what it did.
 */
export async function downloadAfter(ctx, page, testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  const path = join(ctx.dir, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  await page.waitForFunction(() =>
    /^(Downloaded|Saved) /.test(
      document.getElementById('card').shadowRoot.querySelector('[data-testid=convert-status]')?.textContent ?? '',
    ),
  );
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(path)) };
}

/** Every tensor of `ckpt` equals the written file's, which holds no other; the opened file. */
export async function expectSameTensors(bytes, ckpt) {
  const st = await openSafetensors(bytes);
  expect(st.tensors.map((t) => t.name).sort()).toEqual(ckpt.tensors.map((t) => t.name).sort());
  for (const t of ckpt.tensors) expect(await st.getTensor(t.name), t.name).toEqual(await ckpt.getTensor(t.name));
  return st;
}

/** A page on the demo that saves with a download only (no File System Access API). */
export async function downloadingDemo(ctx) {
  const opened = await openDemo(ctx);
  await opened.page.evaluate(() => delete window.showSaveFilePicker);
  return opened;
}

/** The card's tensor rows: name, dtype, shape and where the bytes are (a checkpoint's storage). */
export const tensorRows = (page) =>
  page.$$eval('[data-testid=tensor-row]', (trs) =>
    trs.map((tr) => [
      tr.dataset.name,
      tr.cells[1].textContent,
      tr.cells[2].textContent,
      tr.cells[3].textContent.trim(),
    ]),
  );
