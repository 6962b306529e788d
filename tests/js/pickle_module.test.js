// The pickle scan's own wasm module (web/core/modules.js): loaded by the first scanPickle and
// never before (opening and describing a .safetensors file do not touch it), from the bytes
// initSafetensors was given; a module that cannot be loaded is an InitError naming its option
// that leaves the core working, and the next scan tries again. Its own file: Vitest gives each
// test file fresh modules.
import { expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { initSafetensors, openSafetensors, scanPickle } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const wasmFile = (name) => new URL(`../../web/wasm/${name}`, import.meta.url);
const checkpoint = new URL('../checkpoints/os_system.pt', import.meta.url);

test('a pickle module that cannot be loaded: InitError on scanPickle only; the next scan loads the right one', async () => {
  initSafetensors({ pickleWasmBinary: new Uint8Array([0, 0x61, 0x73, 0x6d]) }); // not a module
  const st = await openSafetensors(
    writeSafetensors([{ name: 'w', dtype: 'F32', shape: [1], data: new Uint8Array(4) }]),
  );
  expect((await st.getTensor('w')).length).toBe(1); // the core does not need the pickle module
  const error = await scanPickle(await readFile(checkpoint)).catch((e) => e);
  expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InitError' });
  expect(error.message).toContain('pickleWasmBinary');
  initSafetensors({ pickleWasmBinary: await readFile(wasmFile('safetensors_pickle.wasm')) });
  expect((await scanPickle(await readFile(checkpoint))).verdict).toBe('unsafe');
});

test('pickleWasmBinary must be bytes', () => {
  expect(() => initSafetensors({ pickleWasmBinary: 'safetensors_pickle.wasm' })).toThrow(TypeError);
});
