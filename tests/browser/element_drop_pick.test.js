// <safetensors-card droppable> and <safetensors-card picker> in Chromium: files dropped on the
// element (a DragEvent whose DataTransfer holds them; a folder as the entries a browser gives
// for one, walked with dot names left out), and the element's own pick buttons and inputs.
import { describe, expect, test } from 'vitest';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMPLE, answerTo, answers, elementBrowser, inCard, openCard, shownNames } from './element_page.js';
import { writePipelineCase } from '../../tools/pipeline_case.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const ctx = elementBrowser('stw-element-drop-');

/** A small loadable file whose title is `title`. */
const titled = (title) =>
  writeSafetensors([{ name: 'w', dtype: 'F32', shape: [1], data: new Uint8Array(4) }], { 'modelspec.title': title });

/** Puts `paths` in the page's file input (their Files are then `window.picked`). */
async function filesInPage(page, paths) {
  await page.setInputFiles('#files', paths);
  await page.evaluate(() => (window.picked = [...document.querySelector('#files').files]));
}

/** Dispatches dragover then drop on the card, its DataTransfer holding `window.picked`; whether each was cancelled. */
const dropPicked = (page) =>
  page.evaluate(() => {
    const dataTransfer = new DataTransfer();
    for (const file of window.picked) dataTransfer.items.add(file);
    const over = new DragEvent('dragover', { dataTransfer, cancelable: true, bubbles: true });
    window.card.dispatchEvent(over);
    const target = window.card.hasAttribute('drop-target');
    const drop = new DragEvent('drop', { dataTransfer, cancelable: true, bubbles: true });
    window.card.dispatchEvent(drop);
    return { over: over.defaultPrevented, target, drop: drop.defaultPrevented };
  });

describe('<safetensors-card> droppable and picker (Chromium)', () => {
  test('without `droppable` a drop is left alone; with it a dropped file or shard set is shown, `drop-target` set while dragged over', async () => {
    const { page, errors } = await openCard(ctx);
    await filesInPage(page, SAMPLE);
    expect(await dropPicked(page)).toEqual({ over: false, target: false, drop: false });
    await page.waitForTimeout(300);
    expect(await answers(page)).toEqual([]);
    expect(await page.getAttribute('safetensors-card', 'state')).toBeNull();

    await page.evaluate(() => (window.card.droppable = true));
    expect(await page.locator('safetensors-card [part=drop-hint]').textContent()).toContain('Drop a .safetensors file');
    const load = await answerTo(page, async () => {
      const dataTransfer = new DataTransfer();
      for (const file of window.picked) dataTransfer.items.add(file);
      const over = new DragEvent('dragover', { dataTransfer, cancelable: true, bubbles: true });
      window.card.dispatchEvent(over);
      window.dragged = { over: over.defaultPrevented, target: window.card.hasAttribute('drop-target') };
      window.card.dispatchEvent(new DragEvent('dragleave', { bubbles: true }));
      window.dragged.left = !window.card.hasAttribute('drop-target');
      window.card.dispatchEvent(new DragEvent('dragover', { dataTransfer, cancelable: true, bubbles: true }));
      const drop = new DragEvent('drop', { dataTransfer, cancelable: true, bubbles: true });
      window.card.dispatchEvent(drop);
      window.dragged.drop = drop.defaultPrevented;
    });
    expect(await page.evaluate(() => window.dragged)).toEqual({ over: true, target: true, left: true, drop: true });
    expect(await page.evaluate(() => window.card.hasAttribute('drop-target'))).toBe(false);
    expect(load).toMatchObject({ type: 'load', detail: { kind: 'file', loadable: true, title: 'Demo sample LoRA' } });
    expect(await page.locator('safetensors-card [part=drop-hint]').count()).toBe(0);

    const encoder = join(await writePipelineCase(join(ctx.dir, 'pipeline'), null), 'text_encoder');
    await filesInPage(
      page,
      (await readdir(encoder)).map((name) => join(encoder, name)),
    );
    const model = await answerTo(page, () => {
      const dataTransfer = new DataTransfer();
      for (const file of window.picked) dataTransfer.items.add(file);
      window.card.dispatchEvent(new DragEvent('drop', { dataTransfer, cancelable: true }));
    });
    expect(model).toMatchObject({ type: 'load', detail: { kind: 'model', loadable: true, opened: 'ShardedModel' } });
    expect(await page.locator(inCard('shard-row')).count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a dropped folder: its entries walked, dot folders left out, the card named by the folder', async () => {
    const folder = join(ctx.dir, 'loras');
    await mkdir(join(folder, '.cache'), { recursive: true });
    await writeFile(join(folder, 'first.safetensors'), titled('First LoRA'));
    await writeFile(join(folder, 'second.safetensors'), titled('Second LoRA'));
    await writeFile(join(folder, '.cache', 'stale.safetensors'), titled('Stale'));
    const { page, errors } = await openCard(ctx, { attributes: { droppable: '' } });
    await page.setInputFiles('#folder', folder);
    // The entries a drop of the folder gives (webkitGetAsEntry), made from the picked folder's Files.
    const load = await answerTo(page, () => {
      const files = [...document.querySelector('#folder').files];
      const directory = (name, path) => ({
        isDirectory: true,
        isFile: false,
        name,
        createReader() {
          const names = [
            ...new Set(
              files
                .filter((f) => f.webkitRelativePath.startsWith(`${path}/`))
                .map((f) => f.webkitRelativePath.slice(path.length + 1).split('/')[0]),
            ),
          ];
          let given = false;
          return {
            readEntries(done) {
              const batch = given ? [] : names.map((n) => entry(n, `${path}/${n}`));
              given = true;
              setTimeout(() => done(batch));
            },
          };
        },
      });
      const entry = (name, path) => {
        const file = files.find((f) => f.webkitRelativePath === path);
        if (!file) return directory(name, path);
        // A fresh File, as entry.file() gives: its path is the drop's to set.
        return { isDirectory: false, isFile: true, name, file: (done) => done(new File([file], name)) };
      };
      const root = files[0].webkitRelativePath.split('/')[0];
      const item = { kind: 'file', webkitGetAsEntry: () => directory(root, root) };
      const drop = new Event('drop', { cancelable: true });
      Object.defineProperty(drop, 'dataTransfer', { value: { items: [item], files: [] } });
      window.card.dispatchEvent(drop);
    });
    expect(load).toMatchObject({ type: 'load', detail: { kind: 'files', loadable: true, title: 'First LoRA' } });
    expect(await page.locator('safetensors-card header [data-testid=card-title]').first().textContent()).toBe('loras');
    const rows = await page
      .locator(inCard('file-row'))
      .evaluateAll((trs) => trs.map((r) => r.cells[0].textContent.trim()));
    expect(rows).toEqual(['first.safetensors', 'second.safetensors']);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('`picker`: its buttons open a file chooser; files and a folder picked with its inputs are shown; the same file picked twice loads twice', async () => {
    const dir = await writePipelineCase(join(ctx.dir, 'my-pipeline'), null);
    const { page, errors } = await openCard(ctx, { attributes: { picker: '' } });
    expect(await page.locator(inCard('pick-button')).textContent()).toBe('Choose files…');
    expect(await page.locator(inCard('pick-folder')).textContent()).toBe('Choose a folder…');

    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click(inCard('pick-button'))]);
    expect(chooser.isMultiple()).toBe(true);
    const load = await answerTo(page, () => chooser.setFiles(SAMPLE), undefined, { inNode: true });
    expect(load).toMatchObject({ type: 'load', detail: { kind: 'file', loadable: true, title: 'Demo sample LoRA' } });
    const again = await answerTo(page, () => page.setInputFiles(inCard('pick-input'), SAMPLE), undefined, {
      inNode: true,
    });
    expect(again).toEqual(load);
    expect(await page.locator(inCard('pick-input')).inputValue()).toBe(''); // emptied for the next pick

    const [folderChooser] = await Promise.all([page.waitForEvent('filechooser'), page.click(inCard('pick-folder'))]);
    expect(await folderChooser.element().evaluate((input) => input.webkitdirectory)).toBe(true);
    const pipeline = await answerTo(page, () => folderChooser.setFiles(dir), undefined, { inNode: true });
    expect(pipeline).toMatchObject({ type: 'load', detail: { kind: 'pipeline', opened: 'SafetensorsPipeline' } });
    expect(await page.locator('safetensors-card header [data-testid=card-title]').first().textContent()).toBe(
      'my-pipeline',
    );
    expect((await shownNames(page)).length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
