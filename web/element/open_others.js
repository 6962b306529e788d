// What <safetensors-card> shows for the sources that are not one .safetensors file: a PyTorch
// checkpoint or pickle (scanned, never run), a sharded model, a diffusers pipeline (one component
// shown at a time) and a folder of separate files. Loaded with the first such source
// (./open_answer.js), so that a page that shows .safetensors files never fetches it.
import { SafetensorsError } from '../core/errors.js';
import { shardUrl } from '../sharded/shard_index.js';
import { folderOf, isBlob, pathOf } from '../source/picked_files.js';

/**
 * @typedef {import('./open_answer.js').OpenContext} OpenContext
 * @typedef {import('./open_answer.js').Api} Api
 * @typedef {import('../index.js').ValidationReport} ValidationReport
 * @typedef {import('./open_answer.js').FileAnswer} FileAnswer
 * @typedef {import('./open_answer.js').ModelAnswer} ModelAnswer
 * @typedef {import('./open_answer.js').CheckpointAnswer} CheckpointAnswer
 * @typedef {import('./open_answer.js').PipelineAnswer} PipelineAnswer
 * @typedef {import('./open_answer.js').FilesAnswer} FilesAnswer
 * @typedef {import('../index.js').ModelCard} ModelCard
 * @typedef {import('../index.js').ShardedModel} ShardedModel
 * @typedef {import('../index.js').SafetensorsSource} SafetensorsSource
 */

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
 * A PyTorch checkpoint or a pickle; `orFile`: a file that is not a pickle after all is opened as
 * a .safetensors file instead, which says what it is.
 * @param {Api} api
 * @param {SafetensorsSource} source
 * @param {string} name
 * @param {OpenContext} context
 * @param {boolean} orFile
 * @returns {Promise<FileAnswer | CheckpointAnswer>}
 */
export async function openCheckpointAnswer(api, source, name, context, orFile) {
  const ckpt = await api.openCheckpoint(source);
  context.signal.throwIfAborted();
  if (ckpt.format === 'not-pickle' && orFile) return api.openFileAnswer(source, name, context);
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
 * @param {Api} api
 * @param {string | File[]} source
 * @param {string} name
 * @param {OpenContext} context
 * @param {((path: string) => SafetensorsSource | null)} [locate] where a shard is, by its path in the folder
 * @returns {Promise<ModelAnswer>}
 */
export async function openModelAnswer(
  api,
  source,
  name,
  { signal, onProgress },
  locate = locator(source, indexPath(source)),
) {
  const model = await api.openSafetensorsIndex(source, {
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
 * @param {Api} api
 * @param {string | File[]} source
 * @param {string} name
 * @param {OpenContext} context
 * @returns {Promise<PipelineAnswer>}
 */
export async function openPipelineAnswer(api, source, name, { signal, onProgress }) {
  const pipeline = await api.openSafetensorsPipeline(source, {
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
 * @param {Api} api
 * @param {File[]} weights
 * @param {string} name
 * @param {OpenContext} context
 * @returns {Promise<FilesAnswer>}
 */
export async function openFilesAnswer(api, weights, name, { signal, onProgress }) {
  const sorted = [...weights].sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
  const label = (/** @type {File} */ f) =>
    pathOf(f).startsWith(`${name}/`) ? pathOf(f).slice(name.length + 1) : pathOf(f);
  /** @type {FilesAnswer['files']} */
  const files = [];
  for (const [i, file] of sorted.entries()) {
    onProgress(i, sorted.length, 'files');
    files.push({ label: label(file), file, report: await api.validateSafetensors(file, { signal }) });
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
        api.openFileAnswer(files[index].file, `${name} › ${files[index].label}`, context)
      ),
  };
}
