// Tensor data for the decode benchmarks: codes shaped like trained weights (small
// magnitudes, both signs, a few zeros), so no path is favoured by odd bit patterns.
import { writeSafetensors } from '../js/write_safetensors.js';

/** `count` random F16 or BF16 codes of magnitude about 1e-4..1, or 8-bit E4M3 codes. */
export function weightCodes(dtype, count, seed = 7) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  if (dtype === 'F8_E4M3') {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const r = next();
      out[i] = (r & 0x80) | (((r >>> 8) % 9) << 3) | ((r >>> 16) & 7); // exponent 0..8
    }
    return out;
  }
  const out = new Uint16Array(count);
  const [expBase, manBits] = dtype === 'F16' ? [2, 10] : [114, 7];
  for (let i = 0; i < count; i++) {
    const r = next();
    const exponent = expBase + ((r >>> 16) % 14);
    out[i] = ((r & 1) << 15) | (exponent << manBits) | ((r >>> 1) & ((1 << manBits) - 1));
  }
  return new Uint8Array(out.buffer);
}

/** A whole .safetensors file holding one tensor "w" of `count` elements. */
export function singleTensorFile(dtype, count) {
  return writeSafetensors([{ name: 'w', dtype, shape: [count], data: weightCodes(dtype, count) }], { format: 'pt' });
}

/** The plain-JS way: a 65,536-entry table of every F16 code's float32 value. */
export function f16LookupTable() {
  const table = new Float32Array(65536);
  for (let c = 0; c < 65536; c++) {
    const e = (c >> 10) & 31;
    const m = c & 1023;
    const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
    table[c] = c & 0x8000 ? -v : v;
  }
  return table;
}
