// One loaded wasm module and the guard every call into it goes through: a trap inside the
// wasm becomes a typed error and the module is let go (its slot, web/core/modules.js, loads a
// fresh one for the next call).
import { decodeCoreTables } from './tables.js';
import { SafetensorsError } from './errors.js';

/** A heap grown past this by a huge header is let go (WebAssembly memory never shrinks). */
export const SWOLLEN_HEAP_BYTES = 256 * 2 ** 20;

/**
 * @param {string} what
 * @param {unknown} [cause]
 */
function outOfMemory(what, cause) {
  return new SafetensorsError('OutOfMemory', `${what}: more WebAssembly memory than could be had`, { cause });
}

/** @typedef {import('../wasm/safetensors_core.js').CoreModule} CoreModule */
/** @typedef {import('../wasm/safetensors_card.js').CardModule} CardModule */
/** @typedef {import('../wasm/safetensors_pickle.js').PickleModule} PickleModule */

/**
 * One loaded module and the guarded ways into it.
 * @template {CoreModule | CardModule | PickleModule} [M=CoreModule | CardModule | PickleModule] the Emscripten module
 */
export class WasmModule {
  /**
   * @param {M} module
   * @param {{ name: string, forget(module: WasmModule<M>): void }} slot  the slot it was loaded by (web/core/modules.js)
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
   * @param {(module: M) => T} fn
   * @param {string} [what] what is being done, for an out-of-memory message
   * @returns {T}
   */
  call(fn, what) {
    try {
      return fn(this.module);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      this.drop();
      if (/OOM|alloc|memory/i.test(error.message))
        throw outOfMemory(what ?? `the WebAssembly ${this.slot.name}`, error);
      throw new SafetensorsError(
        'InternalError',
        `the WebAssembly ${this.slot.name} stopped (${error.message}); it is reloaded for the next call`,
        { cause: error },
      );
    }
  }

  /**
   * Cleanup that must not hide the error that led to it: skipped once the module is let go.
   * @param {(module: M) => void} fn
   */
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

  /** @param {number} ptr what malloc gave */
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

/**
 * The core module: also its tables and the padding its parser reads past an input.
 * @extends {WasmModule<CoreModule>}
 */
export class Core extends WasmModule {
  /**
   * @param {CoreModule} module
   * @param {{ name: string, forget(module: WasmModule<CoreModule>): void }} slot  the slot it was loaded by (web/core/modules.js)
   */
  constructor(module, slot) {
    super(module, slot);
    /** @type {import('./tables.js').CoreTables} */
    this.tables = decodeCoreTables(this.call((m) => m._coreTables().slice()));
    this.inputPadding = this.call((m) => m._inputPadding());
  }

  /**
   * A finding code's severity, from the core's table (which lists every code, those found in JS
   * included); 'error' for a code it does not know.
   * @param {string} code
   * @returns {import('../index.js').Finding['severity']}
   */
  severity(code) {
    return this.tables.findingSeverity.get(/** @type {import('../index.js').FindingCode} */ (code)) ?? 'error';
  }
}
