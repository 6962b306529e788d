// The Convert panel of a checkpoint on the demo page: ckpt.toSafetensors() read back with
// openSafetensors, then saved (save_file.js: a file picked with showSaveFilePicker, or a
// download). A checkpoint that names a global that is not safe is refused by the package (an
// UnsafeCheckpoint error naming them, nothing written); the page shows the refusal and offers
// the explicit option, { allowUnsafeGlobals: true }: the tensors alone, the globals left behind
// and named in the output's metadata. Nothing of the pickle is ever run.
import { openSafetensors } from '../../web/index.js';
import { LEFT_BEHIND_KEY } from '../../web/pickle/checkpoint_convert.js';
import { saveBlob } from '../../web/element/save_blob.js';
import { $, formatBytes, plural, shown } from '../text.js';

/** The formats toSafetensors converts (torch.save's; a plain pickle holds no storages). */
const CONVERTIBLE = new Set(['pytorch-zip', 'pytorch-legacy']);

let current = null; // { ckpt, name } of the checkpoint shown

/**
 * The output's name: lightning.ckpt → lightning.safetensors, a URL's last part likewise, and
 * pytorch_model.bin → model.safetensors (the names the Hub's repositories use for the two).
 */
export function outputName(name) {
  const base =
    (
      name
        .replace(/[?#].*$/, '')
        .split('/')
        .pop() ?? ''
    ).replace(/\.[^.]*$/, '') || 'model';
  return `${base === 'pytorch_model' ? 'model' : base}.safetensors`;
}

/** `kind`: '' (done: green), 'hint' (what the button will do) or 'rejected'. */
function setStatus(text, kind = '') {
  const status = $('ckpt-status');
  status.textContent = shown(text);
  status.className = `status ${kind}`.trim();
}

/**
 * Readies the panel for a checkpoint just shown.
 * @param {import('../../web/index.js').Checkpoint} ckpt
 * @param {string} name what was opened (a file's path or a URL)
 */
export function offerConversion(ckpt, name) {
  current = { ckpt, name };
  const convertible = CONVERTIBLE.has(ckpt.format);
  $('ckpt-convert').disabled = !convertible;
  $('ckpt-convert-tensors').hidden = true;
  setStatus(
    convertible
      ? `Writes its ${plural(ckpt.tensors.length, 'tensor')} to ${outputName(name)}, as safetensors.torch.save_file does (metadata {"format": "pt"}).`
      : 'Only a PyTorch checkpoint (torch.save) converts: this file holds no tensor storages.',
    'hint',
  );
}

/** Converts the checkpoint shown and saves the result; `allowUnsafeGlobals` is the explicit option. */
async function convert(allowUnsafeGlobals) {
  const mine = current;
  if (!mine) return;
  const buttons = [$('ckpt-convert'), $('ckpt-convert-tensors')];
  for (const button of buttons) button.disabled = true;
  document.body.dataset.state = 'converting';
  setStatus('Converting…', 'hint');
  try {
    const blob = await mine.ckpt.toSafetensors({ metadata: { format: 'pt' }, allowUnsafeGlobals });
    const written = await openSafetensors(blob); // read back as a user would open it
    const saved = await saveBlob(blob, outputName(mine.name), (done, total) => {
      if (current === mine) setStatus(`Saving: ${Math.round((100 * done) / Math.max(total, 1))}%`, 'hint');
    });
    if (current !== mine) return;
    if (!saved) {
      setStatus('Not saved: no file was picked.', 'hint');
      return;
    }
    const left = written.metadata?.[LEFT_BEHIND_KEY];
    setStatus(
      `${saved.how === 'saved' ? 'Saved' : 'Downloaded'} ${saved.name}: ${plural(written.tensors.length, 'tensor')}, ${formatBytes(blob.size)}, ${written.report.loadable ? 'loadable' : 'NOT loadable'}.` +
        (left ? ` Left behind, and listed in its metadata (${LEFT_BEHIND_KEY}): ${left.split(',').join(', ')}.` : ''),
    );
  } catch (error) {
    if (current !== mine) return;
    const unsafe = error?.code === 'UnsafeCheckpoint';
    const option = unsafe ? '. Here, “Convert the tensors only, leave the globals behind” does that.' : '';
    setStatus(`${unsafe ? 'Refused' : 'Not converted'}: ${error.message}${option}`, 'rejected');
    if (unsafe) $('ckpt-convert-tensors').hidden = false;
  } finally {
    if (current === mine) {
      for (const button of buttons) button.disabled = false;
      document.body.dataset.state = 'done';
    }
  }
}

$('ckpt-convert').addEventListener('click', () => convert(false));
$('ckpt-convert-tensors').addEventListener('click', () => convert(true));
