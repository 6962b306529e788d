// The tables of what holds several files: a sharded model's shards, a pipeline's components
// (with the pipeline's summary) and a folder's separate files. A click on a component or a
// file shows it below; the page is busy until it is shown.
import { familyText, shortCount } from '../web/card/card_text.js';
import { verdictText } from '../web/file/verdict_text.js';
import { clearFile } from './page.js';
import { $, cell, el, formatBytes, plural, shown } from './text.js';

/**
 * Runs a click's work with the page busy, then done; a failure empties the file's parts of the
 * page (nothing of the file shown before stays) and is said in the verdict.
 */
function clicked(work) {
  return async () => {
    document.body.dataset.state = 'busy';
    try {
      await work();
    } catch (error) {
      if (error?.name !== 'AbortError') {
        clearFile();
        $('verdict').textContent = shown(`could not read the file: ${error.message}`);
        $('verdict').className = 'rejected';
      }
    }
    document.body.dataset.state = 'done';
  };
}

function verdictCell(row, report) {
  const { loadable, referenceError, findings } = report;
  const verdict = cell(
    row,
    loadable || referenceError ? verdictText(report) : `not loadable: ${findings[0]?.code ?? ''}`,
  );
  verdict.className = loadable ? 'loadable' : 'rejected';
}

/** @param {import('../web/index.js').ShardInfo[]} shards */
export function showShards(shards) {
  const body = $('shards').tBodies[0];
  body.replaceChildren();
  for (const shard of shards) {
    const row = body.insertRow();
    row.dataset.testid = 'shard-row';
    row.dataset.name = shard.name;
    cell(row, shard.name);
    cell(row, shard.report.tensors.toLocaleString('en'));
    verdictCell(row, shard.report);
    cell(row, '').className = 'digest'; // its SHA-256, after "Compute hashes"
  }
  $('shards-title').textContent = `Shards (${shards.length})`;
  $('shards-box').hidden = false;
}

/**
 * "3 with weights (1 sharded), 4 without, 1 missing · 1.07B parameters · 2.00 GiB of tensors"
 * @param {import('../web/index.js').SafetensorsPipeline} pipeline
 * @param {Map<string, import('../web/index.js').ModelCard>} cards by component
 */
function pipelineSummary(pipeline, cards) {
  const count = (weights) => pipeline.components.filter((c) => c.weights === weights).length;
  const withWeights = pipeline.components.filter((c) => c.model);
  const parts = [
    `${withWeights.length} with weights${count('sharded') ? ` (${count('sharded')} sharded)` : ''}`,
    `${count('none')} without`,
  ];
  if (count('missing')) parts.push(`${count('missing')} missing`);
  const parameters = [...cards.values()].reduce((sum, card) => sum + card.parameters.total, 0);
  const bytes = withWeights.reduce((sum, c) => sum + c.model.tensors.reduce((s, t) => s + t.byteLength, 0), 0);
  const families = [...new Set([...cards.values()].map(familyText).filter(Boolean))];
  return [
    parts.join(', '),
    `${shortCount(parameters)} parameters`,
    `${formatBytes(bytes)} of tensors`,
    ...(families.length ? [`recognised: ${families.join(', ')}`] : []),
  ].join(' · ');
}

/**
 * @param {import('../web/index.js').SafetensorsPipeline} pipeline
 * @param {Map<string, import('../web/index.js').ModelCard>} cards by component
 * @param {(c: import('../web/index.js').PipelineComponent) => Promise<void>} show
 */
export function showComponents(pipeline, cards, show) {
  const body = $('components').tBodies[0];
  body.replaceChildren();
  for (const c of pipeline.components) {
    const row = body.insertRow();
    row.dataset.testid = 'component-row';
    row.dataset.name = c.name;
    const button = el('button', { type: 'button', textContent: shown(c.name), disabled: c.model === null });
    button.addEventListener(
      'click',
      clicked(() => show(c)),
    );
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
  $('components-title').textContent = shown(
    `${pipeline.className ?? 'Pipeline'}: ${plural(pipeline.components.length, 'component')}`,
  );
  $('components-summary').textContent = pipelineSummary(pipeline, cards);
  $('components-box').hidden = false;
}

/**
 * @param {string[]} labels the files' paths in the folder
 * @param {File[]} files
 * @param {import('../web/index.js').ValidationReport[]} reports
 * @param {(index: number) => Promise<void>} show
 */
export function showFileList(labels, files, reports, show) {
  const body = $('files').tBodies[0];
  body.replaceChildren();
  for (const [i, file] of files.entries()) {
    const row = body.insertRow();
    row.dataset.testid = 'file-row';
    row.dataset.index = String(i);
    const button = el('button', { type: 'button', textContent: shown(labels[i]) });
    button.addEventListener(
      'click',
      clicked(() => show(i)),
    );
    row.insertCell().append(button);
    cell(row, reports[i].tensors.toLocaleString('en'));
    cell(row, formatBytes(file.size));
    verdictCell(row, reports[i]);
  }
  const loadable = reports.filter((r) => r.loadable).length;
  $('files-title').textContent = `${plural(files.length, 'file')}, ${loadable} loadable`;
  $('files-summary').textContent =
    'Each is a file of its own: no index names them as the shards of one model. Click one to see it.';
  $('files-box').hidden = false;
}
