// A new order of the variants for each round of a benchmark, the same in every run (seeded).
// In a fixed rotation, the garbage collections caused by one variant land on the same next
// variant every round, and that one looks slower than it is (BENCHMARKS.md, "Opening a header and the model card").
// No Node imports: the browser benchmarks use it too.

/**
 * @template T
 * @param {number} seed
 * @returns {(items: T[]) => T[]} a shuffled copy of `items` (Fisher-Yates), new at each call
 */
export function roundOrder(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  return (items) => {
    const order = [...items];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  };
}
