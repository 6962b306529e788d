// The parts of the page every view fills: the verdict, the findings, the metadata, the tensor
// tree with its scan column, and clearing them all. `state` is what the page shows now.
import { adapterName } from '../web/card/card_text.js';
import { verdictText } from '../web/file/verdict_text.js';
import { showCard, showHashes } from './card_panel.js';
import { showModuleTree } from './module_tree.js';
import { showEditor } from './edit_panel.js';
import { $, cell, el, plural, shown } from './text.js';

const MAX_VALUE_CHARS = 400;

/**
 * current: { file (a single file's source), st (an opened file or model), scan (name -> counts
 * after a scan), findings, shards (a sharded model's: [{ name, source }]) }; running: 'scan' |
 * 'hash' -> the AbortController of that read.
 */
export const state = { current: null, running: {} };

export function showFindings(findings) {
  const list = $('findings');
  list.replaceChildren();
  if (findings.length === 0) list.append(el('li', { textContent: 'Nothing to report.' }));
  for (const f of findings) {
    const li = el('li', { className: f.severity });
    li.dataset.code = f.code;
    const badge = el('span', { className: 'severity', textContent: f.severity });
    const where = f.component ? `${f.component}: ` : f.shard ? `${f.shard}: ` : '';
    li.append(badge, shown(`${where}${f.code}: ${f.message}`));
    list.append(li);
  }
}

export function showMetadata(metadata) {
  const body = $('metadata').tBodies[0];
  body.replaceChildren();
  const entries = metadata ? Object.entries(metadata) : [];
  $('metadata-title').textContent = `Metadata (${plural(entries.length, 'key')})`;
  if (entries.length === 0) cell(body.insertRow(), metadata ? '(empty)' : '(no __metadata__)');
  for (const [key, value] of entries) {
    const row = body.insertRow();
    cell(row, key);
    cell(
      row,
      value.length > MAX_VALUE_CHARS
        ? `${value.slice(0, MAX_VALUE_CHARS)}… (${value.length.toLocaleString('en')} characters)`
        : value,
    );
  }
}

/** A file's verdict: loadable, or the reference's error kind, and what the file is when not safetensors at all. */
export function showReportVerdict(report) {
  const verdict = $('verdict');
  verdict.textContent = shown(verdictText(report));
  verdict.className = report.loadable ? 'loadable' : 'rejected';
}

/** A model's or a pipeline's verdict: loadable, or why not. */
export function showVerdict(loadable, why) {
  const verdict = $('verdict');
  verdict.textContent = shown(loadable ? 'loadable' : `not loadable: ${why}`);
  verdict.className = loadable ? 'loadable' : 'rejected';
}

// The scan's verdict on one tensor, in the last cell of its row (rows are built lazily).
export function scanCell(row, name) {
  const td = row.insertCell();
  td.dataset.testid = 'scan-cell';
  const r = state.current?.scan?.get(name);
  if (!r) return;
  const parts = [
    [r.nan, 'NaN'],
    [r.posInf, '+inf'],
    [r.negInf, '−inf'],
  ]
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n.toLocaleString('en')} ${what}`);
  td.textContent = parts.length > 0 ? parts.join(', ') : r.allZero ? 'all zero' : 'ok';
  td.className = parts.length > 0 ? 'bad' : r.allZero ? 'zero' : '';
}

// Per tensor, what the scan found: "2 NaN, 1 −inf", "all zero" or "ok" (rows built later get it too).
export function showScanResults(results) {
  state.current.scan = new Map(results.map((r) => [r.name, r]));
  for (const row of $('module-tree').querySelectorAll('tr[data-name]')) {
    row.deleteCell(-1);
    scanCell(row, row.dataset.name);
  }
}

/**
 * What the tree below holds, in words that are true of any file: an adapter is said to be
 * one, and tensors that all sit in one module, or in none, are not "in 0 modules".
 * @param {import('../web/index.js').TensorInfo[]} tensors
 * @param {import('../web/index.js').ModelCard} card
 */
export function tensorSummary(tensors, card) {
  const root = card.modules;
  const what = card.adapter
    ? `${plural(tensors.length, 'tensor')} of a ${adapterName(card)} adapter`
    : plural(tensors.length, 'tensor');
  if (root.path !== '') return shown(`${what}, all in ${root.path}.`);
  if (root.children.length === 0) return `${what}, none in a module (no name has a dot).`;
  if (root.children.length === 1 && root.own.length === 0) return shown(`${what}, all in ${root.children[0].path}.`);
  const loose = root.own.length > 0 ? ` and ${root.own.length} at the top` : '';
  return `${what} in ${plural(root.children.length, 'top-level module')}${loose}.`;
}

export function showTensors(st, card) {
  $('preview').hidden = true;
  const tree = $('module-tree');
  $('expand-all').disabled = !st;
  if (!st) {
    tree.replaceChildren();
    $('tensor-note').textContent = 'No tensors to show: the reference loader rejects this file.';
    return;
  }
  showModuleTree(tree, card.modules, st.tensors, scanCell);
  $('tensor-note').textContent =
    `${tensorSummary(st.tensors, card)} Open a module to see its tensors; click a tensor to preview its first values.`;
}

/** Empties what is shown of one file: its card and hashes, sizes, metadata and tensors. */
export function clearFile() {
  for (const controller of Object.values(state.running)) controller.abort();
  for (const id of ['scan', 'hash-button', 'expand-all']) $(id).disabled = true;
  $('scan-status').textContent = '';
  $('hash-status').textContent = '';
  showHashes(null);
  showCard(null, '');
  $('card-title').textContent = '(nothing to show)';
  $('preview').hidden = true;
  for (const id of ['tensor-count', 'parameters', 'sizes', 'tensor-note']) $(id).textContent = '';
  $('metadata').tBodies[0].replaceChildren();
  $('metadata-title').textContent = 'Metadata';
  $('module-tree').replaceChildren();
}

/**
 * Empties every part of the page (nothing of the previous file stays: a failure shows only
 * its message) and stops the reads of the previous one; `name` is what is being opened.
 */
export function clearView(name) {
  clearFile();
  state.current = null;
  $('card-title').textContent = '…';
  for (const id of ['shards-box', 'components-box', 'files-box', 'checkpoint-box', 'ckpt-tensors']) $(id).hidden = true;
  $('card').hidden = false; // a checkpoint without a card hides it (checkpoint/checkpoint_view.js)
  showEditor(null, name);
  $('file-name').textContent = shown(name);
  $('verdict').textContent = 'reading…';
  $('verdict').className = '';
  $('findings').replaceChildren();
}

/** What the page says when `name` could not be shown: the reason, and nothing else. */
export function showFailure(name, error) {
  clearView(name);
  $('verdict').textContent = shown(`could not read the file: ${error.message}`);
  $('verdict').className = 'rejected';
  $('card-title').textContent = '(nothing to show)';
}
