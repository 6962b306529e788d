// safetensors-wasm: open a .safetensors file (header, metadata, tensors, model card, hashes),
// validate it, open sharded models and diffusers pipelines, write files. This module only
// puts the package together; each part lives in the folder named for its concern.
import { openFile } from './file/open_file.js';
import { checkOptions } from './file/options.js';
import { openSafetensorsIndex } from './sharded/open_index.js';
import { openPipeline } from './sharded/pipeline.js';
import { diffCheckpoints } from './compare/diff.js';
import { openSide } from './compare/open_side.js';
import { checkAdapterSides } from './compare/check_adapter.js';

export { initSafetensors } from './core/modules.js';
export { preload } from './file/preload.js';
export { SafetensorsError } from './core/errors.js';
export { validateSafetensors } from './file/validate.js';
export { serializeSafetensors, writeSafetensors } from './write/writer.js';
export { isPipelineSource } from './sharded/pipeline_files.js';
export { lookupCivitai } from './card/civitai.js';
export { createModelBom } from './bom/bom.js';
export { verifyModelSignature } from './signing/verify_signature.js';
export { scanPickle } from './pickle/scan_pickle.js';
export { openSafetensorsIndex };

/**
 * Opens a PyTorch checkpoint without running it: its scan, its tensors and getTensor. Its code
 * (web/pickle/open_checkpoint.js) loads on first use, so pages that open only .safetensors
 * files do not download it.
 * @param {unknown} source
 * @returns {Promise<import('./index.js').Checkpoint>}
 */
export async function openCheckpoint(source) {
  return (await import('./pickle/open_checkpoint.js')).openCheckpoint(source);
}

/**
 * Reads the header of a .safetensors file and returns its tensors and metadata, its
 * report, and getTensor() to read tensors. Only the first 8 + N bytes are read here.
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').OpenOptions} [options]
 * @returns {Promise<import('./index.js').SafetensorsFile>}
 * @throws {import('./core/errors.js').SafetensorsError} when the reference loader would reject the file (with `.report`)
 */
export async function openSafetensors(input, options = {}) {
  return openFile(input, options, true);
}

/**
 * Opens a diffusers pipeline (a folder whose model_index.json lists its components): each
 * component's checkpoint, one file or sharded, is opened and checked. Throws only when
 * model_index.json cannot be read; a missing or broken component gets findings.
 * @param {unknown} source a model_index.json URL, picked files (a folder pick), a path (Node)
 * @param {import('./index.js').PipelineOptions} [options]
 * @returns {Promise<import('./index.js').SafetensorsPipeline>}
 */
export async function openSafetensorsPipeline(source, options = {}) {
  return openPipeline(source, checkOptions(options), { openSafetensors, openSafetensorsIndex });
}

/**
 * What changed between two checkpoints (files or sharded models, opened or given as sources):
 * tensors added, removed and changed (dtype, shape; with `data` their bytes), metadata keys.
 * @param {unknown} a
 * @param {unknown} b
 * @param {import('./index.js').DiffOptions} [options]
 * @returns {Promise<import('./index.js').DiffResult>}
 */
export async function diffSafetensors(a, b, options = {}) {
  return diffCheckpoints(a, b, options, (side, sideOptions) =>
    openSide(side, sideOptions, { openSafetensors, openSafetensorsIndex }),
  );
}

/**
 * Whether an adapter fits a base model, from the two headers alone (no tensor data is read).
 * @param {unknown} adapter
 * @param {unknown} base
 * @param {import('./index.js').CheckAdapterOptions} [options]
 * @returns {Promise<import('./index.js').CheckAdapterResult>}
 */
export async function checkAdapter(adapter, base, options = {}) {
  return checkAdapterSides(adapter, base, checkOptions(options), openSafetensorsIndex);
}
