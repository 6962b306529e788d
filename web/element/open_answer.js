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
import { shardUrl } from '../sharded/shard_index.js';

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

/** A picked file's path in its folder (a folder pick or a drop), else its name. */
export const pathOf = (/** @type {File} */ f) => f.webkitRelativePath || f.name;
const folderOf = (/** @type {string} */ path) => path.slice(0, path.lastIndexOf('/') + 1);
const isHandle = (/** @type {any} */ v) =>
  v !== null && typeof v === 'object' && v.kind === 'file' && typeof v.getFile === 'function';
const isBlob = (/** @type {unknown} */ v) => typeof Blob !== 'undefined' && v instanceof Blob;

/**
 * The report of several things at once (a model, a pipeline, a folder): loadable when no
 * finding is an error.
 * @param {import('../index.js').Finding[]} findings
 * @param {number} tensors
 * @returns {ValidationReport}
 */
function summaryReport(findings, tensors) {
  return { loadable: !findings.some((f) => f.severity === 'error'), referenceError: null, findings, tensors };
}

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
    return openCheckpointAnswer(source, name, { signal, onProgress: () => {} }, false);
  // A rejected file whose header was read still has its header's card (with a note when it is
  // built from part of the header: offsets that cannot be trusted).
  const described = !st && report.tensors > 0 ? await validateSafetensors(source, { describe: true, signal }) : null;
  const card = st ? await st.describe({ readAlpha: true, signal }) : (described?.card ?? null);
  signal.throwIfAborted();
  const size = st ? st.fileSize : isBlob(source) ? /** @type {Blob} */ (source).size : null;
  return { kind: 'file', name, source, opened: st, report, card, cardNote: described?.cardNote ?? null, size };
}

/**
 * A PyTorch checkpoint or a pickle; `orFile`: a file that is not a pickle after all is opened as
 * a .safetensors file instead, which says what it is.
 * @param {SafetensorsSource} source
 * @param {string} name
 * @param {OpenContext} context
 * @param {boolean} orFile
 * @returns {Promise<FileAnswer | CheckpointAnswer>}
 */
async function openCheckpointAnswer(source, name, context, orFile) {
  const ckpt = await openCheckpoint(source);
  context.signal.throwIfAborted();
  if (ckpt.format === 'not-pickle' && orFile) return openFileAnswer(source, name, context);
  /** @type {ModelCard | null} */
  let card = null;
  /** @type {string | null} */
  let cardNote = null;
  if (ckpt.format !== 'not-pickle') {
    try {
      card = await ckpt.describe();
    } catch (error) {
      cardNote = error instanceof Error ? error.message : String(error);
    }
  }
  context.signal.throwIfAborted();
  const size = isBlob(source) ? /** @type {Blob} */ (source).size : null;
  return { kind: 'checkpoint', name, source, opened: ckpt, report: ckpt, card, cardNote, size };
}

/**
 * A sharded model: an index URL or picked files (`anchor`: the index's path among them).
 * @param {string | File[]} source
 * @param {string} name
 * @param {OpenContext} context
 * @param {((path: string) => SafetensorsSource | null)} [locate] where a shard is, by its path in the folder
 * @returns {Promise<ModelAnswer>}
 */
async function openModelAnswer(source, name, { signal, onProgress }, locate = locator(source, indexPath(source))) {
  const model = await openSafetensorsIndex(source, {
    signal,
    onProgress: (done, total) => onProgress(done, total, 'shards'),
  });
  signal.throwIfAborted();
  return modelAnswer(model, name, locate, signal);
}

/**
 * @param {ShardedModel} model
 * @param {string} name
 * @param {(path: string) => SafetensorsSource | null} locate
 * @param {AbortSignal} signal
 * @returns {Promise<ModelAnswer>}
 */
async function modelAnswer(model, name, locate, signal) {
  const card = await model.describe({ signal });
  signal.throwIfAborted();
  const tensors = model.tensors.length;
  const shards = model.shards.map((s) => ({ name: s.name, report: s.report, source: () => locate(s.name) }));
  return { kind: 'model', name, opened: model, report: summaryReport(model.findings, tensors), card, shards };
}

/** The index's path among picked files (null for a URL, or without an index). */
function indexPath(/** @type {string | File[]} */ source) {
  if (typeof source === 'string') return null;
  const index = source.find((f) => f.name.endsWith('.safetensors.index.json'));
  return index ? pathOf(index) : null;
}

/**
 * Where the files of what is opened are, by their path in its folder: picked files next to
 * `anchor` (an index or model_index.json; none: the folder picked), or a URL's neighbours.
 * @param {string | File[]} source
 * @param {string | null} anchor
 * @returns {(path: string) => SafetensorsSource | null}
 */
function locator(source, anchor) {
  if (typeof source === 'string') return (path) => shardUrl(path, source);
  const byPath = new Map(source.map((f) => [pathOf(f), f]));
  const base = anchor ? folderOf(anchor) : '';
  return (path) => byPath.get(base + path) ?? null;
}

/**
 * A diffusers pipeline (its model_index.json URL, or picked files holding it).
 * @param {string | File[]} source
 * @param {string} name
 * @param {OpenContext} context
 * @returns {Promise<PipelineAnswer>}
 */
async function openPipelineAnswer(source, name, { signal, onProgress }) {
  const pipeline = await openSafetensorsPipeline(source, {
    signal,
    onProgress: (done, total) => onProgress(done, total, 'components'),
  });
  signal.throwIfAborted();
  const anchor =
    typeof source === 'string'
      ? null
      : source
          .map(pathOf)
          .filter((p) => p.split('/').pop() === 'model_index.json')
          .sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const locate = locator(source, anchor ?? null);
  /** @type {Map<string, ModelCard>} */
  const cards = new Map();
  for (const c of pipeline.components) if (c.model) cards.set(c.name, await c.model.describe());
  signal.throwIfAborted();
  const tensors = pipeline.components.reduce((sum, c) => sum + (c.model?.tensors.length ?? 0), 0);
  return {
    kind: 'pipeline',
    name,
    opened: pipeline,
    report: summaryReport(pipeline.findings, tensors),
    cards,
    async part(componentName, context) {
      const c = pipeline.components.find((x) => x.name === componentName);
      if (!c?.model || !c.path)
        throw new SafetensorsError('InvalidIndex', `the pipeline has no loadable component ${componentName}`);
      const title = `${name} › ${c.name}`;
      if ('shards' in c.model) {
        const folder = folderOf(c.path);
        return modelAnswer(c.model, title, (shard) => locate(folder + shard), context.signal);
      }
      const st = c.model;
      const card = await st.describe({ readAlpha: true, signal: context.signal });
      const source = locate(c.path) ?? String(c.path);
      return {
        kind: 'file',
        name: title,
        source,
        opened: st,
        report: st.report,
        card,
        cardNote: null,
        size: st.fileSize,
      };
    },
  };
}

/**
 * Several separate files (a folder of LoRAs): each one's verdict; one opened at a time.
 * @param {File[]} weights
 * @param {string} name
 * @param {OpenContext} context
 * @returns {Promise<FilesAnswer>}
 */
async function openFilesAnswer(weights, name, { signal, onProgress }) {
  const sorted = [...weights].sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
  const label = (/** @type {File} */ f) =>
    pathOf(f).startsWith(`${name}/`) ? pathOf(f).slice(name.length + 1) : pathOf(f);
  /** @type {FilesAnswer['files']} */
  const files = [];
  for (const [i, file] of sorted.entries()) {
    onProgress(i, sorted.length, 'files');
    files.push({ label: label(file), file, report: await validateSafetensors(file, { signal }) });
    signal.throwIfAborted();
  }
  const findings = files.flatMap((f) => f.report.findings.map((x) => ({ ...x, shard: x.shard ?? f.label })));
  return {
    kind: 'files',
    name,
    files,
    report: summaryReport(
      findings,
      files.reduce((sum, f) => sum + f.report.tensors, 0),
    ),
    part: (index, context) =>
      /** @type {Promise<FileAnswer>} */ (
        openFileAnswer(files[index].file, `${name} › ${files[index].label}`, context)
      ),
  };
}

/**
 * Which answer picked or dropped files are: a pipeline (model_index.json), a sharded model (an
 * index, or shard-named files), one file (with the config.json beside it, for the KV cache), a
 * checkpoint, or separate files.
 * @param {File[]} files
 * @param {string | null} folder the folder they came from, if one
 * @param {OpenContext} context
 * @returns {Promise<Answer>}
 */
async function openFilesOf(files, folder, context) {
  const weights = files.filter((f) => f.name.endsWith('.safetensors'));
  const indexes = files.filter((f) => f.name.endsWith('.safetensors.index.json'));
  if (await isPipelineSource(files)) return openPipelineAnswer(files, folder ?? 'pipeline', context);
  if (indexes.length > 0 || (weights.length > 1 && weights.every((f) => SHARD_NAME.test(f.name))))
    return openModelAnswer(files, folder ?? (indexes[0] ?? weights[0]).name, context);
  if (weights.length === 1) {
    const [file] = weights;
    const config = files.find((f) => pathOf(f) === `${folderOf(pathOf(file))}config.json`) ?? null;
    return openFileAnswer(file, pathOf(file), context, config);
  }
  if (weights.length === 0 && files.length === 1 && !files[0].name.endsWith('.json'))
    return openCheckpointAnswer(files[0], pathOf(files[0]), context, true); // .ckpt, .pt, .bin, .pkl, …
  if (weights.length === 0)
    throw new SafetensorsError(
      'UnsupportedSource',
      files.length === 1
        ? `${files[0].name} is not a .safetensors file (nor a folder, an index or a model_index.json)`
        : `none of the ${files.length} files given is a .safetensors file`,
    );
  return openFilesAnswer(weights, folder ?? `${weights.length} files`, context);
}

/**
 * The folder picked or dropped files lie in (a folder pick's or drop's paths all start with it),
 * or null.
 * @param {File[]} files
 */
function commonFolder(files) {
  const tops = new Set(files.map((f) => (pathOf(f).includes('/') ? pathOf(f).split('/')[0] : '')));
  const [top] = tops;
  return tops.size === 1 && top ? top : null;
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
    if (/\/model_index\.json(?:[?#]|$)/i.test(url)) return openPipelineAnswer(url, url, context);
    if (/\.json(?:[?#]|$)/i.test(url)) return openModelAnswer(url, url, context);
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
