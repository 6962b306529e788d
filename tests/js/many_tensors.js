// Files of many one-byte tensors (issue 37: every entry point linear in the header), for
// tests/js/many_tensors.test.js and tests/bench/many_tensors.bench.js. Names carry zero-padded
// numbers, so that the data order is the names' byte order, as the reference writer lays a
// file out; ten tensors per block, so that the module tree has depth.
import { writeFile } from 'node:fs/promises';

/**
 * The name of tensor `i` of manyTensorsFile.
 * @param {number} i
 * @param {string} [prefix]
 */
export const tensorName = (i, prefix = 'model') =>
  `${prefix}.blocks.${String(Math.floor(i / 10)).padStart(6, '0')}.w${i % 10}`;

/**
 * A .safetensors file whose tensors are one byte each, in the order given (byte i is `byte(i)`).
 * @param {string[]} names
 * @param {string} dtype a one-byte dtype
 * @param {(name: string) => number[]} shapeOf of one element
 * @param {(i: number) => number} byte
 * @param {number} [tail] when above 0, a last U8 tensor "~tail" of this many zero bytes
 */
function oneByteFile(names, dtype, shapeOf, byte, tail = 0) {
  const n = names.length;
  const parts = ['{"__metadata__":{"format":"pt"}'];
  names.forEach((name, i) =>
    parts.push(`,"${name}":{"dtype":"${dtype}","shape":[${shapeOf(name)}],"data_offsets":[${i},${i + 1}]}`),
  );
  if (tail > 0) parts.push(`,"~tail":{"dtype":"U8","shape":[${tail}],"data_offsets":[${n},${n + tail}]}`);
  parts.push('}');
  let text = parts.join('');
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const header = new TextEncoder().encode(text);
  const file = new Uint8Array(8 + header.byteLength + n + tail);
  new DataView(file.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  file.set(header, 8);
  for (let i = 0; i < n; i++) file[8 + header.byteLength + i] = byte(i);
  return file;
}

/**
 * The file of `count` U8 tensors of shape [1], named by tensorName (byte i is `byte(i)`).
 * @param {number} count
 * @param {{ prefix?: string, byte?: (i: number) => number, tail?: number }} [options]
 *   tail: then one U8 tensor of this many zero bytes (a file long enough to hash in workers)
 */
export function manyTensorsFile(count, { prefix, byte = (i) => i & 255, tail = 0 } = {}) {
  return oneByteFile(
    Array.from({ length: count }, (_, i) => tensorName(i, prefix)),
    'U8',
    () => [1],
    byte,
    tail,
  );
}

/**
 * A PEFT LoRA and its base, `count` one-byte I8 tensors each: count / 2 linear layers, each a
 * [1, 1] weight and a [1] bias in the base, lora_A and lora_B ([1, 1]) in the adapter.
 * @param {number} count even
 */
export function manyTensorsAdapter(count) {
  const modules = Array.from(
    { length: count / 2 },
    (_, i) => `model.layers.${String(Math.floor(i / 10)).padStart(6, '0')}.mlp.l${i % 10}`,
  );
  return {
    base: oneByteFile(
      modules.flatMap((m) => [`${m}.bias`, `${m}.weight`]),
      'I8',
      (name) => (name.endsWith('.bias') ? [1] : [1, 1]),
      (i) => i & 127,
    ),
    adapter: oneByteFile(
      modules.flatMap((m) => [`base_model.model.${m}.lora_A.weight`, `base_model.model.${m}.lora_B.weight`]),
      'I8',
      () => [1, 1],
      () => 1,
    ),
  };
}

/**
 * Writes manyTensorsFile(count, { prefix }) to `path`; returns its size.
 * @param {string} path
 * @param {number} count
 * @param {string} [prefix]
 */
export async function writeManyTensors(path, count, prefix) {
  const bytes = manyTensorsFile(count, { prefix });
  await writeFile(path, bytes);
  return bytes.byteLength;
}
