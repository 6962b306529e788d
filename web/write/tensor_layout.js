// The tensors a caller asks to write, checked (names, dtypes, shapes, data of the right kind and
// length) and laid out as the reference writer lays them out: sorted by dtype, descending in
// the reference's Dtype order (the core's dtype table is in that order), then by name in byte
// order, offsets packed from 0.
import { SafetensorsError } from '../core/errors.js';
import { TYPED_ARRAYS } from '../tensors/plan.js';
import { LONE_SURROGATE, referenceOrder } from './header_bytes.js';

/** @typedef {import('../index.js').TensorToWrite} TensorToWrite */
/**
 * What serializeSafetensors and writeSafetensors take (checked here, whatever it is).
 * @typedef {Record<string, TensorToWrite> | Map<string, TensorToWrite> | (TensorToWrite & { name: string })[]} TensorsToWrite
 */

/**
 * @param {string} message
 * @param {string} [tensor]
 */
const invalidTensor = (message, tensor) =>
  new SafetensorsError('InvalidTensor', message, tensor === undefined ? {} : { tensor });

/**
 * The bytes of a tensor's data, checked against its dtype: a Uint8Array of raw bytes, a typed
 * array of the dtype's own kind (Uint16Array for F16 and BF16 bits), or a Blob.
 * @param {string} name
 * @param {import('../core/tables.js').DtypeRow} dtype
 * @param {unknown} data as the caller gave it
 * @returns {Uint8Array | Blob}
 */
function dataBytes(name, dtype, data) {
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data;
  if (!ArrayBuffer.isView(data) || data instanceof DataView) {
    throw invalidTensor(
      `tensor ${JSON.stringify(name)}: data must be a typed array or a Blob, got ${data === null ? 'null' : typeof data}`,
      name,
    );
  }
  const own = TYPED_ARRAYS[dtype.storage];
  const halfBits = dtype.storage === 'narrow-float' && dtype.bits === 16 && data instanceof Uint16Array;
  if (!(data instanceof Uint8Array) && !(own && data instanceof own) && !halfBits) {
    const kind = own ? `${own.name}` : dtype.bits === 16 ? 'Uint16Array (the bits)' : 'Uint8Array';
    throw invalidTensor(
      `tensor ${JSON.stringify(name)} is ${dtype.name}: its data must be a ${kind} or a Uint8Array of raw bytes, got a ${data.constructor.name}`,
      name,
    );
  }
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * The tensors as a list of { name, dtype, shape, data }, whatever form they came in.
 * @param {TensorsToWrite} tensors
 */
function tensorList(tensors) {
  if (Array.isArray(tensors)) return tensors;
  if (tensors === null || typeof tensors !== 'object')
    throw invalidTensor(
      'tensors must be an object { name: { dtype, shape, data } } or an array of { name, dtype, shape, data }',
    );
  if (tensors instanceof Map) return [...tensors].map(([name, t]) => ({ ...t, name }));
  return Object.entries(tensors).map(([name, t]) => ({ ...t, name }));
}

/**
 * Checks every tensor and lays them out as the reference writer does.
 * @param {TensorsToWrite} tensors
 * @param {import('../core/tables.js').DtypeRow[]} dtypes
 */
export function layOut(tensors, dtypes) {
  const byName = new Map(dtypes.map((d) => [d.name, d]));
  const seen = new Set();
  const checked = tensorList(tensors).map((t) => {
    if (t === null || typeof t !== 'object')
      throw invalidTensor('each tensor must be an object { dtype, shape, data }');
    const { name, dtype: dtypeName, shape, data } = t;
    if (typeof name !== 'string') throw invalidTensor(`a tensor name must be a string, got ${typeof name}`);
    if (LONE_SURROGATE.test(name))
      throw invalidTensor(
        `tensor name ${JSON.stringify(name)} holds a lone UTF-16 surrogate, which UTF-8 cannot hold`,
        name,
      );
    if (name === '__metadata__')
      throw invalidTensor('"__metadata__" is the metadata\'s key; no tensor can have that name', name);
    if (seen.has(name)) throw invalidTensor(`two tensors are named ${JSON.stringify(name)}`, name);
    seen.add(name);
    const dtype = byName.get(dtypeName);
    if (!dtype)
      throw invalidTensor(
        `tensor ${JSON.stringify(name)}: unknown dtype ${JSON.stringify(dtypeName)}; the format has ${dtypes.map((d) => d.name).join(', ')}`,
        name,
      );
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw invalidTensor(`tensor ${JSON.stringify(name)}: shape must be an array of non-negative integers`, name);
    }
    const bits = shape.reduce((a, b) => a * b, 1) * dtype.bits;
    if (!Number.isSafeInteger(bits))
      throw invalidTensor(`tensor ${JSON.stringify(name)}: shape [${shape}] is too large`, name);
    if (bits % 8 !== 0)
      throw invalidTensor(
        `tensor ${JSON.stringify(name)}: ${shape.reduce((a, b) => a * b, 1)} ${dtype.name} elements of ${dtype.bits} bits do not fill whole bytes (the reference refuses this: MisalignedSlice)`,
        name,
      );
    const bytes = dataBytes(name, dtype, data);
    const size = bytes instanceof Uint8Array ? bytes.byteLength : bytes.size;
    if (size !== bits / 8)
      throw invalidTensor(
        `tensor ${JSON.stringify(name)}: shape [${shape}] of ${dtype.name} needs ${bits / 8} bytes, the data has ${size}`,
        name,
      );
    return { name, dtype, shape, bytes, size };
  });
  checked.sort(referenceOrder);
  return checked;
}
