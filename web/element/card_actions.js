// What <safetensors-card> does on request, and what it then shows: hashes (SHA-256, AutoV2,
// AutoV3, with progress, checked against the metadata's claims), the data scan, a Civitai lookup
// (the only request to another site, and only on a click), a checkpoint converted and saved (an
// unsafe one refused until the user picks "tensors only"), a tensor's first values, a trigger
// word copied. A long read's button becomes Stop; a new source stops every read (reset()).
import { html, nothing } from 'lit';
import { lookupCivitai } from '../index.js';
import { CONVERTIBLE, civitaiAsks, civitaiPage, outputName } from './card_links.js';
import { formatBytes, plural, shown } from './card_words.js';

/**
 * @typedef {import('./open_answer.js').Answer} Answer
 * @typedef {import('./open_answer.js').FileAnswer | import('./open_answer.js').ModelAnswer | import('./open_answer.js').CheckpointAnswer} CardAnswer
 * @typedef {'hash' | 'scan' | 'civitai' | 'convert'} Work
 * @typedef {import('lit').ReactiveControllerHost & HTMLElement} Host
 */

const elapsed = (/** @type {number} */ since) => (performance.now() - since).toFixed(0);
const isAbort = (/** @type {unknown} */ e) => e instanceof Error && e.name === 'AbortError';
const message = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
/** The reads themselves, loaded on the first click (./card_reads.js). */
const reads = () => import('./card_reads.js');

/** @typedef {import('lit').ReactiveController} ReactiveController */

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
    for (const controller of this.running.values())
      controller.abort(new DOMException('another source was given', 'AbortError'));
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

  /**
   * Runs `work` as the read `what`: a second call while it runs stops it. Its status is what
   * `work` returns, or why it stopped.
   * @param {Work} what
   * @param {string} label how the read is named in messages
   * @param {(context: { signal: AbortSignal, onProgress: (done: number, total: number) => void }) => Promise<string>} work
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
      const said = await work({ signal: controller.signal, onProgress });
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
    return this.run('hash', 'Hashing', async (context) => {
      const started = performance.now();
      const hashed = await (await reads()).hashAnswer(a, context);
      context.signal.throwIfAborted();
      this.hashed = hashed;
      this.findings = [...this.findings, ...hashed.findings];
      if (a.kind === 'model')
        return `Hashed ${plural(hashed.shards.length, 'shard')} in ${elapsed(started)} ms; each one's SHA-256 is in the shards table.`;
      return `Hashed ${a.size === null ? 'the file' : formatBytes(a.size)} in ${elapsed(started)} ms.`;
    });
  }

  /** @param {CardAnswer} a */
  scanData(a) {
    return this.run('scan', 'Scan', async (context) => {
      const started = performance.now();
      const result = await (await reads()).scanAnswer(a, context);
      context.signal.throwIfAborted();
      this.scan = new Map(result.tensors.map((r) => [r.name, r]));
      this.findings = [...this.findings, ...result.findings];
      const bad = result.tensors.filter((r) => r.nan + r.posInf + r.negInf > 0).length;
      const zero = result.tensors.filter((r) => r.allZero).length;
      const of = a.kind === 'model' ? ` of ${plural(result.shards, 'shard')}` : '';
      return `Scanned ${formatBytes(result.bytes)}${of} in ${elapsed(started)} ms: ${bad} tensor(s) with NaN or infinities, ${zero} all-zero.`;
    });
  }

  /** @param {CardAnswer} a */
  findOnCivitai(a) {
    return this.run('civitai', 'The Civitai lookup', async ({ signal }) => {
      let version = null;
      for (const ask of civitaiAsks(a.card, this.hashed?.file ?? null)) {
        this.status.set('civitai', `Asking civitai.com about ${ask.what}…`);
        this.host.requestUpdate();
        version = await lookupCivitai(ask.hash, { signal });
        if (version) break;
      }
      signal.throwIfAborted();
      if (!version) {
        this.civitai = [];
        return 'Not on Civitai: Civitai knows no file with this hash.';
      }
      const page = civitaiPage(version.pageUrl);
      this.civitai = [
        ['Model', version.modelName ?? '', null],
        ['Version', version.versionName ?? '', null],
        ['Base model', version.baseModel ?? '', null],
        ['Trained words', version.trainedWords.join(', '), null],
        ['AIR', version.air ?? '', null],
        ['Page', page ?? '', page],
      ];
      return 'Found on Civitai.';
    });
  }

  /**
   * Converts the checkpoint shown and saves the result (a save picker or a download).
   * @param {import('./open_answer.js').CheckpointAnswer} a
   * @param {boolean} allowUnsafeGlobals the explicit choice: its tensors only, the globals left behind
   */
  convert(a, allowUnsafeGlobals) {
    return this.run('convert', 'Conversion', async (context) => {
      const { convertAndSave } = await reads();
      try {
        return await convertAndSave(a, allowUnsafeGlobals, context);
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'UnsafeCheckpoint') {
          this.offerUnsafe = true;
          return `Refused: ${error.message}. “Convert the tensors only” writes its tensors and leaves the globals behind.`;
        }
        throw error;
      }
    });
  }

  /**
   * A tensor's first values.
   * @param {{ getTensor: Function }} opened
   * @param {import('./tensor_table.js').Row} row
   */
  async preview(opened, row) {
    this.previewing = row.name;
    this.status.set('preview', `reading ${row.name}…`);
    this.host.requestUpdate();
    let text;
    try {
      text = await (await reads()).previewText(/** @type {any} */ (opened), row);
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
    const progress = this.progress.get(what);
    return html`<button type="button" data-testid="${what}-button" ?disabled=${disabled} @click=${onClick}>${running ? 'Stop' : label}</button>
      ${
        running
          ? html`<progress
              data-testid="${what}-progress"
              max="1"
              .value=${progress ?? 0}
              aria-label="${label} progress"
            ></progress>`
          : nothing
      }`;
  }

  /**
   * The actions block of a file, a model or a checkpoint, with what each has found.
   * @param {CardAnswer} a
   */
  render(a) {
    const hashable =
      a.kind === 'model' ? a.shards.some((s) => s.report.loadable) : a.size !== null || a.kind === 'file';
    const scannable =
      (a.kind === 'file' && a.opened !== null) || (a.kind === 'model' && a.shards.some((s) => s.report.loadable));
    const asks = civitaiAsks(a.card, this.hashed?.file ?? null);
    const named = civitaiPage(a.card?.civitai?.pageUrl);
    const convertible = a.kind === 'checkpoint' && CONVERTIBLE.has(a.opened.format);
    const status = (/** @type {Work | 'copy'} */ what) =>
      html`<p class="status" role="status" data-testid="${what}-status">${shown(this.status.get(what) ?? '')}</p>`;
    return html`<section part="actions" aria-labelledby="actions-title">
      <h3 id="actions-title">Hashes and data</h3>
      <div class="actions">
        ${this.button('hash', 'Compute hashes', () => this.hash(a), !hashable)}
        ${a.kind !== 'checkpoint' ? this.button('scan', 'Scan tensor data', () => this.scanData(a), !scannable) : nothing}
        ${asks.length ? this.button('civitai', 'Find on Civitai', () => this.findOnCivitai(a)) : nothing}
      </div>
      ${status('hash')} ${this.hashView()} ${a.kind !== 'checkpoint' ? status('scan') : nothing}
      ${
        asks.length || named
          ? html`<p class="muted">
                ${
                  asks.length
                    ? `Find on Civitai asks civitai.com with ${asks.map((x) => x.what).join(', then ')}; nothing is sent before you click.`
                    : 'Compute hashes to look this file up on Civitai.'
                }
              </p>
              ${named ? html`<p>Named by the metadata: <a href=${named} target="_blank" rel="noopener noreferrer nofollow">${named}</a></p>` : nothing}
              ${status('civitai')}
              ${
                this.civitai.length
                  ? html`<dl data-testid="civitai-result">
                      ${this.civitai
                        .filter(([, value]) => value !== '')
                        .map(
                          ([label, value, link]) =>
                            html`<dt>${label}</dt>
                              <dd>
                                ${
                                  link
                                    ? html`<a
                                        href=${link}
                                        target="_blank"
                                        rel="noopener noreferrer nofollow"
                                        data-testid="civitai-link"
                                        >${link}</a
                                      >`
                                    : shown(value)
                                }
                              </dd>`,
                        )}
                    </dl>`
                  : nothing
              }`
          : nothing
      }
      ${
        convertible
          ? html`<h3>Convert to .safetensors</h3>
              <p class="muted">
                Writes its ${plural(a.opened.tensors.length, 'tensor')} to ${shown(outputName(a.name))}, as
                safetensors.torch.save_file does (metadata {"format": "pt"}). Nothing of the pickle is run.
              </p>
              <div class="actions">
                ${this.button('convert', 'Convert and save', () => this.convert(a, false))}
                ${
                  this.offerUnsafe && !this.running.has('convert')
                    ? html`<button
                        type="button"
                        data-testid="convert-tensors-button"
                        @click=${() => this.convert(a, true)}
                      >Convert the tensors only, leave the globals behind</button>`
                    : nothing
                }
              </div>
              ${status('convert')}`
          : nothing
      }
      ${status('copy')}
    </section>`;
  }

  /** The hashes once computed, and ✓/✗ for each claim the metadata makes. */
  hashView() {
    const h = this.hashed;
    if (!h) return nothing;
    const checks = h.file
      ? h.file.checks.map((c) => ({ ...c, shard: '' }))
      : h.shards.flatMap((s) => s.hashes.checks.map((c) => ({ ...c, shard: `${s.name}: ` })));
    const file = h.file;
    return html`${
      file
        ? html`<dl data-testid="hashes">
              <dt>SHA-256</dt>
              <dd class="digest" data-testid="hash-sha256">${file.sha256 ?? '–'}</dd>
              <dt>AutoV2</dt>
              <dd class="digest" data-testid="hash-autov2">${file.autoV2 ?? '–'}</dd>
              <dt>AutoV3</dt>
              <dd class="digest" data-testid="hash-autov3">${file.autoV3 ?? '–'}</dd>
              <dt>AutoV1</dt>
              <dd class="digest" data-testid="hash-autov1">${file.autoV1 ?? '– (file under 1 MiB + 64 KiB)'}</dd>
              <dt>Data SHA-256</dt> <dd class="digest" data-testid="hash-data">${file.dataSha256 ?? '–'}</dd></dl>`
        : nothing
    }
      <ul class="findings" data-testid="hash-checks">
        ${
          checks.length === 0
            ? html`<li class="muted">The metadata claims no hash of ${file ? 'this file' : 'the shards'}.</li>`
            : checks.map(
                (c) =>
                  html`<li class=${c.match ? 'good' : 'bad'} data-testid="hash-check">${shown(`${c.shard}${c.match ? '✓' : '✗'} ${c.key}: ${c.match ? 'matches' : `claims ${c.claimed}, the file has ${c.actual}`}`)}</li>`,
              )
        }
      </ul>`;
  }

  /** The preview of a tensor's first values, under the tensor table. */
  previewView() {
    const text = this.status.get('preview');
    return text ? html`<pre part="preview" data-testid="preview" aria-live="polite">${shown(text)}</pre>` : nothing;
  }
}
