// What the <safetensors-card> tests in Chromium share (tests/browser/element_*.test.js): the test
// page (element_page.html) served with the package, a card given a source and the next `load`
// or `error` it fires awaited, files picked into it, and what its shadow root shows. Playwright's
// CSS selectors pierce open shadow roots, so `safetensors-card [data-testid=x]` finds the card's
// own elements; code run in the page goes through `card.shadowRoot` itself.
import { fileURLToPath } from 'node:url';
import { demoBrowser } from './demo_browser.js';

/** The demo's sample LoRA (demo/make_sample.js writes it at build time). */
export const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
/** The committed PyTorch checkpoints (tests/checkpoints/). */
export const CHECKPOINTS = fileURLToPath(new URL('../checkpoints/', import.meta.url));

/**
 * The demo server serving the package, the demo's sample and this page, with Chromium and a
 * temporary folder, for one test file (demo_browser.js).
 * @param {string} prefix the temporary folder's name prefix
 */
export const elementBrowser = (prefix) => demoBrowser(prefix, ['web', 'demo', 'tests/browser']);

/**
 * A new page showing an empty card, once the element is defined; `errors` collects the page's
 * uncaught errors.
 * @param {{ url: string, browser: import('playwright-core').Browser }} ctx from elementBrowser
 * @param {{ attributes?: Record<string, string>, colorScheme?: 'light' | 'dark', width?: number }} [options]
 */
export async function openCard(ctx, { attributes = {}, colorScheme = 'light', width = 1000 } = {}) {
  // A context of its own (closed with the page), as @axe-core/playwright needs one.
  const context = await ctx.browser.newContext({
    colorScheme,
    viewport: { width, height: 800 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.on('close', () => context.close().catch(() => {}));
  // File choosers intercepted from the start: Playwright turns interception on asynchronously
  // when a test first waits for one, which can lose the race with the click that opens it.
  page.on('filechooser', () => {});
  /** @type {Error[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('dialog', (d) => {
    errors.push(new Error(`dialog: ${d.message()}`));
    d.dismiss();
  });
  await page.goto(`${ctx.url}tests/browser/element_page.html`);
  await page.waitForFunction(() => document.body.dataset.ready === 'yes' && customElements.get('safetensors-card'));
  await page.evaluate((attrs) => {
    for (const [name, value] of Object.entries(attrs)) window.card.setAttribute(name, value);
  }, attributes);
  return { page, errors };
}

/** The `load` and `error` events the card has fired so far (summaries: element_page.html). */
export const answers = (page) => page.evaluate(() => window.events.filter((e) => e.type !== 'progress'));

/** The `progress` events' details so far. */
export const progressEvents = (page) =>
  page.evaluate(() => window.events.filter((e) => e.type === 'progress').map((e) => e.detail));

/**
 * Runs `give(arg)` in the page (it gives the card a source, or clicks something that does) and
 * resolves with the next `load` or `error` event's summary.
 * @param {import('playwright-core').Page} page
 * @param {Function | (() => Promise<unknown>)} give a function run in the page, or (`inNode`) in the test
 * @param {unknown} [arg]
 * @param {{ inNode?: boolean, timeout?: number }} [options]
 */
export async function answerTo(page, give, arg, { inNode = false, timeout = 30_000 } = {}) {
  const before = (await answers(page)).length;
  if (inNode) await give();
  else await page.evaluate(give, arg);
  try {
    await page.waitForFunction((n) => window.events.filter((e) => e.type !== 'progress').length > n, before, {
      timeout,
      polling: 50,
    });
  } catch (error) {
    // Say what the card was doing: its state, what it said last, and its last events.
    const now = await page
      .evaluate(() => ({
        state: window.card.getAttribute('state'),
        said: window.card.shadowRoot.querySelector('[data-testid=announcement]')?.textContent.trim(),
        events: window.events.slice(-5),
      }))
      .catch(() => null);
    throw new Error(`no load or error event within ${timeout} ms: ${JSON.stringify(now)}`, { cause: error });
  }
  return (await answers(page))[before];
}

/**
 * Picks `paths` with the page's file input and gives the card the Files: an array, or the first
 * File alone (`one`); resolves with the `load` or `error` event that follows.
 * @param {import('playwright-core').Page} page
 * @param {string | string[]} paths
 * @param {{ one?: boolean, timeout?: number }} [options]
 */
export async function pickFiles(page, paths, { one = false, timeout = 30_000 } = {}) {
  await page.setInputFiles('#files', paths);
  return answerTo(
    page,
    (single) => {
      const files = [...document.querySelector('#files').files];
      window.card.source = single ? files[0] : files;
    },
    one,
    { timeout },
  );
}

/** The selector of the card's element with `testid`, through its shadow root. */
export const inCard = (testid) => `safetensors-card [data-testid=${testid}]`;

/** The text of the card's element with `testid` (the first one). */
export const cardText = (page, testid) => page.locator(inCard(testid)).first().textContent();

/** The codes of the findings the card lists. */
export const findingCodes = (page) =>
  page
    .locator('safetensors-card [data-testid=findings] li[data-code]')
    .evaluateAll((lis) => lis.map((li) => li.dataset.code));

/** The names of the tensor rows the card shows, top to bottom. */
export const shownNames = (page) =>
  page
    .locator('safetensors-card [data-testid=tensor-table] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => tr.dataset.name));

/** How many elements the card's shadow root holds. */
export const shadowSize = (page) => page.evaluate(() => window.card.shadowRoot.querySelectorAll('*').length);

/** The tensor range line ("1–100 of 1,000,000"). */
export const rangeText = (page) => cardText(page, 'tensor-range');

/**
 * Waits until the tensor range line reads `expected` (a string it contains, or a RegExp): the
 * table has shown a search, sort or page.
 */
export async function rangeIs(page, expected, timeout = 30_000) {
  await page.waitForFunction(
    ([source, flags, plain]) => {
      const text = window.card.shadowRoot.querySelector('[data-testid=tensor-range]')?.textContent ?? '';
      return plain === null ? new RegExp(source, flags).test(text) : text.includes(plain);
    },
    typeof expected === 'string' ? ['', '', expected] : [expected.source, expected.flags, null],
    { timeout, polling: 50 },
  );
}
