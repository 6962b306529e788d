// An independent decoding of tensor bytes for the tests, written from the format
// definitions with plain JS arithmetic (no code shared with the library).

const pow2 = (e) => 2 ** e;

/** Value of a sign/exponent/mantissa code; `special(code)` may return a value or undefined. */
function fromFields(code, expBits, manBits, bias, special) {
  const forced = special(code);
  if (forced !== undefined) return forced;
  const sign = (code >> (expBits + manBits)) & 1 ? -1 : 1;
  const e = (code >> manBits) & ((1 << expBits) - 1);
  const m = code & ((1 << manBits) - 1);
  const magnitude = e === 0 ? (m / pow2(manBits)) * pow2(1 - bias) : (1 + m / pow2(manBits)) * pow2(e - bias);
  return sign * magnitude;
}

const none = () => undefined;
const ieee = (expBits, manBits) => (code) => {
  const e = (code >> manBits) & ((1 << expBits) - 1);
  if (e !== (1 << expBits) - 1) return undefined;
  if ((code & ((1 << manBits) - 1)) !== 0) return NaN;
  return (code >> (expBits + manBits)) & 1 ? -Infinity : Infinity;
};

/** Code → value for each small float dtype (F16 and BF16 take 16-bit codes). */
export const SMALL_FLOATS = {
  F16: (c) => fromFields(c, 5, 10, 15, ieee(5, 10)),
  BF16: (c) => fromFields(c, 8, 7, 127, ieee(8, 7)),
  F8_E5M2: (c) => fromFields(c, 5, 2, 15, ieee(5, 2)),
  F8_E4M3: (c) => fromFields(c, 4, 3, 7, (x) => ((x & 0x7f) === 0x7f ? NaN : undefined)),
  F8_E4M3FNUZ: (c) => fromFields(c, 4, 3, 8, (x) => (x === 0x80 ? NaN : undefined)),
  F8_E5M2FNUZ: (c) => fromFields(c, 5, 2, 16, (x) => (x === 0x80 ? NaN : undefined)),
  F8_E8M0: (c) => (c === 0xff ? NaN : pow2(c - 127)),
  F4: (c) => fromFields(c, 2, 1, 1, none),
};

/** A BigInt rounded once to the nearest float32 (ties to even), without passing through a double. */
export function bigintToFloat32(value) {
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  const width = magnitude.toString(2).length;
  if (width > 24) {
    const drop = BigInt(width - 24);
    const kept = magnitude >> drop;
    const rest = magnitude - (kept << drop);
    const half = 1n << (drop - 1n);
    const up = rest > half || (rest === half && (kept & 1n) === 1n);
    magnitude = (kept + (up ? 1n : 0n)) << drop;
  }
  const result = Number(magnitude); // exact: at most 24 significant bits
  return negative ? -result : result;
}

/**
 * Decodes `bytes` of a tensor into plain JS numbers (or BigInts for I64/U64), as
 * `float32` would (wider values rounded with Math.fround) when `float32` is true.
 */
export function referenceDecode(dtype, bytes, float32 = false) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  const round = float32 ? Math.fround : (x) => x;
  const each = (size, get) => {
    for (let at = 0; at < bytes.byteLength; at += size) out.push(get(at));
  };
  switch (dtype) {
    case 'F16':
    case 'BF16':
      each(2, (at) => SMALL_FLOATS[dtype](view.getUint16(at, true)));
      break;
    case 'F4':
      each(1, (at) => SMALL_FLOATS.F4(bytes[at] & 15));
      // Two per byte, low nibble first: interleave the high nibbles back in.
      return out.flatMap((low, i) => [low, SMALL_FLOATS.F4(bytes[i] >> 4)]);
    case 'F32':
      each(4, (at) => view.getFloat32(at, true));
      break;
    case 'C64':
      each(4, (at) => view.getFloat32(at, true));
      break;
    case 'F64':
      each(8, (at) => round(view.getFloat64(at, true)));
      break;
    case 'BOOL':
      each(1, (at) => (bytes[at] ? 1 : 0));
      break;
    case 'U8':
      each(1, (at) => view.getUint8(at));
      break;
    case 'I8':
      each(1, (at) => view.getInt8(at));
      break;
    case 'U16':
      each(2, (at) => view.getUint16(at, true));
      break;
    case 'I16':
      each(2, (at) => view.getInt16(at, true));
      break;
    case 'U32':
      each(4, (at) => round(view.getUint32(at, true)));
      break;
    case 'I32':
      each(4, (at) => round(view.getInt32(at, true)));
      break;
    case 'U64':
      each(8, (at) => (float32 ? bigintToFloat32(view.getBigUint64(at, true)) : view.getBigUint64(at, true)));
      break;
    case 'I64':
      each(8, (at) => (float32 ? bigintToFloat32(view.getBigInt64(at, true)) : view.getBigInt64(at, true)));
      break;
    default:
      if (dtype in SMALL_FLOATS) each(1, (at) => SMALL_FLOATS[dtype](bytes[at]));
      else throw new Error(`no reference decoding for ${dtype}`);
  }
  return out;
}

/** Index of the first element where `got` differs from `want` (NaN matches NaN; -0 is not 0), or -1. */
export function firstMismatch(got, want) {
  if (got.length !== want.length) return Math.min(got.length, want.length);
  for (let i = 0; i < want.length; i++) {
    const a = got[i];
    const b = want[i];
    if (!(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)))) return i;
  }
  return -1;
}
