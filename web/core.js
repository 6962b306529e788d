// Loads the wasm module and runs every call into it through one guard: a trap inside the
// wasm becomes a typed error and the module is let go, so the next call gets a fresh one.
import createSafetensorsCore from './wasm/safetensors_core.js';
import { decodeCoreTables } from './core_tables.js';
import { SafetensorsError, errorText } from './errors.js';

// Written out so that bundlers see and copy the .wasm (new URL + import.meta.url).
const WASM_URL = new URL('./wasm/safetensors_core.wasm', import.meta.url);

/** A heap grown past this by a huge header is let go (WebAssembly memory never shrinks). */
export const SWOLLEN_HEAP_BYTES = 256 * 2 ** 20;

let initOptions = {}; // initSafetensors' options: every load, reloads included, uses them
let loading = null; // Promise<Core> of the module in use, or null
let loaded = null; // the Core `loading` resolved to

/** True in Node (also in its worker threads). */
export function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string';
}

function checkInitOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('initSafetensors: options must be an object');
  const { locateFile, wasmBinary } = options;
  if (locateFile !== undefined && typeof locateFile !== 'function') throw new TypeError('initSafetensors: options.locateFile must be a function');
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer || wasmBinary instanceof Uint8Array)) {
    throw new TypeError('initSafetensors: options.wasmBinary must be an ArrayBuffer or a Uint8Array');
  }
  return { locateFile, wasmBinary };
}

async function instantiate({ locateFile, wasmBinary }) {
  const moduleOptions = {};
  if (wasmBinary) {
    moduleOptions.wasmBinary = wasmBinary;
  } else if (isNode() && !locateFile && WASM_URL.protocol === 'file:') {
    // Emscripten 3.1.6's web build cannot fetch file: URLs; Node reads the file itself.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
    moduleOptions.wasmBinary = await readFile(WASM_URL);
  }
  moduleOptions.locateFile = locateFile ?? ((path, prefix) => (path.endsWith('.wasm') ? WASM_URL.href : prefix + path));
  return createSafetensorsCore(moduleOptions);
}

async function load(options) {
  let module;
  try {
    module = await instantiate(options);
  } catch (cause) {
    const where = options.wasmBinary ? 'the wasmBinary given' : options.locateFile ? 'the URL locateFile gave' : WASM_URL.href;
    throw new SafetensorsError('InitError',
      `the WebAssembly core could not be loaded from ${where}: ${errorText(cause)}. ` +
      'Serve safetensors_core.wasm beside the package, or tell initSafetensors where it is ({ locateFile } or { wasmBinary })',
      { cause });
  }
  loaded = new Core(module);
  return loaded;
}

/**
 * Loads the wasm module (once; later calls return the same promise). Options, when given,
 * are kept for every later load, including the reload after a trap.
 * @param {{ locateFile?: (path: string, prefix: string) => string, wasmBinary?: ArrayBuffer | Uint8Array }} [options]
 * @returns {Promise<Core>}
 */
export function initSafetensors(options) {
  if (options !== undefined) initOptions = checkInitOptions(options);
  if (!loading) {
    const attempt = load(initOptions);
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) loading = null; // the next call tries again
    });
  }
  return loading;
}

function outOfMemory(what, cause) {
  return new SafetensorsError('OutOfMemory', `${what}: more WebAssembly memory than could be had`, { cause });
}

/** One loaded module: its tables, and the guarded ways into it. */
export class Core {
  constructor(module) {
    this.module = module;
    this.dropped = false;
    /** @type {ReturnType<typeof decodeCoreTables>} */
    this.tables = decodeCoreTables(this.call((m) => m._coreTables().slice()));
    this.inputPadding = this.call((m) => m._inputPadding());
  }

  /**
   * Runs `fn(module)`. A trap (a RuntimeError from inside the wasm) becomes OutOfMemory or
   * InternalError and lets this module go; other errors pass unchanged.
   * @template T
   * @param {(module: any) => T} fn
   * @param {string} [what] what is being done, for an out-of-memory message
   * @returns {T}
   */
  call(fn, what = 'the WebAssembly core') {
    try {
      return fn(this.module);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      this.drop();
      if (/OOM|alloc|memory/i.test(error.message)) throw outOfMemory(what, error);
      throw new SafetensorsError('InternalError', `the WebAssembly core stopped (${error.message}); it is reloaded for the next call`, { cause: error });
    }
  }

  /** Cleanup that must not hide the error that led to it: skipped once the module is let go. */
  release(fn) {
    if (!this.dropped) this.call(fn);
  }

  /** Lets this module go: the next initSafetensors() loads a fresh one. */
  drop() {
    this.dropped = true;
    if (loaded === this) {
      loaded = null;
      loading = null;
    }
  }

  /**
   * `bytes` of heap; OutOfMemory (naming `what`) when the heap cannot grow that far.
   * @param {number} bytes
   * @param {string} what
   */
  malloc(bytes, what) {
    const ptr = this.call((m) => m._malloc(bytes), what);
    if (ptr === 0) throw outOfMemory(`${what} (${bytes} bytes)`);
    return ptr;
  }

  free(ptr) {
    this.release((m) => m._free(ptr));
  }

  get heap() {
    return this.module.HEAPU8;
  }

  /** After a huge (likely hostile) header the heap stays at its peak: let the module go. */
  releaseIfSwollen() {
    if (this.heap.buffer.byteLength > SWOLLEN_HEAP_BYTES) this.drop();
  }
}
