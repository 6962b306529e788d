// safetensors-wasm: open a .safetensors file (header, metadata, tensors, model card, hashes),
// validate it, open sharded models and diffusers pipelines, write files. This module only
// puts the package together; each part lives in the folder named for its concern.
// What opening a file needs is imported here. Every other part loads on its first call:
// sharded models, pipelines, diff, check-adapter, Civitai, ML-BOM, signatures and the pickle
// scan from ./extras.js, validateSafetensors and openCheckpoint from modules of their own. A
// page importing the package then parses only the open path's code before its first card
// (issue 39: the package's import had been 40% of a cold first card).
import { openFile } from './file/open_file.js';
import { checkOptions } from './file/options.js';

export { initSafetensors } from './core/modules.js';
export { preload } from './file/preload.js';
export { SafetensorsError } from './core/errors.js';
export { serializeSafetensors, writeSafetensors } from './write/writer.js';

/** The rest of the package (./extras.js), loaded once, on the first call that needs it. */
const extras = () => import('./extras.js');

/**
 * Says whether the reference loader accepts the file and what else is worth knowing about it
 * (web/file/validate_file.js).
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').ValidateOptions} [options]
 * @returns {Promise<import('./index.js').ValidationReport>}
 */
export async function validateSafetensors(input, options = {}) {
  return (await import('./file/validate_file.js')).validateSafetensors(input, options);
}

/**
 * Opens a sharded checkpoint (an index.json and its shards) as one model (web/sharded/open_index.js).
 * @param {unknown} source
 * @param {import('./index.js').IndexOptions} [options]
 * @returns {Promise<import('./index.js').ShardedModel>}
 */
export async function openSafetensorsIndex(source, options = {}) {
  return (await extras()).openSafetensorsIndex(source, options);
}

/**
 * Whether `source` names a diffusers pipeline (web/sharded/pipeline_files.js).
 * @param {unknown} source
 * @returns {Promise<boolean>}
 */
export async function isPipelineSource(source) {
  return (await extras()).isPipelineSource(source);
}

/**
 * Looks a file's hash up on Civitai (web/card/civitai.js).
 * @param {string} hash
 * @param {import('./index.js').CivitaiLookupOptions} [options]
 * @returns {Promise<import('./index.js').CivitaiModelVersion | null>}
 */
export async function lookupCivitai(hash, options = {}) {
  return (await extras()).lookupCivitai(hash, options);
}

/**
 * A CycloneDX ML-BOM of a model (web/bom/bom.js).
 * @param {unknown} model
 * @param {import('./index.js').ModelBomOptions} [options]
 * @returns {Promise<import('./index.js').CycloneDxBom>}
 */
export async function createModelBom(model, options = {}) {
  return (await extras()).createModelBom(model, options);
}

/**
 * Verifies a model's OpenSSF model-signing signature (web/signing/verify_signature.js).
 * @param {unknown} model
 * @param {import('./signing/types.js').VerifySignatureOptions} options
 * @returns {Promise<import('./signing/types.js').SignatureVerification>}
 */
export async function verifyModelSignature(model, options) {
  return (await extras()).verifyModelSignature(model, options);
}

/**
 * Scans a PyTorch checkpoint, a pickle or a NumPy file without running it (web/pickle/scan_pickle.js).
 * @param {unknown} source
 * @returns {Promise<import('./pickle/types.js').PickleScan>}
 */
export async function scanPickle(source) {
  return (await extras()).scanPickle(source);
}

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
  const { openPipeline } = await extras();
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
  const { diffCheckpoints, openSide } = await extras();
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
  const { checkAdapterSides } = await extras();
  return checkAdapterSides(adapter, base, checkOptions(options), openSafetensorsIndex);
}
