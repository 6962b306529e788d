// The model card's own wasm module (web/core/modules.js, web/card/model_card.js): loaded by the first card
// asked for and never before, from where initSafetensors says, and every failure of it a
// typed error that leaves the core working. Its own file: Vitest gives each test file fresh
// modules, so the loads counted here are this file's.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { initSafetensors, openSafetensors, validateSafetensors } from '../../web/index.js';
import { loadCardModule } from '../../web/core/modules.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const wasmFile = (name) => new URL(`../../web/wasm/${name}`, import.meta.url);
let server;
let base;
const requests = [];

beforeAll(async () => {
  const files = { '/wasm/safetensors_core.wasm': await readFile(wasmFile('safetensors_core.wasm')), '/wasm/safetensors_card.wasm': await readFile(wasmFile('safetensors_card.wasm')) };
  server = createServer((req, res) => {
    requests.push(req.url);
    const body = files[req.url];
    res.writeHead(body ? 200 : 404, body ? { 'content-type': 'application/wasm' } : {});
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
afterAll(() => server?.close());

const file = writeSafetensors([
  { name: 'model.layers.0.self_attn.q_proj.weight', dtype: 'F16', shape: [2, 2], data: new Uint8Array([0, 0x3c, 0, 0xc0, 0, 0, 0, 0]) },
  { name: 'model.embed_tokens.weight', dtype: 'F16', shape: [2, 2], data: new Uint8Array(8) },
], { format: 'pt', 'modelspec.title': 'tiny' });
const trap = () => { throw new WebAssembly.RuntimeError('unreachable'); };
const cardRequests = () => requests.filter((u) => u.endsWith('safetensors_card.wasm')).length;

test('opening, decoding and validating never load the card module; the first describe() does, once', async () => {
  initSafetensors({ locateFile: (path) => `${base}/wasm/${path}` });
  const st = await openSafetensors(file);
  expect(Array.from(await st.getTensor('model.layers.0.self_attn.q_proj.weight', { as: 'float32' }))).toEqual([1, -2, 0, 0]);
  expect((await validateSafetensors(file, { scanData: true })).loadable).toBe(true);
  expect(requests.some((u) => u.endsWith('safetensors_core.wasm'))).toBe(true);
  expect(cardRequests()).toBe(0);
  const card = await st.describe();
  expect(card.title).toBe('tiny');
  expect(card.parameters.total).toBe(8);
  await (await openSafetensors(file)).describe();
  await validateSafetensors(file, { hash: true }); // hashing reads the card's hash claims
  expect(cardRequests()).toBe(1);
});

test('a card module that cannot be loaded is InitError naming it; the core goes on, and a later describe() loads it', async () => {
  initSafetensors({ locateFile: (path) => (path.includes('card') ? `${base}/missing/${path}` : `${base}/wasm/${path}`) });
  const card = await loadCardModule();
  card.drop(); // as after a trap: the next card loads the module again, from the new place
  const st = await openSafetensors(file);
  const error = await st.describe().catch((e) => e);
  expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InitError' });
  expect(error.message).toContain('safetensors_card.wasm');
  expect(error.message).toContain('cardWasmBinary');
  expect((await st.getTensor('model.embed_tokens.weight')).length).toBe(4);
  // The bytes given instead: no request at all for the card's .wasm.
  const before = cardRequests();
  initSafetensors({ locateFile: (path) => `${base}/missing/${path}`, cardWasmBinary: await readFile(wasmFile('safetensors_card.wasm')), wasmBinary: await readFile(wasmFile('safetensors_core.wasm')) });
  expect((await st.describe()).title).toBe('tiny');
  expect(cardRequests()).toBe(before);
});

test('a trap inside the card module is InternalError, and the next card comes from a fresh module', async () => {
  const card = await loadCardModule();
  const original = card.module._cardTable;
  card.module._cardTable = trap;
  try {
    const error = await (await openSafetensors(file)).describe().catch((e) => e);
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    expect(error.message).toContain('card module');
  } finally {
    card.module._cardTable = original;
  }
  expect(await loadCardModule()).not.toBe(card);
  expect((await (await openSafetensors(file)).describe()).title).toBe('tiny');
});

test('the module tree is built on the first read of card.modules, once per file; it spreads, serialises and can be set', async () => {
  const card = await loadCardModule();
  const original = card.module._moduleTreeTable;
  let built = 0;
  card.module._moduleTreeTable = (...args) => {
    built++;
    return original(...args);
  };
  try {
    const st = await openSafetensors(file);
    const described = await st.describe();
    expect(built).toBe(0); // describe() alone never builds it
    expect(Object.keys(described).at(-1)).toBe('modules');
    expect(described.modules).toMatchObject({ name: '', tensors: 2, parameters: 8 });
    expect(described.modules.children.map((c) => c.path)).toEqual(['model']);
    expect(described.modules).toBe(described.modules); // built once, then a plain value
    expect(Object.getOwnPropertyDescriptor(described, 'modules')).toMatchObject({ writable: true, enumerable: true });
    const again = await st.describe(); // a new card object of the same file: nested anew, not rebuilt
    expect(JSON.parse(JSON.stringify(again)).modules).toEqual(JSON.parse(JSON.stringify(described.modules)));
    expect(structuredClone(await st.describe()).modules.tensors).toBe(2);
    expect({ ...(await st.describe()) }.modules.children).toHaveLength(1);
    expect(built).toBe(1);
    const set = await (await openSafetensors(file)).describe();
    set.modules = null;
    expect(set.modules).toBeNull();
    expect(built).toBe(1);
  } finally {
    card.module._moduleTreeTable = original;
  }
});

test('a trap while building the module tree is InternalError on that read; the next describe() gives a working card', async () => {
  const card = await loadCardModule();
  const original = card.module._moduleTreeTable;
  card.module._moduleTreeTable = trap;
  const st = await openSafetensors(file);
  const described = await st.describe();
  try {
    let error;
    try {
      void described.modules;
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    expect(error.message).toContain('card module');
  } finally {
    card.module._moduleTreeTable = original;
  }
  // The same file (its card is kept): describe() loads a fresh module for its tree.
  expect((await st.describe()).modules.tensors).toBe(2);
  expect(await loadCardModule()).not.toBe(card);
});

test('bad card module options are a TypeError', () => {
  expect(() => initSafetensors({ cardWasmBinary: 'x' })).toThrow(TypeError);
});
