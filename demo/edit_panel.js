// The demo's editor for one opened file: the card's title, trigger words and description (as
// their ModelSpec keys), every other metadata key (change, delete, add), then "Download edited
// file" (st.withMetadata: a new header and the picked file's data, not copied) or "Save as F16"
// (st.convert). Metadata comes from strangers: it is only ever set as .value or text.
import { openSafetensors } from '../web/index.js';
import { download } from '../web/write/save_blob.js';

/** The card's fields and the metadata keys they edit (https://github.com/Stability-AI/ModelSpec). */
const CARD_FIELDS = [
  ['edit-title', 'modelspec.title'],
  ['edit-trigger', 'modelspec.trigger_phrase'],
  ['edit-description', 'modelspec.description'],
];
/** Values longer than this are kept as they are (or deleted), not put in a text box. */
const LONG_VALUE = 10_000;

const $ = (id) => document.getElementById(id);
let current = null; // { st, name } of the file being edited

function row(key, value, added) {
  const tr = $('edit-metadata').tBodies[0].insertRow();
  tr.dataset.testid = 'edit-row';
  if (!added) tr.dataset.key = key; // an attribute, set as data: safe for any key
  const keyInput = Object.assign(document.createElement('input'), { value: key, readOnly: !added, placeholder: 'key' });
  keyInput.dataset.role = 'key';
  tr.insertCell().append(keyInput);
  const cell = tr.insertCell();
  if (value.length > LONG_VALUE) {
    tr.dataset.long = 'true';
    cell.textContent = `(${value.length.toLocaleString('en')} characters, kept as they are)`;
  } else {
    const text = Object.assign(document.createElement('textarea'), {
      value,
      rows: Math.min(4, value.split('\n').length),
    });
    text.dataset.role = 'value';
    cell.append(text);
  }
  const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Delete' });
  remove.dataset.role = 'delete';
  remove.addEventListener('click', () => {
    tr.classList.toggle('deleted');
    remove.textContent = tr.classList.contains('deleted') ? 'Keep' : 'Delete';
  });
  tr.insertCell().append(remove);
  return tr;
}

/** The metadata the editor holds now; throws for a key given twice or left empty. */
function editedMetadata() {
  const original = current.st.metadata ?? {};
  const out = {};
  for (const tr of $('edit-metadata').tBodies[0].rows) {
    if (tr.classList.contains('deleted')) continue;
    const key = tr.querySelector('[data-role=key]').value;
    if (key === '') throw new Error('a new key has no name');
    if (key in out || CARD_FIELDS.some(([, k]) => k === key))
      throw new Error(`the key ${JSON.stringify(key)} is given twice`);
    out[key] = tr.dataset.long ? original[key] : tr.querySelector('[data-role=value]').value;
  }
  for (const [id, key] of CARD_FIELDS) {
    const value = $(id).value;
    if (value !== '') out[key] = value;
  }
  return out;
}

const baseName = (name) =>
  name
    .replace(/\.safetensors$/i, '')
    .split('/')
    .pop() || 'model';

async function saveEdited() {
  const status = $('edit-status');
  try {
    const metadata = editedMetadata();
    const blob = await current.st.withMetadata(metadata);
    const check = await openSafetensors(blob); // the library checked the header; this re-reads it as a user would
    download(blob, `${baseName(current.name)}-edited.safetensors`);
    status.textContent = `Saved ${blob.size.toLocaleString('en')} bytes: ${Object.keys(metadata).length} metadata keys, ${check.report.loadable ? 'loadable' : 'NOT loadable'}; the tensor data is the original's, byte for byte.`;
    status.className = 'status';
  } catch (error) {
    status.textContent = `Not saved: ${error.message}`;
    status.className = 'status rejected';
  }
}

async function saveF16() {
  const status = $('edit-status');
  const button = $('save-f16');
  button.disabled = true;
  try {
    const before = new Map(current.st.tensors.map((t) => [t.name, t.dtype]));
    const blob = await current.st.convert({
      to: 'F16',
      onProgress: (done, total) => {
        status.textContent = `Converting: ${Math.round((100 * done) / Math.max(total, 1))}%`;
      },
    });
    const check = await openSafetensors(blob);
    const changed = check.tensors.filter((t) => before.get(t.name) !== t.dtype).length;
    download(blob, `${baseName(current.name)}-f16.safetensors`);
    status.textContent = `Saved as F16: ${changed} of ${check.tensors.length} tensors converted, ${blob.size.toLocaleString('en')} bytes, ${check.report.loadable ? 'loadable' : 'NOT loadable'}.`;
    status.className = 'status';
  } catch (error) {
    status.textContent = `Not saved: ${error.message}`;
    status.className = 'status rejected';
  } finally {
    button.disabled = false;
  }
}

/**
 * Fills the editor for an opened file, or hides it (null: a rejected file, a sharded model).
 * @param {import('../web/index.js').SafetensorsFile | null} st
 * @param {string} name
 */
export function showEditor(st, name) {
  current = st ? { st, name } : null;
  $('edit-box').hidden = st === null;
  $('edit-status').textContent = '';
  const body = $('edit-metadata').tBodies[0];
  body.replaceChildren();
  if (!st) return;
  const metadata = st.metadata ?? {};
  for (const [id, key] of CARD_FIELDS) $(id).value = metadata[key] ?? '';
  for (const [key, value] of Object.entries(metadata)) {
    if (!CARD_FIELDS.some(([, k]) => k === key)) row(key, value, false);
  }
}

$('edit-add').addEventListener('click', () => row('', '', true).querySelector('input').focus());
$('edit-download').addEventListener('click', saveEdited);
$('save-f16').addEventListener('click', saveF16);
