// What <safetensors-card> shows for a source, found without touching the DOM: the source opened
// with the package's own functions (one file, a sharded model, a diffusers pipeline, a PyTorch
// checkpoint, or several separate files) and made an "answer": its verdict, its card and what
// the element's actions (hashes, data scan, conversion) read again.
import {
  SafetensorsError,
  isPipelineSource,
  openCheckpoint,
  openSafetensors,
  openSafetensorsIndex,
  openSafetensorsPipeline,
  validateSafetensors,
} from '../index.js';
import { commonFolder, folderOf, isBlob, pathOf } from '../source/picked_files.js';

/** Shard names as writers give them: model-00001-of-00006.safetensors. */
const SHARD_NAME = /-\d+-of-\d+\.safetensors$/;
/** What the core's NotSafetensors finding calls a pickle (cpp/analysis/foreign_format.h). */
const PICKLED = new Set(['pytorch-zip', 'pickle']);

/**
 * @typedef {import('../index.js').ValidationReport} ValidationReport
 * @typedef {import('../index.js').ModelCard} ModelCard
 * @typedef {import('../index.js').SafetensorsFile} SafetensorsFile
 * @typedef {import('../index.js').ShardedModel} ShardedModel
 * @typedef {import('../index.js').SafetensorsPipeline} SafetensorsPipeline
 * @typedef {import('../index.js').Checkpoint} Checkpoint
 * @typedef {import('../index.js').SafetensorsSource} SafetensorsSource
 * @typedef {{ signal: AbortSignal, onProgress: (done: number, total: number, unit: string) => void }} OpenContext
 *
 * @typedef {object} FileAnswer one .safetensors file (loadable or not)
 * @property {'file'} kind
 * @property {string} name
 * @property {SafetensorsSource} source what hashes and the data scan read again
 * @property {SafetensorsFile | null} opened null when the reference rejects the file
 * @property {ValidationReport} report
 * @property {ModelCard | null} card a rejected file whose header is read has its header's
 * @property {string | null} cardNote why the card is built from part of the header, or null
 * @property {number | null} size the file's size in bytes, where known
 *
 * @typedef {object} ModelAnswer a sharded model
 * @property {'model'} kind
 * @property {string} name
 * @property {ShardedModel} opened
 * @property {ValidationReport} report
 * @property {ModelCard} card
 * @property {{ name: string, report: ValidationReport, source: () => SafetensorsSource | null }[]} shards
 *
 * @typedef {object} CheckpointAnswer a PyTorch checkpoint or a pickle, never run
 * @property {'checkpoint'} kind
 * @property {string} name
 * @property {SafetensorsSource} source
 * @property {Checkpoint} opened
 * @property {Checkpoint} report its scan: verdict safe, unknown or unsafe
 * @property {ModelCard | null} card
 * @property {string | null} cardNote why there is no card, or null
 * @property {number | null} size
 *
 * @typedef {FileAnswer | ModelAnswer} PartAnswer what a pipeline's component or a folder's file is
 *
 * @typedef {object} PipelineAnswer a diffusers pipeline; one component shown at a time
 * @property {'pipeline'} kind
 * @property {string} name
 * @property {SafetensorsPipeline} opened
 * @property {ValidationReport} report every component's findings
 * @property {Map<string, ModelCard>} cards by component
 * @property {(name: string, context: OpenContext) => Promise<PartAnswer>} part
 *
 * @typedef {object} FilesAnswer several separate .safetensors files (a folder of LoRAs); one shown at a time
 * @property {'files'} kind
 * @property {string} name
 * @property {{ label: string, file: File, report: ValidationReport }[]} files
 * @property {ValidationReport} report every file's findings
 * @property {(index: number, context: OpenContext) => Promise<FileAnswer>} part
 *
 * @typedef {FileAnswer | ModelAnswer | CheckpointAnswer | PipelineAnswer | FilesAnswer} Answer
 */

const isHandle = (/** @type {any} */ v) =>
  v !== null && typeof v === 'object' && v.kind === 'file' && typeof v.getFile === 'function';

/**
 * One read of the header: the opened file, or for a rejected file the report its error carries.
 * @param {SafetensorsSource} source
 * @param {AbortSignal} signal
 * @param {Blob | string | null} [config] the config.json beside it (the card's KV cache)
 */
async function openOne(source, signal, config = null) {
  try {
    const st = await openSafetensors(source, { signal, config, preloadCard: true });
    return { st, report: st.report };
  } catch (error) {
    if (error instanceof SafetensorsError && error.report) return { st: null, report: error.report };
    throw error;
  }
}

/**
 * One .safetensors file; a pickle under any name (or by URL) becomes a checkpoint.
 * @param {SafetensorsSource} source
 * @param {string} name
 * @param {OpenContext} context
 * @param {Blob | string | null} [config]
 * @returns {Promise<FileAnswer | CheckpointAnswer>}
 */
export async function openFileAnswer(source, name, { signal }, config = null) {
  const { st, report } = await openOne(source, signal, config);
  signal.throwIfAborted();
  if (report.findings.some((f) => f.code === 'NotSafetensors' && f.format !== undefined && PICKLED.has(f.format)))
    return (await import('./open_others.js')).openCheckpointAnswer(
      api,
      source,
      name,
      { signal, onProgress: () => {} },
      false,
    );
  // A rejected file whose header was read still has its header's card (with a note when it is
  // built from part of the header: offsets that cannot be trusted).
  const described = !st && report.tensors > 0 ? await validateSafetensors(source, { describe: true, signal }) : null;
  const card = st ? await st.describe({ readAlpha: true, signal }) : (described?.card ?? null);
  signal.throwIfAborted();
  const size = st ? st.fileSize : isBlob(source) ? /** @type {Blob} */ (source).size : null;
  return { kind: 'file', name, source, opened: st, report, card, cardNote: described?.cardNote ?? null, size };
}

/**
 * The package's functions the openers of ./open_others.js call, given to them: a module
 * loaded with import() that imported ../index.js itself would make Rolldown (Vite 8) split the
 * package's open path into chunks of their own, which every page then fetches.
 * @typedef {typeof api} Api
 */
const api = { openCheckpoint, openFileAnswer, openSafetensorsIndex, openSafetensorsPipeline, validateSafetensors };

/**
 * Which answer picked or dropped files are: a pipeline (model_index.json), a sharded model (an
 * index, or shard-named files), one file (with the config.json beside it, for the KV cache), a
 * checkpoint, or separate files. One .safetensors file (the common case) opens here; the others
 * load their code first (./open_others.js).
 * @param {File[]} files
 * @param {string | null} folder the folder they came from, if one
 * @param {OpenContext} context
 * @returns {Promise<Answer>}
 */
async function openFilesOf(files, folder, context) {
  const weights = files.filter((f) => f.name.endsWith('.safetensors'));
  const indexes = files.filter((f) => f.name.endsWith('.safetensors.index.json'));
  const pipeline = files.some((f) => f.name === 'model_index.json') && (await isPipelineSource(files));
  const sharded = indexes.length > 0 || (weights.length > 1 && weights.every((f) => SHARD_NAME.test(f.name)));
  if (!pipeline && !sharded && weights.length === 1) {
    const [file] = weights;
    const config = files.find((f) => pathOf(f) === `${folderOf(pathOf(file))}config.json`) ?? null;
    return openFileAnswer(file, pathOf(file), context, config);
  }
  const others = await import('./open_others.js');
  if (pipeline) return others.openPipelineAnswer(api, files, folder ?? 'pipeline', context);
  if (sharded) return others.openModelAnswer(api, files, folder ?? (indexes[0] ?? weights[0]).name, context);
  if (weights.length === 0 && files.length === 1 && !files[0].name.endsWith('.json'))
    return others.openCheckpointAnswer(api, files[0], pathOf(files[0]), context, true); // .ckpt, .pt, .bin, .pkl, …
  if (weights.length === 0)
    throw new SafetensorsError(
      'UnsupportedSource',
      files.length === 1
        ? `${files[0].name} is not a .safetensors file (nor a folder, an index or a model_index.json)`
        : `none of the ${files.length} files given is a .safetensors file`,
    );
  return others.openFilesAnswer(api, weights, folder ?? `${weights.length} files`, context);
}

/**
 * Opens what <safetensors-card> was given.
 * @param {unknown} source a File or Blob, a FileSystemFileHandle, picked files (an array or a
 *   FileList), bytes, or an http(s) URL (a model_index.json: a pipeline; another .json: a sharded
 *   model's index; anything else one file)
 * @param {OpenContext & { folder?: string | null }} context
 * @returns {Promise<Answer>}
 */
export async function openAnswer(source, context) {
  if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) {
    const url = String(source);
    if (/\/model_index\.json(?:[?#]|$)/i.test(url))
      return (await import('./open_others.js')).openPipelineAnswer(api, url, url, context);
    if (/\.json(?:[?#]|$)/i.test(url))
      return (await import('./open_others.js')).openModelAnswer(api, url, url, context);
    return openFileAnswer(url, url, context);
  }
  if (isHandle(source)) {
    /** @type {File} */
    let file;
    try {
      file = await /** @type {FileSystemFileHandle} */ (source).getFile();
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new SafetensorsError(
        'ReadError',
        `the file handle could not be read (${why}): the page needs the user's permission`,
        { cause },
      );
    }
    return openFilesOf([file], null, context);
  }
  if (typeof FileList !== 'undefined' && source instanceof FileList) source = [...source];
  if (Array.isArray(source)) {
    if (source.length === 0 || !source.every((f) => typeof File !== 'undefined' && f instanceof File))
      throw new SafetensorsError(
        'UnsupportedSource',
        'an array given as the source must hold File objects (a pick or a drop), and at least one',
      );
    return openFilesOf(source, context.folder ?? commonFolder(source), context);
  }
  if (typeof File !== 'undefined' && source instanceof File) return openFilesOf([source], null, context);
  if (isBlob(source) || source instanceof ArrayBuffer || ArrayBuffer.isView(source))
    return openFileAnswer(/** @type {SafetensorsSource} */ (source), 'the file given', context);
  throw new SafetensorsError(
    'UnsupportedSource',
    `<safetensors-card> cannot open ${source === null ? 'null' : typeof source}: give it a File, a Blob, a FileSystemFileHandle, picked files or a URL`,
  );
}
