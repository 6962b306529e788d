// web/core/node_wasm.js: Node's synchronous compile and instantiation of the .wasm files (issue
// 39, a cold CLI run): a working module, one compile kept per file, and every failure a rejected
// promise (Emscripten's own instantiateWasm path would only print it and never settle).
import { afterAll, expect, test } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import createSafetensorsCore from '../../web/wasm/safetensors_core.js';
import { instantiateInNode } from '../../web/core/node_wasm.js';

const CORE = new URL('../../web/wasm/safetensors_core.wasm', import.meta.url);
const CARD = new URL('../../web/wasm/safetensors_card.wasm', import.meta.url);
const work = await mkdtemp(join(tmpdir(), 'stw-node-wasm-'));
afterAll(() => rm(work, { recursive: true, force: true }));

test('two instances of the core from one compile: each works, with memory of its own', async () => {
  const a = await instantiateInNode(CORE, createSafetensorsCore);
  const b = await instantiateInNode(CORE, createSafetensorsCore);
  expect(a.HEAPU8.buffer).not.toBe(b.HEAPU8.buffer);
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setBigUint64(0, 40n, true);
  for (const m of [a, b]) {
    const ptr = m._malloc(8 + m._inputPadding());
    m.HEAPU8.set(prefix, ptr);
    // The length prefix says 40 header bytes: the core asks for 8 + 40 bytes of a 100-byte file.
    expect(m._headerBytesNeeded(ptr, 8, 100n)).toBe(48);
    m._free(ptr);
  }
});

test('a file that is not wasm rejects with a CompileError, and is read again on the next call', async () => {
  const path = join(work, 'broken.wasm');
  await writeFile(path, 'not wasm at all');
  const url = pathToFileURL(path);
  await expect(instantiateInNode(url, createSafetensorsCore)).rejects.toBeInstanceOf(WebAssembly.CompileError);
  await writeFile(path, await (await import('node:fs/promises')).readFile(CORE));
  const core = await instantiateInNode(url, createSafetensorsCore);
  expect(core._inputPadding()).toBeGreaterThan(0);
});

test("another module's .wasm under the core's factory rejects (its exports differ) instead of never settling", async () => {
  const error = await instantiateInNode(CARD, createSafetensorsCore).then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(Error);
});

test('a missing file rejects with ENOENT', async () => {
  const url = pathToFileURL(join(work, 'absent.wasm'));
  await expect(instantiateInNode(url, createSafetensorsCore)).rejects.toMatchObject({ code: 'ENOENT' });
});
