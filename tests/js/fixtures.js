// Helpers shared by the JS tests: the real fixtures folder and small file builders.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** ../shared/fixtures/real beside the project root, read in place. */
export const REAL_DIR = fileURLToPath(new URL('../../../shared/fixtures/real/', import.meta.url));
export const HAVE_REAL = existsSync(REAL_DIR);
if (!HAVE_REAL) console.warn(`real-fixture tests skipped: ${REAL_DIR} is absent`);

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

/** Only the 8 length bytes. */
export function lengthOnly(n) {
  const file = new Uint8Array(8);
  new DataView(file.buffer).setBigUint64(0, BigInt(n), true);
  return file;
}

/** A { size, read } source that records every read. */
export function recordingSource(bytes, size = bytes.byteLength) {
  const reads = [];
  return {
    reads,
    size,
    async read(offset, length) {
      reads.push([offset, length]);
      const out = new Uint8Array(length);
      out.set(bytes.subarray(offset, Math.min(offset + length, bytes.byteLength)));
      return out;
    },
  };
}
