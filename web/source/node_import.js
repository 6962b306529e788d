// Node's file access (node_files.js) for code that also runs in browsers: imported through a
// variable specifier, which keeps bundlers from following it into node:fs.

/** @returns {Promise<typeof import('./node_files.js')>} */
export function nodeFiles() {
  const specifier = './node_files.js';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
}
