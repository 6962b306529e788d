// Loads the wasm modules, each once, with the options initSafetensors was given; a module let
// go after a trap (web/core/wasm_module.js) is loaded again by its next use. Three modules: the
// core (always), the model card's (cpp/wasm/bindings.cpp), loaded on the first card asked
// for, and the pickle scan's, loaded on the first scanPickle, so that pages that only open and
// decode safetensors files never download either (preload(), web/file/preload.js, loads them
// sooner). In browsers each .wasm is fetched and compiled while it downloads (./wasm_fetch.js),
// once per page; the core's from the package's import on.
import createSafetensorsCore from '../wasm/safetensors_core.js';
import { SafetensorsError, errorText } from './errors.js';
import { isNode } from './platform.js';
import { canCompileStreaming, compileWasm, instantiateFrom } from './wasm_fetch.js';
import { Core, WasmModule } from './wasm_module.js';

// Written out so that bundlers see and copy the .wasm files (new URL + import.meta.url).
const WASM_URL = new URL('../wasm/safetensors_core.wasm', import.meta.url);
const CARD_WASM_URL = new URL('../wasm/safetensors_card.wasm', import.meta.url);
const PICKLE_WASM_URL = new URL('../wasm/safetensors_pickle.wasm', import.meta.url);

/** @typedef {import('../wasm/safetensors_core.js').CoreModule} CoreModule */
/** @typedef {import('../wasm/safetensors_card.js').CardModule} CardModule */
/** @typedef {import('../wasm/safetensors_pickle.js').PickleModule} PickleModule */
/** @typedef {import('../index.js').InitOptions} InitOptions */

/** @type {InitOptions} */
let initOptions = {}; // initSafetensors' options: every load, reloads included, uses them

/**
 * @param {unknown} value
 * @param {string} name
 */
function checkBinary(value, name) {
  if (value !== undefined && !(value instanceof ArrayBuffer || value instanceof Uint8Array)) {
    throw new TypeError(`initSafetensors: options.${name} must be an ArrayBuffer or a Uint8Array`);
  }
}

/**
 * @param {InitOptions} options as the caller gave them (checked here)
 * @returns {InitOptions}
 */
function checkInitOptions(options) {
  if (options === null || typeof options !== 'object')
    throw new TypeError('initSafetensors: options must be an object');
  const { locateFile, wasmBinary, cardWasmBinary, pickleWasmBinary } = options;
  if (locateFile !== undefined && typeof locateFile !== 'function')
    throw new TypeError('initSafetensors: options.locateFile must be a function');
  checkBinary(wasmBinary, 'wasmBinary');
  checkBinary(cardWasmBinary, 'cardWasmBinary');
  checkBinary(pickleWasmBinary, 'pickleWasmBinary');
  return { locateFile, wasmBinary, cardWasmBinary, pickleWasmBinary };
}

/**
 * One of the three modules: how it is loaded, and the load in use.
 * @template {CoreModule | CardModule | PickleModule} M the Emscripten module
 * @template {WasmModule<M>} C its guarded form
 */
class ModuleSlot {
  /** @type {Promise<C> | null} the module in use */
  loading = null;
  /** @type {C | null} what `loading` resolved to */
  loaded = null;
  /** @type {Promise<WebAssembly.Module> | null} the .wasm as a browser compiled it, kept for further instances */
  compiling = null;

  /**
   * @param {string} name for messages
   * @param {URL} url where the .wasm is, beside this file
   * @param {'wasmBinary' | 'cardWasmBinary' | 'pickleWasmBinary'} binaryOption the initSafetensors option with its bytes
   * @param {() => Promise<(options: import('../wasm/safetensors_core.js').CoreModuleOptions) => Promise<M>>} factory the Emscripten factory
   * @param {new (module: M, slot: { name: string, forget(module: WasmModule<M>): void }) => C} CoreClass
   */
  constructor(name, url, binaryOption, factory, CoreClass) {
    this.name = name;
    this.url = url;
    this.binaryOption = binaryOption;
    this.factory = factory;
    this.CoreClass = CoreClass;
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

  /** @returns {Promise<C>} */
  async load() {
    this.loaded = new this.CoreClass(await this.instantiate(), this);
    return this.loaded;
  }

  /** @returns {Promise<WebAssembly.Module>} the .wasm beside this file, compiled (once, again after a failure) */
  compiled() {
    if (!this.compiling) {
      const attempt = compileWasm(this.url.href);
      this.compiling = attempt;
      attempt.catch(() => {
        if (this.compiling === attempt) this.compiling = null;
      });
    }
    return this.compiling;
  }

  /**
   * A new instance of the module, with memory of its own (InitError when it cannot be had).
   * @returns {Promise<M>}
   */
  async instantiate() {
    const { locateFile } = initOptions;
    const wasmBinary = initOptions[this.binaryOption];
    try {
      /** @type {import('../wasm/safetensors_core.js').CoreModuleOptions} the other modules take the same */
      const moduleOptions = {};
      /** @type {Promise<never> | null} */
      let failed = null;
      if (!wasmBinary && !locateFile && !isNode() && canCompileStreaming()) {
        // The fetch starts here, beside the import of the factory's JS (the card's and the pickle
        // scan's are chunks of their own).
        ({ instantiateWasm: moduleOptions.instantiateWasm, failed } = instantiateFrom(this.compiled()));
      } else if (wasmBinary) {
        moduleOptions.wasmBinary = wasmBinary;
      } else if (isNode() && !locateFile && this.url.protocol === 'file:') {
        // Emscripten 3.1.6's web build cannot fetch file: URLs; Node reads and compiles the file
        // itself (a chunk of its own in a browser build, never fetched there).
        const { instantiateInNode } = await import('./node_wasm.js');
        return await instantiateInNode(this.url, await this.factory());
      }
      moduleOptions.locateFile =
        locateFile ?? ((path, prefix) => (path.endsWith('.wasm') ? this.url.href : prefix + path));
      const ready = this.factory().then((factory) => factory(moduleOptions));
      return await (failed ? Promise.race([ready, failed]) : ready);
    } catch (cause) {
      const file = this.url.pathname.slice(this.url.pathname.lastIndexOf('/') + 1);
      const where = wasmBinary
        ? `the ${this.binaryOption} given`
        : locateFile
          ? 'the URL locateFile gave'
          : this.url.href;
      throw new SafetensorsError(
        'InitError',
        `the WebAssembly module ${file} could not be loaded from ${where}: ${errorText(cause)}. ` +
          `Serve ${file} beside the package, or tell initSafetensors where it is ({ locateFile } or { ${this.binaryOption} })`,
        { cause },
      );
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

/** @type {ModuleSlot<CoreModule, Core>} */
const coreSlot = new ModuleSlot('core', WASM_URL, 'wasmBinary', async () => createSafetensorsCore, Core);
// Browsers: the core's .wasm, at its default place, downloads and compiles while the page gets
// to its first call; after initSafetensors({ locateFile | wasmBinary }) instantiate() uses none.
if (!isNode() && canCompileStreaming()) coreSlot.compiled();
/** @type {ModuleSlot<CardModule, WasmModule<CardModule>>} */
const cardSlot = new ModuleSlot(
  'card module',
  CARD_WASM_URL,
  'cardWasmBinary',
  async () => (await import('../wasm/safetensors_card.js')).default,
  WasmModule,
);

/** @type {ModuleSlot<PickleModule, WasmModule<PickleModule>>} pure: apps that never scan drop it */
const pickleSlot = /* @__PURE__ */ new ModuleSlot(
  'pickle module',
  PICKLE_WASM_URL,
  'pickleWasmBinary',
  async () => (await import('../wasm/safetensors_pickle.js')).default,
  WasmModule,
);

/**
 * Loads the core module (once; later calls return the same promise). Options, when given,
 * are kept for every later load of either module, including the reload after a trap.
 * @param {InitOptions} [options]
 * @returns {Promise<Core>}
 */
export function initSafetensors(options) {
  if (options !== undefined) {
    initOptions = checkInitOptions(options);
  }
  return coreSlot.get();
}

/**
 * The core if it is loaded: its tables, for texts about the reports it made.
 * @returns {Core | null}
 */
export function loadedCore() {
  return coreSlot.loaded;
}

/**
 * Loads the model card's module (once, on the first card asked for).
 * @returns {Promise<WasmModule<CardModule>>}
 */
export function loadCardModule() {
  return cardSlot.get();
}

/**
 * The card module if it is loaded (for the module tree, built synchronously on first read).
 * @returns {WasmModule<CardModule> | null}
 */
export function loadedCardModule() {
  return cardSlot.loaded;
}

/**
 * Loads the pickle scan's module (once, on the first scanPickle).
 * @returns {Promise<WasmModule<PickleModule>>}
 */
export function loadPickleModule() {
  return pickleSlot.get();
}
