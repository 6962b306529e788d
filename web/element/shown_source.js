// What <safetensors-card> shows, one source at a time: a source opened (./open_answer.js) into
// an answer, a pipeline's component or a folder's file picked below it, the state (`loading`,
// `done`, `error`, reflected as the host's `state` attribute) and the host's events: `load` once
// an answer is rendered, `error` when the source could not be read, `progress` while it is read.
// A new source aborts every read of the previous one, and nothing the previous one still does
// reaches the card.
import { SafetensorsError } from '../index.js';
import { grouped } from '../card/card_text.js';
import { openAnswer } from './open_answer.js';
import { loadViews } from './card_layout.js';
import { shown } from './card_words.js';

/**
 * @typedef {import('./open_answer.js').Answer} Answer
 * @typedef {import('./open_answer.js').PartAnswer} PartAnswer
 * @typedef {'' | 'loading' | 'done' | 'error'} CardState
 * @typedef {import('lit').ReactiveControllerHost & HTMLElement} Host
 */

const isAbort = (/** @type {unknown} */ e) => e instanceof Error && e.name === 'AbortError';

/**
 * A source's failure as the `error` event's detail: a SafetensorsError (a DOMException from a
 * handle or a TypeError from fetch become ReadError). A URL that could not be read while the
 * browser is offline says so plainly.
 * @param {unknown} error
 * @param {unknown} source
 */
function typed(error, source) {
  const remote = typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL);
  const code = error instanceof SafetensorsError ? error.code : 'ReadError';
  if (remote && code === 'ReadError' && typeof navigator !== 'undefined' && navigator.onLine === false)
    return new SafetensorsError('ReadError', `the network is off: ${String(source)} can be read once it is back`, {
      cause: error,
    });
  if (error instanceof SafetensorsError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new SafetensorsError('ReadError', `the source could not be read: ${text}`, { cause: error });
}

export class ShownSource {
  /** @type {CardState} */
  state = '';
  /** @type {AbortController | null} the reads of the source shown (or being opened) */
  turn = null;
  /** @type {string | null} a dropped or picked folder's name, for the next source */
  folder = null;
  /** @type {string | number | null} the part shown: a component's name or a file's index */
  selected = null;
  /** @type {Answer | null} what is shown */
  answer = null;
  /** @type {PartAnswer | null} a pipeline's component or a folder's file shown below its table */
  part = null;
  /** @type {SafetensorsError | null} why the source could not be read */
  failure = null;
  /** what is being read, while loading */
  opening = '';

  /**
   * @param {Host} host
   * @param {(rows: import('./tensor_table.js').Row[]) => void} showRows the tensor table's rows (every new answer resets the card's reads)
   */
  constructor(host, showRows) {
    this.host = host;
    this.showRows = showRows;
  }

  /** The verdict shown: a ValidationReport (a model's, pipeline's or folder's summarised as one), or a checkpoint's PickleScan. */
  get report() {
    return this.answer?.report ?? null;
  }

  /** The model card shown (a pipeline's or folder's: the component or file shown), or null. */
  get card() {
    const a = this.part ?? this.answer;
    return a && 'card' in a ? a.card : null;
  }

  /** What the source opened as; a folder's: the file shown's. */
  get opened() {
    const a = this.answer?.kind === 'files' ? this.part : this.answer;
    return a && 'opened' in a ? a.opened : null;
  }

  /** @param {CardState} state */
  setState(state) {
    this.state = state;
    this.host.requestUpdate();
    if (state) this.host.setAttribute('state', state);
    else this.host.removeAttribute('state');
  }

  /**
   * Opens `source` (nothing: the card empties), aborting whatever was being read.
   * @param {unknown} source
   */
  async open(source) {
    this.turn?.abort(new DOMException('another source was given', 'AbortError'));
    const controller = new AbortController();
    this.turn = controller;
    const folder = this.folder;
    this.folder = null;
    [this.answer, this.part, this.failure, this.selected] = [null, null, null, null];
    this.showRows([]);
    if (source === undefined || source === null || source === '') {
      this.turn = null;
      this.opening = '';
      this.setState('');
      return;
    }
    this.opening = 'Reading the header…';
    this.setState('loading');
    const onProgress = (/** @type {number} */ done, /** @type {number} */ total, /** @type {string} */ unit) => {
      if (this.turn !== controller) return;
      this.opening = `Reading ${unit}: ${grouped(done)} of ${grouped(total)}…`;
      this.host.requestUpdate();
      this.host.dispatchEvent(new CustomEvent('progress', { detail: { phase: 'open', done, total, unit } }));
    };
    try {
      const answer = await openAnswer(source, { signal: controller.signal, onProgress, folder });
      await loadViews(answer.kind);
      if (this.turn !== controller) return;
      this.answer = answer;
      if (answer.kind === 'pipeline') {
        const first = answer.opened.components.find((c) => c.model !== null);
        if (first) await this.select(first.name, false);
      } else if (answer.kind === 'files') await this.select(0, false);
      else this.showTensors(answer);
      if (this.turn !== controller) return;
      this.setState('done');
      await this.loaded();
    } catch (error) {
      if (this.turn !== controller || isAbort(error)) return;
      this.failed(error, source);
    }
  }

  /**
   * The source could not be read: said, and `error` dispatched once rendered.
   * @param {unknown} error
   * @param {unknown} [source]
   */
  async failed(error, source) {
    this.failure = typed(error, source);
    this.setState('error');
    await this.host.updateComplete;
    this.host.dispatchEvent(new CustomEvent('error', { detail: this.failure }));
  }

  /** Dispatches `load` once the answer is rendered. */
  async loaded() {
    await this.host.updateComplete;
    const a = this.answer;
    if (!a) return;
    const detail = {
      kind: a.kind,
      name: this.part?.name ?? a.name,
      report: this.report,
      card: this.card,
      opened: this.opened,
    };
    this.host.dispatchEvent(new CustomEvent('load', { detail }));
  }

  /**
   * Shows a pipeline's component (by name) or a folder's file (by index) below its table.
   * @param {string | number} which
   * @param {boolean} [announce] dispatch `load` once shown (a click; the first is the source's own)
   */
  async select(which, announce = true) {
    const a = this.answer;
    const turn = this.turn;
    if (!turn || (a?.kind !== 'pipeline' && a?.kind !== 'files')) return;
    this.selected = which;
    this.part = null;
    this.showRows([]);
    this.setState('loading');
    const context = { signal: turn.signal, onProgress: () => {} };
    try {
      const part = a.kind === 'pipeline' ? await a.part(String(which), context) : await a.part(Number(which), context);
      if (this.turn !== turn || this.selected !== which) return;
      this.part = part;
      this.showTensors(part);
      this.setState('done');
      if (announce) await this.loaded();
    } catch (error) {
      if (this.turn !== turn || isAbort(error)) return;
      if (!announce) throw error;
      this.failed(error);
    }
  }

  /** The tensor table's rows for what is shown. @param {Answer} a */
  showTensors(a) {
    if (a.kind === 'file') this.showRows(a.opened?.tensors ?? []);
    else if (a.kind === 'model' || a.kind === 'checkpoint') this.showRows(a.opened.tensors);
  }

  /** What a screen reader hears when the state changes. */
  announcement() {
    const name = this.part?.name ?? this.answer?.name ?? '';
    if (this.state === 'loading') return this.opening;
    if (this.state === 'error') return `Could not read the source: ${this.failure?.message ?? ''}`;
    if (this.state === 'done' && this.answer) {
      const r = this.answer.report;
      return shown(`${name}: ${'verdict' in r ? r.verdict : r.loadable ? 'loadable' : 'not loadable'}`);
    }
    return '';
  }
}
