// Where <safetensors-card>'s blocks go: its pick buttons, then for a file, a sharded model or a
// checkpoint the head, verdict and findings, the card's facts, a checkpoint's globals, the
// actions, a model's shards, the metadata and the tensors; for a pipeline or a folder, its
// verdict and table above the part shown. The blocks a checkpoint or a collection alone needs
// load with the first such answer (loadViews), so that a page showing .safetensors files never
// fetches them.
import { html, nothing } from 'lit';
import { adapterName } from '../card/card_text.js';
import { factsView, metadataView } from './facts_view.js';
import { headView, verdictView } from './verdict_view.js';
import { plural, shown } from './card_words.js';

/** What the pick button accepts: safetensors files, indexes and configs, checkpoints and pickles. */
const ACCEPT = '.safetensors,.json,.ckpt,.pt,.pth,.bin,.pkl,.npy,.npz';

/**
 * @typedef {import('./card_actions.js').CardAnswer} CardAnswer
 * @typedef {object} Layout what the element gives its layout
 * @property {boolean} picker
 * @property {boolean} droppable
 * @property {import('./shown_source.js').ShownSource} source
 * @property {import('./tensor_table.js').TensorTable} table
 * @property {import('./card_actions.js').CardActions} actions
 * @property {boolean} metadataOpen
 * @property {(open: boolean) => void} toggleMetadata
 * @property {(input: 'pick-files' | 'pick-folder') => void} pick opens a pick button's file input
 * @property {(event: Event) => void} picked a pick button's input changed
 */

/**
 * The blocks only some answers have, once loaded: a checkpoint's, and the tables of a sharded
 * model, a pipeline or a folder.
 * @type {{ checkpoint?: typeof import('./checkpoint_view.js'), collection?: typeof import('./collection_view.js') }}
 */
const views = {};

/** Loads the blocks answers of `kind` need (once). @param {string} kind */
export async function loadViews(kind) {
  if (kind === 'checkpoint') views.checkpoint ??= await import('./checkpoint_view.js');
  else if (kind !== 'file') views.collection ??= await import('./collection_view.js');
}

/** @param {Layout} v */
function pickerView(v) {
  if (!v.picker) return nothing;
  return html`<div class="pick" part="picker">
    <button type="button" data-testid="pick-button" @click=${() => v.pick('pick-files')}>Choose files…</button>
    <button type="button" data-testid="pick-folder" @click=${() => v.pick('pick-folder')}>Choose a folder…</button>
    <span class="muted">${v.droppable ? 'or drop them here. ' : ''}Read on this machine, never uploaded.</span>
    <input id="pick-files" type="file" multiple accept=${ACCEPT} hidden data-testid="pick-input" @change=${v.picked} />
    <input id="pick-folder" type="file" webkitdirectory hidden data-testid="pick-folder-input" @change=${v.picked} />
  </div>`;
}

/**
 * The card of a file, a sharded model or a checkpoint, with its actions and tensors.
 * @param {Layout} v
 * @param {CardAnswer} a
 */
function cardView(v, a) {
  const findings = [
    ...a.report.findings.map((f) =>
      'severity' in f ? f : { ...f, severity: /** @type {const} */ ('warning'), component: f.where || undefined },
    ),
    ...v.actions.findings,
  ];
  const digests = new Map((v.actions.hashed?.shards ?? []).map((s) => [s.name, s.hashes.sha256 ?? '']));
  return html`${headView(a)} ${verdictView(a, /** @type {import('../index.js').Finding[]} */ (findings))}
    ${factsView(a, (text) => v.actions.copy(text))} ${a.kind === 'checkpoint' ? views.checkpoint?.checkpointView(a) : nothing}
    ${v.actions.render(a)} ${a.kind === 'checkpoint' ? views.checkpoint?.convertView(a, v.actions) : nothing}
    ${a.kind === 'model' ? views.collection?.shardsView(a, digests) : nothing}
    ${a.opened === null ? nothing : tensorsView(v, a, a.opened)}`;
}

/**
 * The metadata and the tensor table of an opened file, model or checkpoint.
 * @param {Layout} v
 * @param {CardAnswer} a
 * @param {NonNullable<CardAnswer['opened']>} opened
 */
function tensorsView(v, a, opened) {
  const adapter = a.card?.adapter ? ` of a ${adapterName(a.card)} adapter` : '';
  const described = a.kind === 'checkpoint' ? ', as its pickle describes them' : '';
  const note = `${plural(opened.tensors.length, 'tensor')}${adapter}${described}. Pick a name to preview its first values.`;
  return html`${'metadata' in opened ? metadataView(opened.metadata, v.metadataOpen, v.toggleMetadata) : nothing}
    ${v.table.render({
      note,
      scan: v.actions.scan,
      onPreview: (row) => v.actions.preview(opened, row),
      storage: a.kind === 'checkpoint' ? views.checkpoint?.storageText(a) : undefined,
    })}
    ${v.actions.previewView()}`;
}

/** What the card shows now: nothing yet, what is being read, why it could not be, or the answer. @param {Layout} v */
function body(v) {
  const { answer: a, failure, state, part } = v.source;
  if (failure)
    return html`<section part="verdict"><p class="verdict"><span class="badge bad" data-testid="verdict">could not read the source</span><span data-testid="failure">${shown(`${failure.code}: ${failure.message}`)}</span></p></section>`;
  if (!a) {
    if (state === 'loading') return html`<p class="muted" data-testid="opening">${v.source.opening}</p>`;
    return v.picker || v.droppable ? nothing : html`<p class="muted">No file given.</p>`;
  }
  if (a.kind !== 'pipeline' && a.kind !== 'files') return cardView(v, a);
  const select = (/** @type {string | number} */ which) => v.source.select(which);
  const table =
    a.kind === 'pipeline'
      ? views.collection?.componentsView(a, /** @type {string | null} */ (v.source.selected), select)
      : views.collection?.filesView(a, Number(v.source.selected ?? 0), select);
  return html`<header class="head" part="header"><div><h2 data-testid="card-title">${shown(a.name)}</h2><p class="what">${a.kind === 'pipeline' ? 'diffusers pipeline' : 'separate files'}</p></div></header>
    ${verdictView(a, a.report.findings)} ${table}
    ${part ? html`<div class="part">${cardView(v, part)}</div>` : state === 'loading' ? html`<p class="muted">Reading…</p>` : nothing}`;
}

/** The whole card. @param {Layout} v */
export function cardLayout(v) {
  const { answer, failure, state } = v.source;
  const hint = v.droppable && !answer && !failure && state !== 'loading';
  return html`<div class="frame" part="frame" aria-busy=${state === 'loading' ? 'true' : 'false'}>
    ${pickerView(v)}
    ${hint ? html`<p class="muted" part="drop-hint">Drop a .safetensors file, a checkpoint or a model's folder here.</p>` : nothing}
    <p class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${v.source.announcement()}</p>${body(v)}</div>`;
}
