// <safetensors-card> by keyboard alone, in Chromium: every control is reached with Tab (each
// with a visible focus ring) and works with Enter or Space: the pick buttons, the metadata,
// the search box, the sort buttons, the pager, a tensor's name (its preview shown) and the
// hash button.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cardText, elementBrowser, inCard, openCard, pickFiles, rangeIs, shownNames } from './element_page.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const ctx = elementBrowser('stw-element-keys-');
const COUNT = 250;
const NAMES = Array.from({ length: COUNT }, (_, i) => `blocks.${i}.weight`);

/** 250 small F32 tensors: three pages of the table; names that sort naturally (blocks.2 before blocks.10). */
const file = () =>
  writeSafetensors(
    NAMES.map((name, i) => ({
      name,
      dtype: 'F32',
      shape: [2],
      data: new Uint8Array(new Float32Array([i, -i]).buffer),
    })),
    { format: 'pt', 'modelspec.title': 'Keyboard file' },
  );

/** What has the focus inside the card: its test id, else its tag and text; null outside the card. */
const focused = (page) =>
  page.evaluate(() => {
    if (document.activeElement !== window.card) return null;
    const el = window.card.shadowRoot.activeElement;
    if (!el) return null;
    const style = getComputedStyle(el);
    return {
      id: el.dataset.testid ?? `${el.localName}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`,
      text: el.textContent.trim().slice(0, 40),
      ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    };
  });

/** Presses Tab until the focused control's id is `id` (at most `max` times); that control. */
async function tabTo(page, id, max = 200) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now?.id === id) return now;
  }
  throw new Error(`Tab never reached ${id}`);
}

describe('<safetensors-card> by keyboard (Chromium)', () => {
  test('Tab reaches every control, each with a focus ring; Enter and Space work them', async () => {
    const path = join(ctx.dir, 'keyboard.safetensors');
    const bytes = file();
    await writeFile(path, bytes);
    const { page, errors } = await openCard(ctx, { attributes: { picker: '' } });
    await pickFiles(page, path, { one: true });

    // The first Tab lands on the pick button, which opens a file chooser on Enter.
    await page.keyboard.press('Tab');
    const pickButton = await focused(page);
    expect(pickButton).toEqual({ id: 'pick-button', text: 'Choose files…', ring: true });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    expect(chooser.isMultiple()).toBe(true);

    // The whole Tab order from there, until the focus leaves the card.
    const order = [pickButton];
    for (let i = 0; i < 300; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (now === null) break;
      order.push(now);
    }
    const ids = order.map((f) => f.id);
    for (const id of ['pick-button', 'pick-folder', 'hash-button', 'scan-button', 'summary', 'tensor-search'])
      expect(ids, id).toContain(id);
    for (const id of ['sort-name', 'sort-dtype', 'sort-size', 'page-next']) expect(ids, id).toContain(id);
    expect(ids.filter((id) => id === 'button.name')).toHaveLength(100);
    expect(ids.indexOf('tensor-search')).toBeLessThan(ids.indexOf('button.name'));
    expect(ids.indexOf('button.name')).toBeLessThan(ids.indexOf('page-next'));
    expect(order.filter((f) => !f.ring).map((f) => f.id)).toEqual([]);

    // The metadata opens on Enter and closes on Space.
    await page.locator('safetensors-card [data-testid=metadata-box] summary').focus();
    await page.keyboard.press('Enter');
    await page.locator(inCard('metadata')).waitFor();
    expect(await page.locator(inCard('metadata')).locator('tbody th').allTextContents()).toEqual([
      'format',
      'modelspec.title',
    ]);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !window.card.shadowRoot.querySelector('[data-testid=metadata-box]').open);

    // Search by typing, then sort by name with Enter (ascending, naturally) and Space (descending).
    await page.locator(inCard('tensor-search')).focus();
    await page.keyboard.type('blocks.1');
    // Filtered in data order: the writer's, by name bytes (blocks.1, blocks.10, blocks.100, …).
    const ones = [...NAMES].sort().filter((n) => n.includes('blocks.1'));
    await rangeIs(page, `1–100 of ${ones.length} (of 250 tensors)`);
    expect(await shownNames(page)).toEqual(ones.slice(0, 100));
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await rangeIs(page, '1–100 of 250');
    expect((await tabTo(page, 'sort-name', 2)).text).toBe('Name');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-name]').textContent.includes('▲'),
    );
    const natural = [...NAMES].sort(new Intl.Collator('en', { numeric: true }).compare);
    expect(natural.slice(0, 3)).toEqual(['blocks.0.weight', 'blocks.1.weight', 'blocks.2.weight']);
    expect(await shownNames(page)).toEqual(natural.slice(0, 100));
    expect((await focused(page)).id).toBe('sort-name'); // the focus stays on the button after the table re-renders
    await page.keyboard.press(' ');
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-name]').textContent.includes('▼'),
    );
    expect(await shownNames(page)).toEqual([...natural].reverse().slice(0, 100));

    // A tensor's name: Enter shows its preview.
    const first = await tabTo(page, 'button.name', 5);
    expect(first.text).toBe('blocks.249.weight');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      /^blocks\.249\.weight \(F32/.test(
        window.card.shadowRoot.querySelector('[data-testid=preview]')?.textContent ?? '',
      ),
    );
    expect(await cardText(page, 'preview')).toMatch(/:\n249, -249$/);
    await page.keyboard.press('Tab');
    await page.keyboard.press(' ');
    await page.waitForFunction(() =>
      /^blocks\.248\.weight /.test(window.card.shadowRoot.querySelector('[data-testid=preview]')?.textContent ?? ''),
    );

    // The pager: Enter and Space turn the pages.
    await tabTo(page, 'page-next');
    await page.keyboard.press('Enter');
    await rangeIs(page, '101–200 of 250');
    expect((await focused(page)).id).toBe('page-next');
    await page.keyboard.press(' ');
    await rangeIs(page, '201–250 of 250');
    expect(await shownNames(page)).toEqual([...natural].reverse().slice(200));

    // Hashes on Enter.
    await page.locator(inCard('hash-button')).focus();
    await page.keyboard.press('Enter');
    await page.locator(inCard('hash-sha256')).waitFor();
    expect(await cardText(page, 'hash-sha256')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
