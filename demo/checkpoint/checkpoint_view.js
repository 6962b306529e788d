// A PyTorch checkpoint (or any pickle) on the demo page, read without running it: its format and
// verdict, the globals its pickle names (each safe, unknown or unsafe), the scan's findings, its
// tensors (with the storage facts of views and tied tensors), its other values as text, its card
// where the package describes checkpoints, and the Convert panel (convert_panel.js). This
// module and the pickle reader load with the first checkpoint (views.js imports it on demand):
// pages that show only .safetensors files never fetch them. Every name and string comes from the
// pickle, written by strangers: it goes in as text (textContent), never as HTML.
import { openCheckpoint } from '../../web/index.js';
import { showCard } from '../card_panel.js';
import { offerConversion } from './convert_panel.js';
import { showFindings, state } from '../page.js';
import { formatValue } from '../reads.js';
import { $, cell, el, formatBytes, plural, shown } from '../text.js';

/** What each format of scanPickle is, in words. */
const FORMATS = {
  'pytorch-zip': 'PyTorch checkpoint (torch.save zip)',
  'pytorch-legacy': 'PyTorch checkpoint (legacy format, before torch 1.6)',
  pickle: 'Python pickle',
  npy: 'NumPy array (.npy)',
  zip: 'zip of pickles (.npz or another)',
  'not-pickle': 'not a pickle',
};
/** The verdict's class on the page (style.css), and the order of the globals table. */
const CLASSES = { safe: 'loadable', unknown: 'caution', unsafe: 'rejected' };
const RANK = { unsafe: 0, unknown: 1, safe: 2 };
/** Rows built in the tensor table at most (a table of 100,000 rows would stall the page). */
const MAX_ROWS = 5000;
/** Tensors of more values than this are not previewed (getTensor reads the whole tensor). */
const MAX_PREVIEW_VALUES = 2 ** 24;
const SHOWN_NAMES = 6;

let current = null; // the checkpoint shown

const globalName = (g) => `${g.module}.${g.name}`;
const elements = (shape) => shape.reduce((a, b) => a * b, 1);
/** Whether strides are the row-major ones of the shape (a size-1 dimension's stride is free). */
const rowMajor = (shape, stride) => shape.every((n, d) => n === 1 || stride[d] === elements(shape.slice(d + 1)));

/** "a, b and c", or the first few "and 4 more". */
function listed(names) {
  const head = names.slice(0, SHOWN_NAMES);
  const more = names.length - head.length;
  if (more > 0) return `${head.join(', ')} and ${more} more`;
  return head.length > 1 ? `${head.slice(0, -1).join(', ')} and ${head.at(-1)}` : head.join('');
}

/** The verdict in a sentence: what makes it so. */
function verdictWords(ckpt) {
  if (ckpt.format === 'not-pickle') return 'This file is not a pickle: there is nothing in it to scan.';
  const named = (safety) => ckpt.globals.filter((g) => g.safety === safety).map(globalName);
  const [unsafe, unknown] = [named('unsafe'), named('unknown')];
  const noticed = ckpt.findings.length
    ? ` The scan noticed ${plural(ckpt.findings.length, 'thing')}: see Findings.`
    : '';
  if (unsafe.length)
    return `It names ${listed(unsafe)}, which public scanners list as dangerous: torch.load would call ${unsafe.length === 1 ? 'it' : 'them'}. This page never does.${noticed}`;
  if (unknown.length)
    return `It names ${listed(unknown)}, which torch.load(weights_only=True) does not accept: not known to be harmful, not known to be harmless.${noticed}`;
  return `Every global it names is one torch.load(weights_only=True) accepts.${noticed}`;
}

function showGlobals(globals) {
  const body = $('ckpt-globals').tBodies[0];
  body.replaceChildren();
  $('ckpt-globals-title').textContent = `Globals (${globals.length.toLocaleString('en')})`;
  if (globals.length === 0) cell(body.insertRow(), '(none: the pickle names no function)').colSpan = 3;
  const sorted = [...globals].sort((a, b) => RANK[a.safety] - RANK[b.safety]);
  for (const g of sorted) {
    const row = body.insertRow();
    row.dataset.testid = 'ckpt-global';
    cell(row, globalName(g));
    cell(row, g.safety).className = `safety ${g.safety}`;
    cell(row, g.count.toLocaleString('en'));
  }
}

/** The values besides tensors, one `name = value` a line (strings quoted, escapes shown). */
function showObjects(ckpt) {
  const lines = ckpt.objects.map(
    (o) => `${o.name} = ${typeof o.value === 'string' ? JSON.stringify(o.value) : o.value}`,
  );
  if (ckpt.objectsLeftOut > 0) lines.push(`… and ${ckpt.objectsLeftOut.toLocaleString('en')} more not listed`);
  $('ckpt-objects-title').textContent =
    `Other values (${(ckpt.objects.length + ckpt.objectsLeftOut).toLocaleString('en')})`;
  $('ckpt-objects').textContent = shown(lines.length ? lines.join('\n') : '(none)');
}

/** Where a tensor's bytes are: its storage, and for views, ties and offsets what tells them apart. */
function storageText(t, users) {
  const parts = [`storage ${t.storage}`];
  const sharing = users.get(t.storage);
  if (sharing > 1) parts.push(`shared by ${sharing} tensors`);
  if (t.storageOffset !== 0) parts.push(`offset ${t.storageOffset.toLocaleString('en')}`);
  if (!rowMajor(t.shape, t.stride)) parts.push(`stride [${t.stride.join(', ')}]`);
  return parts.join(', ');
}

function showTensorTable(tensors) {
  const table = $('ckpt-tensors');
  const body = table.tBodies[0];
  body.replaceChildren();
  const users = new Map();
  for (const t of tensors) users.set(t.storage, (users.get(t.storage) ?? 0) + 1);
  for (const t of tensors.slice(0, MAX_ROWS)) {
    const row = body.insertRow();
    row.dataset.name = t.name;
    row.dataset.testid = 'ckpt-tensor';
    cell(row, t.name);
    cell(row, t.dtype ?? `torch.${t.torchDtype} (no safetensors dtype)`).title = `torch.${t.torchDtype}`;
    cell(row, `[${t.shape.join(', ')}]`);
    cell(row, storageText(t, users));
  }
  table.hidden = tensors.length === 0;
  const cut = tensors.length > MAX_ROWS ? ` The first ${MAX_ROWS.toLocaleString('en')} are listed.` : '';
  $('tensor-note').textContent = tensors.length
    ? `${plural(tensors.length, 'tensor')}, as the checkpoint's pickle describes them.${cut} Click a tensor to preview its first values.`
    : 'No tensors: the pickle describes none.';
}

/** A tensor's first values, read by range and decoded (views gathered) by getTensor. */
async function preview(ckpt, name) {
  const out = $('preview');
  out.hidden = false;
  const t = ckpt.tensors.find((x) => x.name === name);
  if (elements(t.shape) > MAX_PREVIEW_VALUES) {
    out.textContent = shown(`${name}: ${elements(t.shape).toLocaleString('en')} values; too many to preview here.`);
    return;
  }
  out.textContent = shown(`reading ${name}…`);
  try {
    const values = await ckpt.getTensor(name);
    const first = Array.from(values.subarray(0, 64), formatValue).join(', ');
    out.textContent = shown(
      `${name} (${t.dtype}, [${t.shape.join(', ')}], ${values.length.toLocaleString('en')} values):\n${first}${values.length > 64 ? ', …' : ''}`,
    );
  } catch (error) {
    out.textContent = shown(`${name}: ${error.code ?? error.name}: ${error.message}`);
  }
}

$('ckpt-tensors').addEventListener('click', async (e) => {
  const row = e.target.closest('tr[data-name]');
  if (!row || !current) return;
  document.body.dataset.state = 'busy';
  await preview(current, row.dataset.name);
  document.body.dataset.state = 'done';
});

/**
 * Shows a checkpoint or pickle. `fallback(source, name, signal)`: the view for a file that
 * turns out not to be a pickle (views.js showFile, which says what it is); without one, such a
 * file is shown as what the scan says: not a pickle.
 */
export async function showCheckpoint(source, name, signal, fallback = null) {
  const ckpt = await openCheckpoint(source);
  signal.throwIfAborted();
  if (ckpt.format === 'not-pickle' && fallback) return fallback(source, name, signal);
  // describe() comes with the checkpoint cards (issue 35); without it the page shows no card.
  // A card that cannot be made says why in its panel, and the rest is shown.
  const described = typeof ckpt.describe === 'function';
  const made = described ? await ckpt.describe().catch((error) => error) : null;
  const card = made instanceof Error ? null : made;
  signal.throwIfAborted();
  current = ckpt;
  const findings = ckpt.findings.map((f) => ({ ...f, severity: 'warning', component: f.where || undefined }));
  state.current = { file: source, st: null, scan: null, findings, shards: null };
  const label = FORMATS[ckpt.format] ?? ckpt.format;
  $('verdict').textContent = `${ckpt.verdict} — ${label}`;
  $('verdict').className = CLASSES[ckpt.verdict];
  $('ckpt-format').textContent = label;
  const verdict = $('ckpt-verdict');
  verdict.dataset.verdict = ckpt.verdict;
  verdict.replaceChildren(
    el('span', { className: `badge ${ckpt.verdict}`, textContent: ckpt.verdict }),
    shown(verdictWords(ckpt)),
  );
  showFindings(findings);
  showGlobals(ckpt.globals);
  showObjects(ckpt);
  const size = typeof source?.size === 'number' ? formatBytes(source.size) : '';
  $('tensor-count').textContent = String(ckpt.tensors.length);
  $('parameters').textContent = (
    card?.parameters.total ?? ckpt.tensors.reduce((s, t) => s + elements(t.shape), 0)
  ).toLocaleString('en');
  $('sizes').textContent = size;
  $('card').hidden = !described;
  if (described) showCard(card, size);
  if (made instanceof Error) $('card-title').textContent = shown(`(no card: ${made.message})`);
  if (described && typeof source?.size === 'number') {
    $('hash-button').disabled = false; // reads.js: validateSafetensors hashes any file
    $('hash-status').textContent =
      'Reads the whole file once: SHA-256 and AutoV2, the hashes Civitai knows checkpoints by.';
  }
  showTensorTable(ckpt.tensors);
  $('scan-status').textContent = 'The scan of tensor data is for .safetensors files: convert this one first.';
  offerConversion(ckpt, name);
  $('checkpoint-box').hidden = false;
}
