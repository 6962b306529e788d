// Run as a child Node process by element_import.test.js and element_apps.test.js: imports the
// module named on the command line (`safetensors-wasm/element` as an app resolves it, or a
// path) with every way a wasm load could start counted (WebAssembly compiles and
// instantiations, fetch), waits past the element's idle-time preload() (a browser's 200 ms
// fallback), and prints as JSON what the module exported and what was counted. With `preload`
// after the name it then calls the package's preload(), which must show in the count (the
// probe's own check).
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

const [named, then] = process.argv.slice(2);
const specifier = isAbsolute(named) ? pathToFileURL(named).href : named;
const calls = [];

for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
  const original = WebAssembly[name];
  if (typeof original !== 'function') continue;
  WebAssembly[name] = function counted(...args) {
    calls.push(`WebAssembly.${name}`);
    return original.apply(this, args);
  };
}
WebAssembly.Module = new Proxy(WebAssembly.Module, {
  construct(target, args, newTarget) {
    calls.push('new WebAssembly.Module');
    return Reflect.construct(target, args, newTarget);
  },
});
const originalFetch = globalThis.fetch;
globalThis.fetch = (...args) => {
  calls.push(`fetch ${String(args[0])}`);
  return originalFetch(...args);
};

const module = await import(specifier);
await new Promise((resolve) => setTimeout(resolve, 500));
const afterImport = [...calls];
if (then === 'preload') {
  // The package beside the module imported: the same copy, so that its wasm is the one counted.
  const packageEntry = specifier.startsWith('safetensors-wasm')
    ? 'safetensors-wasm'
    : new URL('../index.js', specifier);
  await (await import(packageEntry)).preload();
}
console.log(
  JSON.stringify({
    exports: Object.keys(module).sort(),
    tagName: module.TAG_NAME,
    properties: Object.keys(module.SafetensorsCard?.properties ?? {}).sort(),
    defined: typeof customElements === 'object' && customElements?.get?.(module.TAG_NAME) !== undefined,
    hasWindow: typeof window !== 'undefined',
    afterImport,
    calls,
  }),
);
