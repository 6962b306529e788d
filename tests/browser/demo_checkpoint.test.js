// A PyTorch checkpoint in the demo, in Chromium (issue 35): picked, dropped or opened by URL, it
// shows its verdict, globals, tensors (with the storage facts of views), other values and its
// card (an A1111 embedding's too); the pickle reader loads only then. Convert saves what
// toSafetensors writes, as a download or through showSaveFilePicker (here given a file of the
// page's private file system: a real FileSystemWritableFileStream). A .bin that is no pickle gets
// the safetensors view. Unsafe checkpoints: demo_checkpoint_unsafe.test.js.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { previewOf, rows, runRead, shownCard, text } from './demo_pick.js';
import { dropPaths } from './drop_folder.js';
import {
  CHECKPOINTS,
  downloadAfter,
  downloadingDemo,
  expectSameTensors,
  globalRows,
  lazyFetches,
  tensorRows,
} from './checkpoint_page.js';
import { openCheckpoint } from '../../web/index.js';

const demo = demoBrowser('stw-ckpt-', ['demo', 'web', 'tests']); // tests/: checkpoints by URL

describe('a checkpoint in the demo (Chromium)', () => {
  test('lightning.ckpt: safe, its globals, tensors and values; converted, the download holds its tensors', async () => {
    const path = join(CHECKPOINTS, 'lightning.ckpt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await downloadingDemo(demo);
    expect(await lazyFetches(page)).toEqual([]); // a .safetensors page fetched none of it
    await pickFile(page, path);
    expect(await lazyFetches(page)).toEqual([
      'checkpoint_view.js',
      'open_checkpoint.js',
      'open_others.js',
      'safetensors_pickle.wasm',
    ]);
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('safe');
    expect(ckpt.verdict).toBe('safe');
    expect(await text(page, 'ckpt-verdict')).toBe('safe');
    expect(await text(page, 'card-what')).toBe('PyTorch checkpoint (torch.save zip)');
    expect(await rows(page, 'ckpt-global')).toEqual(globalRows(ckpt));
    const shownRows = await tensorRows(page);
    expect(shownRows.length).toBe(ckpt.tensors.length);
    expect(shownRows.map((r) => r.slice(0, 3))).toEqual(
      ckpt.tensors.map((t) => [t.name, t.dtype, `[${t.shape.join(', ')}]`]),
    );
    expect((await shownCard(page)).count).toBe(String(ckpt.tensors.length));
    const objects = (await text(page, 'ckpt-objects')).split('\n');
    expect(objects).toContain('global_step = 120');
    expect(objects).toContain('pytorch-lightning_version = "1.9.0"');
    expect(objects.length).toBe(ckpt.objects.length);
    // The card (openCheckpoint's describe(): no title, so the file's name), and its hashes.
    expect((await ckpt.describe()).title).toBe(null);
    expect(await text(page, 'card-title')).toBe('lightning.ckpt');
    await runRead(page, 'hash');
    const sha256 = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    expect(await text(page, 'hash-sha256')).toBe(sha256);

    // An A1111 embedding: its card says so, with its vectors, trigger word, base model and step.
    await pickFile(page, join(CHECKPOINTS, 'embedding_sd1.pt'));
    expect(await text(page, 'card-what')).toBe(
      'PyTorch checkpoint (torch.save zip) · embedding · Stable Diffusion 1.x',
    );
    const card = await page.locator('[data-testid=card-facts]').innerText();
    expect(card).toMatch(/Embedding\s+3 vectors of width 768/);
    expect(card).toMatch(/Base model\s+v1-5-pruned, hash e1441589/);
    expect(card).toMatch(/Training\s+step 1500/);
    await pickFile(page, path);

    const { name, bytes } = await downloadAfter(demo, page, 'convert-button');
    expect(name).toBe('lightning.safetensors');
    const st = await expectSameTensors(bytes, ckpt);
    expect(st.metadata).toEqual({ format: 'pt' });
    const status = await text(page, 'convert-status');
    expect(status).toMatch(
      new RegExp(`^Downloaded lightning\\.safetensors: ${ckpt.tensors.length} tensors, .*, loadable\\.$`),
    );
    expect(status).toContain(bytes.length.toLocaleString('en'));

    // A .safetensors file afterwards: nothing of the checkpoint stays.
    await pickFile(page, fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url)));
    for (const id of ['ckpt-verdict', 'ckpt-globals', 'convert-button'])
      expect(await page.locator(`[data-testid=${id}]`).count(), id).toBe(0);
    expect(await text(page, 'card-title')).toBe('Demo sample LoRA');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('showSaveFilePicker: the converted file is streamed into the picked file, byte for byte what toSafetensors writes', async () => {
    const path = join(CHECKPOINTS, 'lightning.ckpt');
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
    expect(await runRead(page, 'convert')).toMatch(/^Saved lightning\.safetensors: 4 tensors, /);
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

  test("views.pt dropped: a view's storage, offset and strides are shown, and its preview is getTensor's", async () => {
    const path = join(CHECKPOINTS, 'views.pt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await openDemo(demo);
    await dropPaths(page, [path]);
    const column = ckpt.tensors.find((t) => t.name === 'column');
    const tied = ckpt.tensors.filter((t) => t.storage === column.storage).length;
    expect(tied).toBeGreaterThan(1);
    const row = (await tensorRows(page)).find((r) => r[0] === 'column');
    expect(row[3]).toBe(
      `storage ${column.storage}, shared by ${tied} tensors, offset ${column.storageOffset}, stride [${column.stride.join(', ')}]`,
    );
    const values = Array.from(await ckpt.getTensor('column'), String).join(', ');
    const [head, line] = (await previewOf(page, 'column')).split('\n');
    expect(head).toMatch(/^column \(F32, \[8\], 8 values, [\d.]+ ms\):$/);
    expect(line).toBe(values);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a checkpoint by URL (read by Range) is shown and converted as a picked one is', async () => {
    const path = join(CHECKPOINTS, 'views.pt');
    const ckpt = await openCheckpoint(path);
    const { page, errors } = await downloadingDemo(demo);
    await page.evaluate(() => {
      document.body.dataset.state = 'opening';
    });
    await page.fill('[data-testid=url-input]', `${demo.url}tests/checkpoints/views.pt`);
    await page.click('[data-testid=url-open]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    expect(await page.getAttribute('[data-testid=ckpt-verdict]', 'data-verdict')).toBe('safe');
    expect((await tensorRows(page)).map((r) => r[0])).toEqual(ckpt.tensors.map((t) => t.name));
    const { name, bytes } = await downloadAfter(demo, page, 'convert-button');
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
    expect(await page.locator('[data-testid=ckpt-verdict]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
