// The demo's signature check on a dropped folder, in Chromium: a model folder signed here as
// model_signing signs it (tests/js/model_signer.js: EC P-256, files serialization), with its
// model.sig, a subfolder and a dotfile, dropped on the drop zone (from disk as from the desktop,
// and as entries built in the page), is verified; a tampered copy (a byte flipped, a file
// deleted, a file added) is not, with each file's status.
import { describe, expect, test } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { demoBrowser, openDemo } from './demo_browser.js';
import { runVerification } from './sign_panel.js';
import { dropFolder, dropPaths } from './drop_folder.js';
import { signedModel, writeFolder } from './test_models.js';
import { publicPem, signModel } from '../js/model_signer.js';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';

const demo = demoBrowser('stw-sign-drop-');
const encode = (text) => new TextEncoder().encode(text);

/** A folder tree for dropFolder from a Map of relative names ("docs/a.md") to bytes. */
function tree(name, files) {
  const root = { name, children: [] };
  for (const [path, bytes] of files) {
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.children.find((c) => c.name === part);
      if (!next) dir.children.push((next = { name: part, children: [] }));
      dir = next;
    }
    dir.children.push({ name: parts.at(-1), bytes: Array.from(bytes) });
  }
  return root;
}

/** Drops a signed folder with `drop`, verifies it with the key `pem`: the status and each file's row. */
async function verifyDropped(page, drop, pem) {
  await drop();
  await page.waitForSelector('[data-testid=sign-box]:not([hidden])');
  await page.fill('[data-testid=sign-pem]', pem);
  return runVerification(page);
}

/** The model with a byte of its weights flipped, its README deleted, a file added, and a .git folder. */
function tampered(model, signature) {
  const flipped = model.get('adapter.safetensors').slice();
  flipped[flipped.length - 1] ^= 1;
  const out = new Map([...model, ['adapter.safetensors', flipped], ['extra.bin', encode('added')]]);
  out.delete('docs/README.md');
  out.set('.git/HEAD', encode('ref: refs/heads/main\n')); // left out by model_signing: not "unexpected"
  return new Map([...out, ['model.sig', signature]]);
}

const VERIFIED = [
  ['.cache/huggingface/adapter.safetensors.metadata', 'ok'],
  ['adapter.safetensors', 'ok'],
  ['config.json', 'ok'],
  ['docs/README.md', 'ok'],
];
const TAMPERED = [
  ['.cache/huggingface/adapter.safetensors.metadata', 'ok'],
  ['adapter.safetensors', 'modified'],
  ['config.json', 'ok'],
  ['docs/README.md', 'missing'],
  ['extra.bin', 'unexpected'],
];
const sorted = (rows) => [...rows].sort((a, b) => (a[0] < b[0] ? -1 : 1));

describe('the demo verifies a dropped folder (Chromium)', () => {
  test('a folder dragged from the desktop: verified; a tampered copy is not, file by file', async () => {
    const { model, signature, pem } = signedModel();
    const good = await writeFolder(join(demo.dir, 'my-lora'), new Map([...model, ['model.sig', signature]]));
    const bad = await writeFolder(join(demo.dir, 'my-lora-changed'), tampered(model, signature));
    const { page, errors } = await openDemo(demo);

    const verified = await verifyDropped(page, () => dropPaths(page, [good]), pem);
    expect(verified.status).toMatch(/^Verified: signed by P-256 key [0-9a-f]{16}…$/);
    expect(verified.files).toEqual(VERIFIED);
    expect(await page.textContent('[data-testid=verdict]')).toBe('loadable'); // the model is shown too
    expect(await page.textContent('[data-testid=card-title]')).toBe('my-lora/adapter.safetensors');

    const changed = await verifyDropped(page, () => dropPaths(page, [bad]), pem);
    expect(changed.status).toMatch(/^Not verified: the model does not match its signature/);
    expect(sorted(changed.files)).toEqual(TAMPERED);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a folder whose entries come in batches (as readEntries gives them): the same verdicts', async () => {
    const { model, signature, pem } = signedModel();
    const { page, errors } = await openDemo(demo);
    const good = await verifyDropped(
      page,
      () => dropFolder(page, tree('my-lora', new Map([...model, ['model.sig', signature]]))),
      pem,
    );
    expect(good.status).toMatch(/^Verified: signed by P-256 key/);
    expect(good.files).toEqual(VERIFIED);
    const bad = await verifyDropped(page, () => dropFolder(page, tree('my-lora', tampered(model, signature))), pem);
    expect(bad.status).toMatch(/^Not verified: the model does not match its signature/);
    expect(sorted(bad.files)).toEqual(TAMPERED);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('loose files, model.sig among them (no folder): dropped or picked, verified', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const weights = writeSafetensors([{ name: 'w', dtype: 'F16', shape: [8], data: pseudoRandomBytes(16, 5) }]);
    const model = new Map([
      ['lora.safetensors', weights],
      ['config.json', encode('{}')],
    ]);
    const loose = new Map([...model, ['model.sig', encode(JSON.stringify(signModel(model, privateKey)))]]);
    const dir = await writeFolder(join(demo.dir, 'loose'), loose);
    const paths = [...loose.keys()].map((name) => join(dir, name));
    const { page, errors } = await openDemo(demo);
    const dropped = await verifyDropped(page, () => dropPaths(page, paths), publicPem(privateKey));
    expect(dropped.status).toMatch(/^Verified: signed by P-256 key/);
    expect(dropped.files).toEqual([
      ['config.json', 'ok'],
      ['lora.safetensors', 'ok'],
    ]);
    const picked = await verifyDropped(
      page,
      () => page.setInputFiles('[data-testid=file-input]', paths.slice().reverse()),
      publicPem(privateKey),
    );
    expect(picked.status).toMatch(/^Verified: signed by P-256 key/);
    // Without model.sig, nothing is offered.
    await page.setInputFiles('[data-testid=file-input]', paths.slice(0, 2));
    await page.waitForSelector('[data-testid=sign-box]', { state: 'hidden' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
