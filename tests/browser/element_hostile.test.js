// Hostile strings in <safetensors-card>, in Chromium: HTML, <script> and <img onerror> payloads,
// right-to-left overrides (U+202E) and 1 MB strings in metadata keys and values, the title,
// trigger words (modelspec.trigger_phrase, ss_tag_frequency) and tensor names. Nothing is parsed
// as HTML (no element or handler injected, no script run), bidi controls show as [U+202E], and
// the page stays responsive.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { elementBrowser, inCard, openCard, pickFiles } from './element_page.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { grouped, markBidiControls } from '../../web/card/card_text.js';
import { openSafetensors } from '../../web/index.js';

const ctx = elementBrowser('stw-element-hostile-');

/** A string as the card shows a metadata key or value and a tensor name: past 400 characters cut, its length said. */
const cut = (text) =>
  markBidiControls(text.length > 400 ? `${text.slice(0, 400)}… (${grouped(text.length)} characters)` : text);

// Each payload sets window.pwned if it ever runs.
const PAYLOADS = [
  '<img src=x onerror="window.pwned=1">',
  '<script>window.pwned=2</script>',
  '"><svg onload="window.pwned=3"></svg>',
  '<iframe srcdoc="<script>parent.pwned=4</script>"></iframe>',
  '<a href="javascript:window.pwned=5" onmouseover="window.pwned=6">x</a>',
];
const RLO = '\u202E';
/** A 1 MiB string with every payload and an override inside. */
const MEGA = `${'A'.repeat(1 << 19)}${PAYLOADS.join('')}${RLO}${'B'.repeat(1 << 19)}`;

function hostileFile() {
  const [img, script, svg, iframe, link] = PAYLOADS;
  const metadata = {
    'modelspec.title': `${RLO}${img}`,
    'modelspec.description': `${script} ${MEGA}`,
    'modelspec.author': svg,
    'modelspec.license': link,
    'modelspec.trigger_phrase': `${img} fox${RLO}gnp.exe`,
    ssmd_keywords: `${MEGA}, ${svg}`,
    ss_tag_frequency: JSON.stringify({ '5_dir': { [script]: 40, [`cat${RLO}txt.exe`]: 39, [iframe]: 38, [MEGA]: 40 } }),
    ss_output_name: iframe,
    [img]: script,
    [`key${RLO}rtl`]: `value${RLO}rtl`,
    [MEGA]: 'a 1 MiB key',
    big_value: MEGA,
  };
  const names = [...PAYLOADS, `evil${RLO}gnp.weight`, MEGA];
  const tensors = names.map((name) => ({ name, dtype: 'F16', shape: [2], data: new Uint8Array(4) }));
  return writeSafetensors(tensors, metadata);
}

/** What the page holds that a payload would have made: run in the page. */
function injected() {
  const roots = [document, window.card.shadowRoot];
  const all = roots.flatMap((root) => [...root.querySelectorAll('*')]);
  const textNodes = [];
  const walker = document.createTreeWalker(window.card.shadowRoot, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) textNodes.push(walker.currentNode.data);
  return {
    pwned: window.pwned ?? null,
    foreign: all.filter(
      (e) => /^(script|iframe|svg|object|embed|img|a)$/i.test(e.localName) && e.closest('safetensors-card, main'),
    ).length,
    shadowForeign: window.card.shadowRoot.querySelectorAll('script, iframe, svg, object, embed, img, a').length,
    handlers: all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
    overrides: textNodes.filter((t) => t.includes('\u202E')).length,
    marked: textNodes.filter((t) => t.includes('[U+202E]')).length,
  };
}

describe('hostile strings in <safetensors-card> (Chromium)', () => {
  test('HTML and script payloads, U+202E and 1 MiB strings in metadata, trigger words and tensor names: all text, nothing runs', async () => {
    const path = join(ctx.dir, 'hostile.safetensors');
    await writeFile(path, hostileFile());
    const st = await openSafetensors(path);
    const card = await st.describe();
    expect(st.report.loadable).toBe(true);
    const { page, errors } = await openCard(ctx);
    const started = Date.now();
    const load = await pickFiles(page, path, { one: true });
    const loadMs = Date.now() - started;
    expect(load).toMatchObject({ type: 'load', detail: { kind: 'file', loadable: true } });

    expect(await page.locator(inCard('card-title')).textContent()).toBe(`[U+202E]${PAYLOADS[0]}`);
    expect(await page.locator(inCard('card-title')).textContent()).toBe(markBidiControls(card.title));
    const words = await page.locator(inCard('trigger-word')).allTextContents();
    expect(words).toEqual(card.triggerWords.slice(0, 12).map((w) => markBidiControls(w.text)));
    // Each source of trigger words gave one: as text, its override marked. (The card module
    // leaves out a word over 200 characters: the 1 MiB keyword and tag are not among them.)
    expect(words).toEqual([
      `${PAYLOADS[0]} fox[U+202E]gnp.exe`,
      PAYLOADS[2],
      PAYLOADS[1],
      'cat[U+202E]txt.exe',
      PAYLOADS[3],
    ]);

    // Open everything that shows strings: the metadata, each tensor's preview, a hover on each word.
    await page.locator(inCard('metadata-box')).locator('summary').click();
    await page.locator(inCard('metadata')).waitFor();
    const keys = await page.locator(inCard('metadata')).locator('tbody th').allTextContents();
    expect(keys.sort()).toEqual(Object.keys(st.metadata).map(cut).sort());
    for (const word of await page.locator(inCard('trigger-word')).all()) await word.hover();
    const buttons = page.locator('safetensors-card [data-testid=tensor-table] tbody button.name');
    expect((await buttons.allTextContents()).sort()).toEqual(st.tensors.map((t) => cut(t.name)).sort());
    for (const button of await buttons.all()) {
      await button.click();
      await page.waitForFunction(() =>
        /values/.test(window.card.shadowRoot.querySelector('[data-testid=preview]')?.textContent ?? ''),
      );
    }
    await page.waitForTimeout(300); // any onerror/onload would have fired by now

    const dom = await page.evaluate(injected);
    expect(dom).toEqual({ pwned: null, foreign: 0, shadowForeign: 0, handlers: 0, overrides: 0, marked: dom.marked });
    expect(dom.marked).toBeGreaterThan(4);

    // Responsive: a round trip and a frame each take well under a second with all of it shown.
    const frame = await page.evaluate(async () => {
      const t0 = performance.now();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      return performance.now() - t0;
    });
    expect(frame).toBeLessThan(1000);
    expect(loadMs).toBeLessThan(20_000);

    // Laid out by its own width, at 1,000 px and at a phone's 360: nothing wider than the page,
    // and a 1 MiB string cut (its length said) rather than laid out whole.
    for (const width of [1000, 360]) {
      await page.setViewportSize({ width, height: 800 });
      const box = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        height: window.card.getBoundingClientRect().height,
      }));
      expect(box.page, `${width} px`).toBeLessThanOrEqual(box.viewport);
      expect(box.height, `${width} px`).toBeLessThan(60_000);
    }
    expect(await page.locator(inCard('card-description')).textContent()).toMatch(/… \(1,048,\d{3} characters\)$/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
