// Where the package runs: Node (its main thread or a worker thread) or a browser.

/** True in Node (also in its worker threads). */
export function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string';
}
