// The floor under every decode that returns a new array: its fresh memory, mapped by the kernel
// page by page as it is first written. On the project's build machine (a VM) each 4 KiB page
// fault costs about 12 µs (a C program: 190 ms to touch 64 MiB page by page, 13 ms with
// MAP_POPULATE), so a new 64 MiB Float32Array costs 190-250 ms before its first value; on
// bare metal it is a tenth of that. Used by the Node and Chromium decode benchmarks.

export const ALLOCATION_FLOOR = 'allocation floor: new Float32Array, each 4 KiB page written once';

/** Writes one float per 4 KiB page of `array` (every page faulted in) and returns it. */
export function firstTouch(array) {
  for (let i = 0; i < array.length; i += 1024) array[i] = 0;
  return array;
}

/**
 * A line comparing `ours` with `baseline` once the floor both pay is taken away.
 * @param {Record<string, number>} medians
 * @param {string} ours
 * @param {string} baseline
 */
export function beyondFloor(medians, ours, baseline) {
  const floor = medians[ALLOCATION_FLOOR];
  const over = (medians[ours] - floor) / (medians[baseline] - floor);
  return (
    `The allocation floor is ${(floor / medians[baseline]).toFixed(2)}x the plain JS time; ` +
    `beyond it, getTensor takes ${over.toFixed(2)}x the plain JS time.`
  );
}
