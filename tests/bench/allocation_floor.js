// The floor under every decode that returns a new array: its fresh memory, mapped by the kernel
// page by page as it is first written. On the project's build machine (a VM) each 4 KiB page
// fault costs about 12 µs (a C program: 190 ms to touch 64 MiB page by page, 13 ms with
// MAP_POPULATE), so a new 64 MiB Float32Array costs 190-250 ms before its first value; on
// bare metal it is a tenth of that. Used by the Node and Chromium decode benchmarks.

export const ALLOCATION_FLOOR = 'allocation floor: new Float32Array, each 4 KiB page written once';

/** The Chromium benchmark's variant of getTensor's reads alone, the chunks left untouched. */
export const OUR_READS = "read only: BYOB reads into two reused buffers (getTensor's reads)";

/** Both of those in one pass: each chunk read, then its share of a new Float32Array's pages written. */
export const READS_AND_FLOOR =
  "read only, a new Float32Array's pages written as each chunk comes (getTensor's reads + the floor)";

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

/**
 * The allocation floor plus getTensor's reads alone, in whatever unit `figure` gives a row in
 * (ms, or a ratio to one baseline): the Chromium benchmark's line and make bench-check's row.
 * @param {(row: string) => number} figure
 */
export function floorAndReads(figure) {
  return figure(ALLOCATION_FLOOR) + figure(OUR_READS);
}

/**
 * A line comparing `ours` with the floor plus `ours`' reads alone: on one page thread the two
 * run one after the other (the first writes to fresh pages and the copies out of the Blob's
 * data pipe both take that thread), so no decode into a new array reading this way takes less.
 * @param {Record<string, number>} medians
 * @param {string} ours
 * @param {string} baseline
 */
export function beyondFloorAndReads(medians, ours, baseline) {
  const least = floorAndReads((row) => medians[row]);
  return (
    `The allocation floor plus getTensor's reads alone is ${(least / medians[baseline]).toFixed(2)}x the plain JS time; ` +
    `in one pass the two take ${(medians[READS_AND_FLOOR] / least).toFixed(2)}x that sum, getTensor ${(medians[ours] / least).toFixed(2)}x.`
  );
}
