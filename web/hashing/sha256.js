// SHA-256 by platform: Node's own (node:crypto, OpenSSL, which uses the CPU's SHA extensions
// where it has them) in Node and its worker threads, hash-wasm in browsers. Both streaming.
// node:crypto is imported through a variable, so that bundlers never follow it; hash-wasm is
// given by the caller (this file imports neither, so that a worker script that imports hash-wasm
// statically does not also inline a dynamic import of all of it).

/**
 * SHA-256 over the pieces given to update(); digest() answers it (lowercase hex) and starts
 * the next one.
 * @typedef {{ update(bytes: Uint8Array): void, digest(): string }} Sha256
 */

/** @type {Promise<typeof import('node:crypto').createHash> | null} */
let nodeCreateHash = null;

async function loadNodeCrypto() {
  const crypto = 'node:crypto';
  /** @type {typeof import('node:crypto')} */
  const { createHash } = await import(/* @vite-ignore */ /* webpackIgnore: true */ crypto);
  return createHash;
}

/**
 * A fresh SHA-256 through node:crypto (Node only).
 * @returns {Promise<Sha256>}
 */
export async function nodeSha256() {
  nodeCreateHash ??= loadNodeCrypto();
  const createHash = await nodeCreateHash;
  let hash = createHash('sha256');
  return {
    update(bytes) {
      hash.update(bytes);
    },
    digest() {
      const hex = hash.digest('hex');
      hash = createHash('sha256');
      return hex;
    },
  };
}

/**
 * A fresh SHA-256 from hash-wasm's createSHA256.
 * @param {typeof import('hash-wasm').createSHA256} createSHA256
 * @returns {Promise<Sha256>}
 */
export async function wasmSha256(createSHA256) {
  const hasher = await createSHA256();
  hasher.init();
  return {
    update(bytes) {
      hasher.update(bytes);
    },
    digest() {
      const hex = hasher.digest('hex');
      hasher.init();
      return hex;
    },
  };
}
