// <safetensors-card>'s import in Chromium (issue 44, item 8): once the page is idle it loads the
// core's and the model card's modules before any file is given, so that a first card does not
// wait for them (the time it saves is measured by make bench, tests/bench/cold_start). A page
// that owns the name: element_define.test.js.
import { describe, expect, test } from 'vitest';
import { SAMPLE, answerTo, elementBrowser, openCard } from './element_page.js';

const ctx = elementBrowser('stw-element-preload-');

/** The .wasm files the page has fetched so far. */
const wasmFetched = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop())
      .filter((name) => name.endsWith('.wasm'))
      .sort(),
  );

describe('<safetensors-card> imported (Chromium)', () => {
  test('loads the core and the card module once the page is idle, with no file given; the first card needs no other fetch of them', async () => {
    const { page, errors } = await openCard(ctx);
    await page.waitForFunction(
      () =>
        performance.getEntriesByType('resource').filter((e) => /safetensors_(core|card)\.wasm$/.test(e.name)).length ===
        2,
      null,
      { timeout: 20_000 },
    );
    expect(await wasmFetched(page)).toEqual(['safetensors_card.wasm', 'safetensors_core.wasm']);
    expect(await page.evaluate(() => [window.card.state, window.card.hasAttribute('state')])).toEqual(['', false]);
    await page.setInputFiles('#files', SAMPLE);
    const answer = await answerTo(page, () => {
      window.card.source = document.getElementById('files').files[0];
    });
    expect(answer.detail).toMatchObject({ kind: 'file', loadable: true, title: 'Demo sample LoRA' });
    expect(await wasmFetched(page)).toEqual(['safetensors_card.wasm', 'safetensors_core.wasm']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
