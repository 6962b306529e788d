// Streams one tensor's bytes into its typed array. Chunks that need converting pass
// through a bounded scratch area in the wasm heap; the result is built in JS memory, or, when
// streamed, in one reused array whose pieces are handed out in turn.
import { chunksUntilAborted, throwIfAborted } from '../core/abort.js';
import { SafetensorsError } from '../core/errors.js';
import { isNode } from '../core/platform.js';

/** Input bytes converted per wasm call; the heap scratch is this plus its float32 output. */
export const SCRATCH_INPUT_BYTES = 1 << 20;

/** @typedef {import('./plan.js').ReadPlan} ReadPlan */
/** @typedef {import('../index.js').TensorArray} TensorArray */
/** @typedef {{ offset: number, values: TensorArray }} TensorPiece  values: the elements from index `offset` of the tensor (or rows) read */

/**
 * The array a tensor is read into: a new one, or a view of the caller's `into` (checked here).
 * @param {ReadPlan} plan
 * @param {{ name: string, shape: number[] }} tensor
 * @param {unknown} into options.into as given
 * @returns {TensorArray}
 */
function allocateResult(plan, tensor, into) {
  const { ArrayType, length } = plan;
  if (into !== undefined) {
    if (!(into instanceof ArrayType) || into.length < length) {
      const got = ArrayBuffer.isView(into)
        ? `a ${into.constructor.name} of ${/** @type {{ length?: unknown }} */ (into).length}`
        : typeof into;
      throw new TypeError(
        `options.into must be a ${ArrayType.name} of at least ${length} elements for tensor "${tensor.name}", got ${got}`,
      );
    }
    return into.subarray(0, length);
  }
  const bytes = length * ArrayType.BYTES_PER_ELEMENT;
  try {
    return new ArrayType(length);
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause;
    const rows = tensor.shape.length > 0 ? ` (its first dimension has ${tensor.shape[0]} rows)` : '';
    throw new SafetensorsError(
      'TensorTooLarge',
      `tensor "${tensor.name}" needs a ${ArrayType.name} of ${length} elements (${bytes} bytes), more than this JavaScript engine can allocate in one array; read a part with { rows: [start, end] }${rows}`,
      { tensor: tensor.name, cause },
    );
  }
}

/** A new result at least this large has its pages written once before it is filled (Node only). */
const FAULT_IN_BYTES = 1 << 20;
const FAULT_IN = isNode();

/**
 * In Node, writes one byte of each 4 KiB page of a new result (zero, as it already is), so the
 * kernel maps its fresh pages in one tight pass rather than one at a time inside the copies that
 * fill it. Where page faults are dear (the project's VM: 12 µs each) a 16M-value F16 decode
 * from a Blob went from 0.70x to 0.60x of a plain-JS lookup table's time in Node; in Chromium
 * it came out about 5% slower (0.80x against 0.76x, five runs each), so pages load there as the
 * copies reach them (BENCHMARKS.md, "Decoding tensors").
 * @param {TensorArray} result
 */
function faultIn(result) {
  if (!FAULT_IN || result.byteLength < FAULT_IN_BYTES) return;
  const bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 0;
}

/**
 * Output bytes per unit (an element, or an F4 byte of two).
 * @param {ReadPlan} plan
 */
function outputBytesPerUnit(plan) {
  return plan.unitElements * plan.ArrayType.BYTES_PER_ELEMENT;
}

/**
 * The one decoding path (getTensor, getTensors and streamTensor): streams the plan's bytes
 * from `source` and yields `{ offset, values }` pieces, `offset` being the index of values[0]
 * in the whole result. With `target` (the result array), pieces are written into it and
 * `values` is a view of it; without, `values` is a view on reused memory of at most
 * `chunkBytes` worth of input, valid until the next step: one reused array (converted pieces
 * are copied out of the heap into it). Conversions go through two heap
 * scratch areas (freed when the generator ends, however it ends); bytes that already are
 * the result's elements are copied, carrying a unit split between chunks.
 * @param {import('../core/wasm_module.js').Core} core
 * @param {Pick<import('../source/byte_source.js').ByteSource, 'chunks'>} source
 * @param {ReadPlan} plan
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void, target?: TensorArray, chunkBytes?: number }} options
 * @returns {AsyncGenerator<TensorPiece, void, undefined>}
 */
export async function* decodePieces(core, source, plan, options) {
  const { signal, onProgress, target } = options;
  throwIfAborted(signal);
  const copying = plan.kind === 'copy';
  // Bytes in one unit of input: an element when copying, else the plan's unit (F4: a byte of two).
  const unitBytes = copying ? plan.ArrayType.BYTES_PER_ELEMENT : plan.unitBytes;
  const unitElements = copying ? 1 : plan.unitElements;
  // Scratch no larger than the plan: a 1-byte tensor's stream allocates bytes, not 1 MiB.
  const requested = Math.min(options.chunkBytes ?? SCRATCH_INPUT_BYTES, Math.max(plan.byteLength, 1));
  const capacity = Math.max(unitBytes, requested - (requested % unitBytes));
  const outPerUnit = copying ? unitBytes : outputBytesPerUnit(plan);
  const reused = target ? null : new plan.ArrayType((capacity / unitBytes) * unitElements);
  // Copying: bytes gather in the reused array (or go straight into the target); converting: in the heap.
  let inPtr = 0;
  let outPtr = 0;
  let filled = 0; // input bytes held, not yet turned into elements
  let written = 0; // elements yielded so far
  const total = plan.byteLength;
  let done = 0;
  try {
    if (!copying) {
      inPtr = core.malloc(capacity, 'the conversion input buffer');
      outPtr = core.malloc((capacity / unitBytes) * outPerUnit, 'the conversion output buffer');
    }
    const targetBytes = target && copying ? new Uint8Array(target.buffer, target.byteOffset, target.byteLength) : null;
    const reusedBytes = reused && copying ? new Uint8Array(reused.buffer) : null;
    for await (const chunk of chunksUntilAborted(source.chunks(plan.offset, total, signal), signal)) {
      throwIfAborted(signal);
      if (targetBytes) {
        // Straight into the result: no unit can be split, the result's bytes are contiguous.
        targetBytes.set(chunk, written * unitBytes + filled);
        const units = Math.floor((filled + chunk.byteLength) / unitBytes);
        filled = (filled + chunk.byteLength) % unitBytes;
        yield { offset: written, values: /** @type {TensorArray} */ (target).subarray(written, written + units) }; // targetBytes comes with a target
        throwIfAborted(signal);
        written += units;
      } else {
        for (let at = 0; at < chunk.byteLength;) {
          const n = Math.min(capacity - filled, chunk.byteLength - at);
          const piece = chunk.subarray(at, at + n);
          at += n;
          let units;
          if (copying) {
            /** @type {Uint8Array} */ (reusedBytes).set(piece, filled);
            units = Math.floor((filled + n) / unitBytes);
            if (units === 0) {
              filled += n;
              continue;
            }
            yield { offset: written, values: /** @type {TensorArray} */ (reused).subarray(0, units) };
            throwIfAborted(signal); // a consumer may abort between pieces
            // The consumer is done with the view: move the split unit's bytes to the front.
            const used = units * unitBytes;
            /** @type {Uint8Array} */ (reusedBytes).copyWithin(0, used, filled + n);
            filled = filled + n - used;
          } else {
            units = core.call((m) => {
              m.HEAPU8.set(piece, inPtr + filled);
              const count = Math.floor((filled + n) / unitBytes);
              if (count === 0) return 0;
              const outBytes = count * outPerUnit;
              if (plan.kind === 'bool') m._normalizeBool(inPtr, outPtr, count);
              else m._convertToF32(plan.dtype, inPtr, outPtr, count * unitElements);
              const converted =
                plan.kind === 'bool'
                  ? m.HEAPU8.subarray(outPtr, outPtr + outBytes)
                  : m.HEAPF32.subarray(outPtr >>> 2, (outPtr + outBytes) >>> 2);
              // Converted elements are float32, or BOOL's bytes: the plan's array is one of those.
              /** @type {Float32Array | Uint8Array} */ (target ?? reused).set(converted, target ? written : 0);
              m.HEAPU8.copyWithin(inPtr, inPtr + count * unitBytes, inPtr + filled + n);
              return count;
            });
            filled = filled + n - units * unitBytes;
            if (units === 0) continue;
            const elements = units * unitElements;
            yield {
              offset: written,
              values: target
                ? target.subarray(written, written + elements)
                : /** @type {TensorArray} */ (reused).subarray(0, elements),
            };
            throwIfAborted(signal);
            written += elements;
            continue;
          }
          written += units;
        }
      }
      done += chunk.byteLength;
      onProgress?.(done, total);
      throwIfAborted(signal); // before asking for (and reading ahead) the next chunk
    }
    if (total === 0) onProgress?.(0, 0);
    throwIfAborted(signal);
  } finally {
    if (inPtr) core.free(inPtr);
    if (outPtr) core.free(outPtr);
  }
}

/**
 * A 'copy' plan's array from its bytes in memory, at once (getTensors' runs of small tensors:
 * no stream per tensor).
 * @param {ReadPlan} plan its kind is 'copy'
 * @param {{ name: string, shape: number[] }} tensor
 * @param {Uint8Array} bytes the plan's byteLength bytes
 * @returns {TensorArray}
 */
export function copyTensor(plan, tensor, bytes) {
  const result = allocateResult(plan, tensor, undefined);
  new Uint8Array(result.buffer, result.byteOffset, result.byteLength).set(bytes);
  return result;
}

/**
 * Reads plan.byteLength bytes at plan.offset from `source` and returns the typed array:
 * decodePieces writing into the result.
 * @param {import('../core/wasm_module.js').Core} core
 * @param {Pick<import('../source/byte_source.js').ByteSource, 'chunks'>} source
 * @param {ReadPlan} plan
 * @param {{ name: string, shape: number[] }} tensor
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void, into?: unknown }} options
 */
export async function decodeTensor(core, source, plan, tensor, options) {
  throwIfAborted(options.signal);
  const result = allocateResult(plan, tensor, options.into);
  if (options.into === undefined) faultIn(result);
  // eslint-disable-next-line no-unused-vars
  for await (const _ of decodePieces(core, source, plan, {
    signal: options.signal,
    onProgress: options.onProgress,
    target: result,
  }));
  return result;
}
