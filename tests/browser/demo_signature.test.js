// The demo's signature check in Chromium: a picked folder holding model.sig (the official
// model_signing fixtures, copies of sigstore/model-transparency scripts/tests/) is verified with
// a public key and with Sigstore keyless; a changed file shows as modified.
import { describe, expect, test } from 'vitest';
import { cp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoBrowser, openDemo } from './demo_browser.js';
import { runVerification } from './sign_panel.js';
import { haveFixtures } from '../js/fixtures.js';

const SIGNING = fileURLToPath(new URL('../../../shared/fixtures/signing/', import.meta.url));
const HAVE_SIGNING = haveFixtures(SIGNING);
const demo = demoBrowser('stw-demo-sign-');

async function verifyFolder(page, folder, fill) {
  await page.setInputFiles('[data-testid=folder-input]', folder);
  await page.waitForSelector('[data-testid=sign-box]:not([hidden])');
  await fill(page);
  return runVerification(page);
}

describe.skipIf(!HAVE_SIGNING)('the demo verifies a signed folder', () => {
  const publicKey = HAVE_SIGNING ? readFileSync(join(SIGNING, 'keys/certificate/signing-key-pub.pem'), 'utf8') : '';
  const withKey = (page) => page.fill('[data-testid=sign-pem]', publicKey);

  test('with the public key, then with a changed file', async () => {
    const { page, errors } = await openDemo(demo);
    const good = await verifyFolder(page, join(SIGNING, 'v1.1.0-elliptic-key'), withKey);
    expect(good.status).toBe('Verified: signed by P-384 key e8450dec4eb99dae…');
    expect(good.files).toEqual([
      ['signme-1', 'ok'],
      ['signme-2', 'ok'],
    ]);
    const copy = join(demo.dir, 'changed');
    await cp(join(SIGNING, 'v1.1.0-elliptic-key'), copy, { recursive: true });
    await writeFile(join(copy, 'signme-1'), 'other bytes');
    const bad = await verifyFolder(page, copy, withKey);
    expect(bad.status).toMatch(/^Not verified: the model does not match its signature/);
    expect(bad.files).toEqual([
      ['signme-1', 'modified'],
      ['signme-2', 'ok'],
    ]);
    expect(errors).toEqual([]);
  });

  test('Sigstore keyless, offline', async () => {
    const { page } = await openDemo(demo);
    const r = await verifyFolder(page, join(SIGNING, 'v1.0.0-sigstore'), async (p) => {
      await p.selectOption('[data-testid=sign-method]', 'sigstore');
      await p.fill('[data-testid=sign-identity]', 'stefanb@us.ibm.com');
      await p.fill('[data-testid=sign-issuer]', 'https://sigstore.verify.ibm.com/oauth2');
    });
    expect(r.status).toBe('Verified: signed by stefanb@us.ibm.com');
  });

  test('a folder without model.sig is not offered a check', async () => {
    const { page } = await openDemo(demo);
    await page.setInputFiles('[data-testid=folder-input]', join(SIGNING, 'keys/certificate'));
    await page.waitForFunction(() => document.body.dataset.state !== 'picking');
    expect(await page.isHidden('[data-testid=sign-box]')).toBe(true);
  });
});
