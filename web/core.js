// Loads the wasm module once and runs the core's header analysis on a byte source.
import createSafetensorsCore from './wasm/safetensors_core.js';
import { decodeHeaderTable } from './header_table.js';
import { SafetensorsError, throwIfAborted, untilAborted } from './errors.js';

// Written out so that bundlers see and copy the .wasm (new URL + import.meta.url).
const WASM_URL = new URL('./wasm/safetensors_core.wasm', import.meta.url);
const LENGTH_PREFIX = 8;

let corePromise = null;

function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string';
}

async function instantiate(options) {
  const moduleOptions = {};
  if (options.wasmBinary) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (isNode() && !options.locateFile && WASM_URL.protocol === 'file:') {
    // Emscripten 3.1.6's web build cannot fetch file: URLs; Node reads the file itself.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsModule);
    moduleOptions.wasmBinary = await readFile(WASM_URL);
  }
  moduleOptions.locateFile = options.locateFile ?? ((path, prefix) => (path.endsWith('.wasm') ? WASM_URL.href : prefix + path));
  return createSafetensorsCore(moduleOptions);
}

/**
 * Loads the wasm module (once; later calls return the same promise).
 * @param {{ locateFile?: (path: string, prefix: string) => string, wasmBinary?: ArrayBuffer | Uint8Array }} [options]
 */
export function initSafetensors(options = {}) {
  if (!corePromise) {
    corePromise = instantiate(options).catch((error) => {
      corePromise = null;
      throw error;
    });
  }
  return corePromise;
}

function outOfMemory(headerBytes, cause) {
  return new SafetensorsError('OutOfMemory',
    `reading this ${headerBytes}-byte header needs about ${Math.ceil((16 * headerBytes) / 2 ** 20)} MiB of WebAssembly memory, more than could be had; ` +
    'the file is probably hostile (real headers are a few MB); no verdict was reached', { cause });
}

// Runs `fn` on the core; a trap (an abort inside the wasm, e.g. a failed allocation)
// becomes a typed error and the module is dropped, so the next call gets a fresh one.
function guarded(fn, headerBytes) {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    corePromise = null;
    if (/OOM|alloc|memory/i.test(error.message)) throw outOfMemory(headerBytes, error);
    throw new SafetensorsError('InternalError', `the WebAssembly core stopped (${error.message}); it is reloaded for the next call`, { cause: error });
  }
}

/** A heap grown past this by a huge header is let go (WebAssembly memory never shrinks). */
export const SWOLLEN_HEAP_BYTES = 256 * 2 ** 20;

// After a huge (likely hostile) header the heap stays at its peak for the page's life;
// dropping the module lets it be collected, and the next call loads a fresh, small one.
function releaseIfSwollen(core) {
  if (core.HEAPU8.buffer.byteLength > SWOLLEN_HEAP_BYTES && corePromise !== null) corePromise = null;
}

// Copies `parts` (Uint8Arrays, in order) into the wasm heap with the padding
// simdjson reads past the end, runs `fn(ptr, length)` and frees the copy.
function withHeapCopy(core, parts, fn) {
  const length = parts.reduce((sum, p) => sum + p.byteLength, 0);
  const ptr = core._malloc(length + core._inputPadding());
  if (ptr === 0) throw outOfMemory(length);
  try {
    let at = ptr;
    for (const part of parts) {
      core.HEAPU8.set(part, at);
      at += part.byteLength;
    }
    return fn(ptr, length);
  } finally {
    core._free(ptr);
  }
}

/**
 * Reads the length prefix and the header (never the tensor data) and returns the
 * decoded report.
 * @param {{ size: number, read(offset: number, length: number): Promise<Uint8Array> }} source
 * @param {AbortSignal} [signal]
 */
export async function analyzeByteSource(source, signal) {
  const core = await initSafetensors();
  throwIfAborted(signal);
  const { size } = source;
  const fileSize = BigInt(size);
  const prefix = size > 0 ? await untilAborted(source.read(0, Math.min(LENGTH_PREFIX, size)), signal) : new Uint8Array(0);
  throwIfAborted(signal);
  const needed = withHeapCopy(core, [prefix], (ptr, len) => core._headerBytesNeeded(ptr, len, fileSize));
  const parts = [prefix];
  if (needed > prefix.byteLength) {
    parts.push(await untilAborted(source.read(LENGTH_PREFIX, needed - LENGTH_PREFIX), signal));
    throwIfAborted(signal);
  }
  // The view is on the wasm heap: copy it (slice) before anything else runs.
  const table = guarded(() => withHeapCopy(core, parts, (ptr, len) => core._analyzeHeader(ptr, len, fileSize)?.slice()), needed);
  releaseIfSwollen(core);
  if (table === undefined || table === null) throw outOfMemory(needed);
  return decodeHeaderTable(table);
}
