// Shared by the demo tests: a file picked in the demo page and what its <safetensors-card> then
// shows (its tensor count, verdict and finding codes); waiting for a result or for a read behind
// a button to end; an element's text and the cells of table rows (Playwright's CSS selectors
// reach into the card's open shadow root).
import { pickFile } from './demo_browser.js';

/** What the card shows: its tensor count (the report's, or a checkpoint's tensors), verdict and finding codes. */
export async function shownCard(page) {
  return {
    // The tensor table's count (of the part shown, in a pipeline), else the report's (a rejected file).
    count: await page.evaluate(() => {
      const card = document.getElementById('card');
      const counts = card.shadowRoot.querySelectorAll('[data-testid=tensor-count]');
      return counts.length
        ? counts[counts.length - 1].textContent.replace(/,/g, '')
        : String(card.report?.tensors ?? '');
    }),
    // A file's verdict, or a checkpoint's (safe, unknown or unsafe).
    verdict: await page.$eval('safetensors-card', (card) =>
      card.shadowRoot.querySelector('[data-testid=verdict], [data-testid=ckpt-verdict]').textContent.trim(),
    ),
    // The first findings list: the file's, or a pipeline's or folder's (the part's comes below).
    findings: await page.$eval('safetensors-card', (card) => {
      const list = card.shadowRoot.querySelector('[data-testid=findings]');
      return list ? [...list.querySelectorAll('li[data-code]')].map((li) => li.dataset.code) : [];
    }),
  };
}

/** Picks the file at `path` in the demo page; its tensor count, verdict and finding codes. */
export async function pick(page, path) {
  await pickFile(page, path);
  return shownCard(page);
}

/** Resolves once the page has shown a result or a failure. */
export const settled = (page) =>
  page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error');

/**
 * Clicks the card's button for a read (`hash`, `scan`, `convert`, `civitai`) and resolves once
 * the read has ended (its button no longer says Stop); its status text.
 */
export async function runRead(page, what) {
  await page.click(`[data-testid=${what}-button]`);
  await page.waitForFunction(
    (w) => {
      const root = document.getElementById('card').shadowRoot;
      const button = root.querySelector(`[data-testid=${w}-button]`);
      return (
        button &&
        button.textContent.trim() !== 'Stop' &&
        root.querySelector(`[data-testid=${w}-status]`)?.textContent !== ''
      );
    },
    what,
    { timeout: 60_000 },
  );
  return page.textContent(`[data-testid=${what}-status]`);
}

/** The text of the element with `testid`, and the cells of each row with `testid`. */
export const text = (page, testid) => page.textContent(`[data-testid=${testid}]`);
export const rows = (page, testid) =>
  page.$$eval(`[data-testid=${testid}]`, (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent.trim())));

/** Clicks tensor `name`'s name in the card's table; the preview's text once read. */
export async function previewOf(page, name) {
  await page.click(`[data-testid=tensor-table] tbody tr[data-name="${name}"] button`);
  await page.waitForFunction(() => {
    const pre = document.getElementById('card').shadowRoot.querySelector('[data-testid=preview]');
    return pre && !pre.textContent.startsWith('reading ');
  });
  return page.textContent('[data-testid=preview]');
}
