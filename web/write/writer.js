// Writing .safetensors files as the reference writer writes them (REFERENCE-RULES.md, "What
// the reference writer emits"): tensors sorted by dtype, descending in the reference's Dtype
// order (the core's dtype table is in that order), then by name in byte order; offsets packed
// from 0; compact JSON with __metadata__ first (its keys sorted: the reference keeps them in a
// hash map); entries {"dtype","shape","data_offsets"}; the header padded with spaces to a
// multiple of 8. JSON.stringify escapes strings exactly as serde_json does: `"`, `\` and
// control characters only (\b \t \n \f \r, else \u00xx in lowercase hex).
import { initSafetensors } from '../core/modules.js';
import { isNode } from '../core/platform.js';
import { SafetensorsError } from '../core/errors.js';
import { analyzeHeader } from '../header/read_header.js';
import { TYPED_ARRAYS } from '../tensors/plan.js';

/** The reference refuses to write (and to read) headers longer than this. */
export const HEADER_LIMIT_BYTES = 100_000_000;

const encoder = new TextEncoder();

const invalidTensor = (message, tensor) => new SafetensorsError('InvalidTensor', message, tensor === undefined ? {} : { tensor });
const invalidMetadata = (message) => new SafetensorsError('InvalidMetadata', message);

// A lone surrogate cannot be written as UTF-8 (TextEncoder would silently make it U+FFFD).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Byte order of the strings' UTF-8 forms, from their UTF-16 units: the same as code-unit
 * order except that surrogates (code points past U+FFFF) sort after U+E000..U+FFFF.
 */
export function compareUtf8(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

/** The reference writer's order: by dtype, descending in its Dtype order (the core's table order), then by name in byte order. */
export function referenceOrder(a, b) {
  return b.dtype.index - a.dtype.index || compareUtf8(a.name, b.name);
}

/**
 * The `__metadata__` entry's text, keys in byte order; null for none.
 * @param {unknown} metadata
 */
export function metadataJson(metadata) {
  if (metadata === undefined || metadata === null) return null;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw invalidMetadata('metadata must be an object of string values (or null for none)');
  const keys = Object.keys(metadata).sort(compareUtf8);
  const parts = [];
  for (const key of keys) {
    const value = /** @type {Record<string, unknown>} */ (metadata)[key];
    if (typeof value !== 'string') throw invalidMetadata(`metadata value ${JSON.stringify(key)} is ${value === null ? 'null' : typeof value}; the format holds strings only (JSON.stringify it first)`);
    if (LONE_SURROGATE.test(key) || LONE_SURROGATE.test(value)) throw invalidMetadata(`metadata ${JSON.stringify(key)} holds a lone UTF-16 surrogate, which UTF-8 cannot hold`);
    parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The bytes of a tensor's data, checked against its dtype: a Uint8Array of raw bytes, a typed
 * array of the dtype's own kind (Uint16Array for F16 and BF16 bits), or a Blob.
 * @returns {Uint8Array | Blob}
 */
function dataBytes(name, dtype, data) {
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data;
  if (!ArrayBuffer.isView(data) || data instanceof DataView) {
    throw invalidTensor(`tensor ${JSON.stringify(name)}: data must be a typed array or a Blob, got ${data === null ? 'null' : typeof data}`, name);
  }
  const own = TYPED_ARRAYS[dtype.storage];
  const halfBits = dtype.storage === 'narrow-float' && dtype.bits === 16 && data instanceof Uint16Array;
  if (!(data instanceof Uint8Array) && !(own && data instanceof own) && !halfBits) {
    const kind = own ? `${own.name}` : dtype.bits === 16 ? 'Uint16Array (the bits)' : 'Uint8Array';
    throw invalidTensor(`tensor ${JSON.stringify(name)} is ${dtype.name}: its data must be a ${kind} or a Uint8Array of raw bytes, got a ${data.constructor.name}`, name);
  }
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The tensors as a list of { name, dtype, shape, data }, whatever form they came in. */
function tensorList(tensors) {
  if (Array.isArray(tensors)) return tensors;
  if (tensors === null || typeof tensors !== 'object') throw invalidTensor('tensors must be an object { name: { dtype, shape, data } } or an array of { name, dtype, shape, data }');
  if (tensors instanceof Map) return [...tensors].map(([name, t]) => ({ ...t, name }));
  return Object.entries(tensors).map(([name, t]) => ({ ...t, name }));
}

/**
 * Checks every tensor and lays them out as the reference writer does.
 * @param {any} tensors
 * @param {ReturnType<typeof import('../core/tables.js').decodeCoreTables>['dtypes']} dtypes
 */
function layOut(tensors, dtypes) {
  const byName = new Map(dtypes.map((d) => [d.name, d]));
  const seen = new Set();
  const checked = tensorList(tensors).map((t) => {
    if (t === null || typeof t !== 'object') throw invalidTensor('each tensor must be an object { dtype, shape, data }');
    const { name, dtype: dtypeName, shape, data } = t;
    if (typeof name !== 'string') throw invalidTensor(`a tensor name must be a string, got ${typeof name}`);
    if (LONE_SURROGATE.test(name)) throw invalidTensor(`tensor name ${JSON.stringify(name)} holds a lone UTF-16 surrogate, which UTF-8 cannot hold`, name);
    if (name === '__metadata__') throw invalidTensor('"__metadata__" is the metadata\'s key; no tensor can have that name', name);
    if (seen.has(name)) throw invalidTensor(`two tensors are named ${JSON.stringify(name)}`, name);
    seen.add(name);
    const dtype = byName.get(dtypeName);
    if (!dtype) throw invalidTensor(`tensor ${JSON.stringify(name)}: unknown dtype ${JSON.stringify(dtypeName)}; the format has ${dtypes.map((d) => d.name).join(', ')}`, name);
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw invalidTensor(`tensor ${JSON.stringify(name)}: shape must be an array of non-negative integers`, name);
    }
    const bits = shape.reduce((a, b) => a * b, 1) * dtype.bits;
    if (!Number.isSafeInteger(bits)) throw invalidTensor(`tensor ${JSON.stringify(name)}: shape [${shape}] is too large`, name);
    if (bits % 8 !== 0) throw invalidTensor(`tensor ${JSON.stringify(name)}: ${shape.reduce((a, b) => a * b, 1)} ${dtype.name} elements of ${dtype.bits} bits do not fill whole bytes (the reference refuses this: MisalignedSlice)`, name);
    const bytes = dataBytes(name, dtype, data);
    const size = bytes instanceof Uint8Array ? bytes.byteLength : bytes.size;
    if (size !== bits / 8) throw invalidTensor(`tensor ${JSON.stringify(name)}: shape [${shape}] of ${dtype.name} needs ${bits / 8} bytes, the data has ${size}`, name);
    return { name, dtype, shape, bytes, size };
  });
  checked.sort(referenceOrder);
  return checked;
}

/**
 * A header's bytes, padded with spaces to a multiple of 8, with its length prefix.
 * @param {string | null} metadata the __metadata__ entry's JSON, or null
 * @param {{ name: string, dtype: { name: string }, shape: (number | bigint)[], begin: number, end: number }[]} entries in header order
 */
export function headerBytes(metadata, entries) {
  const parts = metadata === null ? [] : [`"__metadata__":${metadata}`];
  for (const e of entries) parts.push(`${JSON.stringify(e.name)}:{"dtype":"${e.dtype.name}","shape":[${e.shape.join(',')}],"data_offsets":[${e.begin},${e.end}]}`);
  const json = encoder.encode(`{${parts.join(',')}}`);
  const length = Math.ceil(json.byteLength / 8) * 8;
  if (length > HEADER_LIMIT_BYTES) {
    throw new SafetensorsError('HeaderTooLarge', `the header would be ${length} bytes, over the reference's ${HEADER_LIMIT_BYTES}-byte limit; write fewer tensors or less metadata per file`);
  }
  const out = new Uint8Array(8 + length).fill(0x20, 8 + json.byteLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(length), true);
  out.set(json, 8);
  return out;
}

/**
 * Checks a header the writer made with the core's validator: what it writes must load.
 * @param {Uint8Array} header the prefix and header
 * @param {number} size the whole file's size
 */
export async function checkWritten(header, size) {
  const core = await initSafetensors();
  const result = analyzeHeader(core, [header], size);
  if (result.referenceError !== null) {
    throw new SafetensorsError('InternalError', `the header written would be rejected (${result.referenceError}: ${result.findings[0]?.message}); this is a bug in safetensors-wasm's writer`);
  }
}

/**
 * @param {any} tensors
 * @param {{ metadata?: Record<string, string> | null }} [options]
 * @returns {Promise<{ header: Uint8Array, parts: (Uint8Array | Blob)[], size: number }>}
 */
export async function planFile(tensors, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const core = await initSafetensors();
  const metadata = metadataJson(options.metadata);
  const laid = layOut(tensors, core.tables.dtypes);
  let at = 0;
  const entries = laid.map((t) => ({ ...t, begin: at, end: (at += t.size) }));
  const header = headerBytes(metadata, entries);
  const size = header.byteLength + at;
  await checkWritten(header, size);
  return { header, parts: entries.map((e) => e.bytes), size };
}

/**
 * Builds a .safetensors file as a Blob: the reference writer's bytes for the same tensors.
 * @param {any} tensors
 * @param {{ metadata?: Record<string, string> | null }} [options]
 * @returns {Promise<Blob>}
 */
export async function serializeSafetensors(tensors, options = {}) {
  const { header, parts } = await planFile(tensors, options);
  return new Blob(/** @type {BlobPart[]} */ ([header, ...parts]));
}

/**
 * A new prefix and header for an opened file with other metadata: the same tensors, in data
 * order, at the same offsets, so that its data section (and every hash of it) stays byte for
 * byte. Checked with the validator against the size the edited file will have.
 * @param {import('../index.js').SafetensorsFile} file
 * @param {Record<string, string> | null} metadata
 * @returns {Promise<{ header: Uint8Array, dataStart: number, dataLength: number }>}
 */
export async function editedHeader(file, metadata) {
  const entries = file.tensors.map((t) => ({ name: t.name, dtype: { name: t.dtype }, shape: t.exactShape ?? t.shape, begin: t.dataOffsets[0], end: t.dataOffsets[1] }));
  const header = headerBytes(metadataJson(metadata), entries);
  const dataLength = file.fileSize - file.dataStart;
  await checkWritten(header, header.byteLength + dataLength);
  return { header, dataStart: file.dataStart, dataLength };
}

/** node_write.js, in Node only (a variable specifier keeps bundlers from following it). */
async function nodeWriter() {
  if (!isNode()) throw new TypeError('writing to a path works in Node; in a browser, use the Blob (serializeSafetensors, withMetadata without a path)');
  const module = './node_write.js';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ module);
}

/**
 * Node: writes a .safetensors file to `path` (whole or not at all), parts one after another.
 * @param {string} path
 * @param {any} tensors
 * @param {{ metadata?: Record<string, string> | null, signal?: AbortSignal }} [options]
 */
export async function writeSafetensors(path, tensors, options = {}) {
  if (typeof path !== 'string') throw new TypeError('path must be a string');
  const { header, parts } = await planFile(tensors, options);
  await writeParts(path, [header, ...parts], options.signal);
}

/**
 * Node: writes `parts` to `path`, whole or not at all (node_write.js).
 * @param {string} path
 * @param {(Uint8Array | Blob | AsyncIterable<Uint8Array>)[]} parts
 * @param {AbortSignal} [signal]
 */
export async function writeParts(path, parts, signal) {
  if (typeof path !== 'string') throw new TypeError('options.path must be a string');
  await (await nodeWriter()).writeParts(path, parts, signal);
}

/**
 * Node: writes `file` with other metadata to `path`, its data section streamed from the
 * source it was opened from (any source: a FileHandle, a URL, bytes).
 * @param {string} path
 * @param {{ header: Uint8Array, dataStart: number, dataLength: number }} edited
 * @param {{ chunks(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> }} source
 * @param {AbortSignal} [signal]
 */
export async function writeEdited(path, edited, source, signal) {
  await writeParts(path, [edited.header, source.chunks(edited.dataStart, edited.dataLength, signal)], signal);
}
