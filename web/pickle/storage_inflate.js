// A deflated storage record of a torch zip (a checkpoint re-zipped with compression), read as a
// stream: the compressed bytes are read chunk by chunk and inflated with
// DecompressionStream('deflate-raw') (browsers, Node 20), and only the wanted range of the
// inflated bytes is kept or passed on. Every inflated byte goes through CRC-32, and the total
// length and the CRC are checked against the zip directory's (APPNOTE.TXT 4.4.7-4.4.9): a
// mismatch, or data that is not deflate, is a CorruptStorage error.
import { SafetensorsError, errorText } from '../core/errors.js';

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zip uses) by bytes, one table. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The running CRC-32 after `bytes` (start with 0; the result is the CRC of all bytes so far).
 * @param {number} crc
 * @param {Uint8Array} bytes
 */
export function crc32(crc, bytes) {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** @typedef {{ key: string, offset: number, bytes: number, size: number, crc32: number }} DeflatedStorage */

/**
 * @param {string} tensor
 * @param {DeflatedStorage} storage
 * @param {string} why
 * @param {unknown} [cause]
 */
const corrupt = (tensor, storage, why, cause) =>
  new SafetensorsError(
    'CorruptStorage',
    `tensor ${JSON.stringify(tensor)} cannot be read: its deflated storage ${JSON.stringify(storage.key)} ${why}`,
    { tensor, cause },
  );

/**
 * The inflated bytes of `storage`, chunk by chunk, from the compressed bytes `compressed`.
 * @param {AsyncIterable<Uint8Array>} compressed
 * @returns {AsyncGenerator<Uint8Array>}
 */
async function* inflate(compressed) {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let failed = /** @type {unknown} */ (null);
  const feeding = (async () => {
    try {
      for await (const chunk of compressed) {
        await writer.ready;
        await writer.write(chunk.slice()); // a source's chunk may be a reused buffer
      }
      await writer.close();
    } catch (error) {
      failed = error;
      await writer.abort(error).catch(() => {});
    }
  })();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield value;
    }
    await feeding;
    if (failed) throw failed;
  } finally {
    reader.cancel().catch(() => {});
    await feeding;
  }
}

/**
 * The inflated bytes [begin, end) of a deflated storage, in chunks, after the whole record has
 * been inflated and checked (its length and CRC-32; the last chunk is yielded only then, so a
 * consumer writing them never finishes on bad data). Holds one chunk at a time.
 * @param {Pick<import('../source/byte_source.js').ByteSource, 'chunks'>} bytes
 * @param {DeflatedStorage} storage
 * @param {number} begin
 * @param {number} end
 * @param {string} tensor the tensor's name, for errors
 * @returns {AsyncGenerator<Uint8Array>}
 */
export async function* inflatedRange(bytes, storage, begin, end, tensor) {
  let at = 0;
  let crc = 0;
  /** @type {Uint8Array | null} */
  let held = null;
  try {
    for await (const chunk of inflate(bytes.chunks(storage.offset, storage.bytes))) {
      if (chunk.byteLength > storage.size - at)
        throw corrupt(tensor, storage, `inflates to more than the ${storage.size} bytes the zip directory says`);
      crc = crc32(crc, chunk);
      const from = Math.max(begin - at, 0);
      const to = Math.min(end - at, chunk.byteLength);
      at += chunk.byteLength;
      if (to <= from) continue;
      if (held) yield held;
      held = chunk.subarray(from, to);
    }
  } catch (error) {
    if (error instanceof SafetensorsError) throw error;
    throw corrupt(tensor, storage, `is not valid deflate data (${errorText(error)})`, error);
  }
  if (at !== storage.size)
    throw corrupt(tensor, storage, `inflates to ${at} bytes, not the ${storage.size} the zip directory says`);
  if (crc !== storage.crc32) {
    const hex = (/** @type {number} */ n) => n.toString(16).padStart(8, '0');
    throw corrupt(tensor, storage, `has CRC-32 ${hex(crc)}, not the ${hex(storage.crc32)} the zip directory says`);
  }
  if (held) yield held;
}

/**
 * The inflated bytes [begin, end) of a deflated storage as one array (checked as inflatedRange).
 * @param {Pick<import('../source/byte_source.js').ByteSource, 'chunks'>} bytes
 * @param {DeflatedStorage} storage
 * @param {number} begin
 * @param {number} end
 * @param {string} tensor
 */
export async function readInflated(bytes, storage, begin, end, tensor) {
  const out = new Uint8Array(end - begin);
  let at = 0;
  for await (const chunk of inflatedRange(bytes, storage, begin, end, tensor)) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
