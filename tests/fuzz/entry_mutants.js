// Seeded mutants of safetensors files for the entry-point fuzz pass (entry_points.fuzz.js):
// byte flips, header-length edits, truncations, data_offsets edits and header JSON edits, each
// from a deterministic generator so that a failing mutant can be made again from its seed.

import { rawFile } from '../../tools/write_safetensors.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * mulberry32: a small deterministic generator of floats in [0, 1).
 * @param {number} seed
 */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The header's length N from the first 8 bytes, when it fits the file; else null. */
function headerLength(/** @type {Uint8Array} */ file) {
  if (file.byteLength < 8) return null;
  const n = new DataView(file.buffer, file.byteOffset, 8).getBigUint64(0, true);
  return n <= BigInt(file.byteLength - 8) ? Number(n) : null;
}

/** `file` with its header replaced by `text` (the length prefix rewritten), data kept. */
function withHeaderText(/** @type {Uint8Array} */ file, /** @type {string} */ text, /** @type {number} */ n) {
  const header = encoder.encode(text);
  const data = file.subarray(8 + n);
  const out = new Uint8Array(8 + header.byteLength + data.byteLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  out.set(header, 8);
  out.set(data, 8 + header.byteLength);
  return out;
}

const BIG_OFFSETS = [
  '0',
  '1',
  '7',
  '4294967296',
  '9007199254740993',
  '18446744073709551615',
  '18446744073709551616',
  '-1',
  '1.5',
  '1e3',
];
const DTYPES = ['F16', 'BF16', 'F32', 'F64', 'I8', 'U8', 'BOOL', 'F8_E4M3', 'F4', 'C64', 'Q4', ''];

const pick = (/** @type {() => number} */ rand, /** @type {any[]} */ list) => list[Math.floor(rand() * list.length)];

/** @type {Record<string, (file: Uint8Array, rand: () => number) => Uint8Array | null>} */
const MUTATIONS = {
  byteflip(file, rand) {
    const out = file.slice();
    const n = headerLength(file) ?? Math.max(0, file.byteLength - 8);
    const span = Math.max(1, Math.min(out.byteLength, 8 + n + 16)); // mostly the prefix and header
    for (let k = 1 + Math.floor(rand() * 4); k > 0 && out.byteLength; k--) {
      out[Math.floor(rand() * span) % out.byteLength] ^= 1 << Math.floor(rand() * 8);
    }
    return out;
  },
  length(file, rand) {
    if (file.byteLength < 8) return null;
    const out = file.slice();
    const n = new DataView(out.buffer).getBigUint64(0, true);
    const choices = [n + 1n, n - 1n, n + 8n, 0n, 2n, BigInt(out.byteLength), 100_000_001n, 2n ** 64n - 1n, n * 2n];
    const v = pick(rand, choices);
    new DataView(out.buffer).setBigUint64(0, ((v % 2n ** 64n) + 2n ** 64n) % 2n ** 64n, true);
    return out;
  },
  truncate(file, rand) {
    if (file.byteLength === 0) return null;
    const n = headerLength(file);
    const cuts = [Math.floor(rand() * file.byteLength), 7, 8 + Math.floor(rand() * ((n ?? 0) + 1))];
    if (n !== null) cuts.push(8 + n, 8 + n + 1, file.byteLength - 1);
    return file.slice(0, Math.max(0, Math.min(file.byteLength - 1, pick(rand, cuts))));
  },
  offsets(file, rand) {
    const n = headerLength(file);
    if (n === null) return null;
    const text = decoder.decode(file.subarray(8, 8 + n));
    const found = [...text.matchAll(/"data_offsets"\s*:\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]/g)];
    if (!found.length) return null;
    const m = pick(rand, found);
    const [b, e] = [m[1], m[2]];
    const edits = [
      `[${e},${b}]`,
      `[${pick(rand, BIG_OFFSETS)},${e}]`,
      `[${b},${pick(rand, BIG_OFFSETS)}]`,
      `[${b}]`,
      `[${b},${e},${e}]`,
      `[${e},${e}]`,
    ];
    const idx = /** @type {number} */ (m.index);
    const edited = text.slice(0, idx) + `"data_offsets":${pick(rand, edits)}` + text.slice(idx + m[0].length);
    return withHeaderText(file, edited, n);
  },
  json(file, rand) {
    const n = headerLength(file);
    if (n === null) return null;
    let text = decoder.decode(file.subarray(8, 8 + n));
    const at = Math.floor(rand() * (text.length + 1));
    const edits = [
      () => text.slice(0, at) + text.slice(at + 1), // a character dropped
      () =>
        text.slice(0, at) +
        pick(rand, ['{', '}', '[', ']', ',', '"', ':', '\\', 'null', '\u00e9', '\ud800']) +
        text.slice(at),
      () => text.replace(/"dtype"\s*:\s*"[^"]*"/, `"dtype":"${pick(rand, DTYPES)}"`),
      () =>
        text.replace(
          /"shape"\s*:\s*\[[^\]]*\]/,
          `"shape":${pick(rand, ['[]', '[0]', '[1,1]', '[4294967296,4294967296]', '[18446744073709551615]', '[-1]', '[2,2,2,2,2,2,2,2,2,2]'])}`,
        ),
      () =>
        text.replace(
          /^\{/,
          `{"__metadata__":${pick(rand, ['{"format":"pt"}', '{"a":1}', 'null', '{"ss_network_dim":"x","ss_network_alpha":"1e400"}'])},`,
        ),
      () => {
        const keys = [...text.matchAll(/"([^"\\]{1,200})"\s*:\s*\{/g)];
        return keys.length ? text.replace(keys[0][0], `"${pick(rand, keys)[1]}":{`) : text; // a duplicate name
      },
    ];
    text = pick(rand, edits)();
    return withHeaderText(file, text, n);
  },
};

export const MUTATION_NAMES = Object.keys(MUTATIONS);

/**
 * The mutant number `index` of `file`: a mutation chosen and applied from the seed
 * (seed, index); null when that mutation does not apply to this file.
 * @param {Uint8Array} file
 * @param {number} seed
 * @param {number} index
 */
export function mutant(file, seed, index) {
  const rand = seeded((seed * 2654435761) ^ (index * 40503) ^ 0x9e3779b9);
  const name = MUTATION_NAMES[index % MUTATION_NAMES.length];
  return { name, bytes: MUTATIONS[name](file, rand) };
}

/**
 * Two crafted InvalidOffset files whose offsets are no byte range (issue 37): the card module
 * once refused their header table as a version mismatch (InternalError).
 */
export function invalidOffsetFiles() {
  return {
    begin_gt_end: rawFile('{"a":{"dtype":"U8","shape":[0],"data_offsets":[8,4]}}', 8),
    sum_offsets_u64max: rawFile(
      '{"a":{"dtype":"U8","shape":[1],"data_offsets":[18446744073709551614,18446744073709551615]}}',
      8,
    ),
  };
}
