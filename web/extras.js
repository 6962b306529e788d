// The parts of the package that opening a file does not need, in one module that web/index.js
// imports on the first call of any of them: a bundler makes one chunk of them (one chunk, not
// one per part: Rolldown splits the modules each part shares with the open path into chunks of
// their own, and a cold page would fetch them all on the package's import).
export { openSafetensorsIndex } from './sharded/open_index.js';
export { openPipeline } from './sharded/pipeline.js';
export { isPipelineSource } from './sharded/pipeline_files.js';
export { diffCheckpoints } from './compare/diff.js';
export { openSide } from './compare/open_side.js';
export { checkAdapterSides } from './compare/check_adapter.js';
export { lookupCivitai } from './card/civitai.js';
export { createModelBom } from './bom/bom.js';
export { verifyModelSignature } from './signing/verify_signature.js';
export { scanPickle } from './pickle/scan_pickle.js';
