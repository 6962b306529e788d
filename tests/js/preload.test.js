// preload() (web/file/preload.js) in Node: it loads the core and the model card's module (the
// pickle scan's when asked), so that describe() uses the card module it loaded, and its warm-up
// run changes no card; bad options are a TypeError.
import { expect, test } from 'vitest';
import { openSafetensors, preload } from '../../web/index.js';
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
