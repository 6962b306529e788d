// The demo page: uses the package exactly as an application would.
import {
  isPipelineSource,
  openSafetensors,
  openSafetensorsIndex,
  openSafetensorsPipeline,
  validateSafetensors,
  SafetensorsError,
} from '../web/index.js';
import { showCard, showHashes } from './card_panel.js';
import { EXPAND_ALL_LIMIT, expandAll, showModuleTree } from './module_tree.js';
import { showEditor } from './edit_panel.js';
import { offerSignature } from './signature_panel.js';

const PREVIEW_ELEMENTS = 4096;
const MAX_PREVIEW_ROW = 1 << 24; // a row larger than this is not read for a preview
let current = null; // { file, st (when loadable), scan: Map name -> counts (after a scan), findings }
const running = {}; // 'scan' | 'hash' -> the AbortController of that read, while it runs
const MAX_VALUE_CHARS = 400;
const $ = (id) => document.getElementById(id);

function cell(row, text) {
  const td = row.insertCell();
  td.textContent = text;
  return td;
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = -1;
  do {
    v /= 1024;
    u++;
  } while (v >= 1024 && u < units.length - 1);
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]} (${n.toLocaleString('en')} bytes)`;
}

function showFindings(findings) {
  const list = $('findings');
  list.replaceChildren();
  if (findings.length === 0) {
    list.append(Object.assign(document.createElement('li'), { textContent: 'Nothing to report.' }));
  }
  for (const f of findings) {
    const li = document.createElement('li');
    li.className = f.severity;
    li.dataset.code = f.code;
    const badge = Object.assign(document.createElement('span'), { className: 'severity', textContent: f.severity });
    li.append(badge, `${f.component ? `${f.component}: ` : ''}${f.code}: ${f.message}`);
    list.append(li);
  }
}

function showMetadata(metadata) {
  const body = $('metadata').tBodies[0];
  body.replaceChildren();
  const entries = metadata ? Object.entries(metadata) : [];
  $('metadata-title').textContent = `Metadata (${entries.length} key${entries.length === 1 ? '' : 's'})`;
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

// The scan's verdict on one tensor, in the last cell of its row (rows are built lazily).
function scanCell(row, name) {
  const td = row.insertCell();
  td.dataset.testid = 'scan-cell';
  const r = current?.scan?.get(name);
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

function showTensors(st, card) {
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
    `${st.tensors.length.toLocaleString('en')} tensors in ${card.modules.children.length} top-level modules. Open a module to see its tensors; click a tensor to preview its first values.`;
}

const formatValue = (v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(6) : String(v));

// The first rows of a tensor (at most PREVIEW_ELEMENTS values), decoded by getTensor.
async function preview(name) {
  const t = current.st.tensors.find((x) => x.name === name);
  const rowElements = t.shape.slice(1).reduce((a, b) => a * b, 1);
  const out = $('preview');
  out.hidden = false;
  // Whole rows of the first dimension, as many as fit in PREVIEW_ELEMENTS (at least one).
  const rows =
    t.shape.length === 0
      ? null
      : [0, Math.min(t.shape[0], Math.max(1, Math.floor(PREVIEW_ELEMENTS / Math.max(rowElements, 1))))];
  if (rowElements > MAX_PREVIEW_ROW) {
    out.textContent = `${name}: one row holds ${rowElements.toLocaleString('en')} values; too many to preview here.`;
  } else {
    out.textContent = `reading ${name}…`;
    try {
      const started = performance.now();
      const values = await current.st.getTensor(name, rows ? { rows } : {});
      const ms = performance.now() - started;
      const shown = Array.from(values.subarray(0, 64), formatValue).join(', ');
      const what = rows ? `rows ${rows[0]}–${rows[1]} of ${t.shape[0]}` : 'scalar';
      out.textContent = `${name} (${t.dtype}, ${what}, ${values.length.toLocaleString('en')} values, ${ms.toFixed(1)} ms):\n${shown}${values.length > 64 ? ', …' : ''}`;
    } catch (error) {
      out.textContent = `${name}: ${error.code ?? error.name}: ${error.message}`;
    }
  }
  document.body.dataset.state = 'done';
}

// Per tensor, what the scan found: "2 NaN, 1 −inf", "all zero" or "ok" (rows built later get it too).
function showScanResults(results) {
  current.scan = new Map(results.map((r) => [r.name, r]));
  for (const row of $('module-tree').querySelectorAll('tr[data-name]')) {
    row.deleteCell(-1);
    scanCell(row, row.dataset.name);
  }
}

/**
 * A read of the whole file behind a button (scan, hash): the button becomes Stop (a second
 * click aborts), a progress bar follows it, and `status` gets what `work` returns or why it
 * stopped. `what` names the read in those messages; `state` is the page's while it runs.
 */
async function longRead(name, { button, bar, status, label, what, state }, work) {
  if (running[name]) {
    running[name].abort();
    return;
  }
  const controller = new AbortController();
  running[name] = controller;
  bar.hidden = false;
  bar.value = 0;
  button.textContent = 'Stop';
  document.body.dataset.state = state;
  const started = performance.now();
  const onProgress = (done, total) => {
    bar.value = total === 0 ? 1 : done / total;
  };
  try {
    status.textContent = await work({ signal: controller.signal, onProgress }, () =>
      (performance.now() - started).toFixed(0),
    );
  } catch (error) {
    status.textContent = error.name === 'AbortError' ? `${what} stopped.` : `${what} failed: ${error.message}`;
  } finally {
    delete running[name];
    button.textContent = label;
    bar.hidden = true;
    document.body.dataset.state = 'done';
  }
}

function hashFile() {
  const ui = {
    button: $('hash-button'),
    bar: $('hash-progress'),
    status: $('hash-status'),
    label: 'Compute hashes',
    what: 'Hashing',
    state: 'hashing',
  };
  return longRead('hash', ui, async (options, ms) => {
    // A rejected file is hashed too: "is my download intact?"
    const result = current.st
      ? await current.st.hash(options)
      : (await validateSafetensors(current.file, { ...options, hash: true })).hashes;
    showHashes(result);
    showFindings([...current.findings, ...result.findings]);
    return `Hashed ${formatBytes(result.size ?? current.st?.fileSize ?? current.file.size)} in ${ms()} ms.`;
  });
}

function scan() {
  const ui = {
    button: $('scan'),
    bar: $('scan-progress'),
    status: $('scan-status'),
    label: 'Scan tensor data',
    what: 'Scan',
    state: 'scanning',
  };
  return longRead('scan', ui, async (options, ms) => {
    const report = await validateSafetensors(current.file, { ...options, scanData: true });
    showFindings(report.findings);
    showScanResults(report.dataScan.tensors);
    const bad = report.dataScan.tensors.filter((r) => r.nan + r.posInf + r.negInf > 0).length;
    const zero = report.dataScan.tensors.filter((r) => r.allZero).length;
    return `Scanned ${formatBytes(report.dataScan.bytes)} in ${ms()} ms: ${bad} tensor(s) with NaN or infinities, ${zero} all-zero.`;
  });
}

// One read of the header: the opened file, or for a rejected file the report its error carries.
async function open(file) {
  try {
    const st = await openSafetensors(file);
    return { st, report: st.report };
  } catch (error) {
    if (error instanceof SafetensorsError && error.report) return { st: null, report: error.report };
    throw error;
  }
}

// What every newly shown file or model starts from: nothing running, nothing shown.
function reset(name, single) {
  for (const controller of Object.values(running)) controller.abort();
  $('scan').disabled = true;
  $('hash-button').disabled = !single;
  $('scan-status').textContent = single
    ? 'Reads every tensor once, counting NaN, infinities and all-zero tensors.'
    : 'The data scan reads single files.';
  $('hash-status').textContent = single
    ? "Reads the whole file once: SHA-256, AutoV2, AutoV3 and the data section's hash, checked against the metadata."
    : 'Hashes are computed for single files.';
  showHashes(null);
  $('shards-box').hidden = true;
  $('components-box').hidden = true;
  showEditor(null, name);
  $('file-name').textContent = name;
  $('verdict').textContent = 'reading…';
  $('verdict').className = '';
}

function showShards(shards) {
  const body = $('shards').tBodies[0];
  body.replaceChildren();
  for (const shard of shards) {
    const row = body.insertRow();
    row.dataset.testid = 'shard-row';
    cell(row, shard.name);
    cell(row, shard.report.tensors.toLocaleString('en'));
    const { loadable, referenceError, findings } = shard.report;
    const verdict = cell(row, loadable ? 'loadable' : `not loadable: ${referenceError ?? findings[0]?.code ?? ''}`);
    verdict.className = loadable ? 'loadable' : 'rejected';
  }
  $('shards-title').textContent = `Shards (${shards.length})`;
  $('shards-box').hidden = false;
}

// A sharded model (an index and its shards, picked or by URL) shown as one: the shards'
// verdicts, the findings across them, one card and the merged tensor tree.
async function showModel(source, name) {
  reset(name, false);
  current = { file: null, st: null, scan: null, findings: [] };
  const onProgress = (done, total) => {
    $('verdict').textContent = `reading shard headers: ${done} of ${total}…`;
  };
  const model = await openSafetensorsIndex(source, { onProgress });
  const errors = model.findings.filter((f) => f.severity === 'error').length;
  showVerdict(model.loadable, `${errors} error${errors === 1 ? '' : 's'} across the shards`);
  showFindings(model.findings);
  await showModelView(model);
}

function showVerdict(loadable, why) {
  const verdict = $('verdict');
  verdict.textContent = loadable ? 'loadable' : `not loadable: ${why}`;
  verdict.className = loadable ? 'loadable' : 'rejected';
}

// The view of an opened sharded model (findings and verdict are shown by the caller).
async function showModelView(model) {
  const card = await model.describe();
  $('tensor-count').textContent = String(model.tensors.length);
  current.findings = model.findings;
  current.st = model; // tensors and getTensor, as a file has them
  const bytes = model.tensors.reduce((sum, t) => sum + t.byteLength, 0);
  const size = `${model.shards.length} shards; ${formatBytes(bytes)} of tensor data`;
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
  document.body.dataset.state = 'done';
}

async function show(file, name) {
  reset(name, true);
  current = { file, st: null, scan: null, findings: [] };
  const { st, report } = await open(file);
  showVerdict(report.loadable, report.referenceError);
  showFindings(report.findings);
  $('scan').disabled = st === null;
  await showFileView(file, st, report);
  showEditor(st, name);
}

// The view of one file (findings and verdict are shown by the caller).
async function showFileView(file, st, report) {
  $('shards-box').hidden = true;
  const card = st ? await st.describe({ readAlpha: true }) : null;
  $('tensor-count').textContent = String(report.tensors);
  current.findings = report.findings;
  current.st = st;
  const size = st
    ? `${formatBytes(st.fileSize)}; header ${formatBytes(st.headerSize)}`
    : typeof file.size === 'number'
      ? formatBytes(file.size)
      : '';
  $('parameters').textContent = card ? card.parameters.total.toLocaleString('en') : '';
  $('sizes').textContent = size;
  showCard(card, size);
  showMetadata(st?.metadata ?? null);
  showTensors(st, card);
  document.body.dataset.state = 'done';
}

// A diffusers pipeline (a picked folder or a model_index.json URL): every component's
// verdict in one table; the first component with weights is shown below, another on a click.
async function showPipeline(source, name) {
  reset(name, false);
  current = { file: null, st: null, scan: null, findings: [] };
  const onProgress = (done, total) => {
    $('verdict').textContent = `opening components: ${done} of ${total}…`;
  };
  const pipeline = await openSafetensorsPipeline(source, { onProgress });
  const errors = pipeline.findings.filter((f) => f.severity === 'error').length;
  showVerdict(pipeline.loadable, `${errors} error${errors === 1 ? '' : 's'} across the components`);
  showFindings(pipeline.findings);
  const body = $('components').tBodies[0];
  body.replaceChildren();
  for (const c of pipeline.components) {
    const row = body.insertRow();
    row.dataset.testid = 'component-row';
    const button = Object.assign(document.createElement('button'), {
      type: 'button',
      textContent: c.name,
      disabled: c.model === null,
    });
    button.addEventListener('click', () => showComponent(pipeline, c, name));
    row.insertCell().append(button);
    cell(row, c.className ?? '(disabled)');
    cell(row, c.path ?? (c.weights === 'missing' ? 'no safetensors weights' : 'no weights'));
    cell(row, c.model ? c.model.tensors.length.toLocaleString('en') : '');
    const verdict = cell(
      row,
      c.report ? (c.report.loadable ? 'loadable' : 'not loadable') : c.weights === 'missing' ? 'missing' : '',
    );
    verdict.className = c.report?.loadable || c.weights === 'none' ? 'loadable' : 'rejected';
  }
  $('components-title').textContent = `${pipeline.className ?? 'Pipeline'}: ${pipeline.components.length} components`;
  $('components-box').hidden = false;
  const first = pipeline.components.find((c) => c.model !== null);
  if (first) await showComponent(pipeline, first, name);
  else {
    showMetadata(null);
    showTensors(null, null);
  }
  document.body.dataset.state = 'done';
}

async function showComponent(pipeline, component, name) {
  $('file-name').textContent = `${name} › ${component.name}`;
  for (const row of $('components').tBodies[0].rows)
    row.classList.toggle('selected', row.cells[0].textContent === component.name);
  if ('shards' in component.model) await showModelView(component.model);
  else await showFileView(null, component.model, component.model.report);
  current.findings = pipeline.findings;
}

async function showSafely(file, name, how = show) {
  document.body.dataset.state = 'busy';
  try {
    await how(file, name);
  } catch (error) {
    $('verdict').textContent = `could not read the file: ${error.message}`;
    $('verdict').className = 'rejected';
    document.body.dataset.state = 'error';
  }
}

$('scan').addEventListener('click', scan);
$('hash-button').addEventListener('click', hashFile);
$('expand-all').addEventListener('click', () => {
  if (!current?.st) return;
  if (!expandAll($('module-tree'), current.st.tensors.length)) {
    $('tensor-note').textContent =
      `Expand all is for files of at most ${EXPAND_ALL_LIMIT.toLocaleString('en')} tensors; open modules one by one.`;
  }
});
$('module-tree').addEventListener('click', (e) => {
  const row = e.target.closest('tr');
  if (row?.dataset.name !== undefined && current?.st) {
    document.body.dataset.state = 'busy';
    preview(row.dataset.name);
  }
});
// One .safetensors file is shown as a file; several files, or an index, as a sharded model.
function showPicked(files, name) {
  if (files.length === 0) return;
  const [first] = files;
  if (files.length === 1 && !first.name.endsWith('.json')) showSafely(first, first.name);
  else {
    const index = files.find((f) => f.name.endsWith('.json'));
    showSafely(
      files,
      name ?? (index ? `${index.name} and ${files.length - 1} more files` : `${files.length} files`),
      showModel,
    );
  }
}
$('file').addEventListener('change', (e) => {
  offerSignature([]);
  showPicked([...e.target.files]);
});
$('folder').addEventListener('change', async (e) => {
  // A folder is a diffusers pipeline (it holds model_index.json) or one model: its index and
  // shards, or every .safetensors file in it.
  const files = [...e.target.files];
  if (files.length === 0) return;
  offerSignature(files);
  showSafely(
    files,
    files[0].webkitRelativePath.split('/')[0],
    (await isPipelineSource(files)) ? showPipeline : showModel,
  );
});
$('url-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $('url').value.trim();
  // model_index.json opens a diffusers pipeline, an index (…/model.safetensors.index.json) a
  // sharded model; anything else one file.
  if (/\/model_index\.json(?:[?#]|$)/i.test(url)) showSafely(url, url, showPipeline);
  else if (/\.json(?:[?#]|$)/i.test(url)) showSafely(url, url, showModel);
  else showSafely(url, url);
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
  showPicked([...e.dataTransfer.files]);
});

// The bundled sample, generated by the build (demo/make_sample.js).
fetch('demo/sample.safetensors')
  .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(`sample: HTTP ${r.status}`))))
  .then((blob) => showSafely(blob, 'sample.safetensors (bundled)'))
  .catch((error) => {
    $('verdict').textContent = `no sample: ${error.message}`;
  });
