// st.convert({ to }): the file rewritten with its float tensors as F16 or BF16, laid out as
// the reference writer lays out those tensors. Converted tensors stream through the core's
// rounding kernels (cpp/convert/narrow_float.h) a chunk at a time; the others are copied
// (as slices of a Blob, when the file is one). From other sources (a URL, a FileHandle), the
// tensors whose bytes follow one another in both files are read as one range: one request
// per run over HTTP. The metadata's claims of the data's hashes are dropped: they no longer hold.
import { initSafetensors } from '../core/modules.js';
import { chunksUntilAborted, throwIfAborted } from '../core/abort.js';
import { SCRATCH_INPUT_BYTES } from '../tensors/decode.js';
import { RunReader } from '../tensors/batch.js';
import { metadataJson, packedHeader, referenceOrder } from './header_bytes.js';
import { writeParts } from './writer.js';

/** @typedef {import('../core/tables.js').DtypeRow} DtypeRow */

export const CONVERT_TARGETS = ['F16', 'BF16'];

/**
 * The converted bytes of one tensor, chunk by chunk: source chunks are copied into a heap
 * buffer (carrying elements split between chunks), rounded by the core into a second one,
 * and copied out.
 * @param {import('../core/wasm_module.js').Core} core
 * @param {Pick<import('../source/byte_source.js').ByteSource, 'chunks'>} source
 * @param {{ offset: number, length: number, from: DtypeRow, to: DtypeRow }} job
 * @param {{ signal?: AbortSignal, onBytes: (n: number) => void }} options
 * @returns {AsyncGenerator<Uint8Array>}
 */
async function* convertedChunks(core, source, job, options) {
  const inBytes = job.from.bits / 8;
  const capacity = SCRATCH_INPUT_BYTES - (SCRATCH_INPUT_BYTES % inBytes);
  const inPtr = core.malloc(capacity, 'the conversion input buffer');
  let outPtr = 0;
  try {
    outPtr = core.malloc((capacity / inBytes) * 2, 'the conversion output buffer');
    let filled = 0;
    for await (const chunk of chunksUntilAborted(
      source.chunks(job.offset, job.length, options.signal),
      options.signal,
    )) {
      for (let at = 0; at < chunk.byteLength;) {
        const n = Math.min(capacity - filled, chunk.byteLength - at);
        const out = core.call((m) => {
          m.HEAPU8.set(chunk.subarray(at, at + n), inPtr + filled);
          const count = Math.floor((filled + n) / inBytes);
          if (count === 0) return null;
          m._narrowFloats(job.from.index, job.to.index, inPtr, outPtr, count);
          m.HEAPU8.copyWithin(inPtr, inPtr + count * inBytes, inPtr + filled + n);
          return m.HEAPU8.slice(outPtr, outPtr + 2 * count);
        });
        filled = filled + n - (out ? out.byteLength / 2 : 0) * inBytes;
        at += n;
        if (out) yield out;
      }
      options.onBytes(chunk.byteLength);
      throwIfAborted(options.signal);
    }
  } finally {
    core.free(inPtr);
    if (outPtr) core.free(outPtr);
  }
}

/**
 * The metadata to write: without the claims of hashes that cover the converted bytes (the
 * file, its data section, AutoV1), which would no longer hold; base-model hashes stay.
 * @param {Record<string, string> | null} metadata
 * @param {{ key: string, covers: string }[]} claims the core's (cpp/analysis/embedded_hashes.h)
 */
function withoutDataHashes(metadata, claims) {
  if (metadata === null) return null;
  const stale = new Set(claims.filter((c) => c.covers !== 'base-model').map((c) => c.key));
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !stale.has(key)));
}

/**
 * Entries in the written order, cut into stretches that are one part of the new file: bytes
 * that follow one another in the source, all copied or all converted from one dtype (a
 * conversion is element by element, and the new file lays them out one after another too).
 * A million one-byte tensors are then one slice, not a million.
 * @template {{ offset: number, length: number, convert: boolean, from: DtypeRow }} E
 * @param {E[]} laid
 * @returns {{ offset: number, length: number, convert: boolean, from: DtypeRow, first: E }[]}
 */
function partsOf(laid) {
  const parts = [];
  let part = null;
  for (const e of laid) {
    if (
      part &&
      part.offset + part.length === e.offset &&
      part.convert === e.convert &&
      (!e.convert || part.from === e.from)
    ) {
      part.length += e.length;
    } else {
      part = { offset: e.offset, length: e.length, convert: e.convert, from: e.from, first: e };
      parts.push(part);
    }
  }
  return parts;
}

/**
 * Entries in the written order, cut into runs whose bytes follow one another in the source.
 * @template {{ offset: number, length: number }} E
 * @param {E[]} laid
 * @returns {{ offset: number, length: number, entries: E[] }[]}
 */
function sourceRuns(laid) {
  const runs = [];
  let run = null;
  for (const e of laid) {
    if (run && run.offset + run.length === e.offset) {
      run.entries.push(e);
      run.length += e.length;
    } else {
      run = { offset: e.offset, length: e.length, entries: [e] };
      runs.push(run);
    }
  }
  return runs;
}

/**
 * @param {import('../index.js').SafetensorsFile} file
 * @param {{ size: number, chunks(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> }} source
 * @param {(begin: number, end: number) => Blob | Uint8Array | null} slice the file's bytes without reading them, or null
 * @param {{ key: string, covers: string }[]} claims the hashes the metadata claims
 * @param {{ to: string, tensors?: (name: string) => boolean, path?: string, signal?: AbortSignal,
 *   onProgress?: (done: number, total: number) => void }} options
 */
export async function convertFile(file, source, slice, claims, options) {
  const { to, tensors: wanted, path, signal, onProgress } = options;
  if (!CONVERT_TARGETS.includes(to))
    throw new TypeError(`options.to must be ${CONVERT_TARGETS.map((t) => `'${t}'`).join(' or ')}`);
  if (wanted !== undefined && typeof wanted !== 'function')
    throw new TypeError('options.tensors must be a function (name) => boolean');
  throwIfAborted(signal);
  const core = await initSafetensors();
  const dtypes = new Map(core.tables.dtypes.map((d) => [/** @type {string} */ (d.name), d]));
  const target = /** @type {DtypeRow} */ (dtypes.get(to)); // F16 or BF16: in the table
  /** @type {Map<DtypeRow, boolean>} whether each dtype narrows to `target`, asked once per dtype */
  const narrows = new Map();
  const canNarrow = (/** @type {DtypeRow} */ from) => {
    let narrow = narrows.get(from);
    if (narrow === undefined) {
      narrow = Boolean(core.call((m) => m._canNarrow(from.index, target.index)));
      narrows.set(from, narrow);
    }
    return narrow;
  };
  const entries = file.tensors.map((t) => {
    const from = /** @type {DtypeRow} */ (dtypes.get(t.dtype)); // every dtype a file holds is in the table
    const convert = from !== target && canNarrow(from) && (wanted?.(t.name) ?? true);
    const length = t.dataOffsets[1] - t.dataOffsets[0];
    const size = convert ? (length / (from.bits / 8)) * 2 : length;
    return {
      name: t.name,
      shape: t.exactShape ?? t.shape,
      dtype: convert ? target : from,
      from,
      convert,
      offset: file.dataStart + t.dataOffsets[0],
      length,
      size,
    };
  });
  entries.sort(referenceOrder);
  const anyConverted = entries.some((e) => e.convert);
  const metadata = anyConverted ? withoutDataHashes(file.metadata, claims) : file.metadata;
  const { header, laid } = await packedHeader(core, metadataJson(metadata), entries);
  const total = laid.reduce((sum, e) => sum + (e.convert ? e.length : 0), 0);
  let done = 0;
  const onBytes = (/** @type {number} */ n) => onProgress?.((done += n), total);
  if (total === 0) onProgress?.(0, 0);
  // Each tensor's bytes: a slice when the source has them, else a range of its run's read.
  const sliced = slice(0, 0) !== null;
  /** @type {RunReader[]} */
  const readers = [];
  const from = new Map();
  if (!sliced)
    for (const run of sourceRuns(laid)) {
      const reader = new RunReader(/** @type {any} */ (source), run.offset, run.length, signal);
      readers.push(reader);
      for (const e of run.entries) from.set(e, reader);
    }
  // A stretch of entries lies in one run: its first entry's reader reads it.
  const reading = (/** @type {ReturnType<typeof partsOf>[number]} */ e) => from.get(e.first) ?? source;
  const part = (/** @type {ReturnType<typeof partsOf>[number]} */ e) =>
    e.convert
      ? convertedChunks(
          core,
          reading(e),
          { offset: e.offset, length: e.length, from: e.from, to: target },
          { signal, onBytes },
        )
      : (slice(e.offset, e.offset + e.length) ?? reading(e).chunks(e.offset, e.length, signal));
  const stretches = partsOf(laid);
  try {
    if (path !== undefined) {
      await writeParts(path, [header, ...stretches.map(part)], signal);
      return undefined;
    }
    /** @type {(Uint8Array | Blob)[]} */
    const parts = [header];
    for (const e of stretches) {
      const p = part(e);
      if (p instanceof Blob || p instanceof Uint8Array) parts.push(p);
      else for await (const chunk of p) parts.push(chunk.slice());
    }
    throwIfAborted(signal);
    return new Blob(/** @type {BlobPart[]} */ (parts));
  } finally {
    for (const reader of readers) await reader.close();
  }
}
