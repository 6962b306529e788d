// Screenshots of <safetensors-card> for a person to look at (not a test): light and dark, 360 px
// and 1,200 px wide, of the demo's sample, a rejected file, an unsafe pickle, a file of 100,000
// tensors and a file of hostile strings, the metadata opened, as PNGs in .scratch/shots/ (git-ignored).
// Usage: node tests/browser/element_screenshots.js [--parts] [case ...]   (default: every case)
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from '../../demo/serve.js';
import { launchChromium } from './chromium.js';
import { CHECKPOINTS, SAMPLE } from './element_page.js';
import { manyTensorsFile } from '../js/many_tensors.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const OUT = fileURLToPath(new URL('../../.scratch/shots/', import.meta.url));
const WIDTHS = [360, 1200];
const SCHEMES = ['light', 'dark'];
const MAX_SHOT_SIZE = 12_000;
const PART_HEIGHT = 1000;

/** A file whose strings are long, unbroken, HTML and right-to-left overrides. */
function hostile() {
  const long = `${'A'.repeat(3000)}<script>x</script>\u202E${'B'.repeat(3000)}`;
  const metadata = {
    'modelspec.title': `\u202E<img src=x onerror=alert(1)> ${'W'.repeat(300)}`,
    'modelspec.description': long,
    'modelspec.trigger_phrase': `fox\u202Egnp.exe`,
    [long]: 'a long key',
    big_value: long,
  };
  const names = ['<b>bold</b>.weight', `evil\u202Egnp.weight`, long];
  return writeSafetensors(
    names.map((name) => ({ name, dtype: 'F16', shape: [2], data: new Uint8Array(4) })),
    metadata,
  );
}

/** name -> the path of the file to show, written into `dir` where needed. */
async function cases(dir) {
  const sample = await readFile(SAMPLE);
  const write = async (name, bytes) => {
    await writeFile(join(dir, name), bytes);
    return join(dir, name);
  };
  return {
    sample: SAMPLE,
    rejected: await write('truncated.safetensors', sample.subarray(0, sample.byteLength - 1)),
    unsafe: join(CHECKPOINTS, 'os_system.pt'),
    many: await write('100k.safetensors', manyTensorsFile(100_000)),
    hostile: await write('hostile.safetensors', hostile()),
  };
}

const parts = process.argv.includes('--parts');
const only = process.argv.slice(2).filter((a) => a !== '--parts');
const dir = await mkdtemp(join(tmpdir(), 'stw-shots-'));
const { server, url } = await startDemoServer(0, '127.0.0.1', ['web', 'demo', 'tests/browser']);
const browser = await launchChromium();
try {
  await mkdir(join(OUT, 'parts'), { recursive: true });
  for (const [name, path] of Object.entries(await cases(dir))) {
    if (only.length && !only.includes(name)) continue;
    for (const colorScheme of SCHEMES) {
      for (const width of WIDTHS) {
        const page = await browser.newPage({ colorScheme, viewport: { width, height: 900 } });
        await page.goto(`${url}tests/browser/element_page.html`);
        await page.waitForFunction(() => document.body.dataset.ready === 'yes');
        await page.evaluate(() => window.card.setAttribute('picker', ''));
        await page.setInputFiles('#files', path);
        await page.evaluate(() => (window.card.source = document.querySelector('#files').files[0]));
        await page.waitForFunction(() => window.events.some((e) => e.type === 'load' || e.type === 'error'), null, {
          timeout: 60_000,
        });
        // The metadata opened, so that its table is seen too.
        await page.evaluate(() => window.card.shadowRoot.querySelector('[data-testid=metadata-box] summary')?.click());
        await page.waitForTimeout(100);
        const file = join(OUT, `${name}-${colorScheme}-${width}.png`);
        const [pageWidth, pageHeight] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.scrollHeight,
        ]);
        // Chromium cannot capture a page much past 16,000 px: of a larger one, the first screen only.
        const huge = pageHeight > MAX_SHOT_SIZE || pageWidth > MAX_SHOT_SIZE;
        await page.screenshot({ path: file, fullPage: !huge });
        console.log(file, `page ${pageWidth}×${pageHeight}${huge ? ' (too large: its first screen only)' : ''}`);
        // With --parts, the page also in 1,000 px slices (a long narrow page is easier to read so).
        for (let y = 0; parts && !huge && y < pageHeight; y += PART_HEIGHT) {
          const clip = { x: 0, y, width: pageWidth, height: Math.min(PART_HEIGHT, pageHeight - y) };
          const part = join(OUT, 'parts', `${name}-${colorScheme}-${width}-${y / PART_HEIGHT}.png`);
          await page.screenshot({ path: part, fullPage: true, clip });
        }
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}
