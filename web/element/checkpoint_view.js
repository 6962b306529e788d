// A checkpoint's own blocks in <safetensors-card>: every global its pickle names (each safe,
// unknown or unsafe, the dangerous first), its plain values, and its conversion to .safetensors. Loaded with the first checkpoint
// shown (./card_layout.js), so that pages showing only .safetensors files never fetch it.
import { html, nothing } from 'lit';
import { grouped } from '../card/card_text.js';
import { CONVERTIBLE, globalName, outputName, plural, shown } from './card_words.js';

/** The globals table's order: the dangerous first. */
const RANK = { unsafe: 0, unknown: 1, safe: 2 };

/**
 * A checkpoint's globals (each safe, unknown or unsafe; the dangerous first) and its plain values.
 * @param {import('./open_answer.js').CheckpointAnswer} a
 */
export function checkpointView(a) {
  const ckpt = a.opened;
  const globals = [...ckpt.globals].sort((x, y) => RANK[x.safety] - RANK[y.safety]);
  const lines = ckpt.objects.map(
    (o) => `${o.name} = ${typeof o.value === 'string' ? JSON.stringify(o.value) : o.value}`,
  );
  if (ckpt.objectsLeftOut > 0) lines.push(`… and ${grouped(ckpt.objectsLeftOut)} more not listed`);
  return html`<section part="globals" aria-labelledby="globals-title">
    <h3 id="globals-title">Globals (${grouped(globals.length)})</h3>
    <p class="muted">
      Read without running it: its pickle is parsed opcode by opcode, and every function it would call (a
      <em>global</em>) is listed here instead of being called.
    </p>
    <div class="table-wrap">
      <table data-testid="ckpt-globals">
        <thead>
          <tr>
            <th scope="col">Global</th> <th scope="col">Safety</th> <th scope="col" class="num">Count</th></tr></thead>
        <tbody>
          ${
            globals.length === 0
              ? html`<tr> <td colspan="3">(none: the pickle names no function)</td></tr>`
              : globals.map(
                  (g) =>
                    html`<tr data-testid="ckpt-global">
                      <td class="mono">${shown(globalName(g))}</td>
                      <td class=${g.safety === 'unsafe' ? 'bad' : g.safety === 'unknown' ? 'caution' : 'good'}>${g.safety}</td> <td class="num">${grouped(g.count)}</td></tr>`,
                )
          }
        </tbody> </table></div>
    <h3>Other values (${grouped(ckpt.objects.length + ckpt.objectsLeftOut)})</h3> <pre data-testid="ckpt-objects">${shown(lines.length ? lines.join('\n') : '(none)')}</pre></section>`;
}

/**
 * The conversion of a checkpoint torch.save wrote: "Convert and save", and after a refusal
 * (a global that is not safe) "Convert the tensors only".
 * @param {import('./open_answer.js').CheckpointAnswer} a
 * @param {import('./card_actions.js').CardActions} actions
 */
export function convertView(a, actions) {
  if (!CONVERTIBLE.has(a.opened.format)) return nothing;
  return html`<section part="actions" aria-labelledby="convert-title">
    <h3 id="convert-title">Convert to .safetensors</h3>
    <p class="muted">Writes its ${plural(a.opened.tensors.length, 'tensor')} to ${shown(outputName(a.name))}, as safetensors.torch.save_file does (metadata {"format": "pt"}). Nothing of the pickle is run.</p>
    <div class="actions">
      ${actions.button('convert', 'Convert and save', () => actions.convert(a, false))}
      ${actions.offerUnsafe && !actions.running.has('convert') ? html`<button type="button" data-testid="convert-tensors-button" @click=${() => actions.convert(a, true)}>Convert the tensors only, leave the globals behind</button>` : nothing}
    </div>
    ${actions.statusLine('convert')}
  </section>`;
}

/** storageText's function for each checkpoint shown, made once. */
const storageTexts = new WeakMap();
const elements = (/** @type {number[]} */ shape) => shape.reduce((a, b) => a * b, 1);
/** Whether strides are the row-major ones of the shape (a size-1 dimension's stride is free). */
const rowMajor = (/** @type {number[]} */ shape, /** @type {number[]} */ stride) =>
  shape.every((n, d) => n === 1 || stride[d] === elements(shape.slice(d + 1)));

/**
 * Where each tensor's bytes are, for the tensor table: its storage, and for views, ties and
 * offsets what tells them apart ("storage 0, shared by 2 tensors, offset 4, stride [1, 4]").
 * @param {import('./open_answer.js').CheckpointAnswer} a
 * @returns {(row: { name: string }) => string}
 */
export function storageText(a) {
  const made = storageTexts.get(a);
  if (made) return made;
  /** @type {Map<string, number>} */
  const users = new Map();
  for (const t of a.opened.tensors) users.set(t.storage, (users.get(t.storage) ?? 0) + 1);
  const byName = new Map(a.opened.tensors.map((t) => [t.name, t]));
  /** @param {{ name: string }} row */
  const text = (row) => {
    const t = byName.get(row.name);
    if (!t) return '';
    const parts = [`storage ${t.storage}`];
    const sharing = users.get(t.storage) ?? 0;
    if (sharing > 1) parts.push(`shared by ${sharing} tensors`);
    if (t.storageOffset !== 0) parts.push(`offset ${grouped(t.storageOffset)}`);
    if (!rowMajor(t.shape, t.stride)) parts.push(`stride [${t.stride.join(', ')}]`);
    return parts.join(', ');
  };
  storageTexts.set(a, text);
  return text;
}
