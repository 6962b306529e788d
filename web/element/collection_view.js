// The tables of what holds several files: a sharded model's shards (with each one's SHA-256 once
// hashed), a diffusers pipeline's components (with the pipeline's summary) and a folder's
// separate files. A click on a component or a file shows it below, in the same element.
import { html } from 'lit';
import { familyText, grouped, shortCount } from '../card/card_text.js';
import { verdictText } from '../file/verdict_text.js';
import { formatBytes, plural, shown } from './card_words.js';

/** @param {import('../index.js').ValidationReport} report */
const verdictCell = (report) =>
  html`<td class=${report.loadable ? 'good' : 'bad'}>${shown(report.loadable || report.referenceError ? verdictText(report) : `not loadable: ${report.findings[0]?.code ?? ''}`)}</td>`;

/**
 * @param {import('./open_answer.js').ModelAnswer} a
 * @param {Map<string, string>} digests shard name -> SHA-256, once hashed
 */
export function shardsView(a, digests) {
  return html`<section part="files" aria-labelledby="shards-title">
    <h3 id="shards-title">Shards (${grouped(a.shards.length)})</h3>
    <div class="table-wrap">
      <table data-testid="shards">
        <thead>
          <tr>
            <th scope="col">Shard</th>
            <th scope="col" class="num">Tensors</th> <th scope="col">Verdict</th> <th scope="col" class="wide-only">SHA-256 (after hashing)</th></tr></thead>
        <tbody>
          ${a.shards.map(
            (s) =>
              html`<tr data-testid="shard-row" data-name=${s.name}>
                <td class="mono">${shown(s.name)}</td>
                <td class="num">${grouped(s.report.tensors)}</td>
                ${verdictCell(s.report)}
                <td class="digest wide-only">${digests.get(s.name) ?? ''}</td>
              </tr>`,
          )}
        </tbody> </table></div>
  </section>`;
}

/**
 * "3 with weights (1 sharded), 4 without, 1 missing · 1.07B parameters · 2.00 GiB of tensors"
 * @param {import('./open_answer.js').PipelineAnswer} a
 */
function pipelineSummary(a) {
  const { components } = a.opened;
  const count = (/** @type {string} */ weights) => components.filter((c) => c.weights === weights).length;
  const withWeights = components.filter((c) => c.model);
  const parts = [
    `${withWeights.length} with weights${count('sharded') ? ` (${count('sharded')} sharded)` : ''}`,
    `${count('none')} without`,
  ];
  if (count('missing')) parts.push(`${count('missing')} missing`);
  const cards = [...a.cards.values()];
  const parameters = cards.reduce((sum, card) => sum + card.parameters.total, 0);
  const bytes = withWeights.reduce((sum, c) => sum + (c.model?.tensors.reduce((s, t) => s + t.byteLength, 0) ?? 0), 0);
  const families = [...new Set(cards.map(familyText).filter(Boolean))];
  return [
    parts.join(', '),
    `${shortCount(parameters)} parameters`,
    `${formatBytes(bytes)} of tensors`,
    ...(families.length ? [`recognised: ${families.join(', ')}`] : []),
  ].join(' · ');
}

/**
 * @param {import('./open_answer.js').PipelineAnswer} a
 * @param {string | null} selected the component shown below
 * @param {(name: string) => void} onSelect
 */
export function componentsView(a, selected, onSelect) {
  const p = a.opened;
  return html`<section part="files" aria-labelledby="components-title">
    <h3 id="components-title">${shown(`${p.className ?? 'Pipeline'}: ${plural(p.components.length, 'component')}`)}</h3>
    <p data-testid="components-summary">${shown(pipelineSummary(a))}</p>
    <div class="table-wrap">
      <table data-testid="components">
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Class</th>
            <th scope="col" class="wide-only">Checkpoint</th> <th scope="col" class="num">Tensors</th> <th scope="col">Verdict</th></tr></thead>
        <tbody>
          ${p.components.map(
            (c) =>
              html`<tr data-testid="component-row" data-name=${c.name} class=${c.name === selected ? 'selected' : ''}>
                <td>
                  <button
                    type="button"
                    class="name"
                    ?disabled=${c.model === null}
                    aria-current=${c.name === selected ? 'true' : 'false'}
                    @click=${() => onSelect(c.name)}
                  >${shown(c.name)}</button>
                </td>
                <td>${shown(c.className ?? '(disabled)')}</td>
                <td class="wide-only mono">${shown(c.path ?? (c.weights === 'missing' ? 'no safetensors weights' : 'no weights'))}</td>
                <td class="num">${c.model ? grouped(c.model.tensors.length) : ''}</td> <td class=${c.report?.loadable || c.weights === 'none' ? 'good' : 'bad'}>${c.report ? (c.report.loadable ? 'loadable' : 'not loadable') : c.weights === 'missing' ? 'missing' : ''}</td></tr>`,
          )}
        </tbody> </table></div>
  </section>`;
}

/**
 * @param {import('./open_answer.js').FilesAnswer} a
 * @param {number} selected the file shown below
 * @param {(index: number) => void} onSelect
 */
export function filesView(a, selected, onSelect) {
  const loadable = a.files.filter((f) => f.report.loadable).length;
  return html`<section part="files" aria-labelledby="files-title">
    <h3 id="files-title">${plural(a.files.length, 'file')}, ${grouped(loadable)} loadable</h3>
    <p class="muted">Each is a file of its own: no index names them as the shards of one model. Pick one to see it.</p>
    <div class="table-wrap">
      <table data-testid="files">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col" class="num">Tensors</th> <th scope="col" class="num wide-only">Size</th> <th scope="col">Verdict</th></tr></thead>
        <tbody>
          ${a.files.map(
            (f, i) =>
              html`<tr data-testid="file-row" data-index=${i} class=${i === selected ? 'selected' : ''}>
                <td>
                  <button
                    type="button"
                    class="name"
                    aria-current=${i === selected ? 'true' : 'false'}
                    @click=${() => onSelect(i)}
                  >${shown(f.label)}</button>
                </td>
                <td class="num">${grouped(f.report.tensors)}</td>
                <td class="num wide-only">${formatBytes(f.file.size)}</td>${verdictCell(f.report)}</tr>`,
          )}
        </tbody> </table></div>
  </section>`;
}
