// How <safetensors-card> is defined, in Chromium (docs/element.md): a page whose element got its
// `source` before the class was defined (a framework setting properties before a lazy import)
// shows it once upgraded; a page that already owns the name keeps it, and the exported class
// works under another name.
import { describe, expect, test } from 'vitest';
import { SAMPLE, elementBrowser, openCard } from './element_page.js';

const ctx = elementBrowser('stw-element-define-');

/** In the page: a `tag` element given the picked sample (and a theme) before `define()` runs; what it then showed. */
function upgradeLate([tag, subclass]) {
  const el = document.createElement(tag);
  document.querySelector('main').append(el);
  el.source = document.querySelector('#files').files[0];
  el.theme = 'dark';
  const answered = new Promise((resolve) => {
    el.addEventListener('load', () => resolve('load'));
    el.addEventListener('error', (e) => resolve(`error ${e.detail.code}`));
    setTimeout(() => resolve('no answer in 10 s'), 10_000);
  });
  customElements.define(tag, subclass ? class extends window.SafetensorsCard {} : window.SafetensorsCard);
  return answered.then((how) => ({
    how,
    title: el.card?.title ?? null,
    theme: el.getAttribute('theme'),
    verdict: el.shadowRoot?.querySelector('[data-testid=verdict]')?.textContent ?? null,
  }));
}

describe('defining <safetensors-card> (Chromium)', () => {
  test('properties set before the element is defined are kept: the source given early is shown once it upgrades', async () => {
    const { page, errors } = await openCard(ctx);
    await page.setInputFiles('#files', SAMPLE);
    expect(await page.evaluate(upgradeLate, ['late-card', true])).toEqual({
      how: 'load',
      title: 'Demo sample LoRA',
      theme: 'dark',
      verdict: 'loadable',
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a page that already owns the name keeps its element; the exported class is defined under another', async () => {
    const context = await ctx.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    await page.goto(`${ctx.url}tests/browser/element_page.html?taken`);
    await page.waitForFunction(() => document.body.dataset.ready === 'yes');
    expect(await page.evaluate(() => customElements.get('safetensors-card').name)).toBe('TakenName');
    expect(await page.evaluate(() => window.card.shadowRoot)).toBeNull();
    await page.setInputFiles('#files', SAMPLE);
    expect(await page.evaluate(upgradeLate, ['model-card', false])).toMatchObject({ how: 'load', verdict: 'loadable' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
