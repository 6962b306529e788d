// convert --verify's comparison (web/cli/convert.js sameStreams): two streams of chunks are
// equal when their bytes are, whatever the chunk boundaries; a changed byte, a missing byte or
// an extra one makes them differ.
import { expect, test } from 'vitest';
import { sameStreams } from '../../web/cli/convert.js';

/** The bytes 0..n-1 (mod 256) cut at `cuts`, as a stream. */
async function* cut(/** @type {Uint8Array} */ bytes, /** @type {number[]} */ cuts) {
  let at = 0;
  for (const c of [...cuts, bytes.byteLength]) {
    yield bytes.subarray(at, c);
    at = c;
  }
}

const data = new Uint8Array(1000).map((_, i) => (i * 31) & 0xff);

test.each([
  [[], []],
  [[1, 2, 3], [500]],
  [[999], [0, 0, 10, 999]],
])('the same bytes cut at %j and %j are equal', async (a, b) => {
  expect(await sameStreams(cut(data, a), cut(data, b))).toBe(true);
});

test('a changed byte, a byte less or a byte more differs', async () => {
  const changed = data.slice();
  changed[777] ^= 1;
  expect(await sameStreams(cut(data, [500]), cut(changed, [300]))).toBe(false);
  expect(await sameStreams(cut(data, [500]), cut(data.subarray(0, 999), [500]))).toBe(false);
  expect(await sameStreams(cut(data.subarray(0, 999), [500]), cut(data, [500]))).toBe(false);
  expect(await sameStreams(cut(new Uint8Array(0), []), cut(new Uint8Array(0), []))).toBe(true);
});
