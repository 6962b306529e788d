// Header-only .safetensors files for checkAdapter's tests: a header whole and no data (a file cut
// short), which is all checkAdapter reads.

/** @typedef {{ name: string, dtype: string, shape: number[] }} HeaderTensor */

/**
 * A header-only .safetensors file of `tensors` (F16 unless named): 8 + N bytes, no data.
 * @param {HeaderTensor[] | [string, number[]][]} tensors
 */
export function headerOnly(tensors) {
  /** @type {Record<string, unknown>} */
  const header = {};
  let offset = 0;
  for (const t of tensors) {
    const [name, shape, dtype] = Array.isArray(t) ? [t[0], t[1], 'F16'] : [t.name, t.shape, t.dtype];
    const bytes = shape.reduce((a, b) => a * b, 1) * (dtype === 'F32' ? 4 : 2);
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = Buffer.from(JSON.stringify(header));
  const out = Buffer.alloc(8 + json.length);
  out.writeBigUInt64LE(BigInt(json.length), 0);
  json.copy(out, 8);
  return new Uint8Array(out);
}

export /** A header-only adapter of LoRA pairs: [module, r, in, out] each, with the given suffixes. */
function loraFile(
  /** @type {[string, number, number, number][]} */ modules,
  down = 'lora_down.weight',
  up = 'lora_up.weight',
) {
  return headerOnly(
    modules.flatMap(([m, r, i, o]) => [
      [`${m}.${down}`, [r, i]],
      [`${m}.${up}`, [o, r]],
    ]),
  );
}
