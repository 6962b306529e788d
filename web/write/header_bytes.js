// The header of a .safetensors file as the reference writer writes it (docs/reference-rules.md,
// "What the reference writer produces"): compact JSON with __metadata__ first (its keys sorted:
// the reference keeps them in a hash map); entries {"dtype","shape","data_offsets"} in the
// reference's order; padded with spaces to a multiple of 8. JSON.stringify escapes strings
// exactly as serde_json does: `"`, `\` and control characters only (\b \t \n \f \r, else
// \u00xx in lowercase hex). Every header written is checked by the core's validator.
import { initSafetensors } from '../core/modules.js';
import { SafetensorsError } from '../core/errors.js';
import { analyzeHeader } from '../header/read_header.js';

const encoder = new TextEncoder();

const invalidMetadata = (/** @type {string} */ message) => new SafetensorsError('InvalidMetadata', message);

// A lone surrogate cannot be written as UTF-8 (TextEncoder would silently make it U+FFFD).
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Byte order of the strings' UTF-8 forms, from their UTF-16 units: the same as code-unit
 * order except that surrogates (code points past U+FFFF) sort after U+E000..U+FFFF.
 * @param {string} a
 * @param {string} b
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

/**
 * The reference writer's order: by dtype, descending in its Dtype order (the core's table order), then by name in byte order.
 * @param {{ name: string, dtype: { index: number } }} a
 * @param {{ name: string, dtype: { index: number } }} b
 */
export function referenceOrder(a, b) {
  return b.dtype.index - a.dtype.index || compareUtf8(a.name, b.name);
}

/**
 * The `__metadata__` entry's text, keys in byte order; null for none.
 * @param {unknown} metadata
 */
export function metadataJson(metadata) {
  if (metadata === undefined || metadata === null) return null;
  if (typeof metadata !== 'object' || Array.isArray(metadata))
    throw invalidMetadata('metadata must be an object of string values (or null for none)');
  const keys = Object.keys(metadata).sort(compareUtf8);
  const parts = [];
  for (const key of keys) {
    const value = /** @type {Record<string, unknown>} */ (metadata)[key];
    if (typeof value !== 'string')
      throw invalidMetadata(
        `metadata value ${JSON.stringify(key)} is ${value === null ? 'null' : typeof value}; the format holds strings only (JSON.stringify it first)`,
      );
    if (LONE_SURROGATE.test(key) || LONE_SURROGATE.test(value))
      throw invalidMetadata(`metadata ${JSON.stringify(key)} holds a lone UTF-16 surrogate, which UTF-8 cannot hold`);
    parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * A header's bytes, padded with spaces to a multiple of 8, with its length prefix;
 * HeaderTooLarge past the core's limit (the reference's MAX_HEADER_SIZE).
 * @param {import('../core/wasm_module.js').Core} core
 * @param {string | null} metadata the __metadata__ entry's JSON, or null
 * @param {{ name: string, dtype: { name: string }, shape: (number | bigint)[], begin: number, end: number }[]} entries in header order
 */
export function headerBytes(core, metadata, entries) {
  const limit = core.tables.maxHeaderBytes;
  const parts = metadata === null ? [] : [`"__metadata__":${metadata}`];
  for (const e of entries)
    parts.push(
      `${JSON.stringify(e.name)}:{"dtype":"${e.dtype.name}","shape":[${e.shape.join(',')}],"data_offsets":[${e.begin},${e.end}]}`,
    );
  const json = encoder.encode(`{${parts.join(',')}}`);
  const length = Math.ceil(json.byteLength / 8) * 8;
  if (length > limit) {
    throw new SafetensorsError(
      'HeaderTooLarge',
      `the header would be ${length} bytes, over the reference's ${limit}-byte limit; write fewer tensors or less metadata per file`,
    );
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
    throw new SafetensorsError(
      'InternalError',
      `the header written would be rejected (${result.referenceError}: ${result.findings[0]?.message}); this is a bug in safetensors-wasm's writer`,
    );
  }
}

/**
 * Entries in writing order packed from offset 0 (each given its `begin` and `end`, in place: a
 * copy of each costs seconds on a million tensors), their header, and the file's size; the
 * header checked by the core's validator against that size.
 * @template {{ size: number, name: string, dtype: { name: string }, shape: (number | bigint)[] }} E
 * @param {import('../core/wasm_module.js').Core} core
 * @param {string | null} metadata the __metadata__ entry's JSON, or null
 * @param {E[]} entries in the reference writer's order
 */
export async function packedHeader(core, metadata, entries) {
  let at = 0;
  const laid = /** @type {(E & { begin: number, end: number })[]} */ (entries);
  for (const e of laid) {
    e.begin = at;
    e.end = at += e.size;
  }
  const header = headerBytes(core, metadata, laid);
  const size = header.byteLength + at;
  await checkWritten(header, size);
  return { header, laid, size };
}
