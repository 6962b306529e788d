// Streams one tensor's bytes into its typed array. Chunks that need converting pass
// through a bounded scratch area in the wasm heap; the result is built in JS memory.
import { throwIfAborted } from './abort.js';
import { SafetensorsError } from './errors.js';
import { streamThroughHeap } from './heap_stream.js';

/** Input bytes converted per wasm call; the heap scratch is this plus its float32 output. */
export const SCRATCH_INPUT_BYTES = 1 << 20;

function allocateResult(plan, tensor, into) {
  const { ArrayType, length } = plan;
  if (into !== undefined) {
    if (!(into instanceof ArrayType) || into.length < length) {
      const got = ArrayBuffer.isView(into) ? `a ${into.constructor.name} of ${/** @type {any} */ (into).length}` : typeof into;
      throw new TypeError(`options.into must be a ${ArrayType.name} of at least ${length} elements for tensor "${tensor.name}", got ${got}`);
    }
    return into.subarray(0, length);
  }
  const bytes = length * ArrayType.BYTES_PER_ELEMENT;
  try {
    return new ArrayType(length);
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause;
    const rows = tensor.shape.length > 0 ? ` (its first dimension has ${tensor.shape[0]} rows)` : '';
    throw new SafetensorsError('TensorTooLarge',
      `tensor "${tensor.name}" needs a ${ArrayType.name} of ${length} elements (${bytes} bytes), more than this JavaScript engine can allocate in one array; read a part with { rows: [start, end] }${rows}`,
      { tensor: tensor.name, cause });
  }
}

// Bytes that already are the result's elements: copied in place.
class ByteCopier {
  constructor(result) {
    this.bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
    this.written = 0;
  }

  push(chunk) {
    this.bytes.set(chunk, this.written);
    this.written += chunk.byteLength;
  }
}

// Converts chunks in the wasm heap: carries the bytes of a unit (element, or F4 byte)
// split across chunks, and copies each converted piece out before the next call.
class HeapConverter {
  /**
   * @param {import('./core.js').Core} core
   * @param {ReturnType<typeof import('./tensor_plan.js').planTensorRead>} plan
   * @param {any} result the typed array being filled
   * @param {number[]} buffers the input and output scratch areas
   * @param {number} capacity input bytes per wasm call
   */
  constructor(core, plan, result, [inPtr, outPtr], capacity) {
    this.module = core.module;
    this.plan = plan;
    this.result = result;
    this.inPtr = inPtr;
    this.outPtr = outPtr;
    this.capacity = capacity;
    this.outBytesPerUnit = outputBytesPerUnit(plan);
    this.filled = 0;
    this.written = 0;
  }

  push(chunk) {
    const { module: m, plan } = this;
    for (let at = 0; at < chunk.byteLength;) {
      const n = Math.min(this.capacity - this.filled, chunk.byteLength - at);
      m.HEAPU8.set(chunk.subarray(at, at + n), this.inPtr + this.filled);
      this.filled += n;
      at += n;
      const units = Math.floor(this.filled / plan.unitBytes);
      if (units === 0) continue;
      const outBytes = units * this.outBytesPerUnit;
      if (plan.kind === 'bool') {
        m._normalizeBool(this.inPtr, this.outPtr, units);
        this.result.set(m.HEAPU8.subarray(this.outPtr, this.outPtr + outBytes), this.written);
      } else {
        m._convertToF32(plan.dtype, this.inPtr, this.outPtr, units * plan.unitElements);
        this.result.set(m.HEAPF32.subarray(this.outPtr >>> 2, (this.outPtr + outBytes) >>> 2), this.written);
      }
      this.written += outBytes / this.result.BYTES_PER_ELEMENT;
      const used = units * plan.unitBytes;
      m.HEAPU8.copyWithin(this.inPtr, this.inPtr + used, this.inPtr + this.filled);
      this.filled -= used;
    }
  }
}

function outputBytesPerUnit(plan) {
  return plan.unitElements * plan.ArrayType.BYTES_PER_ELEMENT;
}

/**
 * Reads plan.byteLength bytes at plan.offset from `source` and returns the typed array.
 * @param {import('./core.js').Core} core
 * @param {{ chunks(offset: number, length: number): AsyncIterable<Uint8Array> }} source
 * @param {ReturnType<typeof import('./tensor_plan.js').planTensorRead>} plan
 * @param {{ name: string, shape: number[] }} tensor
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void, into?: ArrayBufferView }} options
 */
export async function decodeTensor(core, source, plan, tensor, options) {
  throwIfAborted(options.signal);
  const result = allocateResult(plan, tensor, options.into);
  const range = { offset: plan.offset, length: plan.byteLength };
  if (plan.kind === 'copy') {
    await streamThroughHeap(core, source, range, options, () => new ByteCopier(result));
    return result;
  }
  const inputBytes = SCRATCH_INPUT_BYTES - (SCRATCH_INPUT_BYTES % plan.unitBytes);
  const heap = [
    { bytes: inputBytes, what: 'the conversion input buffer' },
    { bytes: (inputBytes / plan.unitBytes) * outputBytesPerUnit(plan), what: 'the conversion output buffer' },
  ];
  await streamThroughHeap(core, source, { ...range, heap }, options, (buffers) => new HeapConverter(core, plan, result, buffers, inputBytes));
  return result;
}
