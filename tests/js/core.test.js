// Loading the wasm core and the guard around it: options kept through reloads, and every
// failure of the core (load, allocation, trap, a .wasm of another version) a typed error.
// Its own file: Vitest gives each test file a fresh module, so the first load is this file's.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { initSafetensors, openSafetensors, validateSafetensors, SafetensorsError } from '../../web/index.js';
import { decodeCoreTables } from '../../web/core/tables.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const WASM = new URL('../../web/wasm/safetensors_core.wasm', import.meta.url);
let server;
let base;
const requests = [];

beforeAll(async () => {
  const wasm = await readFile(WASM);
  server = createServer((req, res) => {
    requests.push(req.url);
    if (req.url === '/custom/safetensors_core.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(wasm);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
afterAll(() => server?.close());

const file = writeSafetensors([
  { name: 'w', dtype: 'F16', shape: [4], data: new Uint8Array([0, 0x3c, 0, 0xc0, 0, 0, 0, 0]) },
]);
const trap = () => {
  throw new WebAssembly.RuntimeError('unreachable');
};

// Runs `fn` with `target[name]` replaced by `fake` (target: a loaded core's module, or an object).
async function withFake(target, name, fake, fn) {
  const object = target.module ?? target;
  const original = object[name];
  object[name] = fake;
  try {
    return await fn();
  } finally {
    object[name] = original;
  }
}

describe('loading', () => {
  test('bad options are a TypeError', () => {
    expect(() => initSafetensors({ locateFile: 'x' })).toThrow(TypeError);
    expect(() => initSafetensors({ wasmBinary: [1, 2] })).toThrow(TypeError);
    expect(() => initSafetensors(null)).toThrow(TypeError);
  });

  test('locateFile is kept for the reload after a trap (it was forgotten: ENOENT on the default path)', async () => {
    const locateFile = (path) => `${base}/custom/${path}`;
    const first = await initSafetensors({ locateFile });
    expect(requests.filter((u) => u.startsWith('/custom/'))).toHaveLength(1);
    const error = await withFake(first, '_analyzeHeader', trap, () => validateSafetensors(file).catch((e) => e));
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    const second = await initSafetensors();
    expect(second).not.toBe(first);
    expect(requests.filter((u) => u.startsWith('/custom/'))).toHaveLength(2); // loaded from the same place again
    expect((await validateSafetensors(file)).loadable).toBe(true);
  });

  test('a .wasm that cannot be loaded is InitError, and a later call can load again', async () => {
    const working = await initSafetensors();
    await withFake(working, '_convertToF32', trap, async () => {
      const st = await openSafetensors(file);
      await expect(st.getTensor('w')).rejects.toMatchObject({ code: 'InternalError' });
    });
    initSafetensors({ locateFile: (path) => `${base}/missing/${path}` });
    const error = await initSafetensors().catch((e) => e);
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe('InitError');
    expect(error.message).toContain('locateFile');
    await expect(validateSafetensors(file)).rejects.toMatchObject({ code: 'InitError' });
    initSafetensors({ wasmBinary: await readFile(WASM) });
    expect((await validateSafetensors(file)).loadable).toBe(true);
  });

  test('a .wasm from another version is refused with InternalError', () => {
    // A core table of version 1: the number count, no text, then the version number.
    const table = new Uint8Array(16);
    new DataView(table.buffer).setUint32(0, 1, true);
    new DataView(table.buffer).setFloat64(8, 1, true);
    expect(() => decodeCoreTables(table)).toThrow(
      expect.objectContaining({ name: 'SafetensorsError', code: 'InternalError' }),
    );
  });
});

describe('the guard around every wasm call', () => {
  test('no heap for the conversion or scan buffers: OutOfMemory, and what was allocated is freed', async () => {
    const core = await initSafetensors();
    const st = await openSafetensors(file);
    const live = new Set();
    const { _malloc: malloc, _free: free } = core.module;
    let refuseAll = false;
    const limited = (n) => {
      // The scan's scratch buffer is 1 MiB: refuse it. A small tensor's conversion buffers are
      // its size (decodePieces): refuse every allocation while it is read.
      if (refuseAll || n >= 1 << 20) return 0;
      const ptr = malloc(n);
      live.add(ptr);
      return ptr;
    };
    const tracked = (ptr) => {
      live.delete(ptr);
      free(ptr);
    };
    await withFake(core, '_malloc', limited, () =>
      withFake(core, '_free', tracked, async () => {
        refuseAll = true;
        const decode = await st.getTensor('w').catch((e) => e);
        refuseAll = false;
        expect(decode).toMatchObject({ name: 'SafetensorsError', code: 'OutOfMemory' });
        expect(decode.message).toContain('conversion input buffer');
        const scan = await validateSafetensors(file, { scanData: true }).catch((e) => e);
        expect(scan).toMatchObject({ name: 'SafetensorsError', code: 'OutOfMemory' });
        expect(scan.message).toContain('data scan buffer');
      }),
    );
    expect(live.size).toBe(0);
    expect(await initSafetensors()).toBe(core); // not a trap: the module stays
    expect(await st.getTensor('w')).toEqual(new Float32Array([1, -2, 0, 0]));
  });

  test.each([
    ['the conversion kernel', '_convertToF32', (st) => st.getTensor('w')],
    ['the header length check', '_headerBytesNeeded', () => validateSafetensors(file)],
  ])('a trap in %s: InternalError, then a fresh module that works', async (_, name, run) => {
    const core = await initSafetensors();
    const st = await openSafetensors(file);
    const error = await withFake(core, name, trap, () => run(st).catch((e) => e));
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    expect(error.cause).toBeInstanceOf(WebAssembly.RuntimeError);
    const fresh = await initSafetensors();
    expect(fresh).not.toBe(core);
    expect(await st.getTensor('w')).toEqual(new Float32Array([1, -2, 0, 0]));
  });

  test('a trap in the data scanner: InternalError, then a fresh module that scans', async () => {
    const core = await initSafetensors();
    const scanner = core.module._HeapScanner.prototype;
    const error = await withFake(scanner, 'feed', trap, () =>
      validateSafetensors(file, { scanData: true }).catch((e) => e),
    );
    expect(error).toMatchObject({ name: 'SafetensorsError', code: 'InternalError' });
    expect(await initSafetensors()).not.toBe(core);
    expect((await validateSafetensors(file, { scanData: true })).dataScan.tensors).toHaveLength(1);
  });
});
