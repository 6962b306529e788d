// The demo's model card in Chromium on hostile files: every metadata value, tensor name and
// image is an HTML/JS injection; nothing may run, nothing dangerous may be linked or shown.
// And a file large enough for hashing workers hashes right in the page.
import { describe, expect, test } from 'vitest';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';
import { PARALLEL_MIN_BYTES } from '../../web/hashing/hash_pass.js';
import { runRead } from './demo_pick.js';

// Each payload sets window.pwned if it ever runs.
const PAYLOADS = [
  '<img src=x onerror="window.pwned=1">',
  '<script>window.pwned=2</script>',
  '"><svg onload="window.pwned=3">',
  '<a href="javascript:window.pwned=4">click</a>',
  '<iframe srcdoc="<script>parent.pwned=5</script>"></iframe>',
];
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.pwned=6"><rect/></svg>').toString(
  'base64',
);
const html = Buffer.from('<script>window.pwned=7</script>').toString('base64');
// A PNG signature followed by HTML: passes the magic-number check, and must still only ever be an <img>.
const pngThenHtml = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('<script>window.pwned=8</script>'),
]).toString('base64');

function hostileFile() {
  const [p0, p1, p2, p3, p4] = PAYLOADS;
  const metadata = {
    'modelspec.title': p0,
    'modelspec.description': p1,
    'modelspec.author': p2,
    'modelspec.license': p3,
    'modelspec.trigger_phrase': `${p4}, ${p0}`,
    'modelspec.date': p2,
    'modelspec.thumbnail': `data:image/svg+xml;base64,${svg}`,
    ssmd_source: 'javascript:window.pwned=9',
    ssmd_keywords: `${p1}, ${p3}`,
    ssmd_cover_images: JSON.stringify([svg, html, pngThenHtml]),
    ss_training_comment: `trigger word is ${p0}`,
    ss_tag_frequency: JSON.stringify({ [p1]: { [p2]: 5, [p0]: 3 } }),
    ss_output_name: p4,
    ss_sd_model_name: p3,
    ss_network_module: p0,
    ss_new_sd_model_hash: p2,
    sshs_model_hash: p1,
    [p0]: p1,
  };
  const tensors = PAYLOADS.map((p, i) => ({
    name: `${p}.lora_down.weight`,
    dtype: 'F16',
    shape: [2, 2],
    data: pseudoRandomBytes(8, i + 1),
  }));
  return writeSafetensors(tensors, metadata);
}

const demo = demoBrowser('stw-inject-');

async function pickInDemo(path) {
  const { page, errors } = await openDemo(demo);
  page.on('dialog', (d) => {
    errors.push(new Error(`dialog: ${d.message()}`));
    d.dismiss();
  });
  await pickFile(page, path);
  return { page, errors };
}

describe('demo card in Chromium', () => {
  test('a file whose every value, name and image is an injection: shown as text, nothing runs, nothing dangerous linked', async () => {
    const path = join(demo.dir, 'hostile.safetensors');
    await writeFile(path, hostileFile());
    const { page, errors } = await pickInDemo(path);
    expect(await page.textContent('[data-testid=verdict]')).toBe('loadable');
    expect(await page.textContent('[data-testid=card-title]')).toBe(PAYLOADS[0]);
    const words = await page.$$eval('[data-testid=trigger-word]', (b) => b.map((x) => x.textContent.trim()));
    expect(
      words.some((w) => w.includes(PAYLOADS[4])),
      JSON.stringify(words),
    ).toBe(true);
    for (const button of await page.$$('[data-testid=trigger-word]')) await button.hover();
    await page.click('[data-testid=metadata-box] > summary');
    await runRead(page, 'hash');
    await page.waitForTimeout(300); // any onerror/onload would have fired by now
    // The page and the card's shadow root, where the file is shown.
    const dom = await page.evaluate(() => {
      const roots = [document, document.getElementById('card').shadowRoot];
      const all = (selector) => roots.flatMap((root) => [...root.querySelectorAll(selector)]);
      return {
        pwned: window.pwned ?? null,
        scripts: [...document.scripts].map((s) => s.getAttribute('src') ?? s.type),
        handlers: all('[onerror],[onload],[onclick],[onmouseover]').length,
        foreign: all('iframe, svg, object, embed').length,
        shadowScripts: roots[1].querySelectorAll('script').length,
        links: all('a').map((a) => a.href),
        images: all('img').map((img) => img.getAttribute('src')?.slice(0, 22) ?? null),
        names: all('[data-testid=tensor-table] tr[data-name]').map((r) => r.dataset.name),
      };
    });
    expect(dom.pwned).toBeNull();
    expect(dom.scripts).toEqual(['importmap', './app.js']);
    expect(dom.handlers).toBe(0);
    expect(dom.foreign).toBe(0);
    expect(dom.shadowScripts).toBe(0);
    expect(dom.links).toEqual([]); // the javascript: source stays text
    // The SVG and the HTML are dropped; the PNG-signature one may show, only as a data:image/png <img>.
    expect(dom.images.every((src) => src === null || src === 'data:image/png;base64,')).toBe(true);
    expect(dom.names.sort()).toEqual(PAYLOADS.map((p) => `${p}.lora_down.weight`).sort());
    expect(await page.textContent('[data-testid=card-facts]')).toContain(PAYLOADS[2]); // author, as text
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  test(`a ${(PARALLEL_MIN_BYTES >> 20) + 1} MiB file (hashing workers, or their fallback): the page's hashes are node:crypto's`, async () => {
    const data = pseudoRandomBytes(PARALLEL_MIN_BYTES + (1 << 20), 11);
    const file = writeSafetensors([{ name: 'w', dtype: 'U8', shape: [data.byteLength], data }]);
    const path = join(demo.dir, 'big.safetensors');
    await writeFile(path, file);
    const { page, errors } = await pickInDemo(path);
    await runRead(page, 'hash');
    const dataStart = 8 + Number(Buffer.from(file.buffer).readBigUInt64LE(0));
    expect(await page.textContent('[data-testid=hash-sha256]')).toBe(createHash('sha256').update(file).digest('hex'));
    expect(await page.textContent('[data-testid=hash-data]')).toBe(
      createHash('sha256').update(file.subarray(dataStart)).digest('hex'),
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});
