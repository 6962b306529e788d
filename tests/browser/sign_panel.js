// The demo's Signature panel as the Chromium tests use it: a click on "Verify signature", then
// what the panel says (its status line and each file's row) once the check has ended.

/**
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ status: string | null, files: string[][] }>}
 */
export async function runVerification(page) {
  await page.click('[data-testid=sign-verify]');
  await page.waitForFunction(() =>
    /^(Verified|Not verified|Cannot)/.test(document.querySelector('[data-testid=sign-status]').textContent),
  );
  return {
    status: await page.textContent('[data-testid=sign-status]'),
    files: await page.$$eval('[data-testid=sign-file]', (rows) =>
      rows.map((r) => [...r.cells].map((c) => c.textContent)),
    ),
  };
}
