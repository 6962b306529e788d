// The browser's way to a compiled .wasm: fetched and compiled while it downloads
// (WebAssembly.compileStreaming, for a response served as application/wasm; otherwise compiled
// from its bytes), and the instantiateWasm hook that hands the compiled module to an Emscripten
// factory, so that the download can start before the factory's own JS is loaded or called.

/** Whether this runtime fetches a .wasm by URL here (browsers and their workers; not Node). */
export const canCompileStreaming = () => typeof WebAssembly.compileStreaming === 'function';

/**
 * The .wasm at `url`, fetched and compiled; rejects on an HTTP error status or bytes that are
 * not WebAssembly.
 * @param {string} url
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileWasm(url) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  // compileStreaming takes only this exact type, no parameters (WebAssembly Web API, "compile a
  // potential WebAssembly response"); a server that sends another one still gets its bytes compiled.
  return /^[\t ]*application\/wasm[\t ]*$/i.test(response.headers.get('content-type') ?? '')
    ? WebAssembly.compileStreaming(response)
    : WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Emscripten's instantiateWasm option for a module compiled elsewhere, and a promise that
 * rejects when that compile or the instantiation fails (the factory's own promise would then
 * never settle: race it against this one).
 * @param {Promise<WebAssembly.Module>} compiled
 */
export function instantiateFrom(compiled) {
  /** @type {(reason: unknown) => void} */
  let fail = () => {};
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  /**
   * @param {WebAssembly.Imports} imports
   * @param {(instance: WebAssembly.Instance, module: WebAssembly.Module) => void} receive
   */
  const instantiateWasm = (imports, receive) => {
    compiled.then(async (module) => receive(await WebAssembly.instantiate(module, imports), module)).catch(fail);
    return {}; // Emscripten's sign that the exports come later, through receive
  };
  return { instantiateWasm, failed };
}
