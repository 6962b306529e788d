// The demo page: uses the package exactly as an application would. This file wires the page:
// what was picked, dropped or typed goes to its view (views.js), one at a time.
import { isPipelineSource, preload } from '../web/index.js';
import { EXPAND_ALL_LIMIT, expandAll } from './module_tree.js';
import { dropped } from '../web/element/dropped_files.js';
import { clearView, showFailure, state } from './page.js';
import { hashFile, preview, scan } from './reads.js';
import { showCheckpoint, showFile, showFiles, showModel, showPipeline } from './views.js';
import { $, shown } from './text.js';
import { offerSignature } from './signature_panel.js';
import './adapter_panel.js';

/** Shard names as writers give them: model-00001-of-00006.safetensors. */
const SHARD_NAME = /-\d+-of-\d+\.safetensors$/;

let turn = null; // the AbortController of what the page shows (or is opening)

/**
 * Shows `source` with `how` (a view of views.js). Whatever was shown before is cleared first
 * and whatever was still opening is aborted: a slow URL that fails after a file was dropped
 * can no longer write over that file's verdict. A failure clears the page but for its reason.
 */
async function showSafely(how, source, name) {
  turn?.abort(new DOMException('something else was opened', 'AbortError'));
  const controller = new AbortController();
  turn = controller;
  clearView(name);
  document.body.dataset.state = 'busy';
  try {
    await how(source, name, controller.signal);
    if (turn === controller) document.body.dataset.state = 'done';
  } catch (error) {
    if (turn !== controller) return; // something newer has the page
    showFailure(name, error);
    document.body.dataset.state = 'error';
  }
}

/**
 * Which view picked or dropped files are: a pipeline (model_index.json), a sharded model (an
 * index, or shard-named files), one file, a checkpoint, or separate files (a folder of LoRAs).
 * @param {File[]} files
 * @param {string | null} folder the folder they came from, if one
 */
async function viewOf(files, folder) {
  const weights = files.filter((f) => f.name.endsWith('.safetensors'));
  const indexes = files.filter((f) => f.name.endsWith('.safetensors.index.json'));
  if (await isPipelineSource(files)) return [showPipeline, files, folder ?? 'pipeline'];
  if (indexes.length > 0 || (weights.length > 1 && weights.every((f) => SHARD_NAME.test(f.name))))
    return [showModel, files, folder ?? `${(indexes[0] ?? weights[0]).name} and ${files.length - 1} more files`];
  const path = (f) => f.webkitRelativePath || f.name;
  if (weights.length === 1) {
    // One file, and the config.json beside it when it was picked too: the card's KV cache.
    const [file] = weights;
    const beside = `${path(file).slice(0, path(file).lastIndexOf('/') + 1)}config.json`;
    const config = files.find((f) => path(f) === beside) ?? null;
    return [(source, title, signal) => showFile(source, title, signal, config), file, path(file)];
  }
  if (weights.length === 0 && files.length === 1 && !files[0].name.endsWith('.json')) {
    // .ckpt, .pt, .pth, .bin, .pkl, …: read as a pickle; a file that is not one gets the
    // safetensors view, which says what it is.
    return [(source, title, signal) => showCheckpoint(source, title, signal, showFile), files[0], path(files[0])];
  }
  if (weights.length === 0)
    throw new Error(
      files.length === 1
        ? `${files[0].name} is not a .safetensors file (nor a folder, an index or a model_index.json)`
        : `none of the ${files.length} files given is a .safetensors file`,
    );
  weights.sort((a, b) => (path(a) < path(b) ? -1 : path(a) > path(b) ? 1 : 0));
  return [showFiles, weights, folder ?? `${weights.length} files`];
}

/** Files picked or dropped (a promise: a dropped folder is walked first), shown by their view. */
async function showPicked(picked, name, signal) {
  const { files, folder } = await picked;
  signal.throwIfAborted();
  const [how, source, title] = await viewOf(files, folder);
  $('file-name').textContent = shown(title);
  await how(source, title, signal);
}

$('scan').addEventListener('click', scan);
$('hash-button').addEventListener('click', hashFile);
$('expand-all').addEventListener('click', () => {
  if (!state.current?.st) return;
  if (!expandAll($('module-tree'), state.current.st.tensors.length)) {
    $('tensor-note').textContent =
      `Expand all is for files of at most ${EXPAND_ALL_LIMIT.toLocaleString('en')} tensors; open modules one by one.`;
  }
});
$('module-tree').addEventListener('click', (e) => {
  const row = e.target.closest('tr');
  if (row?.dataset.name !== undefined && state.current?.st) {
    document.body.dataset.state = 'busy';
    preview(row.dataset.name);
  }
});
$('file').addEventListener('change', (e) => {
  const files = [...e.target.files];
  offerSignature(files); // files picked with their model.sig get the Signature panel
  if (files.length > 0) showSafely(showPicked, Promise.resolve({ files, folder: null }), files[0].name);
});
$('folder').addEventListener('change', (e) => {
  const files = [...e.target.files];
  if (files.length === 0) return;
  const folder = files[0].webkitRelativePath.split('/')[0];
  offerSignature(files); // a folder holding model.sig gets the Signature panel
  showSafely(showPicked, Promise.resolve({ files, folder }), folder);
});
$('url-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $('url').value.trim();
  offerSignature([]);
  // model_index.json opens a diffusers pipeline, an index (…/model.safetensors.index.json) a
  // sharded model; anything else one file.
  if (/\/model_index\.json(?:[?#]|$)/i.test(url)) showSafely(showPipeline, url, url);
  else if (/\.json(?:[?#]|$)/i.test(url)) showSafely(showModel, url, url);
  else showSafely(showFile, url, url);
});
const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const picked = dropped(e.dataTransfer);
  offerSignature([]);
  picked.then(({ all }) => offerSignature(all)).catch(() => {}); // dotfiles too: model_signing signs them
  showSafely(showPicked, picked, 'dropped files');
});

// The core and the card module load (and compile their first calls) while the user picks; a
// failure shows at the open instead.
preload().catch(() => {});

// The bundled sample, generated by the build (demo/make_sample.js); a file picked before it
// arrives takes its turn.
showSafely(
  async (_, name, signal) => {
    const response = await fetch('demo/sample.safetensors', { signal });
    if (!response.ok) throw new Error(`no sample: HTTP ${response.status}`);
    await showFile(await response.blob(), name, signal);
  },
  null,
  'sample.safetensors (bundled)',
);
