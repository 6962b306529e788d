// What getTensor will do for one tensor and one set of options: the byte range to read,
// the array to return and how each chunk of bytes becomes array elements. Pure JS.
import { SafetensorsError } from './errors.js';

const BITS = {
  BOOL: 8, F4: 4, F6_E2M3: 6, F6_E3M2: 6, U8: 8, I8: 8, F8_E5M2: 8, F8_E4M3: 8, F8_E8M0: 8,
  F8_E4M3FNUZ: 8, F8_E5M2FNUZ: 8, I16: 16, U16: 16, F16: 16, BF16: 16, I32: 32, U32: 32,
  F32: 32, C64: 64, F64: 64, I64: 64, U64: 64,
};

// Dtypes whose bytes already are the native array's elements (little-endian, as in the file).
const SAME_BYTES = {
  F32: Float32Array, F64: Float64Array, I8: Int8Array, U8: Uint8Array, I16: Int16Array,
  U16: Uint16Array, I32: Int32Array, U32: Uint32Array, I64: BigInt64Array, U64: BigUint64Array,
  C64: Float32Array,
};

// No float32 form: their bit packing inside bytes is not settled across writers.
const NO_FLOAT32 = new Set(['F6_E2M3', 'F6_E3M2']);

export const AS_VALUES = ['native', 'float32', 'raw'];

function rowRange(tensor, rows) {
  const { shape, name } = tensor;
  if (rows === undefined) return null;
  if (shape.length === 0) {
    throw new RangeError(`options.rows: tensor "${name}" is a scalar (shape []), it has no rows`);
  }
  if (!Array.isArray(rows) || rows.length !== 2 || !rows.every(Number.isSafeInteger)) {
    throw new TypeError('options.rows must be [start, end], two integers');
  }
  const [start, end] = rows;
  if (start < 0 || end < start || end > shape[0]) {
    throw new RangeError(`options.rows [${start}, ${end}] is outside tensor "${name}" (shape [${shape.join(', ')}]): need 0 <= start <= end <= ${shape[0]}`);
  }
  return [start, end];
}

/**
 * @param {{ name: string, dtype: string, shape: number[], dataOffsets: [number, number] }} tensor
 * @param {number} dataStart 8 + N
 * @param {{ as?: string, rows?: [number, number] }} options
 * @returns {{ offset: number, byteLength: number, elements: number, ArrayType: Function,
 *   length: number, kind: 'copy' | 'float32' | 'bool', unitBytes: number, unitElements: number }}
 */
export function planTensorRead(tensor, dataStart, options) {
  const as = options.as ?? 'native';
  if (!AS_VALUES.includes(as)) throw new TypeError(`options.as must be one of ${AS_VALUES.map((v) => `'${v}'`).join(', ')}, got ${String(as)}`);
  const { dtype, name } = tensor;
  const bits = BITS[dtype];
  const total = tensor.dataOffsets[1] - tensor.dataOffsets[0];
  let offset = dataStart + tensor.dataOffsets[0];
  let byteLength = total;
  let elements = (total * 8) / bits;
  const range = rowRange(tensor, options.rows);
  if (range !== null) {
    const rowElements = tensor.shape[0] === 0 ? 0 : elements / tensor.shape[0];
    const [startBits, endBits] = range.map((r) => r * rowElements * bits);
    if (startBits % 8 !== 0 || endBits % 8 !== 0) {
      throw new RangeError(`options.rows [${range}] of ${dtype} tensor "${name}" would start or end inside a byte (${rowElements} elements of ${bits} bits per row); choose rows on byte boundaries`);
    }
    offset += startBits / 8;
    byteLength = (endBits - startBits) / 8;
    elements = (range[1] - range[0]) * rowElements;
  }

  const unit = { unitBytes: dtype === 'F4' ? 1 : bits / 8, unitElements: dtype === 'F4' ? 2 : 1 };
  const base = { offset, byteLength, elements };
  if (as === 'raw' || (as === 'native' && NO_FLOAT32.has(dtype))) {
    return { ...base, ArrayType: Uint8Array, length: byteLength, kind: 'copy', unitBytes: 1, unitElements: 1 };
  }
  if (as === 'native' && dtype === 'BOOL') {
    return { ...base, ArrayType: Uint8Array, length: elements, kind: 'bool', ...unit };
  }
  if (NO_FLOAT32.has(dtype)) {
    throw new SafetensorsError('UnsupportedConversion', `tensor "${name}" is ${dtype}, which has no float32 conversion here (how writers pack 6-bit floats into bytes is not settled); read it with { as: 'raw' }`, { tensor: name });
  }
  const complexFactor = dtype === 'C64' ? 2 : 1;
  if (dtype === 'F32' || dtype === 'C64' || (as === 'native' && SAME_BYTES[dtype])) {
    const ArrayType = SAME_BYTES[dtype];
    return { ...base, ArrayType, length: byteLength / ArrayType.BYTES_PER_ELEMENT, kind: 'copy', unitBytes: 1, unitElements: 1 };
  }
  return { ...base, ArrayType: Float32Array, length: elements * complexFactor, kind: 'float32', ...unit };
}
