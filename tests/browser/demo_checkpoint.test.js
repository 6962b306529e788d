// A PyTorch checkpoint in the demo, in Chromium (issue 35): picked, it shows its verdict, globals,
// tensors (with the storage facts of views), other values and, where openCheckpoint has
// describe(), its card; the pickle reader loads only then. Convert saves what toSafetensors
// writes, as a download or through showSaveFilePicker (here given a file of the page's private
// file system, a real FileSystemWritableFileStream). An unsafe checkpoint is refused until the
// explicit option; a pickle's names and strings stay text; a pickle named .safetensors is
// recognised as one.
import { describe, expect, test } from 'vitest';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { rows, text } from './demo_pick.js';
import { openCheckpoint, openSafetensors } from '../../web/index.js';
import { LEFT_BEHIND_KEY } from '../../web/pickle/checkpoint_convert.js';

const demo = demoBrowser('stw-ckpt-', ['demo', 'web', 'tests']); // tests/: checkpoints by URL
const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const RANK = { unsafe: 0, unknown: 1, safe: 2 };

/** What the globals table should hold: openCheckpoint's globals, the least safe first. */
const globalRows = (ckpt) =>
  [...ckpt.globals]
    .sort((a, b) => RANK[a.safety] - RANK[b.safety])
    .map((g) => [`${g.module}.${g.name}`, g.safety, String(g.count)]);

/** The page's fetches of the lazily loaded checkpoint code and pickle module. */
const lazyFetches = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop())
      .filter((p) => /^(checkpoint_view\.js|open_checkpoint\.js|safetensors_pickle\.wasm)$/.test(p))
      .sort(),
  );

/** Clicks `testid` and resolves with the download it starts, saved under the test's folder. */
async function downloadAfter(page, testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  const path = join(demo.dir, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  await page.waitForFunction(() => document.body.dataset.state === 'done');
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(path)) };
}

/** Every tensor of `ckpt` equals the written file's, which holds no other. */
async function expectSameTensors(bytes, ckpt) {
  const st = await openSafetensors(bytes);
  expect(st.tensors.map((t) => t.name).sort()).toEqual(ckpt.tensors.map((t) => t.name).sort());
  for (const t of ckpt.tensors) expect(await st.getTensor(t.name), t.name).toEqual(await ckpt.getTensor(t.name));
  return st;
}

/** A page on the demo that saves with a download only (no File System Access API). */
async function downloadingDemo() {
  const opened = await openDemo(demo);
  await opened.page.evaluate(() => delete window.showSaveFilePicker);
  return opened;
}

describe('a checkpoint in the demo (Chromium)', () => {
  test('lightning.ckpt: safe, its globals, tensors and values; converted, the download holds its tensors', async () => {
    const path = join(DIR, 'lightning.ckpt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await downloadingDemo();
    expect(await lazyFetches(page)).toEqual([]); // a .safetensors page fetched none of it
    await pickFile(page, path);
    expect(await lazyFetches(page)).toEqual(['checkpoint_view.js', 'open_checkpoint.js', 'safetensors_pickle.wasm']);
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('safe');
    expect(ckpt.verdict).toBe('safe');
    expect(await text(page, 'verdict')).toBe('safe — PyTorch checkpoint (torch.save zip)');
    expect(await rows(page, 'ckpt-global')).toEqual(globalRows(ckpt));
    const tensorRows = await rows(page, 'ckpt-tensor');
    expect(tensorRows.length).toBe(ckpt.tensors.length);
    expect(tensorRows.map((r) => r.slice(0, 3))).toEqual(
      ckpt.tensors.map((t) => [t.name, t.dtype, `[${t.shape.join(', ')}]`]),
    );
    expect(await text(page, 'tensor-count')).toBe(String(ckpt.tensors.length));
    const objects = (await text(page, 'ckpt-objects')).split('\n');
    expect(objects).toContain('global_step = 120');
    expect(objects).toContain('pytorch-lightning_version = "1.9.0"');
    expect(objects.length).toBe(ckpt.objects.length);
    // The card where openCheckpoint describes checkpoints; no card panel where it does not.
    const cardHidden = () => page.$eval('[data-testid=card]', (e) => e.hidden);
    if (typeof ckpt.describe === 'function') {
      expect(await cardHidden()).toBe(false);
      expect(await text(page, 'card-title')).toBe((await ckpt.describe()).title ?? '(untitled)');
    } else expect(await cardHidden()).toBe(true);

    const { name, bytes } = await downloadAfter(page, 'ckpt-convert');
    expect(name).toBe('lightning.safetensors');
    const st = await expectSameTensors(bytes, ckpt);
    expect(st.metadata).toEqual({ format: 'pt' });
    const status = await text(page, 'ckpt-status');
    expect(status).toMatch(
      new RegExp(`^Downloaded lightning\\.safetensors: ${ckpt.tensors.length} tensors, .*, loadable\\.$`),
    );
    expect(status).toContain(bytes.length.toLocaleString('en'));

    // A .safetensors file afterwards: the checkpoint's panels go, the card panel comes back.
    await pickFile(page, fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url)));
    expect(await page.$eval('[data-testid=checkpoint-box]', (e) => e.hidden)).toBe(true);
    expect(await page.$eval('[data-testid=ckpt-tensors]', (e) => e.hidden)).toBe(true);
    expect(await cardHidden()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('showSaveFilePicker: the converted file is streamed into the picked file, byte for byte what toSafetensors writes', async () => {
    const path = join(DIR, 'lightning.ckpt');
    const ckpt = await openCheckpoint(path);
    const expected = new Uint8Array(await (await ckpt.toSafetensors()).arrayBuffer());
    const { page, errors } = await openDemo(demo);
    await page.evaluate(() => {
      window.showSaveFilePicker = async (options) => {
        window.pickerOptions = options;
        const root = await navigator.storage.getDirectory();
        return root.getFileHandle(options.suggestedName, { create: true });
      };
    });
    await pickFile(page, path);
    await page.click('[data-testid=ckpt-convert]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    expect(await text(page, 'ckpt-status')).toMatch(/^Saved lightning\.safetensors: 4 tensors, /);
    const saved = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const file = await (await root.getFileHandle('lightning.safetensors')).getFile();
      return { bytes: Array.from(new Uint8Array(await file.arrayBuffer())), options: window.pickerOptions };
    });
    expect(saved.options.suggestedName).toBe('lightning.safetensors');
    expect(new Uint8Array(saved.bytes)).toEqual(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("views.pt: a view's storage, offset and strides are shown, and its preview is getTensor's", async () => {
    const path = join(DIR, 'views.pt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    const column = ckpt.tensors.find((t) => t.name === 'column');
    const tied = ckpt.tensors.filter((t) => t.storage === column.storage).length;
    expect(tied).toBeGreaterThan(1);
    const row = (await rows(page, 'ckpt-tensor')).find((r) => r[0] === 'column');
    expect(row[3]).toBe(
      `storage ${column.storage}, shared by ${tied} tensors, offset ${column.storageOffset}, stride [${column.stride.join(', ')}]`,
    );
    await page.click('[data-testid=ckpt-tensor][data-name=column]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    const values = Array.from(await ckpt.getTensor('column'), String).join(', ');
    expect((await text(page, 'preview')).split('\n')).toEqual(['column (F32, [8], 8 values):', values]);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('os_system.pt: unsafe, posix.system listed; convert refused and nothing saved; the explicit option writes the tensors and names the global', async () => {
    const path = join(DIR, 'os_system.pt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await downloadingDemo();
    let downloads = 0;
    page.on('download', () => downloads++);
    await pickFile(page, path);
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('unsafe');
    expect(await text(page, 'ckpt-verdict')).toContain('posix.system');
    const globals = await rows(page, 'ckpt-global');
    expect(globals).toEqual(globalRows(ckpt));
    expect(globals[0]).toEqual(['posix.system', 'unsafe', '1']);
    expect(await page.isVisible('[data-testid=ckpt-convert-tensors]')).toBe(false);

    await page.click('[data-testid=ckpt-convert]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    const refusal = await text(page, 'ckpt-status');
    expect(refusal).toMatch(/^Refused: /);
    expect(refusal).toContain('posix.system (unsafe)');
    expect(downloads).toBe(0);
    expect(await page.isVisible('[data-testid=ckpt-convert-tensors]')).toBe(true);

    const { bytes } = await downloadAfter(page, 'ckpt-convert-tensors');
    const st = await expectSameTensors(bytes, ckpt);
    expect(st.metadata).toEqual({ format: 'pt', [LEFT_BEHIND_KEY]: 'posix.system' });
    expect(await text(page, 'ckpt-status')).toContain(`(${LEFT_BEHIND_KEY}): posix.system.`);
    expect(downloads).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("a pickle's global names and strings holding <img onerror> stay text", async () => {
    // Protocol 0 (docs/pickles.md): a dict of one string to another, then a key whose value is
    // a call of a global (c module \n name \n) on the tuple ('x',). Never run.
    const img = (n) => `<img src=x onerror="window.__pwned=${n}">`;
    const path = join(demo.dir, 'evil.pkl');
    await writeFile(path, `(dS'${img(1)}'\nS'${img(2)}'\nsS'call'\ncos${img(3)}\nsystem${img(4)}\n(S'x'\ntRs.`);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    expect(await rows(page, 'ckpt-global')).toEqual([[`os${img(3)}.system${img(4)}`, 'unknown', '1']]);
    expect(await text(page, 'ckpt-verdict')).toContain(`os${img(3)}.system${img(4)}`);
    expect(await text(page, 'ckpt-objects')).toBe(`${img(1)} = ${JSON.stringify(img(2))}`);
    expect(await page.$$eval('img', (images) => images.map((i) => i.id))).toEqual(['card-image']);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.isEnabled('[data-testid=ckpt-convert]')).toBe(false); // a plain pickle has no storages
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a checkpoint by URL (read by Range) is shown and converted as a picked one is', async () => {
    const path = join(DIR, 'views.pt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await downloadingDemo();
    await page.evaluate(() => {
      document.body.dataset.state = 'opening';
    });
    await page.fill('[data-testid=url-input]', `${demo.url}tests/checkpoints/views.pt`);
    await page.click('[data-testid=url-open]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('safe');
    expect((await rows(page, 'ckpt-tensor')).map((r) => r[0])).toEqual(ckpt.tensors.map((t) => t.name));
    const { name, bytes } = await downloadAfter(page, 'ckpt-convert');
    expect(name).toBe('views.safetensors');
    await expectSameTensors(bytes, ckpt);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a .bin that is not a pickle (a safetensors file) gets the safetensors view', async () => {
    const path = join(demo.dir, 'weights.bin');
    await copyFile(fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url)), path);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await page.$eval('[data-testid=checkpoint-box]', (e) => e.hidden)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a checkpoint named .safetensors is shown as the checkpoint it is, with the finding that says so', async () => {
    const path = join(demo.dir, 'model.safetensors');
    await copyFile(join(DIR, 'os_system.pt'), path);
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('unsafe');
    const codes = await page.$$eval('[data-testid=findings] li', (items) => items.map((li) => li.dataset.code));
    expect(codes).toEqual((await openCheckpoint(path)).findings.map((f) => f.code));
    expect(codes).toContain('pickle-named-safetensors');
    expect(errors).toEqual([]);
    await page.close();
  });
});
