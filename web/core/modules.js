// Loads the wasm modules and runs every call into them through one guard: a trap inside a
// wasm becomes a typed error and that module is let go, so the next call gets a fresh one.
// Two modules: the core (always) and the model card's (cpp/wasm/bindings.cpp), loaded on the
// first card asked for, so that pages that only open and decode never download it.
import createSafetensorsCore from '../wasm/safetensors_core.js';
import { decodeCoreTables } from './tables.js';
import { SafetensorsError, errorText } from './errors.js';

// Written out so that bundlers see and copy the .wasm files (new URL + import.meta.url).
const WASM_URL = new URL('../wasm/safetensors_core.wasm', import.meta.url);
const CARD_WASM_URL = new URL('../wasm/safetensors_card.wasm', import.meta.url);

/** A heap grown past this by a huge header is let go (WebAssembly memory never shrinks). */
export const SWOLLEN_HEAP_BYTES = 256 * 2 ** 20;

let initOptions = {}; // initSafetensors' options: every load, reloads included, uses them

/** True in Node (also in its worker threads). */
export function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string';
}

function checkBinary(value, name) {
  if (value !== undefined && !(value instanceof ArrayBuffer || value instanceof Uint8Array)) {
    throw new TypeError(`initSafetensors: options.${name} must be an ArrayBuffer or a Uint8Array`);
  }
}

function checkInitOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('initSafetensors: options must be an object');
  const { locateFile, wasmBinary, cardWasmBinary } = options;
  if (locateFile !== undefined && typeof locateFile !== 'function') throw new TypeError('initSafetensors: options.locateFile must be a function');
  checkBinary(wasmBinary, 'wasmBinary');
  checkBinary(cardWasmBinary, 'cardWasmBinary');
  return { locateFile, wasmBinary, cardWasmBinary };
}

/**
 * One of the two modules: how it is loaded, and the load in use.
 * @template {WasmModule} C
 */
class ModuleSlot {
  /**
   * @param {string} name for messages
   * @param {URL} url where the .wasm is, beside this file
   * @param {'wasmBinary' | 'cardWasmBinary'} binaryOption the initSafetensors option with its bytes
   * @param {() => Promise<(options: object) => Promise<any>>} factory the Emscripten factory
   * @param {new (module: any, slot: ModuleSlot<C>) => C} CoreClass
   */
  constructor(name, url, binaryOption, factory, CoreClass) {
    this.name = name;
    this.url = url;
    this.binaryOption = binaryOption;
    this.factory = factory;
    this.CoreClass = CoreClass;
    /** @type {Promise<C> | null} the module in use */
    this.loading = null;
    /** @type {C | null} what `loading` resolved to */
    this.loaded = null;
    /** @type {Uint8Array | null} the .wasm as Node read it, kept for further instances */
    this.nodeBytes = null;
  }

  /** @returns {Promise<C>} */
  get() {
    if (!this.loading) {
      const attempt = this.load();
      this.loading = attempt;
      attempt.catch(() => {
        if (this.loading === attempt) this.loading = null; // the next call tries again
      });
    }
    return this.loading;
  }

  async load() {
    this.loaded = new this.CoreClass(await this.instantiate(), this);
    return this.loaded;
  }

  /** A new instance of the module, with memory of its own (InitError when it cannot be had). */
  async instantiate() {
    const { locateFile } = initOptions;
    const wasmBinary = initOptions[this.binaryOption];
    try {
      const moduleOptions = {};
      if (wasmBinary) {
        moduleOptions.wasmBinary = wasmBinary;
      } else if (isNode() && !locateFile && this.url.protocol === 'file:') {
        // Emscripten 3.1.6's web build cannot fetch file: URLs; Node reads the file itself.
        const fsModule = 'node:fs/promises';
        const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
        moduleOptions.wasmBinary = (this.nodeBytes ??= new Uint8Array(await readFile(this.url)));
      }
      moduleOptions.locateFile = locateFile ?? ((path, prefix) => (path.endsWith('.wasm') ? this.url.href : prefix + path));
      return await (await this.factory())(moduleOptions);
    } catch (cause) {
      const file = this.url.pathname.slice(this.url.pathname.lastIndexOf('/') + 1);
      const where = wasmBinary ? `the ${this.binaryOption} given` : locateFile ? 'the URL locateFile gave' : this.url.href;
      throw new SafetensorsError('InitError',
        `the WebAssembly module ${file} could not be loaded from ${where}: ${errorText(cause)}. ` +
        `Serve ${file} beside the package, or tell initSafetensors where it is ({ locateFile } or { ${this.binaryOption} })`,
        { cause });
    }
  }

  /** @param {C} core let go: the next get() loads a fresh module */
  forget(core) {
    if (this.loaded === core) {
      this.loaded = null;
      this.loading = null;
    }
  }
}

function outOfMemory(what, cause) {
  return new SafetensorsError('OutOfMemory', `${what}: more WebAssembly memory than could be had`, { cause });
}

/** One loaded module and the guarded ways into it. */
export class WasmModule {
  /**
   * @param {any} module
   * @param {ModuleSlot<any>} slot
   */
  constructor(module, slot) {
    this.module = module;
    this.slot = slot;
    this.dropped = false;
  }

  /**
   * Runs `fn(module)`. A trap (a RuntimeError from inside the wasm) becomes OutOfMemory or
   * InternalError and lets this module go; other errors pass unchanged.
   * @template T
   * @param {(module: any) => T} fn
   * @param {string} [what] what is being done, for an out-of-memory message
   * @returns {T}
   */
  call(fn, what) {
    try {
      return fn(this.module);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      this.drop();
      if (/OOM|alloc|memory/i.test(error.message)) throw outOfMemory(what ?? `the WebAssembly ${this.slot.name}`, error);
      throw new SafetensorsError('InternalError', `the WebAssembly ${this.slot.name} stopped (${error.message}); it is reloaded for the next call`, { cause: error });
    }
  }

  /** Cleanup that must not hide the error that led to it: skipped once the module is let go. */
  release(fn) {
    if (!this.dropped) this.call(fn);
  }

  /** Lets this module go: its next use loads a fresh one. */
  drop() {
    this.dropped = true;
    this.slot.forget(this);
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

/** The core module: also its tables and the padding its parser reads past an input. */
export class Core extends WasmModule {
  /**
   * @param {any} module
   * @param {ModuleSlot<any>} slot
   */
  constructor(module, slot) {
    super(module, slot);
    /** @type {ReturnType<typeof decodeCoreTables>} */
    this.tables = decodeCoreTables(this.call((m) => m._coreTables().slice()));
    this.inputPadding = this.call((m) => m._inputPadding());
  }
}

/** @type {ModuleSlot<Core>} */
const coreSlot = new ModuleSlot('core', WASM_URL, 'wasmBinary', async () => createSafetensorsCore, Core);
/** @type {ModuleSlot<WasmModule>} */
const cardSlot = new ModuleSlot('card module', CARD_WASM_URL, 'cardWasmBinary', async () => (await import('../wasm/safetensors_card.js')).default, WasmModule);

/**
 * Loads the core module (once; later calls return the same promise). Options, when given,
 * are kept for every later load of either module, including the reload after a trap.
 * @param {{ locateFile?: (path: string, prefix: string) => string, wasmBinary?: ArrayBuffer | Uint8Array,
 *   cardWasmBinary?: ArrayBuffer | Uint8Array }} [options]
 * @returns {Promise<Core>}
 */
export function initSafetensors(options) {
  if (options !== undefined) {
    initOptions = checkInitOptions(options);
    idleLanes.length = 0; // instances from the old options are not reused
  }
  return coreSlot.get();
}

// Stream lanes: further instances of the core, each with memory of its own, on which
// streamTensor converts. A lane's buffers are allocated when a stream starts and its memory
// never grows while the stream runs, so the pieces it yields can be views of that memory (no
// copy out; the shared core's heap may grow under other calls at any time, which would empty
// such views). One idle lane is kept; at most MAX_LANES streams use lanes at once.
const MAX_LANES = 4;
const IDLE_LANES = 1;
/** @type {WasmModule[]} */
const idleLanes = [];
let lanesInUse = 0;

/**
 * A lane for one stream, or null when MAX_LANES are in use or no instance can be had (the
 * stream then converts on the shared core and copies its pieces out). Give it back with
 * releaseLane however the stream ends.
 * @returns {Promise<WasmModule | null>}
 */
export async function acquireLane() {
  for (let lane = idleLanes.pop(); lane; lane = idleLanes.pop()) {
    if (!lane.dropped) {
      lanesInUse++;
      return lane;
    }
  }
  if (lanesInUse >= MAX_LANES) return null;
  lanesInUse++;
  try {
    return new WasmModule(await coreSlot.instantiate(), coreSlot);
  } catch {
    lanesInUse--;
    return null; // the shared core (loaded, or the caller could not have a core at all) does the work
  }
}

/** @param {WasmModule} lane from acquireLane: kept for the next stream while few are idle */
export function releaseLane(lane) {
  lanesInUse--;
  lane.releaseIfSwollen();
  if (!lane.dropped && idleLanes.length < IDLE_LANES) idleLanes.push(lane);
}

/**
 * Loads the model card's module (once, on the first card asked for).
 * @returns {Promise<WasmModule>}
 */
export function loadCardModule() {
  return cardSlot.get();
}

/**
 * The card module if it is loaded (for the module tree, built synchronously on first read).
 * @returns {WasmModule | null}
 */
export function loadedCardModule() {
  return cardSlot.loaded;
}
