// safetensors-wasm/element imported where there is no DOM (Node, a server-side render): it
// resolves, exports the element's class and tag name, defines nothing and starts no wasm load
// (its preload() is for browsers only). In this process (the source file) and in child Node
// processes (./element_import_probe.js counts every way a wasm load could start), by the
// package's own name as an app imports it; the installed tarball's copy is probed by
// tests/browser/element_apps.test.js.
import { expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('./element_import_probe.js', import.meta.url));
const ELEMENT = fileURLToPath(new URL('../../web/element/element.js', import.meta.url));

/** What the probe saw: the module's exports, whether it defined the tag, the wasm loads counted. */
async function probe(...args) {
  const { stdout } = await run(process.execPath, [PROBE, ...args], { timeout: 30_000 });
  return JSON.parse(stdout);
}

test('imported in Node, web/element/element.js exports SafetensorsCard and TAG_NAME', async () => {
  const element = await import('../../web/element/element.js');
  expect(Object.keys(element).sort()).toEqual(['SafetensorsCard', 'TAG_NAME']);
  expect(element.TAG_NAME).toBe('safetensors-card');
  expect(typeof element.SafetensorsCard).toBe('function');
  // A Lit element: its reactive properties, the ones docs/element.md lists.
  expect(Object.keys(element.SafetensorsCard.properties).sort()).toEqual([
    'droppable',
    'picker',
    'source',
    'src',
    'theme',
  ]);
  expect(typeof window).toBe('undefined');
});

test.each([
  ['by its path', ELEMENT],
  ["by the package's name (its exports)", 'safetensors-wasm/element'],
])('imported %s in a Node process, it defines nothing and starts no wasm load', async (_, specifier) => {
  const seen = await probe(specifier);
  expect(seen.exports).toEqual(['SafetensorsCard', 'TAG_NAME']);
  expect(seen.tagName).toBe('safetensors-card');
  expect(seen.properties).toContain('source');
  expect(seen.hasWindow).toBe(false);
  // Lit's Node build brings a customElements registry of its own: the import leaves it empty.
  expect(seen.defined).toBe(false);
  expect(seen.calls).toEqual([]);
});

test("the probe sees a wasm load: the package's preload() after the import, in the same process", async () => {
  const seen = await probe('safetensors-wasm/element', 'preload');
  expect(seen.afterImport).toEqual([]);
  // The core and the model card's module, each compiled once.
  expect(seen.calls.length, JSON.stringify(seen.calls)).toBeGreaterThanOrEqual(2);
});
