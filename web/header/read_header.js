// Reads a file's length prefix and header (never its tensor data) and runs the core's
// analysis on them: the reference verdict, findings, tensors and metadata.
import { untilAborted, throwIfAborted } from '../core/abort.js';
import { SafetensorsError } from '../core/errors.js';
import { decodeHeaderTable } from './header_table.js';

const LENGTH_PREFIX = 8;
/** A header the length prefix claims is read before the core is loaded up to this size. */
const EARLY_READ_MAX = 16 * 2 ** 20;

/**
 * @param {number} headerBytes
 * @param {unknown} [cause]
 */
function headerOutOfMemory(headerBytes, cause) {
  return new SafetensorsError(
    'OutOfMemory',
    `reading this ${headerBytes}-byte header needs about ${Math.ceil((16 * headerBytes) / 2 ** 20)} MiB of WebAssembly memory, more than could be had; ` +
      'the file is probably hostile (real headers are a few MB); no verdict was reached',
    { cause },
  );
}

/**
 * Copies `parts` (in order) into the heap with the padding simdjson reads past the end, runs
 * `fn(ptr, length)` and frees the copy.
 * @template T
 * @param {import('../core/wasm_module.js').Core} core
 * @param {Uint8Array[]} parts
 * @param {(ptr: number, length: number) => T} fn
 * @returns {T}
 */
function withHeapCopy(core, parts, fn) {
  const length = parts.reduce((sum, p) => sum + p.byteLength, 0);
  const ptr = core.malloc(length + core.inputPadding, `a copy of the ${length}-byte file start`);
  try {
    let at = ptr;
    for (const part of parts) {
      core.heap.set(part, at);
      at += part.byteLength;
    }
    return fn(ptr, length);
  } finally {
    core.free(ptr);
  }
}

/**
 * Runs the core's analysis on the file's first bytes (as readHeader read them).
 * @param {import('../core/wasm_module.js').Core} core
 * @param {Uint8Array[]} parts the length prefix, then the header when it was read
 * @param {number} size the file's size
 * @returns {ReturnType<typeof decodeHeaderTable>}
 */
export function analyzeHeader(core, parts, size) {
  const needed = parts.reduce((sum, p) => sum + p.byteLength, 0);
  let table;
  try {
    // The view is on the wasm heap: copy it (slice) before anything else runs.
    table = withHeapCopy(core, parts, (ptr, len) =>
      core.call((m) => m._analyzeHeader(ptr, len, BigInt(size))?.slice()),
    );
  } catch (error) {
    throw error instanceof SafetensorsError && error.code === 'OutOfMemory' ? headerOutOfMemory(needed, error) : error;
  }
  core.releaseIfSwollen();
  if (table === null || table === undefined) throw headerOutOfMemory(needed);
  return decodeHeaderTable(table, core.tables);
}

/**
 * Reads the length prefix and the header, and analyses them. When the prefix already fails the
 * reference's checks, the first bytes (at most 64 KiB) are read instead, so that the core can
 * tell what the file is (a Git LFS pointer, a web page, ...). Given the core's load, the header
 * the prefix claims is read while it loads (the core still decides what is read).
 * @param {import('../core/wasm_module.js').Core | Promise<import('../core/wasm_module.js').Core>} loading
 * @param {{ size: number, read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> }} source
 * @param {AbortSignal} [signal]
 * @param {(bytes: number) => Promise<void>} [admitHeader] awaited with the bytes of the file's
 *   start that are about to be read (the length prefix included), before they are read: a
 *   sharded model's limit on bytes in flight
 * @returns {Promise<ReturnType<typeof decodeHeaderTable>>}
 */
export async function readHeader(loading, source, signal, admitHeader) {
  throwIfAborted(signal);
  const { size } = source;
  const prefix =
    size > 0 ? await untilAborted(source.read(0, Math.min(LENGTH_PREFIX, size), signal), signal) : new Uint8Array(0);
  throwIfAborted(signal);
  const claimed =
    prefix.byteLength === LENGTH_PREFIX ? new DataView(prefix.buffer, prefix.byteOffset).getBigUint64(0, true) : 0n;
  const readsEarly = claimed > 0n && claimed <= EARLY_READ_MAX && LENGTH_PREFIX + Number(claimed) <= size;
  if (readsEarly && admitHeader) await admitHeader(LENGTH_PREFIX + Number(claimed));
  const early = readsEarly ? untilAborted(source.read(LENGTH_PREFIX, Number(claimed), signal), signal) : null;
  early?.catch(() => {}); // unused when the core reads otherwise; its failure is told by the read that replaces it
  const core = await loading;
  throwIfAborted(signal);
  const needed = withHeapCopy(core, [prefix], (ptr, len) =>
    core.call((m) => m._headerBytesNeeded(ptr, len, BigInt(size))),
  );
  const parts = [prefix];
  if (early && needed === LENGTH_PREFIX + Number(claimed)) {
    parts.push(await early);
  } else {
    await early?.catch(() => {}); // one read at a time, as before: sources need not take two
    throwIfAborted(signal);
    if (needed > prefix.byteLength) {
      await admitHeader?.(needed);
      parts.push(await untilAborted(source.read(LENGTH_PREFIX, needed - LENGTH_PREFIX, signal), signal));
    }
  }
  throwIfAborted(signal);
  return analyzeHeader(core, parts, size);
}
