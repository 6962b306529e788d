// What the page shows for each kind of source: one file, a sharded model, a diffusers pipeline,
// or a folder of separate files (LoRAs, say). Each takes the signal of its turn on the page:
// once something newer is opened it is aborted, and a view stops at its next step instead of
// writing over the newer one (app.js, showSafely).
import {
  openSafetensors,
  openSafetensorsIndex,
  openSafetensorsPipeline,
  validateSafetensors,
  SafetensorsError,
} from '../web/index.js';
import { shardUrl } from '../web/sharded/shard_index.js';
import { showCard } from './card_panel.js';
import { showEditor } from './edit_panel.js';
import { showFindings, showMetadata, showReportVerdict, showTensors, showVerdict, state } from './page.js';
import { showComponents, showFileList, showShards } from './tables.js';
import { $, formatBytes, plural, shown } from './text.js';

/**
 * Where the files of what is opened are, by their path in its folder: picked files (by
 * webkitRelativePath, or name) next to `anchor` (an index or model_index.json; none: the
 * folder picked), or a URL's neighbours.
 * @returns {(path: string) => File | string}
 */
export function locator(source, anchor = null) {
  if (typeof source === 'string') return (path) => shardUrl(path, source);
  const byPath = new Map(source.map((f) => [f.webkitRelativePath || f.name, f]));
  const base = anchor ? anchor.slice(0, anchor.lastIndexOf('/') + 1) : '';
  return (path) => byPath.get(base + path) ?? null;
}

const folderOf = (path) => path.slice(0, path.lastIndexOf('/') + 1);

/** What the core's NotSafetensors finding calls a pickle (cpp/analysis/foreign_format.h). */
const PICKLED = new Set(['pytorch-zip', 'pickle']);

/**
 * A PyTorch checkpoint or a pickle (checkpoint/checkpoint_view.js, loaded with the pickle reader on first
 * use); `fallback`: the view for a file that is not a pickle after all.
 */
export async function showCheckpoint(source, name, signal, fallback = null) {
  return (await import('./checkpoint/checkpoint_view.js')).showCheckpoint(source, name, signal, fallback);
}

// One read of the header: the opened file, or for a rejected file the report its error carries.
// `config`: the config.json picked with it (its card's KV cache), or null.
async function open(file, signal, config = null) {
  try {
    const st = await openSafetensors(file, { signal, config, preloadCard: true }); // its card comes next
    return { st, report: st.report };
  } catch (error) {
    if (error instanceof SafetensorsError && error.report) return { st: null, report: error.report };
    throw error;
  }
}

/** One file: its verdict, findings, card, metadata, tensors and editor (`config`: its config.json, or null). */
export async function showFile(file, name, signal, config = null) {
  const { st, report } = await open(file, signal, config);
  signal.throwIfAborted();
  if (report.findings.some((f) => f.code === 'NotSafetensors' && PICKLED.has(f.format)))
    return showCheckpoint(file, name, signal); // a checkpoint under any name, or by URL
  showReportVerdict(report);
  showFindings(report.findings);
  state.current = { file, st: null, scan: null, findings: report.findings, shards: null };
  await showFileView(file, st, report, signal);
  if (config) showFindings(report.findings); // describe() read config.json: maybe a ConfigUnreadable finding
  showEditor(st, name);
}

async function showFileView(file, st, report, signal) {
  // A rejected file whose header was read still has its header's card (with a note when it is
  // built from part of the header: offsets that cannot be trusted).
  const described =
    !st && report.tensors > 0 && file ? await validateSafetensors(file, { describe: true, signal }) : null;
  const card = st ? await st.describe({ readAlpha: true }) : (described?.card ?? null);
  signal.throwIfAborted();
  Object.assign(state.current, { file, st, findings: report.findings, shards: null });
  $('tensor-count').textContent = String(report.tensors);
  const size = st
    ? `${formatBytes(st.fileSize)}; header ${formatBytes(st.headerSize)}`
    : typeof file?.size === 'number'
      ? formatBytes(file.size)
      : '';
  $('parameters').textContent = card ? card.parameters.total.toLocaleString('en') : '';
  $('sizes').textContent = size;
  showCard(card, size, st === null, described?.cardNote);
  showMetadata(st?.metadata ?? null);
  showTensors(st, card);
  $('scan').disabled = st === null;
  $('hash-button').disabled = false;
  $('scan-status').textContent = st
    ? 'Reads every tensor once, counting NaN, infinities and all-zero tensors.'
    : 'Nothing to scan: the reference loader rejects this file.';
  $('hash-status').textContent =
    "Reads the whole file once: SHA-256, AutoV2, AutoV3 and the data section's hash, checked against the metadata.";
  $('shards-box').hidden = true;
}

/** A sharded model (an index and its shards, picked or by URL) shown as one. */
export async function showModel(source, name, signal) {
  const onProgress = (done, total) => {
    $('verdict').textContent = `reading shard headers: ${done} of ${total}…`;
  };
  const model = await openSafetensorsIndex(source, { onProgress, signal });
  signal.throwIfAborted();
  const index = typeof source === 'string' ? source : source.find((f) => f.name.endsWith('.safetensors.index.json'));
  const locate = locator(source, index && typeof index !== 'string' ? index.webkitRelativePath || index.name : null);
  const errors = model.findings.filter((f) => f.severity === 'error').length;
  showVerdict(model.loadable, `${plural(errors, 'error')} across the shards`);
  showFindings(model.findings);
  state.current = { file: null, st: null, scan: null, findings: model.findings, shards: null };
  await showModelView(model, (shard) => locate(shard), signal);
  showFindings(model.findings); // describe() reads config.json, which may add a ConfigUnreadable finding
}

/**
 * The view of an opened sharded model; `shardSource(name)` is where a shard is read from
 * (for hashing and scanning it).
 */
async function showModelView(model, shardSource, signal) {
  const card = await model.describe();
  signal.throwIfAborted();
  const shards = model.shards.map((s) => ({ ...s, source: () => shardSource(s.name) }));
  Object.assign(state.current, { file: null, st: model, findings: model.findings, shards });
  $('tensor-count').textContent = String(model.tensors.length);
  const bytes = model.tensors.reduce((sum, t) => sum + t.byteLength, 0);
  const size = `${plural(model.shards.length, 'shard')}; ${formatBytes(bytes)} of tensor data`;
  $('parameters').textContent = card.parameters.total.toLocaleString('en');
  $('sizes').textContent = size;
  showCard(card, size);
  const metadata =
    model.metadata &&
    Object.fromEntries(
      Object.entries(model.metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  showMetadata(metadata);
  showShards(model.shards);
  showTensors(model, card);
  const loadable = model.shards.some((s) => s.report.loadable);
  $('scan').disabled = !loadable;
  $('hash-button').disabled = !loadable;
  $('scan-status').textContent = 'Reads every tensor of each loadable shard once, shard after shard.';
  $('hash-status').textContent =
    'Reads each loadable shard once, one after another: its SHA-256 goes in the shards table, its claims are checked.';
}

/** A diffusers pipeline: every component's verdict and a summary; one component below. */
export async function showPipeline(source, name, signal) {
  const onProgress = (done, total) => {
    $('verdict').textContent = `opening components: ${done} of ${total}…`;
  };
  const pipeline = await openSafetensorsPipeline(source, { onProgress, signal });
  signal.throwIfAborted();
  const anchor =
    typeof source === 'string'
      ? null
      : source
          .map((f) => f.webkitRelativePath || f.name)
          .filter((p) => p.split('/').pop() === 'model_index.json')
          .sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const locate = locator(source, anchor);
  const errors = pipeline.findings.filter((f) => f.severity === 'error').length;
  showVerdict(pipeline.loadable, `${plural(errors, 'error')} across the components`);
  showFindings(pipeline.findings);
  state.current = { file: null, st: null, scan: null, findings: pipeline.findings, shards: null };
  const cards = new Map();
  for (const c of pipeline.components) if (c.model) cards.set(c.name, await c.model.describe());
  signal.throwIfAborted();
  const show = (c) => showComponent(pipeline, c, name, locate, signal);
  showComponents(pipeline, cards, show);
  const first = pipeline.components.find((c) => c.model !== null);
  if (first) await show(first);
  else {
    showMetadata(null);
    showTensors(null, null);
  }
}

async function showComponent(pipeline, component, name, locate, signal) {
  signal.throwIfAborted(); // a click on a table something newer has replaced
  $('file-name').textContent = shown(`${name} › ${component.name}`);
  for (const row of $('components').tBodies[0].rows)
    row.classList.toggle('selected', row.dataset.name === component.name);
  if ('shards' in component.model) {
    const folder = folderOf(component.path);
    await showModelView(component.model, (shard) => locate(folder + shard), signal);
  } else await showFileView(locate(component.path), component.model, component.model.report, signal);
  state.current.findings = pipeline.findings;
}

/**
 * Several separate .safetensors files (a folder of LoRAs): each one's verdict in a table, the
 * first one shown below, another on a click.
 */
export async function showFiles(files, name, signal) {
  const path = (f) => f.webkitRelativePath || f.name;
  const label = (f) => (path(f).startsWith(`${name}/`) ? path(f).slice(name.length + 1) : path(f));
  const reports = [];
  for (const [i, file] of files.entries()) {
    $('verdict').textContent = `reading headers: ${i} of ${files.length}…`;
    reports.push(await validateSafetensors(file, { signal }));
    signal.throwIfAborted();
  }
  const show = async (i) => {
    signal.throwIfAborted();
    $('file-name').textContent = shown(`${name} › ${label(files[i])}`);
    for (const row of $('files').tBodies[0].rows) row.classList.toggle('selected', row.dataset.index === String(i));
    showReportVerdict(reports[i]);
    showFindings(reports[i].findings);
    state.current = { file: files[i], st: null, scan: null, findings: reports[i].findings, shards: null };
    const { st, report } = await open(files[i], signal);
    signal.throwIfAborted();
    await showFileView(files[i], st, report, signal);
    showEditor(st, files[i].name);
  };
  showFileList(files.map(label), files, reports, show);
  await show(0);
}
