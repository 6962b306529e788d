// 1,000,000 tensors in <safetensors-card>, in Chromium (docs/element.md: "a file of 1,000,000
// tensors puts 100 rows in the page"): the shadow root stays at a few thousand elements while the
// search box filters by name (debounced), the columns sort by name, dtype and size, and the pager
// turns; each page's rows are checked against the order computed here from the same tensors.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { elementBrowser, inCard, openCard, pickFiles, rangeIs, shadowSize, shownNames } from './element_page.js';
import { tensorName } from '../js/many_tensors.js';
import { grouped } from '../../web/card/card_text.js';

const COUNT = 1_000_000;
/** Shadow-root elements allowed: 100 rows of a handful of elements each, and the card around them. */
const MAX_ELEMENTS = 3000;
const DTYPES = ['U8', 'I8', 'BOOL']; // one byte each: a tensor's bytes are its values

/**
 * The tensors, in data order: names (tensorName's, permuted so that name order is not data
 * order), one-byte dtypes in turn and 1 to 17 values each.
 */
function manyTensors() {
  const names = new Array(COUNT);
  const dtypes = new Array(COUNT);
  const sizes = new Int32Array(COUNT);
  for (let i = 0; i < COUNT; i++) {
    names[i] = tensorName((i * 7919) % COUNT, 'm'); // 7919 is prime: a permutation of 0..COUNT-1
    dtypes[i] = DTYPES[(i * 13) % 3];
    sizes[i] = 1 + ((i * 31) % 17);
  }
  return { names, dtypes, sizes };
}

/** The .safetensors file of `tensors`, entries in data order, data bytes zero. */
function fileOf({ names, dtypes, sizes }) {
  const parts = ['{"__metadata__":{"format":"pt"}'];
  let offset = 0;
  for (let i = 0; i < COUNT; i++) {
    parts.push(
      `,"${names[i]}":{"dtype":"${dtypes[i]}","shape":[${sizes[i]}],"data_offsets":[${offset},${offset + sizes[i]}]}`,
    );
    offset += sizes[i];
  }
  parts.push('}');
  let text = parts.join('');
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const header = Buffer.from(text);
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(header.byteLength));
  return Buffer.concat([prefix, header, Buffer.alloc(offset)]);
}

/** Indices 0..COUNT-1 sorted by `compare`, ties in data order (as the table breaks them). */
const sortedBy = (compare) => Array.from({ length: COUNT }, (_, i) => i).sort((a, b) => compare(a, b) || a - b);

const ctx = elementBrowser('stw-element-many-');

describe('<safetensors-card> with 1,000,000 tensors (Chromium)', () => {
  test('100 rows a page, a few thousand elements; search, sort by name, dtype and size, and pages show the right rows', async () => {
    const tensors = manyTensors();
    const { names, dtypes, sizes } = tensors;
    const path = join(ctx.dir, 'million.safetensors');
    await writeFile(path, fileOf(tensors));
    const namesOf = (order, from = 0) => order.slice(from, from + 100).map((i) => names[i]);
    const { page, errors } = await openCard(ctx);
    const load = await pickFiles(page, path, { one: true, timeout: 120_000 });
    expect(load).toMatchObject({ type: 'load', detail: { kind: 'file', loadable: true } });
    expect(await page.locator('safetensors-card #tensors-title').textContent()).toBe('Tensors (1,000,000)');
    expect(await page.locator(inCard('tensor-range')).textContent()).toBe('1–100 of 1,000,000');
    expect(await shownNames(page)).toEqual(names.slice(0, 100));
    expect(await shadowSize(page)).toBeLessThan(MAX_ELEMENTS);

    // Search: filtered only once the typing stops (~120 ms), case-insensitively, by substring.
    const search = page.locator(inCard('tensor-search'));
    const early = await search.evaluate(async (input) => {
      input.value = 'M.BLOCKS.09999';
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      await new Promise((resolve) => setTimeout(resolve, 40));
      return window.card.shadowRoot.querySelector('[data-testid=tensor-range]').textContent;
    });
    expect(early).toBe('1–100 of 1,000,000');
    const found = sortedBy(() => 0).filter((i) => names[i].includes('m.blocks.09999'));
    expect(found.length).toBe(100);
    await rangeIs(page, `1–100 of 100 (of 1,000,000 tensors)`);
    expect(await shownNames(page)).toEqual(namesOf(found));
    await search.fill('blocks.012345.w6');
    await rangeIs(page, '1–1 of 1 (of 1,000,000 tensors)');
    expect(await shownNames(page)).toEqual(['m.blocks.012345.w6']);
    await search.fill('no such tensor');
    await rangeIs(page, 'No tensor name holds “no such tensor”.');
    expect(await shownNames(page)).toEqual([]);
    await search.fill('');
    await rangeIs(page, '1–100 of 1,000,000');
    expect(await shadowSize(page)).toBeLessThan(MAX_ELEMENTS);

    // Sort by name (code units past 200,000 tensors; zero-padded numbers sort the same), both ways.
    const byName = sortedBy((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    await page.click(inCard('sort-name'));
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-name]').textContent.includes('▲'),
    );
    expect(await shownNames(page)).toEqual(namesOf(byName));
    await page.click(inCard('page-next'));
    await rangeIs(page, '101–200 of 1,000,000');
    expect(await shownNames(page)).toEqual(namesOf(byName, 100));
    await page.click(inCard('sort-name'));
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-name]').textContent.includes('▼'),
    );
    await rangeIs(page, '1–100 of 1,000,000');
    const byNameDown = sortedBy((a, b) => (names[a] < names[b] ? 1 : names[a] > names[b] ? -1 : 0));
    expect(await shownNames(page)).toEqual(namesOf(byNameDown));
    expect(await page.locator('safetensors-card th[aria-sort=descending] [data-testid=sort-name]').count()).toBe(1);

    // Dtype (ascending, then descending) and size (largest first).
    await page.click(inCard('sort-dtype'));
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-dtype]').textContent.includes('▲'),
    );
    expect(await shownNames(page)).toEqual(namesOf(sortedBy((a, b) => dtypes[a].localeCompare(dtypes[b]))));
    await page.click(inCard('sort-dtype'));
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-dtype]').textContent.includes('▼'),
    );
    expect(await shownNames(page)).toEqual(namesOf(sortedBy((a, b) => dtypes[b].localeCompare(dtypes[a]))));
    await page.click(inCard('sort-size'));
    await page.waitForFunction(() =>
      window.card.shadowRoot.querySelector('[data-testid=sort-size]').textContent.includes('▼'),
    );
    const bySize = sortedBy((a, b) => sizes[b] - sizes[a]);
    expect(await shownNames(page)).toEqual(namesOf(bySize));
    expect(sizes[bySize[0]]).toBe(17);

    // Sorted and searched at once, then the last page.
    await search.fill('.w3');
    const w3 = bySize.filter((i) => names[i].endsWith('.w3'));
    await rangeIs(page, `1–100 of ${grouped(w3.length)} (of 1,000,000 tensors)`);
    expect(await shownNames(page)).toEqual(namesOf(w3));
    await page.locator('safetensors-card nav.pager button', { hasText: 'Last' }).click();
    const lastFirst = Math.floor((w3.length - 1) / 100) * 100;
    await rangeIs(page, `${grouped(lastFirst + 1)}–${grouped(w3.length)} of ${grouped(w3.length)}`);
    expect(await shownNames(page)).toEqual(namesOf(w3, lastFirst));
    expect(await page.locator(inCard('page-next')).isDisabled()).toBe(true);
    expect(await shadowSize(page)).toBeLessThan(MAX_ELEMENTS);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
