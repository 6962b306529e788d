// Shared by the demo tests: a file picked in the demo page, and what the page then shows (its
// tensor count, verdict and the codes of its findings).
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
