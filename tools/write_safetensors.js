// A writer that emits what the reference writer emits (docs/reference-rules.md, "What
// the reference writer emits"): tensors sorted by dtype descending then name,
// packed from 0, compact JSON with __metadata__ first, header space-padded to 8.
// Used by the tests, the benchmarks, the demo's sample file and the fuzzers' seeds, until
// the package has a writer of its own.

// The reference's Dtype declaration order; the writer sorts by it, descending. Written
// here independently of the core's dtype table on purpose: tests use this writer and this
// list as an oracle for what the core reads.
export const DTYPE_ORDER = [
  'BOOL',
  'F4',
  'F6_E2M3',
  'F6_E3M2',
  'U8',
  'I8',
  'F8_E5M2',
  'F8_E4M3',
  'F8_E8M0',
  'F8_E4M3FNUZ',
  'F8_E5M2FNUZ',
  'I16',
  'U16',
  'F16',
  'BF16',
  'I32',
  'U32',
  'F32',
  'C64',
  'F64',
  'I64',
  'U64',
];

const encoder = new TextEncoder();

/** 8-byte length prefix + header text (as given, no padding) + data bytes. */
export function rawFile(headerText, data = 0) {
  const header = encoder.encode(headerText);
  const body = typeof data === 'number' ? new Uint8Array(data) : data;
  const file = new Uint8Array(8 + header.byteLength + body.byteLength);
  new DataView(file.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  file.set(header, 8);
  file.set(body, 8 + header.byteLength);
  return file;
}

/**
 * @param {{ name: string, dtype: string, shape: number[], data: Uint8Array }[]} tensors
 * @param {Record<string, string> | null} [metadata]
 * @returns {Uint8Array} the whole file
 */
export function writeSafetensors(tensors, metadata = null) {
  const rank = (dtype) => DTYPE_ORDER.indexOf(dtype);
  // Names in byte order of their UTF-8, as Rust compares strings (JS's < compares UTF-16 units,
  // which puts U+10000 and above before U+E000..U+FFFF).
  const utf8 = (name) => encoder.encode(name);
  const byBytes = (a, b) => {
    const x = utf8(a);
    const y = utf8(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const sorted = [...tensors].sort((a, b) => rank(b.dtype) - rank(a.dtype) || byBytes(a.name, b.name));
  const parts = [];
  if (metadata) parts.push(`"__metadata__":${JSON.stringify(metadata)}`);
  let offset = 0;
  for (const t of sorted) {
    const end = offset + t.data.byteLength;
    parts.push(
      `${JSON.stringify(t.name)}:{"dtype":"${t.dtype}","shape":${JSON.stringify(t.shape)},"data_offsets":[${offset},${end}]}`,
    );
    offset = end;
  }
  let header = encoder.encode(`{${parts.join(',')}}`);
  const padding = (8 - (header.byteLength % 8)) % 8;
  if (padding) header = encoder.encode(`{${parts.join(',')}}${' '.repeat(padding)}`);
  const file = new Uint8Array(8 + header.byteLength + offset);
  new DataView(file.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  file.set(header, 8);
  let at = 8 + header.byteLength;
  for (const t of sorted) {
    file.set(t.data, at);
    at += t.data.byteLength;
  }
  return file;
}

/** Deterministic pseudo-random bytes (xorshift32), for tensor data. */
export function pseudoRandomBytes(length, seed = 1) {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}
