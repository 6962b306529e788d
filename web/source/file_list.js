// Picked or dropped files as a source: a FileList (an <input type=file>'s) or an array (of
// File objects, which the caller checks).

/**
 * @param {unknown} source
 * @returns {source is FileList | unknown[]}
 */
export function isFileList(source) {
  return Array.isArray(source) || (typeof FileList !== 'undefined' && source instanceof FileList);
}
