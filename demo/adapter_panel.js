// The demo's "does this LoRA fit this model" panel: an adapter and a base, dropped together or
// picked one by one (the base may be a sharded model's files), go to checkAdapter, which reads
// their headers only. Which dropped file is the adapter is found by trying: the other order when
// the first file is not an adapter. Names and reasons come from strangers' files: text only.
import { checkAdapter } from '../web/index.js';
import { familyMismatchText } from '../web/card/card_text.js';
import { dropped } from '../web/source/picked_files.js';

const $ = (id) => document.getElementById(id);
/** Mismatches shown before "… and N more". */
const MAX_ROWS = 20;
let turn = 0; // the check whose verdict the panel shows

/** @param {import('../web/index.js').CheckAdapterResult} r */
function showResult(r, adapterName, baseName) {
  const verdict = $('adapter-verdict');
  const what = r.adapterFormat ? `${r.adapterFormat} ${r.adapterType ?? ''}`.trim() : 'not an adapter';
  const families = familyMismatchText(r);
  verdict.textContent = `${r.compatible ? 'Compatible' : 'Not compatible'}: ${adapterName} (${what}) on ${baseName} (${r.baseFormat}): ${r.matched} of ${r.modules} adapted modules fit.${families ? ` ${families[0].toUpperCase()}${families.slice(1)}.` : ''}`;
  verdict.classList.toggle('not-verified', !r.compatible);
  const body = $('adapter-unmatched').tBodies[0];
  body.replaceChildren();
  for (const m of r.unmatched.slice(0, MAX_ROWS)) {
    const tr = body.insertRow();
    tr.dataset.testid = 'adapter-mismatch';
    tr.insertCell().textContent = m.key || '(the whole file)';
    tr.insertCell().textContent = m.reason;
  }
  if (r.unmatched.length > MAX_ROWS)
    body.insertRow().insertCell().textContent = `… and ${r.unmatched.length - MAX_ROWS} more`;
  $('adapter-unmatched').hidden = r.unmatched.length === 0;
}

/** Checks `adapter` on `base` (a File, or a sharded model's Files) and shows the verdict. */
async function check(adapter, base, { tryBothOrders = false } = {}) {
  const mine = ++turn;
  const nameOf = (side) => (Array.isArray(side) ? `${side.length} files` : side.name);
  $('adapter-verdict').textContent = 'Reading both headers…';
  $('adapter-verdict').classList.remove('not-verified');
  $('adapter-unmatched').hidden = true;
  document.body.dataset.adapterState = 'busy';
  try {
    let r = await checkAdapter(adapter, base);
    if (tryBothOrders && r.adapterFormat === null) {
      const swapped = await checkAdapter(base, adapter);
      if (swapped.adapterFormat !== null) [r, adapter, base] = [swapped, base, adapter];
    }
    if (mine === turn) showResult(r, nameOf(adapter), nameOf(base));
  } catch (error) {
    if (mine !== turn) return;
    $('adapter-verdict').textContent = `Cannot check: ${error instanceof Error ? error.message : String(error)}`;
    $('adapter-verdict').classList.add('not-verified');
  }
  if (mine === turn) document.body.dataset.adapterState = 'done';
}

/** Checks the picked adapter against the picked base once both are there. */
function checkPicked() {
  const [adapter] = $('adapter-file').files;
  const base = [...$('adapter-base').files];
  if (adapter && base.length > 0) check(adapter, base.length === 1 ? base[0] : base);
}

$('adapter-file').addEventListener('change', checkPicked);
$('adapter-base').addEventListener('change', checkPicked);
const zone = $('adapter-drop');
zone.addEventListener('dragover', (e) => {
  e.preventDefault();
  zone.classList.add('over');
});
zone.addEventListener('dragleave', () => zone.classList.remove('over'));
zone.addEventListener('drop', async (e) => {
  e.preventDefault();
  e.stopPropagation();
  zone.classList.remove('over');
  const { files } = await dropped(e.dataTransfer);
  const weights = files.filter((f) => f.name.endsWith('.safetensors'));
  if (weights.length !== 2) {
    $('adapter-verdict').textContent = `Drop two .safetensors files, an adapter and its base (got ${weights.length}).`;
    return;
  }
  // The picks no longer say what is checked.
  $('adapter-file').value = '';
  $('adapter-base').value = '';
  check(weights[0], weights[1], { tryBothOrders: true });
});
