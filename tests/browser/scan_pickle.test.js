// scanPickle in Chromium on a picked checkpoint: the pickle module loads in the page, the
// deflated data.pkl is inflated by the browser's DecompressionStream, and the report is the one
// Node gives; a picked pickle that calls os.system is unsafe there too.
import { expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { demoBrowser, openDemo, pickInPage } from './demo_browser.js';
import { scanPickle } from '../../web/index.js';

const demo = demoBrowser('stw-browser-pickle-');
const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));

test('scanPickle on picked .pt files: the same reports as in Node', async () => {
  const { page, errors } = await openDemo(demo);
  const files = [`${DIR}views_deflated.pt`, `${DIR}os_system.pt`];
  await pickInPage(page, files);
  // A string, not a function: Vitest rewrites import() inside functions it compiles.
  const inPage = await page.evaluate(`(async () => {
    const { scanPickle } = await import('/web/index.js');
    const picked = [...document.querySelector('[data-testid=two-files]').files];
    const scans = [];
    for (const file of picked) scans.push(await scanPickle(file));
    const wasm = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm'));
    return { scans, wasm };
  })()`);
  expect(inPage.scans).toEqual([await scanPickle(files[0]), await scanPickle(files[1])]);
  expect(inPage.scans[0].verdict).toBe('safe');
  expect(inPage.scans[0].findings).toEqual([]); // inflated, not needs-inflate
  expect(inPage.scans[1].verdict).toBe('unsafe');
  expect(inPage.wasm.some((url) => url.endsWith('/safetensors_pickle.wasm'))).toBe(true);
  expect(errors).toEqual([]);
});
