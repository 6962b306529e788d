// <safetensors-card>'s accessibility in Chromium: axe-core (through @axe-core/playwright, which
// walks open shadow roots) finds no violation with the sample, a rejected file and the unsafe
// checkpoint shown, in light, with theme="dark" and under an emulated prefers-color-scheme: dark;
// the themes' colours as documented, custom properties and ::part() from outside; the aria-live
// status region says each change of state.
import { describe, expect, test } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { CHECKPOINTS, SAMPLE, answerTo, elementBrowser, inCard, openCard, pickFiles } from './element_page.js';

const ctx = elementBrowser('stw-element-a11y-');

/** The three answers to check, by name: the path to pick. */
async function answersToShow() {
  const sample = await readFile(SAMPLE);
  const rejected = join(ctx.dir, 'truncated.safetensors');
  await writeFile(rejected, sample.subarray(0, sample.byteLength - 1));
  return { sample: SAMPLE, rejected, unsafe: join(CHECKPOINTS, 'os_system.pt') };
}

/** The ways the card can be dark or light: the page's emulated scheme and the theme attribute. */
const LOOKS = [
  { look: 'light', colorScheme: 'light', attributes: {} },
  { look: 'theme="dark"', colorScheme: 'light', attributes: { theme: 'dark' } },
  { look: 'prefers-color-scheme: dark', colorScheme: 'dark', attributes: {} },
];

/** axe's violations on the page, each as "rule: targets"; and how many checked nodes lie in the card's shadow root. */
async function axeOn(page) {
  const result = await new AxeBuilder({ page }).analyze();
  const inShadow = result.passes
    .flatMap((rule) => rule.nodes)
    .filter((node) => Array.isArray(node.target[0]) && node.target[0][0] === 'safetensors-card').length;
  const violations = result.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary}`).join('; ')}`,
  );
  return { violations, inShadow };
}

describe('<safetensors-card> accessibility (Chromium)', () => {
  test('axe: no violation with the sample, a rejected file and an unsafe checkpoint, in light and both darks', async () => {
    const shown = await answersToShow();
    for (const { look, colorScheme, attributes } of LOOKS) {
      const { page, errors } = await openCard(ctx, {
        colorScheme,
        attributes: { ...attributes, picker: '', droppable: '' },
      });
      const empty = await axeOn(page);
      expect(empty.violations, `${look}, empty`).toEqual([]);
      for (const [name, path] of Object.entries(shown)) {
        await pickFiles(page, path, { one: true });
        // Everything open that can be: the metadata, a tensor's preview, and the hashes.
        await page.evaluate(() => window.card.shadowRoot.querySelector('[data-testid=metadata-box] summary')?.click());
        const names = page.locator('safetensors-card [data-testid=tensor-table] tbody button.name');
        if ((await names.count()) > 0) {
          await names.first().click();
          await page.locator(inCard('preview')).waitFor();
        }
        await page.click(inCard('hash-button'));
        await page.waitForFunction(() =>
          /^Hashed /.test(window.card.shadowRoot.querySelector('[data-testid=hash-status]')?.textContent ?? ''),
        );
        if (name === 'unsafe') {
          await page.click(inCard('convert-button'));
          await page.locator(inCard('convert-tensors-button')).waitFor();
        }
        const { violations, inShadow } = await axeOn(page);
        expect(violations, `${look}, ${name}`).toEqual([]);
        expect(inShadow, `${look}, ${name}: axe checked the shadow root`).toBeGreaterThan(20);
      }
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 180_000);

  test('themes as docs/element.md gives them: light, dark by attribute or by the page, theme="light" over a dark page; custom properties and ::part() from outside', async () => {
    const colours = (page) =>
      page.evaluate(() => {
        const style = getComputedStyle(window.card.shadowRoot.querySelector('.frame'));
        return [style.backgroundColor, style.color];
      });
    const LIGHT = ['rgb(255, 255, 255)', 'rgb(29, 35, 48)']; // #ffffff, #1d2330
    const DARK = ['rgb(22, 26, 34)', 'rgb(230, 233, 239)']; // #161a22, #e6e9ef
    // One page, its scheme emulated in turn and the attribute set or removed.
    const { page, errors } = await openCard(ctx);
    await pickFiles(page, SAMPLE, { one: true });
    for (const [colorScheme, theme, expected] of [
      ['light', null, LIGHT],
      ['light', 'dark', DARK],
      ['dark', null, DARK],
      ['dark', 'auto', DARK],
      ['dark', 'light', LIGHT],
    ]) {
      await page.emulateMedia({ colorScheme });
      await page.evaluate(
        (t) => (t ? window.card.setAttribute('theme', t) : window.card.removeAttribute('theme')),
        theme,
      );
      expect(await colours(page), `${colorScheme} page, theme ${theme}`).toEqual(expected);
    }
    await page.evaluate(() => window.card.removeAttribute('theme'));
    await page.addStyleTag({
      content: `safetensors-card { --st-card-background: #fafad2; --st-card-color: #102030; }
        safetensors-card::part(verdict) { font-size: 31px; }`,
    });
    expect(await colours(page)).toEqual(['rgb(250, 250, 210)', 'rgb(16, 32, 48)']);
    expect(await page.locator('safetensors-card [part=verdict]').evaluate((el) => getComputedStyle(el).fontSize)).toBe(
      '31px',
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the aria-live status region says loading, then the verdict, and a failure', async () => {
    const { page, errors } = await openCard(ctx);
    const region = page.locator(inCard('announcement'));
    expect(await region.getAttribute('role')).toBe('status');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    // Every text the region held, in order.
    await page.evaluate(() => {
      window.said = [];
      const node = window.card.shadowRoot.querySelector('[data-testid=announcement]');
      new MutationObserver(() => {
        const text = node.textContent.trim();
        if (text !== window.said.at(-1)) window.said.push(text);
      }).observe(node, { subtree: true, childList: true, characterData: true });
    });
    const said = () => page.evaluate(() => window.said.splice(0));
    await pickFiles(page, SAMPLE, { one: true });
    expect(await said()).toEqual(['Reading the header…', 'sample.safetensors: loadable']);
    const { rejected, unsafe } = await answersToShow();
    await pickFiles(page, rejected, { one: true });
    expect(await said()).toEqual(['Reading the header…', 'truncated.safetensors: not loadable']);
    await pickFiles(page, unsafe, { one: true });
    expect(await said()).toEqual(['Reading the header…', 'os_system.pt: unsafe']);
    await answerTo(page, () => (window.card.source = 42));
    const failed = await said();
    expect(failed.at(-1)).toMatch(/^Could not read the source: <safetensors-card> cannot open number/);
    expect(failed.slice(0, -1).every((text) => text === 'Reading the header…')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
