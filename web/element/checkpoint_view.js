// A checkpoint's own block in <safetensors-card>: every global its pickle names (each safe,
// unknown or unsafe, the dangerous first) and its plain values. Loaded with the first checkpoint
// shown (./safetensors_card.js), so that pages showing only .safetensors files never fetch it.
import { html } from 'lit';
import { grouped } from '../card/card_text.js';
import { globalName, shown } from './card_words.js';

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
