// The demo with what a user drops, picks or types (issue 30, items 1, 4, 15, 16), in Chromium:
// a dropped folder (a sharded model, a folder of LoRAs), a failure that leaves nothing of the
// previous file on screen, a slow URL that fails after a file was picked, a sharded model
// hashed and scanned. What the demo says about a file (bidi controls, the tensor list):
// demo_file_text.test.js.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { dropFolder, folder } from './drop_folder.js';
import { startServer } from '../js/http_server.js';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';
import { rows, runRead, settled, shownCard, text } from './demo_pick.js';
import { twoShardModel } from './test_models.js';

const demo = demoBrowser('stw-sources-');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

describe('the demo with dropped folders, failures and races (Chromium)', () => {
  test('a dropped folder holding a sharded model is walked and shown as one model; .git is skipped', async () => {
    const { page, errors } = await openDemo(demo);
    const tree = folder('tiny-model', { ...twoShardModel(), 'config.json': new TextEncoder().encode('{}') });
    tree.children.push({ name: '.git', children: [{ name: 'HEAD', bytes: [1, 2, 3] }] });
    await dropFolder(page, tree);
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await text(page, 'card-title')).toBe('tiny-model');
    expect((await shownCard(page)).count).toBe('3');
    expect((await rows(page, 'shard-row')).map((r) => r.slice(0, 3))).toEqual([
      ['model-00001-of-00002.safetensors', '1', 'loadable'],
      ['model-00002-of-00002.safetensors', '2', 'loadable'],
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a dropped folder of separate LoRAs: each file with its verdict, the first shown, another on a click', async () => {
    const lora = (rank, seed) =>
      writeSafetensors([
        {
          name: 'lora_unet_proj.lora_down.weight',
          dtype: 'F16',
          shape: [rank, 8],
          data: pseudoRandomBytes(rank * 16, seed),
        },
        {
          name: 'lora_unet_proj.lora_up.weight',
          dtype: 'F16',
          shape: [8, rank],
          data: pseudoRandomBytes(rank * 16, seed + 1),
        },
      ]);
    const files = {
      'b_style.safetensors': lora(4, 3),
      'a_fox.safetensors': lora(2, 1),
      'cut.safetensors': new Uint8Array(5),
    };
    const { page, errors } = await openDemo(demo);
    await dropFolder(page, folder('loras', files));
    const size = (name) => `${files[name].byteLength} bytes`;
    expect(await rows(page, 'file-row')).toEqual([
      ['a_fox.safetensors', '2', size('a_fox.safetensors'), 'loadable'],
      ['b_style.safetensors', '2', size('b_style.safetensors'), 'loadable'],
      ['cut.safetensors', '0', '5 bytes', 'not loadable: HeaderTooSmall'],
    ]);
    expect(await page.locator('[data-testid=card-title]').allTextContents()).toEqual([
      'loras',
      'loras › a_fox.safetensors',
    ]);
    // The folder's verdict (one file is not loadable), then the file shown's.
    expect(await page.locator('[data-testid=verdict]').allTextContents()).toEqual([
      'not loadable: 1 error across the files',
      'loadable',
    ]);
    expect(await page.locator('[data-testid=shards]').count()).toBe(0);
    await page.evaluate(() => {
      document.body.dataset.state = 'picking';
    });
    await page.click('[data-testid=file-row] button:text-is("cut.safetensors")');
    await settled(page);
    expect((await page.locator('[data-testid=card-title]').allTextContents())[1]).toBe('loras › cut.safetensors');
    expect((await page.locator('[data-testid=verdict]').allTextContents())[1]).toBe('not loadable: HeaderTooSmall');
    expect(errors).toEqual([]);
    await page.close();
  });

  test("a folder that cannot be opened: the failure is shown and nothing of the previous file's card stays", async () => {
    const { page, errors } = await openDemo(demo);
    expect(await text(page, 'card-title')).toBe('Demo sample LoRA');
    const model = twoShardModel();
    // Two indexes in one folder: openSafetensorsIndex refuses it (InvalidIndex).
    await dropFolder(
      page,
      folder('two-models', { ...model, 'other.safetensors.index.json': model['model.safetensors.index.json'] }),
    );
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('error');
    expect(await text(page, 'verdict')).toBe('could not read the source');
    expect(await text(page, 'failure')).toMatch(/^InvalidIndex: .*2 indexes/);
    // Nothing else: no title, facts, image, findings, metadata, tensors or buttons of the sample.
    for (const id of [
      'card-title',
      'card-facts',
      'card-image',
      'findings',
      'metadata-box',
      'tensor-table',
      'hash-button',
    ])
      expect(await page.locator(`[data-testid=${id}]`).count(), id).toBe(0);
    expect(await page.isHidden('#edit-box')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a slow URL that fails after a file was picked does not overwrite that file’s verdict', async () => {
    const server = await startServer();
    server.answer = (req, res) => {
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(404).end();
      }, 1500);
      return true;
    };
    const path = join(demo.dir, 'after-url.safetensors');
    await writeFile(path, writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data: pseudoRandomBytes(8) }]));
    try {
      const { page, errors } = await openDemo(demo);
      await page.fill('[data-testid=url-input]', server.url('/slow.safetensors'));
      await page.click('[data-testid=url-open]');
      expect(await text(page, 'opening')).toBe('Reading the header…');
      await pickFile(page, path);
      expect(await text(page, 'verdict')).toBe('loadable');
      await new Promise((resolve) => setTimeout(resolve, 2500)); // the URL's 404 has come and gone
      expect(await text(page, 'verdict')).toBe('loadable');
      expect(await text(page, 'card-title')).toBe('after-url.safetensors');
      expect((await shownCard(page)).count).toBe('1');
      expect(await page.evaluate(() => document.body.dataset.state)).toBe('done');
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await server.close();
    }
  });

  test('a sharded model is hashed and scanned shard by shard from the demo', async () => {
    const dir = join(demo.dir, 'hashed-model');
    await mkdir(dir, { recursive: true });
    const model = twoShardModel();
    for (const [name, bytes] of Object.entries(model)) await writeFile(join(dir, name), bytes);
    const { page, errors } = await openDemo(demo);
    await page.evaluate(() => {
      document.body.dataset.state = 'picking';
    });
    await page.setInputFiles('[data-testid=folder-input]', dir);
    await settled(page);
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await page.isDisabled('[data-testid=hash-button]')).toBe(false);
    expect(await runRead(page, 'hash')).toMatch(/^Hashed 2 shards in \d+ ms/);
    expect((await rows(page, 'shard-row')).map((r) => [r[0], r[3]])).toEqual([
      ['model-00001-of-00002.safetensors', sha256(model['model-00001-of-00002.safetensors'])],
      ['model-00002-of-00002.safetensors', sha256(model['model-00002-of-00002.safetensors'])],
    ]);
    expect(await runRead(page, 'scan')).toMatch(
      /^Scanned 84 bytes of 2 shards in \d+ ms: 0 tensor\(s\) with NaN or infinities, 1 all-zero\.$/,
    );
    const scanned = await page.$$eval('[data-testid=tensor-table] tbody tr', (trs) =>
      Object.fromEntries(trs.map((tr) => [tr.dataset.name, tr.lastElementChild.textContent])),
    );
    expect(scanned).toEqual({ 'model.embed.weight': 'ok', 'model.head.weight': 'all zero', 'model.head.bias': 'ok' });
    expect(await page.$$eval('[data-testid=findings] li', (lis) => lis.map((li) => li.textContent))).toEqual([
      expect.stringMatching(/^info model-00002-of-00002\.safetensors: AllZeroTensor: /),
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
