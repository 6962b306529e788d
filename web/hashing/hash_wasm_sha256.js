// hash-wasm's SHA-256, and nothing else of it. Imported only through sha256Factory()
// (load_sha256.js): a bundler that inlines that dynamic import (Vite's workers) keeps this
// module's one export, not hash-wasm's every algorithm.
export { createSHA256 } from 'hash-wasm';
