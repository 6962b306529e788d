// The hashes of one read of a source (st.hash, validateSafetensors({ hash })): what a plan
// asks for, checked against the hashes the file's metadata claims.
import { openHashPass } from './hash_pass.js';
import { checkEmbeddedHashes } from './hash_checks.js';
import { readRanges } from '../source/read_ranges.js';

/**
 * Hashes `source` as `plan` says; with `scan` (the data scan of a loadable file), the same
 * read feeds it too.
 * @param {import('../core/wasm_module.js').Core} core
 * @param {{ chunks(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> }} source
 * @param {import('./hash_pass.js').HashPlan} plan
 * @param {import('../index.js').ModelCard['embeddedHashes']} claims
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @param {((hashing: Awaited<ReturnType<typeof openHashPass>>) => Promise<unknown>) | null} [scan]
 * @returns {Promise<import('../index.js').HashResult>}
 */
export async function hashSource(core, source, plan, claims, options, scan = null) {
  const pass = await openHashPass(plan);
  try {
    if (scan) await scan(pass);
    else await readRanges(source, pass.ranges, options, (chunk, at) => pass.push(chunk, at));
    const hashes = await pass.finish();
    const severity = core.severity('EmbeddedHashMismatch');
    return { ...hashes, ...checkEmbeddedHashes(claims, hashes, plan.size, severity) };
  } finally {
    pass.close();
  }
}
