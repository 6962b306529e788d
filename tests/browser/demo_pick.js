// Shared by the demo tests: a file picked in the demo page and what the page then shows (its
// tensor count, verdict and finding codes); waiting for a result; an element's text and the
// cells of table rows.
import { pickFile } from './demo_browser.js';

/** Picks the file at `path` in the demo page; its tensor count, verdict and finding codes. */
export async function pick(page, path) {
  await pickFile(page, path);
  return {
    count: await page.textContent('[data-testid=tensor-count]'),
    verdict: await page.textContent('[data-testid=verdict]'),
    findings: await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code ?? '')),
  };
}

/** Resolves once the page has shown a result or a failure. */
export const settled = (page) =>
  page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error');
/** The text of the element with `testid`, and the cells of each row with `testid`. */
export const text = (page, testid) => page.textContent(`[data-testid=${testid}]`);
export const rows = (page, testid) =>
  page.$$eval(`[data-testid=${testid}]`, (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
