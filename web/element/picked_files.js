// Picked and dropped files as <safetensors-card> reads them: each file's path in its folder (a
// folder pick's or a drop's webkitRelativePath, else its name), the folder they share, and
// whether a source is a Blob.

/** A picked file's path in its folder (a folder pick or a drop), else its name. */
export const pathOf = (/** @type {File} */ f) => f.webkitRelativePath || f.name;

/** "a/b/c.json" → "a/b/"; a name without a folder → "". */
export const folderOf = (/** @type {string} */ path) => path.slice(0, path.lastIndexOf('/') + 1);

export const isBlob = (/** @type {unknown} */ v) => typeof Blob !== 'undefined' && v instanceof Blob;

/**
 * The folder picked or dropped files lie in (a folder pick's or drop's paths all start with it),
 * or null.
 * @param {File[]} files
 */
export function commonFolder(files) {
  const tops = new Set(files.map((f) => (pathOf(f).includes('/') ? pathOf(f).split('/')[0] : '')));
  const [top] = tops;
  return tops.size === 1 && top ? top : null;
}
