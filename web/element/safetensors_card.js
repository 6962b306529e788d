// <safetensors-card>: a model file's card as one element. Give it a source (`source`: a File,
// Blob, FileSystemFileHandle, picked files or a URL; or the `src` attribute, a URL read by
// Range) and it shows the verdict first, then the card, metadata and tensors, with hashes, the
// data scan and (for a checkpoint) conversion on request. A new source aborts the reads of the
// previous one. Events: `load` (each answer shown, a rejected file included), `error` (the
// source could not be read), `progress`. The blocks are in ./card_views.js,
// ./collection_view.js, ./tensor_table.js and ./card_actions.js; what a source is, in
// ./open_answer.js. docs/element.md documents it.
import { LitElement, html, nothing } from 'lit';
import { SafetensorsError } from '../index.js';
import { adapterName, grouped } from '../card/card_text.js';
import { openAnswer } from './open_answer.js';
import { dropped } from '../source/picked_files.js';
import { cardStyles } from './card_styles.js';
import { factsView, headView, metadataView, verdictView } from './card_views.js';
import { TensorTable } from './tensor_table.js';
import { CardActions } from './card_actions.js';
import { plural, shown } from './card_words.js';

/** What the pick button accepts: safetensors files, indexes and configs, checkpoints and pickles. */
const ACCEPT = '.safetensors,.json,.ckpt,.pt,.pth,.bin,.pkl,.npy,.npz';

/**
 * @typedef {import('./open_answer.js').Answer} Answer
 * @typedef {import('./open_answer.js').PartAnswer} PartAnswer
 * @typedef {import('./card_actions.js').CardAnswer} CardAnswer
 * @typedef {'' | 'loading' | 'done' | 'error'} CardState
 */

const isAbort = (/** @type {unknown} */ e) => e instanceof Error && e.name === 'AbortError';

/**
 * The blocks only some answers have, loaded with the first answer that has them: a checkpoint's
 * globals, and the tables of a sharded model, a pipeline or a folder. A page that shows only
 * .safetensors files never fetches them.
 * @type {{ checkpoint?: typeof import('./checkpoint_view.js'), collection?: typeof import('./collection_view.js') }}
 */
const views = {};

/** Loads the blocks `kind` needs (once). @param {string} kind */
async function loadViews(kind) {
  if (kind === 'checkpoint') views.checkpoint ??= await import('./checkpoint_view.js');
  else if (kind !== 'file') views.collection ??= await import('./collection_view.js');
}

/**
 * A source's failure as the `error` event's detail: a SafetensorsError (a DOMException from a
 * handle or a TypeError from fetch become ReadError).
 * @param {unknown} error
 */
function typed(error) {
  if (error instanceof SafetensorsError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new SafetensorsError('ReadError', `the source could not be read: ${text}`, { cause: error });
}

/**
 * The model card of a .safetensors file, a sharded model, a diffusers pipeline or a PyTorch
 * checkpoint, read on the user's machine: the verdict first, then the card, metadata and tensors.
 *
 * @tag safetensors-card
 * @summary A model file's verdict and card, from a File, a URL or picked files.
 *
 * @attr state - Reflected, read-only: `loading` while a source is read, then `done` or `error`.
 * @attr drop-target - Set while a file is dragged over a `droppable` card.
 *
 * @fires {CustomEvent<{ kind: string, name: string, report: object, card: object | null, opened: object | null }>} load - An answer is shown (a rejected file's included: its verdict is the answer).
 * @fires {CustomEvent<SafetensorsError>} error - The source could not be read (network, HTTP status, permission); not on abort.
 * @fires {CustomEvent<{ phase: string, done: number, total: number, unit?: string }>} progress - A long read moved on: `open` (shards, components or files), `hash`, `scan`, `civitai`, `convert` (bytes).
 *
 * @csspart frame - The card's box.
 * @csspart picker - The pick buttons (with `picker`).
 * @csspart header - The cover, title and what the file is.
 * @csspart cover - The cover image the file carries.
 * @csspart verdict - Loadable or not (a checkpoint: safe, unknown or unsafe).
 * @csspart findings - Each finding's severity, code and message.
 * @csspart facts - The model card's facts.
 * @csspart globals - A checkpoint's globals and plain values.
 * @csspart actions - Hashes, the data scan, Civitai, conversion.
 * @csspart files - A sharded model's shards, a pipeline's components, a folder's files.
 * @csspart metadata - The metadata, collapsed.
 * @csspart tensors - The tensor table with its search box and pages.
 * @csspart preview - A tensor's first values.
 *
 * @cssprop [--st-card-background=#ffffff] - The card's background (dark: #161a22).
 * @cssprop [--st-card-color=#1d2330] - Text (dark: #e6e9ef).
 * @cssprop [--st-card-muted-color=#4a5468] - Secondary text (dark: #aab2c2).
 * @cssprop [--st-card-border-color=#c9d1df] - Borders and rules (dark: #3a4252).
 * @cssprop [--st-card-surface=#f3f5f9] - Buttons, previews, selected rows (dark: #1f2430).
 * @cssprop [--st-card-accent=#2f55d4] - Links, focus rings, the drop outline (dark: #9db4ff).
 * @cssprop [--st-card-ok-color=#17762b] - Loadable, safe, matches (dark: #6fd68a).
 * @cssprop [--st-card-bad-color=#b3261e] - Not loadable, unsafe, errors (dark: #ff9a91).
 * @cssprop [--st-card-warn-color=#8a4b00] - Unknown, warnings (dark: #f2b766).
 * @cssprop [--st-card-badge-color=#ffffff] - Text on a verdict badge (dark: #10131a).
 * @cssprop [--st-card-font=15px/1.45 system-ui, sans-serif] - The font.
 * @cssprop [--st-card-mono-font=ui-monospace, monospace] - Names, shapes, hashes.
 * @cssprop [--st-card-radius=10px] - The box's corners.
 * @cssprop [--st-card-padding=0.9rem 1.1rem] - The box's padding.
 */
export class SafetensorsCard extends LitElement {
  static properties = {
    source: { attribute: false },
    src: { type: String, reflect: true },
    theme: { type: String, reflect: true },
    droppable: { type: Boolean, reflect: true },
    picker: { type: Boolean, reflect: true },
  };

  static styles = cardStyles;

  /** @type {CardState} */
  #currentState = '';
  /** @type {AbortController | null} the reads of the source shown (or being opened) */
  #turn = null;
  /** @type {string | null} a dropped or picked folder's name */
  #folder = null;
  /** @type {string | number | null} the part shown: a component's name or a file's index */
  #selected = null;
  #table = new TensorTable(this);
  #actions = new CardActions(this);
  /** @type {Answer | null} what is shown */
  #answer = null;
  /** @type {PartAnswer | null} a pipeline's component or a folder's file shown below its table */
  #part = null;
  /** @type {SafetensorsError | null} why the source could not be read */
  #failure = null;
  /** what is being read, while loading */
  #opening = '';
  #metadataOpen = false;

  constructor() {
    super();
    /** @type {unknown} what to show: a File, Blob, FileSystemFileHandle, picked files (an array or FileList), bytes or a URL */
    this.source = undefined;
    /** @type {string | undefined} a URL to read by Range (the attribute's form of `source`) */
    this.src = undefined;
    /** @type {'auto' | 'light' | 'dark' | undefined} the colour scheme; default: the page's (prefers-color-scheme) */
    this.theme = undefined;
    /** @type {boolean} takes a dropped file or folder */
    this.droppable = false;
    /** @type {boolean} shows its own button to pick files */
    this.picker = false;
    this.addEventListener('dragover', (e) => this.#dragOver(e));
    this.addEventListener('dragleave', () => this.removeAttribute('drop-target'));
    this.addEventListener('drop', (e) => this.#drop(e));
  }

  /** `loading` while a source is read, then `done` or `error` (also the `state` attribute; '' before any source). */
  get state() {
    return this.#currentState;
  }

  /** The verdict shown: a ValidationReport (a model's, pipeline's or folder's summarised as one), or a checkpoint's PickleScan. */
  get report() {
    return this.#answer?.report ?? null;
  }

  /** The model card shown (a pipeline's or folder's: the component or file shown), or null. */
  get card() {
    const shownAnswer = this.#part ?? this.#answer;
    return shownAnswer && 'card' in shownAnswer ? shownAnswer.card : null;
  }

  /** What the source opened as: a SafetensorsFile (null when rejected), ShardedModel, SafetensorsPipeline or Checkpoint; a folder's: the file shown's. */
  get opened() {
    const a = this.#answer?.kind === 'files' ? this.#part : this.#answer;
    return a && 'opened' in a ? a.opened : null;
  }

  /** @param {Map<PropertyKey, unknown>} changed */
  willUpdate(changed) {
    if (changed.has('source')) this.#open(this.source);
    else if (changed.has('src') && this.src) this.#open(this.src);
  }

  /** @param {CardState} state */
  #setState(state) {
    this.#currentState = state;
    this.requestUpdate();
    if (state) this.setAttribute('state', state);
    else this.removeAttribute('state');
  }

  /**
   * Opens `source`, aborting whatever was being read.
   * @param {unknown} source
   */
  async #open(source) {
    this.#turn?.abort(new DOMException('another source was given', 'AbortError'));
    this.#actions.reset();
    const controller = new AbortController();
    this.#turn = controller;
    const folder = this.#folder;
    this.#folder = null;
    [this.#answer, this.#part, this.#failure, this.#selected, this.#metadataOpen] = [null, null, null, null, false];
    this.#table.show([]);
    if (source === undefined || source === null || source === '') {
      this.#turn = null;
      this.#opening = '';
      this.#setState('');
      return;
    }
    this.#opening = 'Reading the header…';
    this.#setState('loading');
    const onProgress = (/** @type {number} */ done, /** @type {number} */ total, /** @type {string} */ unit) => {
      if (this.#turn !== controller) return;
      this.#opening = `Reading ${unit}: ${grouped(done)} of ${grouped(total)}…`;
      this.requestUpdate();
      this.dispatchEvent(new CustomEvent('progress', { detail: { phase: 'open', done, total, unit } }));
    };
    try {
      const answer = await openAnswer(source, { signal: controller.signal, onProgress, folder });
      await loadViews(answer.kind);
      if (this.#turn !== controller) return;
      this.#answer = answer;
      if (answer.kind === 'pipeline') {
        const first = answer.opened.components.find((c) => c.model !== null);
        if (first) await this.#select(first.name, false);
      } else if (answer.kind === 'files') await this.#select(0, false);
      else this.#showTensors(answer);
      if (this.#turn !== controller) return;
      this.#setState('done');
      await this.#shown();
    } catch (error) {
      if (this.#turn !== controller || isAbort(error)) return;
      this.#failure = typed(error);
      this.#setState('error');
      await this.updateComplete;
      this.dispatchEvent(new CustomEvent('error', { detail: this.#failure }));
    }
  }

  /** Dispatches `load` once the answer is rendered. */
  async #shown() {
    await this.updateComplete;
    const a = this.#answer;
    if (!a) return;
    const detail = {
      kind: a.kind,
      name: this.#part?.name ?? a.name,
      report: this.report,
      card: this.card,
      opened: this.opened,
    };
    this.dispatchEvent(new CustomEvent('load', { detail }));
  }

  /**
   * Shows a pipeline's component (by name) or a folder's file (by index) below its table.
   * @param {string | number} which
   * @param {boolean} [announce] dispatch `load` once shown (a click; the first is the source's own)
   */
  async #select(which, announce = true) {
    const a = this.#answer;
    const turn = this.#turn;
    if (!turn || (a?.kind !== 'pipeline' && a?.kind !== 'files')) return;
    this.#actions.reset();
    this.#selected = which;
    this.#part = null;
    this.#table.show([]);
    this.#setState('loading');
    const context = { signal: turn.signal, onProgress: () => {} };
    try {
      const part = a.kind === 'pipeline' ? await a.part(String(which), context) : await a.part(Number(which), context);
      if (this.#turn !== turn || this.#selected !== which) return;
      this.#part = part;
      this.#showTensors(part);
      this.#setState('done');
      if (announce) await this.#shown();
    } catch (error) {
      if (this.#turn !== turn || isAbort(error)) return;
      if (!announce) throw error;
      this.#failure = typed(error);
      this.#setState('error');
      this.dispatchEvent(new CustomEvent('error', { detail: this.#failure }));
    }
  }

  /** The tensor table's rows for what is shown. @param {Answer} a */
  #showTensors(a) {
    const rows =
      a.kind === 'file'
        ? (a.opened?.tensors ?? [])
        : a.kind === 'model' || a.kind === 'checkpoint'
          ? a.opened.tensors
          : [];
    this.#table.show(rows);
  }

  /** @param {DragEvent} e */
  #dragOver(e) {
    if (!this.droppable) return;
    e.preventDefault();
    this.setAttribute('drop-target', '');
  }

  /** @param {DragEvent} e */
  async #drop(e) {
    if (!this.droppable || !e.dataTransfer) return;
    e.preventDefault();
    e.stopPropagation();
    this.removeAttribute('drop-target');
    const { files, folder } = await dropped(e.dataTransfer);
    if (files.length === 0) return;
    this.#folder = folder;
    this.source = files;
  }

  /** @param {Event} e the pick button's input */
  #picked(e) {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    this.#folder = input.webkitdirectory ? (files[0].webkitRelativePath.split('/')[0] ?? null) : null;
    this.source = files;
    input.value = '';
  }

  /** What a screen reader hears when the state changes. */
  #announcement() {
    const name = this.#part?.name ?? this.#answer?.name ?? '';
    if (this.#currentState === 'loading') return this.#opening;
    if (this.#currentState === 'error') return `Could not read the source: ${this.#failure?.message ?? ''}`;
    if (this.#currentState === 'done' && this.#answer) {
      const r = this.#answer.report;
      const verdict = 'verdict' in r ? `${r.verdict}` : r.loadable ? 'loadable' : 'not loadable';
      return shown(`${name}: ${verdict}`);
    }
    return '';
  }

  #pickerView() {
    if (!this.picker) return nothing;
    const pick = (/** @type {string} */ id) =>
      /** @type {HTMLInputElement | null} */ (this.renderRoot.querySelector(`#${id}`))?.click();
    return html`<div class="pick" part="picker">
      <button type="button" data-testid="pick-button" @click=${() => pick('pick-files')}>Choose files…</button>
      <button type="button" data-testid="pick-folder" @click=${() => pick('pick-folder')}>Choose a folder…</button>
      <span class="muted">${this.droppable ? 'or drop them here. ' : ''}Read on this machine, never uploaded.</span>
      <input
        id="pick-files"
        type="file"
        multiple
        accept=${ACCEPT}
        hidden
        data-testid="pick-input"
        @change=${this.#picked}
      />
      <input
        id="pick-folder"
        type="file"
        webkitdirectory
        hidden
        data-testid="pick-folder-input"
        @change=${this.#picked}
      />
    </div>`;
  }

  /** The card of a file, a sharded model or a checkpoint, with its actions and tensors. @param {CardAnswer} a */
  #cardView(a) {
    const findings = [
      ...a.report.findings.map((f) =>
        'severity' in f ? f : { ...f, severity: /** @type {const} */ ('warning'), component: f.where || undefined },
      ),
      ...this.#actions.findings,
    ];
    const n = a.kind === 'file' ? a.report.tensors : a.opened.tensors.length;
    const note =
      a.kind === 'file' && !a.opened
        ? 'No tensors to show: the reference loader rejects this file.'
        : `${plural(n, 'tensor')}${a.card?.adapter ? ` of a ${adapterName(a.card)} adapter` : ''}${a.kind === 'checkpoint' ? ', as its pickle describes them' : ''}. Pick a name to preview its first values.`;
    const opened = a.opened;
    return html`${headView(a)} ${verdictView(a, /** @type {import('../index.js').Finding[]} */ (findings))}
    ${factsView(a, (text) => this.#actions.copy(text))} ${a.kind === 'checkpoint' ? views.checkpoint?.checkpointView(a) : nothing}
    ${this.#actions.render(a)} ${a.kind === 'checkpoint' ? views.checkpoint?.convertView(a, this.#actions) : nothing} ${a.kind === 'model' ? views.collection?.shardsView(a, this.#digests()) : nothing}
    ${opened === null ? nothing : this.#tensorsView(a, opened, note)}`;
  }

  /**
   * The metadata and the tensor table of an opened file, model or checkpoint.
   * @param {CardAnswer} a
   * @param {NonNullable<CardAnswer['opened']>} opened
   * @param {string} note
   */
  #tensorsView(a, opened, note) {
    const metadata = 'metadata' in opened ? opened.metadata : null;
    return html`${
      a.kind === 'checkpoint'
        ? nothing
        : metadataView(metadata, this.#metadataOpen, (open) => {
            this.#metadataOpen = open;
            this.requestUpdate();
          })
    }
    ${this.#table.render({
      note,
      scan: this.#actions.scan,
      onPreview: (row) => this.#actions.preview(opened, row),
      storage: a.kind === 'checkpoint' ? views.checkpoint?.storageText(a) : undefined,
    })}
    ${this.#actions.previewView()}`;
  }

  /** Each shard's SHA-256, once hashed. */
  #digests() {
    return new Map((this.#actions.hashed?.shards ?? []).map((s) => [s.name, s.hashes.sha256 ?? '']));
  }

  #body() {
    const a = this.#answer;
    if (this.#failure)
      return html`<section part="verdict">
        <p class="verdict"><span class="badge bad" data-testid="verdict">could not read the source</span><span data-testid="failure">${shown(`${this.#failure.code}: ${this.#failure.message}`)}</span></p></section>`;
    if (!a)
      return this.#currentState === 'loading'
        ? html`<p class="muted" data-testid="opening">${this.#opening}</p>`
        : this.picker || this.droppable
          ? nothing
          : html`<p class="muted">No file given.</p>`;
    if (a.kind === 'pipeline' || a.kind === 'files') {
      const table =
        a.kind === 'pipeline'
          ? views.collection?.componentsView(a, /** @type {string | null} */ (this.#selected), (name) =>
              this.#select(name),
            )
          : views.collection?.filesView(a, Number(this.#selected ?? 0), (i) => this.#select(i));
      return html`<header class="head" part="header">
          <div> <h2 data-testid="card-title">${shown(a.name)}</h2> <p class="what">${a.kind === 'pipeline' ? 'diffusers pipeline' : 'separate files'}</p></div></header>
        ${verdictView(a, a.report.findings)} ${table}
        ${this.#part ? html`<div class="part">${this.#cardView(this.#part)}</div>` : this.#currentState === 'loading' ? html`<p class="muted">Reading…</p>` : nothing}`;
    }
    return this.#cardView(a);
  }

  render() {
    return html`<div class="frame" part="frame" aria-busy=${this.#currentState === 'loading' ? 'true' : 'false'}>
      ${this.#pickerView()}
      ${
        this.droppable && !this.#answer && !this.#failure && this.#currentState !== 'loading'
          ? html`<p class="muted" part="drop-hint">Drop a .safetensors file, a checkpoint or a model's folder here.</p>`
          : nothing
      }
      <p class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this.#announcement()}</p>${this.#body()}</div>`;
  }
}
