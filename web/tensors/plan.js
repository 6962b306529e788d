// What getTensor will do for one tensor and one set of options: the byte range to read,
// the array to return and how each chunk of bytes becomes array elements. Pure JS; the
// dtype's facts come from the core's table (web/core/tables.js).
import { SafetensorsError } from '../core/errors.js';

/** @typedef {import('../index.js').TensorArray} TensorArray */
/**
 * A typed array class a tensor is read into.
 * @typedef {{ new (length: number): TensorArray, readonly BYTES_PER_ELEMENT: number, readonly name: string }} TensorArrayClass
 */
/**
 * What getTensor does for one tensor: reads `byteLength` bytes at `offset` (in the file) into
 * a `length`-element ArrayType, copying them ('copy') or converting each unit of `unitBytes`
 * into `unitElements` elements ('float32', 'bool'); `dtype` is the tensor's dtype index.
 * @typedef {{ offset: number, byteLength: number, ArrayType: TensorArrayClass, length: number,
 *   kind: 'copy' | 'float32' | 'bool', unitBytes: number, unitElements: number, dtype: number }} ReadPlan
 */

// JavaScript's typed arrays by the storage names of the core's dtype table
// (cpp/wasm/core_tables.cpp): dtypes whose bytes already are these arrays' elements.
/** @type {Readonly<Record<string, TensorArrayClass | undefined>>} */
export const TYPED_ARRAYS = {
  Uint8: Uint8Array,
  Int8: Int8Array,
  Uint16: Uint16Array,
  Int16: Int16Array,
  Uint32: Uint32Array,
  Int32: Int32Array,
  BigUint64: BigUint64Array,
  BigInt64: BigInt64Array,
  Float32: Float32Array,
  Float64: Float64Array,
};

export const AS_VALUES = ['native', 'float32', 'raw'];

/**
 * @param {{ name: string, shape: number[] }} tensor
 * @param {[number, number] | undefined} rows as the caller gave them (checked here)
 * @returns {[number, number] | null}
 */
function rowRange(tensor, rows) {
  const { shape, name } = tensor;
  if (rows === undefined) return null;
  if (!Array.isArray(rows) || rows.length !== 2 || !rows.every(Number.isSafeInteger)) {
    throw new TypeError('options.rows must be [start, end], two integers');
  }
  if (shape.length === 0) {
    throw new RangeError(`options.rows: tensor "${name}" is a scalar (shape []), it has no rows`);
  }
  const [start, end] = rows;
  if (start < 0 || end < start || end > shape[0]) {
    throw new RangeError(
      `options.rows [${start}, ${end}] is outside tensor "${name}" (shape [${shape.join(', ')}]): need 0 <= start <= end <= ${shape[0]}`,
    );
  }
  return [start, end];
}

/**
 * @param {{ name: string, shape: number[], dataOffsets: [number, number] }} tensor
 * @param {import('../core/tables.js').DtypeRow} dtype the tensor's row of the core's dtype table
 * @param {number} dataStart 8 + N
 * @param {{ as?: string, rows?: [number, number] }} options
 * @returns {ReadPlan}
 */
export function planTensorRead(tensor, dtype, dataStart, options) {
  const as = options.as ?? 'native';
  if (!AS_VALUES.includes(as))
    throw new TypeError(`options.as must be one of ${AS_VALUES.map((v) => `'${v}'`).join(', ')}, got ${String(as)}`);
  const { name } = tensor;
  const { bits, storage } = dtype;
  const total = tensor.dataOffsets[1] - tensor.dataOffsets[0];
  let offset = dataStart + tensor.dataOffsets[0];
  let byteLength = total;
  let elements = (total * 8) / bits;
  const range = rowRange(tensor, options.rows);
  if (range !== null) {
    const rowElements = tensor.shape[0] === 0 ? 0 : elements / tensor.shape[0];
    const [startBits, endBits] = range.map((r) => r * rowElements * bits);
    if (startBits % 8 !== 0 || endBits % 8 !== 0) {
      throw new RangeError(
        `options.rows [${range}] of ${dtype.name} tensor "${name}" would start or end inside a byte (${rowElements} elements of ${bits} bits per row); choose rows on byte boundaries`,
      );
    }
    offset += startBits / 8;
    byteLength = (endBits - startBits) / 8;
    elements = (range[1] - range[0]) * rowElements;
  }

  // Literals of one shape (no spread): getTensors() plans every tensor, a million of them at times.
  const copy = (/** @type {TensorArrayClass} */ ArrayType) => ({
    offset,
    byteLength,
    dtype: dtype.index,
    ArrayType,
    length: byteLength / ArrayType.BYTES_PER_ELEMENT,
    kind: /** @type {const} */ ('copy'),
    unitBytes: 1,
    unitElements: 1,
  });
  const converted = (/** @type {'float32' | 'bool'} */ kind, /** @type {TensorArrayClass} */ ArrayType) => ({
    offset,
    byteLength,
    dtype: dtype.index,
    ArrayType,
    length: elements,
    kind,
    unitBytes: dtype.unitBytes,
    unitElements: dtype.unitElements,
  });
  if (as === 'raw' || (as === 'native' && storage === 'packed')) return copy(Uint8Array);
  if (storage === 'packed') {
    throw new SafetensorsError(
      'UnsupportedConversion',
      `tensor "${name}" is ${dtype.name}, which has no float32 conversion here (how writers pack 6-bit floats into bytes is not settled); read it with { as: 'raw' }`,
      { tensor: name },
    );
  }
  if (as === 'native' && storage === 'bool') return converted('bool', Uint8Array);
  const same = TYPED_ARRAYS[storage];
  // float32: bytes that are float32 already (F32, C64) are copied; everything else converted.
  if (same === Float32Array || (as === 'native' && same)) return copy(same);
  return converted('float32', Float32Array);
}
