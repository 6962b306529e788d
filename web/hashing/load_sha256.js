// Loading hash-wasm's SHA-256 (web/hashing/hash_wasm_sha256.js), for the lanes on this thread
// (sha256_lane.js) and in workers (hash_worker.js).
import { SafetensorsError, errorText } from '../core/errors.js';

/** hash-wasm's dist/index.esm.js, from this folder, where npm installs packages side by side. */
const HASH_WASM_BESIDE = ['..', '..', '..', 'hash-wasm', 'dist', 'index.esm.js'].join('/');

/**
 * hash-wasm's createSHA256, loaded on the first hash only. Bundlers and Node resolve the
 * package by name; a page without a bundler (or a module worker, which import maps do not
 * reach) cannot, and then it is loaded from beside this package (node_modules/hash-wasm).
 * The path is built at run time so that bundlers neither follow nor copy it.
 * @returns {Promise<typeof import('hash-wasm').createSHA256>}
 */
export async function sha256Factory() {
  try {
    return (await import('./hash_wasm_sha256.js')).createSHA256;
  } catch (error) {
    const here = import.meta.url; // not written inside new URL(): bundlers would try to follow it
    const beside = new URL(HASH_WASM_BESIDE, here).href;
    try {
      return (await import(/* @vite-ignore */ /* webpackIgnore: true */ beside)).createSHA256;
    } catch {
      throw new SafetensorsError(
        'InitError',
        `hash-wasm (SHA-256) could not be loaded: ${errorText(error)}; not at ${beside} either. Without a bundler, map it in the page: <script type="importmap">{ "imports": { "hash-wasm": "/node_modules/hash-wasm/dist/index.esm.js" } }</script>`,
      );
    }
  }
}
