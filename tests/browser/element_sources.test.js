// <safetensors-card> in Chromium, given each kind of source docs/element.md lists: a picked File,
// a Blob, a FileSystemFileHandle (a real one, from the origin private file system), picked files
// making a sharded model and a diffusers pipeline (and that pipeline by URL), bytes; and what it
// cannot open, an `error` with UnsupportedSource. A file's URL: element_url.test.js.
import { describe, expect, test } from 'vitest';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  SAMPLE,
  answerTo,
  answers,
  cardText,
  elementBrowser,
  findingCodes,
  openCard,
  pickFiles,
  progressEvents,
  shownNames,
} from './element_page.js';
import { startServer } from '../js/http_server.js';
import { unetTensors, writePipelineCase } from '../../tools/pipeline_case.js';
import { openSafetensors, openSafetensorsIndex } from '../../web/index.js';

const ctx = elementBrowser('stw-element-sources-');

/** What the sample is, read in Node: the oracle for what the card shows. */
async function sampleFacts() {
  const st = await openSafetensors(SAMPLE);
  return { names: st.tensors.map((t) => t.name), title: (await st.describe()).title };
}

/** The `load` event of a loadable file, as the page's event log summarises it. */
const fileLoad = (title) => ({
  type: 'load',
  state: 'done',
  detail: {
    kind: 'file',
    loadable: true,
    verdict: null,
    referenceError: null,
    title,
    opened: 'SafetensorsFile',
    same: true,
  },
});

describe('<safetensors-card> sources (Chromium)', () => {
  test('a picked File, a Blob, bytes (Uint8Array and ArrayBuffer) and an OPFS FileSystemFileHandle: the sample, 16 tensors, loadable', async () => {
    const { names, title } = await sampleFacts();
    expect(title).toBe('Demo sample LoRA');
    expect(names).toHaveLength(16);
    const { page, errors } = await openCard(ctx);
    const shows = async () => ({
      verdict: await cardText(page, 'verdict'),
      title: await cardText(page, 'card-title'),
      state: await page.getAttribute('safetensors-card', 'state'),
      names: (await shownNames(page)).sort(),
      tensors: await page.evaluate(() => window.card.opened.tensors.length),
    });
    const expected = { verdict: 'loadable', title, state: 'done', names: [...names].sort(), tensors: 16 };

    expect(await pickFiles(page, SAMPLE, { one: true })).toEqual(fileLoad(title));
    expect(await shows()).toEqual(expected);

    for (const what of ['blob', 'u8', 'buffer']) {
      await page.evaluate(() => (window.card.source = null));
      expect(await page.getAttribute('safetensors-card', 'state')).toBeNull();
      const load = await answerTo(
        page,
        async ([path, kind]) => {
          const bytes = await (await fetch(path)).arrayBuffer();
          window.card.source = { blob: new Blob([bytes]), u8: new Uint8Array(bytes), buffer: bytes }[kind];
        },
        ['/demo/sample.safetensors', what],
      );
      expect(load, what).toEqual(fileLoad(title));
      expect(await shows(), what).toEqual(expected);
    }

    // A real FileSystemFileHandle: the origin private file system's, written from the page.
    const handleLoad = await answerTo(
      page,
      async (path) => {
        const root = await navigator.storage.getDirectory();
        const handle = await root.getFileHandle('sample.safetensors', { create: true });
        const writable = await handle.createWritable();
        await writable.write(await (await fetch(path)).arrayBuffer());
        await writable.close();
        window.handle = handle;
        window.card.source = handle;
      },
      '/demo/sample.safetensors',
    );
    expect(handleLoad).toEqual(fileLoad(title));
    expect(await shows()).toEqual(expected);
    expect(await page.evaluate(() => window.handle instanceof FileSystemFileHandle)).toBe(true);

    // A handle whose file is gone: the card cannot read it, an `error` (ReadError). (A new
    // handle: giving the card the source it shows again changes nothing, as Lit properties do.)
    const gone = await answerTo(page, async () => {
      const root = await navigator.storage.getDirectory();
      const handle = await root.getFileHandle('gone.safetensors', { create: true });
      await root.removeEntry('gone.safetensors');
      window.card.source = handle;
    });
    expect(gone).toMatchObject({ type: 'error', detail: { name: 'SafetensorsError', code: 'ReadError' } });
    expect(await page.getAttribute('safetensors-card', 'state')).toBe('error');
    expect(await cardText(page, 'failure')).toMatch(/^ReadError: the file handle could not be read/);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('picked files: a sharded model (an index and its shards, with progress) and a diffusers pipeline folder, a component shown on a click', async () => {
    const dir = await writePipelineCase(join(ctx.dir, 'pipeline'), null);
    const encoder = join(dir, 'text_encoder');
    const index = join(encoder, 'model.safetensors.index.json');
    const model = await openSafetensorsIndex(index);
    const { page, errors } = await openCard(ctx);

    const files = (await readdir(encoder)).map((name) => join(encoder, name));
    const load = await pickFiles(page, files);
    expect(load).toMatchObject({
      type: 'load',
      state: 'done',
      detail: { kind: 'model', loadable: true, opened: 'ShardedModel', same: true },
    });
    expect(await cardText(page, 'verdict')).toBe('loadable');
    const shards = await page
      .locator('safetensors-card [data-testid=shard-row]')
      .evaluateAll((rows) => rows.map((r) => [...r.cells].slice(0, 3).map((c) => c.textContent.trim())));
    expect(shards).toEqual(model.shards.map((s) => [s.name, String(s.report.tensors), 'loadable']));
    expect((await shownNames(page)).sort()).toEqual(model.tensors.map((t) => t.name).sort());
    const opening = (await progressEvents(page)).filter((p) => p.phase === 'open');
    expect(opening.length).toBeGreaterThan(0);
    expect(opening.every((p) => p.unit === 'shards' && p.total === model.shards.length)).toBe(true);
    expect(opening.at(-1).done).toBe(model.shards.length);

    // The pipeline folder, as a folder pick gives it (each File's webkitRelativePath set).
    await page.setInputFiles('#folder', dir);
    const pipeline = await answerTo(page, () => (window.card.source = [...document.querySelector('#folder').files]));
    expect(pipeline).toMatchObject({
      type: 'load',
      detail: { kind: 'pipeline', loadable: false, opened: 'SafetensorsPipeline', same: true },
    });
    expect(await findingCodes(page)).toEqual(['ComponentMissing']);
    const components = () =>
      page
        .locator('safetensors-card [data-testid=component-row]')
        .evaluateAll((rows) => rows.map((r) => [r.dataset.name, r.cells[4].textContent.trim()]));
    const rows = await components();
    expect(rows).toEqual([
      ['feature_extractor', ''],
      ['safety_checker', ''],
      ['scheduler', ''],
      ['text_encoder', 'loadable'],
      ['tokenizer', ''],
      ['unet', 'loadable'],
      ['vae', 'missing'],
    ]);
    // The first component with weights is shown below the table: the sharded text encoder.
    expect((await shownNames(page)).sort()).toEqual(model.tensors.map((t) => t.name).sort());
    const unet = await answerTo(page, () =>
      window.card.shadowRoot.querySelector('[data-testid=component-row][data-name=unet] button').click(),
    );
    expect(unet).toMatchObject({ type: 'load', detail: { kind: 'pipeline', same: true } });
    expect((await shownNames(page)).sort()).toEqual(
      unetTensors()
        .map((t) => t.name)
        .sort(),
    );
    expect(
      await page.locator('safetensors-card [data-testid=component-row][data-name=unet]').getAttribute('class'),
    ).toBe('selected');

    // The same pipeline by URL: its model_index.json on another origin (CORS).
    const server = await startServer();
    try {
      for (const path of await readdir(dir, { recursive: true })) {
        const bytes = await readFile(join(dir, path)).catch(() => null);
        if (bytes) server.files.set(`/p/${path}`, { bytes, etag: '"1"' });
      }
      const remote = await answerTo(
        page,
        (url) => window.card.setAttribute('src', url),
        server.url('/p/model_index.json'),
      );
      expect(remote).toMatchObject({ type: 'load', detail: { kind: 'pipeline', opened: 'SafetensorsPipeline' } });
      expect(await components()).toEqual(rows);
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  test('what it cannot open: an `error` with UnsupportedSource, and no `load`', async () => {
    const json = join(ctx.dir, 'config.json');
    await writeFile(json, '{"architectures": ["LlamaForCausalLM"]}');
    const { page, errors } = await openCard(ctx);
    const unsupported = {
      type: 'error',
      state: 'error',
      detail: { name: 'SafetensorsError', code: 'UnsupportedSource', status: null },
    };
    expect(await answerTo(page, () => (window.card.source = 42))).toEqual(unsupported);
    expect(await answerTo(page, () => (window.card.source = { name: 'model.safetensors' }))).toEqual(unsupported);
    expect(await answerTo(page, () => (window.card.source = ['model.safetensors']))).toEqual(unsupported);
    expect(await answerTo(page, () => (window.card.source = []))).toEqual(unsupported);
    expect(await pickFiles(page, json)).toEqual(unsupported);
    expect(await cardText(page, 'failure')).toMatch(/^UnsupportedSource: config\.json is not a \.safetensors file/);
    expect((await answers(page)).every((a) => a.type === 'error')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
