// The model card's own wasm module (web/core/modules.js, web/card/model_card.js): loaded by the first card
// asked for and never before (hashing does not need it), from where initSafetensors says, and
// every failure of it a typed error that leaves the core working; a file's header table is
// decoded in it once, and a kept card needs it no more. Its own file: Vitest gives each test
// file fresh modules, so the loads counted here are this file's.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { initSafetensors, openSafetensors, validateSafetensors } from '../../web/index.js';
import { loadCardModule, loadedCardModule } from '../../web/core/modules.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const wasmFile = (name) => new URL(`../../web/wasm/${name}`, import.meta.url);
let server;
let base;
const requests = [];

beforeAll(async () => {
  const files = {
    '/wasm/safetensors_core.wasm': await readFile(wasmFile('safetensors_core.wasm')),
    '/wasm/safetensors_card.wasm': await readFile(wasmFile('safetensors_card.wasm')),
  };
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

const file = writeSafetensors(
  [
    {
      name: 'model.layers.0.self_attn.q_proj.weight',
      dtype: 'F16',
      shape: [2, 2],
      data: new Uint8Array([0, 0x3c, 0, 0xc0, 0, 0, 0, 0]),
    },
    { name: 'model.embed_tokens.weight', dtype: 'F16', shape: [2, 2], data: new Uint8Array(8) },
  ],
  { format: 'pt', 'modelspec.title': 'tiny' },
);
const trap = () => {
  throw new WebAssembly.RuntimeError('unreachable');
};
const cardRequests = () => requests.filter((u) => u.endsWith('safetensors_card.wasm')).length;

test('opening, decoding, validating and hashing never load the card module; the first describe() does, once', async () => {
  initSafetensors({ locateFile: (path) => `${base}/wasm/${path}` });
  const st = await openSafetensors(file);
  expect(Array.from(await st.getTensor('model.layers.0.self_attn.q_proj.weight', { as: 'float32' }))).toEqual([
    1, -2, 0, 0,
  ]);
  expect((await validateSafetensors(file, { scanData: true })).loadable).toBe(true);
  // Hashing checks the claims the core found at open (none here: the checks are empty).
  expect((await st.hash()).checks).toEqual([]);
  expect((await validateSafetensors(file, { hash: true })).hashes.checks).toEqual([]);
  expect(requests.some((u) => u.endsWith('safetensors_core.wasm'))).toBe(true);
  expect(cardRequests()).toBe(0);
  expect(loadedCardModule()).toBeNull();
  const card = await st.describe();
  expect(card.title).toBe('tiny');
  expect(card.parameters.total).toBe(8);
  await (await openSafetensors(file)).describe();
  expect(cardRequests()).toBe(1);
});

test('a card module that cannot be loaded is InitError naming it; the core goes on, and a later describe() loads it', async () => {
  initSafetensors({
    locateFile: (path) => (path.includes('card') ? `${base}/missing/${path}` : `${base}/wasm/${path}`),
  });
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
  initSafetensors({
    locateFile: (path) => `${base}/missing/${path}`,
    cardWasmBinary: await readFile(wasmFile('safetensors_card.wasm')),
    wasmBinary: await readFile(wasmFile('safetensors_core.wasm')),
  });
  expect((await st.describe()).title).toBe('tiny');
  expect(cardRequests()).toBe(before);
});

/**
 * Counts, in the loaded card module, the header tables copied in and the tables asked of them.
 * @returns {{ copies: number, cards: number, trees: number, restore: () => void }}
 */
async function countCardWork() {
  const { module } = await loadCardModule();
  const Table = module._DecodedHeaderTable;
  const { cardTable, moduleTreeTable } = Table.prototype;
  const counts = { copies: 0, cards: 0, trees: 0, restore: () => {} };
  module._DecodedHeaderTable = function copy(length) {
    counts.copies++;
    return new Table(length);
  };
  Table.prototype.cardTable = function card() {
    counts.cards++;
    return cardTable.call(this);
  };
  Table.prototype.moduleTreeTable = function tree(kohya) {
    counts.trees++;
    return moduleTreeTable.call(this, kohya);
  };
  counts.restore = () => {
    Object.assign(Table.prototype, { cardTable, moduleTreeTable });
    module._DecodedHeaderTable = Table;
  };
  return counts;
}

test('a trap inside the card module is InternalError, and the next card comes from a fresh module', async () => {
  const card = await loadCardModule();
  const { prototype } = card.module._DecodedHeaderTable;
  const original = prototype.cardTable;
  prototype.cardTable = trap;
  const st = await openSafetensors(file);
  try {
    const error = await st.describe().catch((e) => e);
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    expect(error.message).toContain('card module');
  } finally {
    prototype.cardTable = original;
  }
  expect(await loadCardModule()).not.toBe(card);
  expect((await (await openSafetensors(file)).describe()).title).toBe('tiny');
  expect((await st.describe()).title).toBe('tiny'); // a failed build is not kept: the same file tries again
});

test('the header table is copied into the card module and decoded once for the card and its module tree', async () => {
  const counts = await countCardWork();
  try {
    const st = await openSafetensors(file);
    const described = await st.describe();
    expect(counts).toMatchObject({ copies: 1, cards: 1, trees: 0 });
    expect(described.modules.tensors).toBe(2);
    expect(counts).toMatchObject({ copies: 1, cards: 1, trees: 1 }); // the tree from the same copy
  } finally {
    counts.restore();
  }
});

test("only the last table copied in is kept: an earlier card's tree copies its table in again", async () => {
  const counts = await countCardWork();
  try {
    const [a, b] = await Promise.all([openSafetensors(file), openSafetensors(file)]);
    const cardA = await a.describe();
    const cardB = await b.describe(); // lets A's table go: one header table at a time in the card module
    expect(counts).toMatchObject({ copies: 2, cards: 2, trees: 0 });
    expect(cardB.modules.tensors).toBe(2); // from the kept table
    expect(counts).toMatchObject({ copies: 2, trees: 1 });
    expect(cardA.modules.tensors).toBe(2); // copied in again from JS's copy
    expect(counts).toMatchObject({ copies: 3, cards: 2, trees: 2 });
  } finally {
    counts.restore();
  }
});

test('describe() again does no work in any module: its card is kept, and once its tree is built it needs no card module', async () => {
  const st = await openSafetensors(file);
  const first = await st.describe();
  const card = await loadCardModule();
  const calls = vi.spyOn(card, 'call');
  try {
    const second = await st.describe();
    expect(second).not.toBe(first); // a new object each call
    expect(second.modules).toEqual(first.modules);
    expect(calls).toHaveBeenCalled(); // the tree, built by the read above
    calls.mockClear();
    const third = await st.describe();
    expect(third.modules).not.toBe(second.modules); // nested anew from the kept flat tree
    expect(JSON.stringify(third)).toBe(JSON.stringify(first));
    expect(calls).not.toHaveBeenCalled();
  } finally {
    calls.mockRestore();
  }
  card.drop(); // let go (as after a trap elsewhere): a card with its tree does not load it again
  expect((await st.describe()).modules.tensors).toBe(2);
  expect(loadedCardModule()).toBeNull();
});

test('the module tree is built on the first read of card.modules, once per file; it spreads, serialises and can be set', async () => {
  const counts = await countCardWork();
  const built = () => counts.trees;
  try {
    const st = await openSafetensors(file);
    const described = await st.describe();
    expect(built()).toBe(0); // describe() alone never builds it
    expect(Object.keys(described).at(-1)).toBe('modules');
    expect(described.modules).toMatchObject({ name: '', tensors: 2, parameters: 8 });
    expect(described.modules.children.map((c) => c.path)).toEqual(['model']);
    expect(described.modules).toBe(described.modules); // built once, then a plain value
    expect(Object.getOwnPropertyDescriptor(described, 'modules')).toMatchObject({ writable: true, enumerable: true });
    const again = await st.describe(); // a new card object of the same file: nested anew, not rebuilt
    expect(JSON.parse(JSON.stringify(again)).modules).toEqual(JSON.parse(JSON.stringify(described.modules)));
    expect(structuredClone(await st.describe()).modules.tensors).toBe(2);
    expect({ ...(await st.describe()) }.modules.children).toHaveLength(1);
    expect(built()).toBe(1);
    const set = await (await openSafetensors(file)).describe();
    set.modules = null;
    expect(set.modules).toBeNull();
    expect(built()).toBe(1);
  } finally {
    counts.restore();
  }
});

test('a trap while building the module tree is InternalError on that read; the next describe() gives a working card', async () => {
  const card = await loadCardModule();
  const { prototype } = card.module._DecodedHeaderTable;
  const original = prototype.moduleTreeTable;
  prototype.moduleTreeTable = trap;
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
    prototype.moduleTreeTable = original;
  }
  // The same file (its card is kept): describe() loads a fresh module for its tree.
  expect((await st.describe()).modules.tensors).toBe(2);
  expect(await loadCardModule()).not.toBe(card);
});

test('bad card module options are a TypeError', () => {
  expect(() => initSafetensors({ cardWasmBinary: 'x' })).toThrow(TypeError);
});
