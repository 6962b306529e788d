// preload() (web/file/preload.js) in Node: it loads the core and the model card's module (the
// pickle scan's when asked), so that describe() uses the card module it loaded, and its warm-up
// run changes no card; bad options are a TypeError.
import { expect, test } from 'vitest';
import { initSafetensors, openSafetensors, preload } from '../../web/index.js';
import { loadedCardModule, loadedCore, loadPickleModule } from '../../web/core/modules.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

test('preload() loads the core and the card module, and describe() uses that card module', async () => {
  expect(loadedCore()).toBe(null);
  expect(loadedCardModule()).toBe(null);
  await preload();
  const core = loadedCore();
  const card = loadedCardModule();
  expect(core).not.toBe(null);
  expect(card).not.toBe(null);
  const file = writeSafetensors([
    { name: 'lora_unet_x.lora_down.weight', dtype: 'F32', shape: [2, 2], data: new Uint8Array(16) },
  ]);
  const described = await (await openSafetensors(file)).describe();
  expect(described.parameters.total).toBe(4);
  expect(loadedCore()).toBe(core);
  expect(loadedCardModule()).toBe(card);
  // The warm-up changed nothing: a fresh card module (never run on preload's header) gives the same card.
  card.drop();
  const fresh = await (await openSafetensors(file)).describe();
  expect(loadedCardModule()).not.toBe(card);
  expect(JSON.stringify(fresh)).toBe(JSON.stringify(described));
  expect(JSON.stringify(fresh.modules)).toBe(JSON.stringify(described.modules));
});

test("preload({ pickle: true }) loads the pickle scan's module too (the same one scanPickle gets)", async () => {
  await preload({ card: false, pickle: true });
  const pickle = await loadPickleModule();
  await preload({ pickle: true });
  expect(await loadPickleModule()).toBe(pickle);
});

test('preload() with bad options is a TypeError', async () => {
  await expect(preload(/** @type {any} */ (null))).rejects.toThrow(TypeError);
  await expect(preload(/** @type {any} */ ({ card: 'yes' }))).rejects.toThrow(/booleans/);
});

test("preload()'s warm-up headers are what they stand for: a loadable LyCORIS adapter and a Llama-style checkpoint", async () => {
  const { warmHeaders } = await import('../../web/file/warm_headers.js');
  const [adapter, checkpoint] = warmHeaders(await initSafetensors());
  // The file as the header says it is, its data never read (preload() reads none either).
  const open = async (/** @type {{ parts: Uint8Array[], size: number }} */ { parts, size }) => {
    const start = new Uint8Array(parts.flatMap((part) => [...part]));
    const source = {
      size,
      read: async (/** @type {number} */ offset, /** @type {number} */ length) => {
        if (offset + length > start.byteLength) throw new Error(`read past the header: ${offset}+${length}`);
        return start.subarray(offset, offset + length);
      },
    };
    const st = await openSafetensors(source);
    return { st, card: await st.describe() };
  };
  const a = await open(adapter);
  expect(a.st.report.loadable).toBe(true);
  expect(a.st.report.findings).toEqual([]);
  expect(a.st.tensors.length).toBe(1760);
  expect(a.card.kind).toBe('adapter');
  expect(a.card.adapter).toMatchObject({
    format: 'kohya',
    networkModule: 'lycoris.kohya',
    targets: ['text_encoder', 'unet'],
  });
  expect(a.card.triggerWords.map((w) => w.text)).toEqual(['warm']);
  const c = await open(checkpoint);
  expect(c.st.report.loadable).toBe(true);
  expect(c.st.report.findings).toEqual([]);
  expect(c.st.tensors.length).toBe(3 + 9 * 32);
  expect(c.card.kind).toBe('model');
  expect(JSON.stringify(c.card.family)).toMatch(/llama/i);
});
