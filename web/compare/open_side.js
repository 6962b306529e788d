// A side of a comparison given as a source: a sharded model when it is one (an index URL or
// path, picked files, a folder in Node, { index, resolve }), else one file.
import { sourceKind } from '../source/source_kind.js';

/**
 * @param {unknown} source
 * @param {object} options what openSafetensors or openSafetensorsIndex take
 * @param {{ openSafetensors: typeof import('../index.js').openSafetensors,
 *   openSafetensorsIndex: typeof import('../index.js').openSafetensorsIndex }} openers
 * @returns {Promise<import('./diff.js').Checkpoint>}
 */
export async function openSide(source, options, { openSafetensors, openSafetensorsIndex }) {
  if ((await sourceKind(source)) === 'model') return openSafetensorsIndex(/** @type {any} */ (source), options);
  return openSafetensors(/** @type {any} */ (source), options);
}
