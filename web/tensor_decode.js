// Streams one tensor's bytes into its typed array. Chunks that need converting pass
// through a bounded scratch area in the wasm heap; the result is built in JS memory.
import { SafetensorsError, chunksUntilAborted, throwIfAborted } from './errors.js';

/** Input bytes converted per wasm call; the heap scratch is this plus its float32 output. */
export const SCRATCH_INPUT_BYTES = 1 << 20;

function allocateResult(plan, tensor, into) {
  const { ArrayType, length } = plan;
  if (into !== undefined) {
    if (!(into instanceof ArrayType) || into.length < length) {
      const got = ArrayBuffer.isView(into) ? `a ${into.constructor.name} of ${into.length}` : typeof into;
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

// Converts chunks in the wasm heap: carries the bytes of a unit (element, or F4 byte)
// split across chunks, and copies each converted piece out before the next call.
class HeapConverter {
  constructor(core, plan, dtypeIndex, result) {
    this.core = core;
    this.plan = plan;
    this.dtypeIndex = dtypeIndex;
    this.result = result;
    this.outBytesPerUnit = plan.kind === 'bool' ? 1 : plan.unitElements * 4;
    const inputBytes = SCRATCH_INPUT_BYTES - (SCRATCH_INPUT_BYTES % plan.unitBytes);
    this.capacity = inputBytes;
    this.inPtr = core._malloc(inputBytes);
    this.outPtr = core._malloc((inputBytes / plan.unitBytes) * this.outBytesPerUnit);
    this.filled = 0;
    this.written = 0;
    if (this.inPtr === 0 || this.outPtr === 0) {
      this.free();
      throw new RangeError('could not allocate the conversion scratch area in the wasm heap');
    }
  }

  push(chunk) {
    const { core, plan } = this;
    for (let at = 0; at < chunk.byteLength;) {
      const n = Math.min(this.capacity - this.filled, chunk.byteLength - at);
      core.HEAPU8.set(chunk.subarray(at, at + n), this.inPtr + this.filled);
      this.filled += n;
      at += n;
      const units = Math.floor(this.filled / plan.unitBytes);
      if (units === 0) continue;
      const outBytes = units * this.outBytesPerUnit;
      if (plan.kind === 'bool') {
        core._normalizeBool(this.inPtr, this.outPtr, units);
        this.result.set(core.HEAPU8.subarray(this.outPtr, this.outPtr + outBytes), this.written);
      } else {
        core._convertToF32(this.dtypeIndex, this.inPtr, this.outPtr, units * plan.unitElements);
        this.result.set(core.HEAPF32.subarray(this.outPtr >>> 2, (this.outPtr + outBytes) >>> 2), this.written);
      }
      this.written += outBytes / this.result.BYTES_PER_ELEMENT;
      const used = units * plan.unitBytes;
      core.HEAPU8.copyWithin(this.inPtr, this.inPtr + used, this.inPtr + this.filled);
      this.filled -= used;
    }
  }

  free() {
    if (this.inPtr) this.core._free(this.inPtr);
    if (this.outPtr) this.core._free(this.outPtr);
    this.inPtr = 0;
    this.outPtr = 0;
  }
}

/**
 * Reads plan.byteLength bytes at plan.offset from `source` and returns the typed array.
 * @param {object} core the wasm module
 * @param {{ chunks(offset: number, length: number): AsyncIterable<Uint8Array> }} source
 * @param {ReturnType<import('./tensor_plan.js').planTensorRead>} plan
 * @param {{ name: string, shape: number[] }} tensor
 * @param {number} dtypeIndex the dtype's index in the core's Dtype enum
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void, into?: ArrayBufferView }} options
 */
export async function decodeTensor(core, source, plan, tensor, dtypeIndex, options) {
  const { signal, onProgress, into } = options;
  throwIfAborted(signal);
  const result = allocateResult(plan, tensor, into);
  const total = plan.byteLength;
  const resultBytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
  const converter = plan.kind === 'copy' ? null : new HeapConverter(core, plan, dtypeIndex, result);
  let done = 0;
  try {
    if (total > 0) {
      for await (const chunk of chunksUntilAborted(source.chunks(plan.offset, total), signal)) {
        throwIfAborted(signal);
        if (converter) converter.push(chunk);
        else resultBytes.set(chunk, done);
        done += chunk.byteLength;
        onProgress?.(done, total);
        throwIfAborted(signal); // before asking for (and reading ahead) the next chunk
      }
    }
    throwIfAborted(signal);
    if (total === 0) onProgress?.(0, 0);
  } finally {
    converter?.free();
  }
  return result;
}
