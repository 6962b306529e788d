// A strided view of a storage (torch's shape, stride and storage offset, in elements): the span
// of storage it covers, whether it is the storage's elements in row-major order, and its
// elements gathered in row-major order, in pieces.

/**
 * Where a view's elements are, relative to its first storage element (`start`), and how many
 * storage elements from `start` its bytes span.
 * @param {number[]} shape
 * @param {number[]} stride
 */
export function viewSpan(shape, stride) {
  let low = 0;
  let high = 0;
  for (let d = 0; d < shape.length; d++) {
    if (shape[d] === 0) return { low: 0, high: -1 };
    const reach = (shape[d] - 1) * stride[d];
    if (reach < 0) low += reach;
    else high += reach;
  }
  return { low, high };
}

/**
 * The view's elements in row-major order, gathered from `span` (the storage's bytes from
 * element `base`) one element of `size` bytes at a time, in pieces of at most `piece` bytes.
 * @param {Uint8Array} span
 * @param {number} base index in `span` (elements) of the view's first element
 * @param {number[]} shape
 * @param {number[]} stride
 * @param {number} size bytes per element
 * @param {number} piece
 * @returns {Generator<Uint8Array>}
 */
export function* gathered(span, base, shape, stride, size, piece) {
  const count = shape.reduce((a, b) => a * b, 1);
  const perPiece = Math.max(1, Math.floor(piece / size));
  const index = new Array(shape.length).fill(0);
  let at = base;
  for (let done = 0; done < count;) {
    const out = new Uint8Array(Math.min(perPiece, count - done) * size);
    for (let i = 0; i < out.byteLength; i += size) {
      out.set(span.subarray(at * size, at * size + size), i);
      for (let d = shape.length - 1; d >= 0; d--) {
        if (++index[d] < shape[d]) {
          at += stride[d];
          break;
        }
        at -= (shape[d] - 1) * stride[d];
        index[d] = 0;
      }
    }
    done += out.byteLength / size;
    yield out;
  }
}

/** Whether a view is its storage's elements in row-major order, from its offset. */
export function contiguous(/** @type {number[]} */ shape, /** @type {number[]} */ stride) {
  let expected = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] !== 1 && stride[d] !== expected) return false;
    expected *= shape[d];
  }
  return true;
}
