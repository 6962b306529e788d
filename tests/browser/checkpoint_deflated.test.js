// A picked checkpoint whose storages are deflated (views_deflated.pt), read and converted in
// Chromium: the storages inflate through the browser's DecompressionStream('deflate-raw') with
// their CRC-32 checked, and the file toSafetensors gives is the one Node gives for views.pt.
import { expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { demoBrowser, openDemo, pickInPage } from './demo_browser.js';
import { openCheckpoint } from '../../web/index.js';

const demo = demoBrowser('stw-browser-ckpt-deflated-');
const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));

test('openCheckpoint on a picked views_deflated.pt: getTensor and toSafetensors as in Node', async () => {
  const { page, errors } = await openDemo(demo);
  await pickInPage(page, [`${DIR}views_deflated.pt`]);
  // A string, not a function: Vitest rewrites import() inside functions it compiles.
  const inPage = await page.evaluate(`(async () => {
    const { openCheckpoint } = await import('/web/index.js');
    const [file] = document.querySelector('[data-testid=two-files]').files;
    const ckpt = await openCheckpoint(file);
    const column = Array.from(await ckpt.getTensor('column'));
    const bytes = Array.from(new Uint8Array(await (await ckpt.toSafetensors()).arrayBuffer()));
    return { column, bytes };
  })()`);
  const stored = await openCheckpoint(`${DIR}views.pt`);
  expect(inPage.column).toEqual(Array.from(await stored.getTensor('column')));
  expect(inPage.bytes).toEqual(Array.from(new Uint8Array(await (await stored.toSafetensors()).arrayBuffer())));
  expect(errors).toEqual([]);
});
