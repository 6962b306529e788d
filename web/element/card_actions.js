// What <safetensors-card> does on request: hashes, the data scan, a Civitai lookup (the only
// request to another site, and only on a click), a checkpoint converted and saved, a tensor's
// first values, a trigger word copied. This holds their state and their buttons (a long read's
// button becomes Stop, with a progress bar); the reads themselves and what they found are shown
// by ./read_results.js, loaded on the first click. A new source stops every read (reset()).
import { html, nothing } from 'lit';
import { lookupCivitai, openSafetensors, validateSafetensors } from '../index.js';
import { civitaiAsks, civitaiPage, shown } from './card_words.js';

/**
 * @typedef {import('./open_answer.js').FileAnswer | import('./open_answer.js').ModelAnswer | import('./open_answer.js').CheckpointAnswer} CardAnswer
 * @typedef {'hash' | 'scan' | 'civitai' | 'convert'} Work
 * @typedef {{ signal: AbortSignal, onProgress: (done: number, total: number) => void }} ReadContext
 * @typedef {import('lit').ReactiveControllerHost & HTMLElement} Host
 * @typedef {import('lit').ReactiveController} ReactiveController
 */

const isAbort = (/** @type {unknown} */ e) => e instanceof Error && e.name === 'AbortError';
const message = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));

/** @implements {ReactiveController} */
export class CardActions {
  /** @param {Host} host */
  constructor(host) {
    this.host = host;
    host.addController(this);
    /** @type {Map<Work, AbortController>} the reads under way */
    this.running = new Map();
    /** @type {Map<Work, number | null>} each read's progress, 0 to 1 (null: unknown) */
    this.progress = new Map();
    /** @type {Map<Work | 'copy' | 'preview', string>} what each last said */
    this.status = new Map();
    /** The package's functions the reads call (./card_reads.js says why they are given). */
    this.api = { lookupCivitai, openSafetensors, validateSafetensors };
    /** @type {typeof import('./read_results.js') | null} the reads, once loaded */
    this.reads = null;
    /** @type {import('./card_reads.js').Hashed | null} */
    this.hashed = null;
    /** @type {Map<string, import('../index.js').TensorScan> | null} */
    this.scan = null;
    /** @type {import('../index.js').Finding[]} findings the reads added */
    this.findings = [];
    /** @type {[string, string, string | null][]} Civitai's answer: label, value, link */
    this.civitai = [];
    this.offerUnsafe = false;
    this.previewing = '';
  }

  hostDisconnected() {
    this.reset();
  }

  /** Stops every read and forgets what they found: another answer is shown. */
  reset() {
    for (const c of this.running.values()) c.abort(new DOMException('another source was given', 'AbortError'));
    this.running.clear();
    this.progress.clear();
    this.status.clear();
    this.hashed = null;
    this.scan = null;
    this.findings = [];
    this.civitai = [];
    this.offerUnsafe = false;
    this.previewing = '';
  }

  /** ./card_reads.js, loaded once. */
  async load() {
    this.reads ??= await import('./read_results.js');
    return this.reads;
  }

  /**
   * Runs the read `what` (a second call while it runs stops it): its status is what the read
   * returns, or why it stopped.
   * @param {Work} what
   * @param {string} label how the read is named in messages
   * @param {(reads: typeof import('./read_results.js'), context: ReadContext) => Promise<string>} work
   */
  async run(what, label, work) {
    const running = this.running.get(what);
    if (running) {
      running.abort(new DOMException('stopped', 'AbortError'));
      return;
    }
    const controller = new AbortController();
    this.running.set(what, controller);
    this.progress.set(what, null);
    this.host.requestUpdate();
    const onProgress = (/** @type {number} */ done, /** @type {number} */ total) => {
      if (this.running.get(what) !== controller) return;
      this.progress.set(what, total === 0 ? 1 : done / total);
      this.host.dispatchEvent(new CustomEvent('progress', { detail: { phase: what, done, total } }));
      this.host.requestUpdate();
    };
    try {
      const said = await work(await this.load(), { signal: controller.signal, onProgress });
      if (this.running.get(what) === controller) this.status.set(what, said);
    } catch (error) {
      if (this.running.get(what) === controller)
        this.status.set(what, isAbort(error) ? `${label} stopped.` : `${label} failed: ${message(error)}`);
    } finally {
      if (this.running.get(what) === controller) {
        this.running.delete(what);
        this.progress.delete(what);
        this.host.requestUpdate();
      }
    }
  }

  /** @param {CardAnswer} a */
  hash(a) {
    return this.run('hash', 'Hashing', (reads, context) => reads.hashWork(this, a, context));
  }

  /** @param {CardAnswer} a */
  scanData(a) {
    return this.run('scan', 'Scan', (reads, context) => reads.scanWork(this, a, context));
  }

  /** @param {CardAnswer} a */
  findOnCivitai(a) {
    return this.run('civitai', 'The Civitai lookup', (reads, context) => reads.civitaiWork(this, a, context));
  }

  /**
   * Converts the checkpoint shown and saves the result (a save picker or a download).
   * @param {import('./open_answer.js').CheckpointAnswer} a
   * @param {boolean} allowUnsafeGlobals the explicit choice: its tensors only, the globals left behind
   */
  convert(a, allowUnsafeGlobals) {
    return this.run('convert', 'Conversion', (reads, context) =>
      reads.convertWork(this, a, allowUnsafeGlobals, context),
    );
  }

  /**
   * A tensor's first values.
   * @param {object} opened what has getTensor
   * @param {import('./tensor_table.js').Row} row
   */
  async preview(opened, row) {
    this.previewing = row.name;
    this.status.set('preview', `reading ${row.name}…`);
    this.host.requestUpdate();
    let text;
    try {
      text = await (await this.load()).previewText(/** @type {any} */ (opened), row);
    } catch (error) {
      text = `${row.name}: ${error instanceof Error && 'code' in error ? error.code : 'Error'}: ${message(error)}`;
    }
    if (this.previewing !== row.name) return;
    this.status.set('preview', text);
    this.host.requestUpdate();
  }

  /** Copies a trigger word. @param {string} text */
  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      this.status.set('copy', `Copied “${text}”.`);
    } catch (error) {
      this.status.set('copy', `Could not copy: ${message(error)}`);
    }
    this.host.requestUpdate();
  }

  /**
   * A button for a long read: Stop while it runs, with its progress bar.
   * @param {Work} what
   * @param {string} label
   * @param {() => void} onClick
   * @param {boolean} [disabled]
   */
  button(what, label, onClick, disabled = false) {
    const running = this.running.has(what);
    return html`<button type="button" data-testid="${what}-button" ?disabled=${disabled} @click=${onClick}>${running ? 'Stop' : label}</button>
      ${running ? html`<progress data-testid="${what}-progress" max="1" .value=${this.progress.get(what) ?? 0} aria-label="${label} progress"></progress>` : nothing}`;
  }

  /** A read's status line (a live region). @param {Work | 'copy'} what */
  statusLine(what) {
    return html`<p class="status" role="status" data-testid="${what}-status">${shown(this.status.get(what) ?? '')}</p>`;
  }

  /**
   * The actions block of a file, a model or a checkpoint, with what each has found.
   * @param {CardAnswer} a
   */
  render(a) {
    const loadableShard = a.kind === 'model' && a.shards.some((s) => s.report.loadable);
    const hashable = a.kind === 'model' ? loadableShard : a.size !== null || a.kind === 'file';
    const scannable = (a.kind === 'file' && a.opened !== null) || loadableShard;
    const asks = civitaiAsks(a.card, this.hashed?.file ?? null);
    const named = civitaiPage(a.card?.civitai?.pageUrl);
    const reads = this.reads;
    return html`<section part="actions" aria-labelledby="actions-title">
      <h3 id="actions-title">Hashes and data</h3>
      <div class="actions">
        ${this.button('hash', 'Compute hashes', () => this.hash(a), !hashable)}
        ${a.kind !== 'checkpoint' ? this.button('scan', 'Scan tensor data', () => this.scanData(a), !scannable) : nothing}
        ${asks.length ? this.button('civitai', 'Find on Civitai', () => this.findOnCivitai(a)) : nothing}
      </div>
      ${this.statusLine('hash')} ${reads?.hashView(this) ?? nothing} ${a.kind !== 'checkpoint' ? this.statusLine('scan') : nothing}
      ${
        asks.length || named
          ? html`<p class="muted" data-testid="civitai-note">${asks.length ? `Find on Civitai asks civitai.com with ${asks.map((x) => x.what).join(', then ')}; nothing is sent before you click.` : 'Compute hashes to look this file up on Civitai.'}</p>
        ${named ? html`<p>Named by the metadata: <a href=${named} target="_blank" rel="noopener noreferrer nofollow">${named}</a></p>` : nothing}
        ${this.statusLine('civitai')} ${reads?.civitaiView(this) ?? nothing}`
          : nothing
      }
      ${this.statusLine('copy')}
    </section>`;
  }

  /** The preview of a tensor's first values, under the tensor table. */
  previewView() {
    const text = this.status.get('preview');
    return text ? html`<pre part="preview" data-testid="preview" aria-live="polite">${shown(text)}</pre>` : nothing;
  }
}
