// verifyModelSignature in Chromium: the official model_signing fixture folders (copies of
// sigstore/model-transparency scripts/tests/, commit e3430730) picked as a folder (Files with
// webkitRelativePath), verified with a key, a certificate chain and Sigstore keyless (offline),
// and a folder with a changed file.
import { describe, expect, test } from 'vitest';
import { cp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoBrowser } from './demo_browser.js';
import { haveFixtures } from '../js/fixtures.js';

const SIGNING = fileURLToPath(new URL('../../../shared/fixtures/signing/', import.meta.url));
const HAVE_SIGNING = haveFixtures(SIGNING);
const ctx = demoBrowser('stw-sign-browser-', ['tests/browser', 'web']);

async function pickFolder(folder) {
  const page = await ctx.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(`${ctx.url}tests/browser/signature_page.html`);
  await page.waitForFunction(() => document.body.dataset.ready === 'yes');
  await page.setInputFiles('#folder', folder);
  return { page, errors };
}

describe.skipIf(!HAVE_SIGNING)('model signatures in Chromium', () => {
  const pem = (path) => (HAVE_SIGNING ? readFileSync(join(SIGNING, path), 'utf8') : '');

  test('a picked folder verifies with the public key; names are relative to the folder', async () => {
    const { page, errors } = await pickFolder(join(SIGNING, 'v1.1.0-elliptic-key'));
    const r = await page.evaluate(
      (publicKey) => window.verifyPicked({ publicKey }),
      pem('keys/certificate/signing-key-pub.pem'),
    );
    expect(r.error).toBeNull();
    expect(r.verified).toBe(true);
    expect(r.files).toEqual([
      { name: 'signme-1', status: 'ok' },
      { name: 'signme-2', status: 'ok' },
    ]);
    expect(errors).toEqual([]);
  });

  test('a certificate chain and Sigstore keyless, offline, in the browser', async () => {
    const cert = await pickFolder(join(SIGNING, 'v1.1.0-certificate'));
    const c = await cert.page.evaluate(
      (ca) => window.verifyPicked({ certificateChain: [ca] }),
      pem('keys/certificate/ca-cert.pem'),
    );
    expect(c).toMatchObject({ verified: true, method: 'certificate', error: null });
    const keyless = await pickFolder(join(SIGNING, 'v1.1.0-sigstore'));
    const k = await keyless.page.evaluate(() =>
      window.verifyPicked({ identity: 'stefanb@us.ibm.com', issuer: 'https://sigstore.verify.ibm.com/oauth2' }),
    );
    expect(k.error).toBeNull();
    expect(k).toMatchObject({ verified: true, method: 'sigstore', signer: { signedAt: '2025-10-10T02:12:20.000Z' } });
  });

  test('a changed file in the picked folder is modified, and the signature not verified', async () => {
    const copy = join(ctx.dir, 'tampered');
    await cp(join(SIGNING, 'v1.1.0-elliptic-key'), copy, { recursive: true });
    await writeFile(join(copy, 'signme-2'), 'changed');
    const { page } = await pickFolder(copy);
    const r = await page.evaluate(
      (publicKey) => window.verifyPicked({ publicKey }),
      pem('keys/certificate/signing-key-pub.pem'),
    );
    expect(r).toMatchObject({ verified: false, error: { code: 'ModelMismatch' } });
    expect(r.files).toEqual([
      { name: 'signme-1', status: 'ok' },
      { name: 'signme-2', status: 'modified' },
    ]);
  });
});
