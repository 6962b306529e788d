// Two tensor streams read side by side, in bounded memory: their pieces may be cut at
// different places, so each step hands over the stretch both sides have.

/** @typedef {Uint8Array | Float32Array | Float64Array} Values */

/**
 * Calls `pair(x, y)` with equal-length stretches of the two streams, in order, until either
 * ends. A stretch is a view valid only during the call (streamTensor's pieces are reused).
 * @param {AsyncIterator<{ values: ArrayBufferView }>} left
 * @param {AsyncIterator<{ values: ArrayBufferView }>} right
 * @param {(x: Values, y: Values) => void} pair
 */
export async function compareStreams(left, right, pair) {
  /** @type {Values | null} */ let x = null;
  /** @type {Values | null} */ let y = null;
  let i = 0;
  let j = 0;
  try {
    for (;;) {
      if (x === null || i >= x.length) {
        const next = await left.next();
        x = next.done ? null : /** @type {Values} */ (next.value.values);
        i = 0;
        if (x === null) break;
        continue;
      }
      if (y === null || j >= y.length) {
        const next = await right.next();
        y = next.done ? null : /** @type {Values} */ (next.value.values);
        j = 0;
        if (y === null) break;
        continue;
      }
      const n = Math.min(x.length - i, y.length - j);
      pair(x.subarray(i, i + n), y.subarray(j, j + n));
      i += n;
      j += n;
    }
  } finally {
    await Promise.all([left.return?.(), right.return?.()]);
  }
}

/**
 * Whether two byte stretches of equal length are equal (four bytes at a time where aligned).
 * @param {Uint8Array} x
 * @param {Uint8Array} y
 */
export function sameBytes(x, y) {
  let k = 0;
  if (x.byteOffset % 4 === 0 && y.byteOffset % 4 === 0) {
    const words = x.length >>> 2;
    const wx = new Uint32Array(x.buffer, x.byteOffset, words);
    const wy = new Uint32Array(y.buffer, y.byteOffset, words);
    for (; k < words; k++) if (wx[k] !== wy[k]) return false;
    k = words * 4;
  }
  for (; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}

/**
 * The element-wise difference of two float streams: `maxAbsDiff` over positions where both
 * are numbers (Infinity where only one side is NaN or the infinities differ), and how many
 * positions differ at all (NaN against NaN counts as equal).
 */
export function elementDiff() {
  let maxAbsDiff = 0;
  let differentElements = 0;
  return {
    /** @param {Values} x @param {Values} y */
    add(x, y) {
      for (let k = 0; k < x.length; k++) {
        const a = x[k];
        const b = y[k];
        if (a === b || (a !== a && b !== b)) continue; // equal, or both NaN
        differentElements += 1;
        const d = Math.abs(a - b);
        maxAbsDiff = Math.max(maxAbsDiff, d === d ? d : Infinity); // NaN - x, or inf - inf
      }
    },
    result: () => ({ maxAbsDiff, differentElements }),
  };
}
