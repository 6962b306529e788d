// Helpers shared by the JS tests: the real fixtures folder and small file builders.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rawFile } from '../../tools/write_safetensors.js';

export { rawFile };

/**
 * Whether the fixture folder `dir` is there. Where it is absent, the tests that read it skip,
 * saying so; under CI=true (.ci/run in CI) this throws instead, failing the test file, so that CI
 * cannot pass without the fixtures.
 */
export function haveFixtures(dir) {
  if (existsSync(dir)) return true;
  if (process.env.CI === 'true') throw new Error(`${dir} is absent, and CI=true: CI must run the fixture tests`);
  console.warn(`skipped: the tests that read ${dir} (it is absent)`);
  return false;
}

/** ../shared/fixtures/real beside the project root, read in place. */
export const REAL_DIR = fileURLToPath(new URL('../../../shared/fixtures/real/', import.meta.url));
export const HAVE_REAL = haveFixtures(REAL_DIR);

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

/**
 * A file with tensors laid out in the order given, each after a U8 filler tensor of `gap`
 * bytes (named NAME.gap) when `gap` is set, and the header unpadded: tensors land at any
 * byte position, as with old writers and MLX.
 * @param {{ name: string, dtype: string, shape: number[], data: Uint8Array, gap?: number }[]} tensors
 */
export function layoutFile(tensors) {
  const all = tensors.flatMap((t) =>
    t.gap ? [{ name: `${t.name}.gap`, dtype: 'U8', shape: [t.gap], data: new Uint8Array(t.gap).fill(0xee) }, t] : [t],
  );
  let offset = 0;
  const entries = [];
  for (const t of all) {
    entries.push(
      `${JSON.stringify(t.name)}:{"dtype":"${t.dtype}","shape":${JSON.stringify(t.shape)},"data_offsets":[${offset},${offset + t.data.byteLength}]}`,
    );
    offset += t.data.byteLength;
  }
  const data = new Uint8Array(offset);
  offset = 0;
  for (const t of all) {
    data.set(t.data, offset);
    offset += t.data.byteLength;
  }
  return rawFile(`{${entries.join(',')}}`, data);
}

/** What `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
