// Tensor data shaped like trained weights (small magnitudes, both signs, a few zeros), so
// that no decoding path is favoured by odd bit patterns: the demo's sample and the benchmarks.

/** `count` random F16 or BF16 codes of magnitude about 1e-4..1, or 8-bit E4M3 codes. */
export function weightCodes(dtype, count, seed = 7) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
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
