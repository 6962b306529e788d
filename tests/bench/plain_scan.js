// The plain-JS way to scan 16-bit float codes (F16 or BF16), for the scan benchmarks
// in Node and in Chromium: one pass with integer tests on the codes.
const EXPONENT_MASK = { F16: 0x7c00, BF16: 0x7f80 };

/** Counts NaN, ±Inf and whether every value is ±0 in a Uint16Array of `dtype` codes. */
export function plainScan16(codes, dtype) {
  const exp = EXPONENT_MASK[dtype];
  let nan = 0;
  let posInf = 0;
  let negInf = 0;
  let any = 0;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    const mag = c & 0x7fff;
    any |= mag;
    if (mag >= exp) {
      if (mag > exp) nan++;
      else if (c === exp) posInf++;
      else negInf++;
    }
  }
  return { nan, posInf, negInf, allZero: any === 0 };
}
