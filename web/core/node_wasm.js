// Node's way to an instance of one of the wasm modules (web/core/modules.js): the .wasm is read
// from its file: URL and compiled on this thread, once per module (kept for the instances that
// follow a trap), then instantiated at once. Node's V8 compiles wasm lazily (each function on its
// first call), so the compile is a few ms; the asynchronous WebAssembly.instantiate Emscripten
// uses instead waits for a background thread, which a busy machine can hold for tens of ms.
// No compiled code outlives the process: Node 20 cannot store a WebAssembly.Module (v8.serialize
// refuses it, and module.enableCompileCache is Node 22's and for JavaScript only).

/**
 * @typedef {{ instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object }} InstantiateHook
 *   Emscripten's Module.instantiateWasm (allowed by -sINCOMING_MODULE_JS_API, CMakeLists.txt)
 */

/** @type {Map<string, Promise<WebAssembly.Module>>} each .wasm compiled once, by URL */
const compiled = new Map();

/**
 * The .wasm at `url`, read and compiled (on the first call for that URL; a failure is not kept).
 * @param {URL} url a file: URL
 * @returns {Promise<WebAssembly.Module>}
 */
function compiledModule(url) {
  let module = compiled.get(url.href);
  if (!module) {
    const fsModule = 'node:fs/promises';
    module = import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule)
      .then(({ readFile }) => readFile(url))
      .then((bytes) => new WebAssembly.Module(bytes));
    compiled.set(url.href, module);
    module.catch(() => compiled.delete(url.href));
  }
  return module;
}

/**
 * A new instance of the Emscripten module whose .wasm is at `url` (a file: URL), through its
 * factory; a read, compile or link error rejects (Emscripten would only print it and never settle).
 * @template M
 * @param {URL} url
 * @param {(options: InstantiateHook & import('../wasm/safetensors_core.js').CoreModuleOptions) => Promise<M>} factory
 * @returns {Promise<M>}
 */
export async function instantiateInNode(url, factory) {
  const module = await compiledModule(url);
  /** @type {(error: unknown) => void} */
  let failed = () => {};
  /** @type {Promise<never>} */
  const failure = new Promise((_, reject) => {
    failed = reject;
  });
  const instance = factory({
    instantiateWasm(imports, receive) {
      try {
        receive(new WebAssembly.Instance(module, imports), module);
      } catch (error) {
        failed(error);
      }
      return {};
    },
  });
  return Promise.race([instance, failure]);
}
