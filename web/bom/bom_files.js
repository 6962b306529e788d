// The files of a model for its bill of materials, listed as a signature check lists them
// (listModel of model_files.js: a Node path, a Map, picked or dropped Files, a
// FileSystemDirectoryHandle, or one source), each named by its path in the model and sorted by
// name. One name differs: model_signing names a single-file model's one resource "."; the BOM's
// file component names the file (its own name, or model.safetensors when the source has none).
import { listModel } from '../model_files/model_files.js';

/**
 * @typedef {import('../model_files/model_files.js').ModelEntry} BomFile
 * @typedef {{ modelName: string, files: BomFile[], single: boolean }} BomModel
 *   single: a single-file model (whose resource a signature names ".")
 */

/** The name of a single-file model that has none of its own (bytes, a URL's Blob). */
export const SINGLE_FILE_NAME = 'model.safetensors';
/** The name of a folder model that has none (a Map). */
const FOLDER_NAME = 'model';

/**
 * The model's files, sorted by name.
 * @param {unknown} model
 * @returns {Promise<BomModel>}
 * @throws {TypeError} for what is not a model, or a model without files
 */
export async function listBomFiles(model) {
  const listed = await listModel(model, () => false, { allowSymlinks: false });
  if (listed.entries.length === 0) throw new TypeError('the model has no files');
  if (listed.single) {
    const name = listed.modelName || SINGLE_FILE_NAME;
    return { modelName: name, files: [{ ...listed.entries[0], name }], single: true };
  }
  const files = [...listed.entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { modelName: listed.modelName || FOLDER_NAME, files, single: false };
}
