// Tensor data for the decode benchmarks: codes shaped like trained weights
// (tools/weight_codes.js), so no path is favoured by odd bit patterns.
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { weightCodes } from '../../tools/weight_codes.js';

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
