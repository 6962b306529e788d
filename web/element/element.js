// safetensors-wasm/element: <safetensors-card>, a model file's card as one element. Give it a
// source (`source`: a File, Blob, FileSystemFileHandle, picked files, bytes or a URL; or the
// `src` attribute, a URL read by Range) and it shows the verdict first, then the card, metadata
// and tensors, with hashes, the data scan and (for a checkpoint) conversion on request; a new
// source aborts the reads of the previous one. What a source opens as and the events:
// ./shown_source.js; where the blocks go: ./card_layout.js. Importing this module defines the
// element (unless the name is taken: then define the exported class under another name) and,
// once the page is idle, loads the core and the model card's module and warms them up
// (preload()), so that a first card after a pick does not wait for them. Where there is no DOM
// (Node, a server-side render) it defines nothing and loads nothing. docs/element.md documents it.
import { LitElement } from 'lit';
import { preload, serializeSafetensors } from '../index.js'; // (not ../file/preload.js: Rolldown splits one more chunk off then)
import { dropped } from '../source/picked_files.js';
import { cardStyles } from './card_styles.js';
import { cardLayout } from './card_layout.js';
import { ShownSource } from './shown_source.js';
import { TensorTable } from './tensor_table.js';
import { CardActions } from './card_actions.js';

/** The element's tag name. */
export const TAG_NAME = 'safetensors-card';

/** A card of the page was given a source: its first card is under way, and needs no warm-up. */
let sourceGiven = false;

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

  #table = new TensorTable(this);
  #actions = new CardActions(this);
  #shown = new ShownSource(this, (rows) => {
    this.#actions.reset();
    this.#metadataOpen = false;
    this.#table.show(rows);
  });
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
    return this.#shown.state;
  }

  /** The verdict shown: a ValidationReport (a model's, pipeline's or folder's summarised as one), or a checkpoint's PickleScan. */
  get report() {
    return this.#shown.report;
  }

  /** The model card shown (a pipeline's or folder's: the component or file shown), or null. */
  get card() {
    return this.#shown.card;
  }

  /** What the source opened as: a SafetensorsFile (null when rejected), ShardedModel, SafetensorsPipeline or Checkpoint; a folder's: the file shown's. */
  get opened() {
    return this.#shown.opened;
  }

  /** @param {Map<PropertyKey, unknown>} changed */
  willUpdate(changed) {
    // A new source, or a new src (removed or empty: nothing), is opened; the previous one's reads stop.
    if (changed.has('source') || changed.has('src')) sourceGiven = true;
    if (changed.has('source')) this.#shown.open(this.source);
    else if (changed.has('src')) this.#shown.open(this.src || null);
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
    const { files, folder } = await dropped(e.dataTransfer); // read in the drop event itself
    if (files.length === 0) return;
    this.#shown.folder = folder;
    this.source = files;
  }

  /** @param {Event} e a pick button's input */
  #picked(e) {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    this.#shown.folder = input.webkitdirectory ? (files[0].webkitRelativePath.split('/')[0] ?? null) : null;
    this.source = files;
    input.value = '';
  }

  render() {
    return cardLayout({
      picker: this.picker,
      droppable: this.droppable,
      source: this.#shown,
      table: this.#table,
      actions: this.#actions,
      metadataOpen: this.#metadataOpen,
      toggleMetadata: (open) => {
        this.#metadataOpen = open;
        this.requestUpdate();
      },
      pick: (id) => /** @type {HTMLInputElement | null} */ (this.renderRoot.querySelector(`#${id}`))?.click(),
      picked: (e) => this.#picked(e),
    });
  }
}

const browser = typeof window !== 'undefined' && typeof document !== 'undefined';

if (browser && typeof customElements !== 'undefined' && !customElements.get(TAG_NAME))
  customElements.define('safetensors-card', SafetensorsCard);

/**
 * A first card's rendering, run once before any source: a card in a closed shadow root (out of
 * the page's queries and of the accessibility tree, display: none) shows a small made-up LoRA and
 * goes, so that Lit has prepared every template and the browser has compiled the element's code
 * before the user's file comes (a first card of the demo's sample, cold in Chromium, 62 -> 38 ms
 * from the pick; make bench: tests/bench/cold_start.bench.js). Skipped once a card of the page
 * has been given a source: its first card is already under way.
 */
async function warmRender() {
  if (sourceGiven || !document.body || customElements.get(TAG_NAME) !== SafetensorsCard) return;
  const bytes = new Uint8Array(64);
  const blob = await serializeSafetensors(
    {
      'lora_unet_proj.alpha': { dtype: 'F16', shape: [], data: bytes.subarray(0, 2) },
      'lora_unet_proj.lora_down.weight': { dtype: 'F16', shape: [2, 8], data: bytes.subarray(0, 32) },
      'lora_unet_proj.lora_up.weight': { dtype: 'F16', shape: [8, 2], data: bytes.subarray(32, 64) },
    },
    { metadata: { 'modelspec.title': 'warm-up', ss_network_dim: '2', ss_tag_frequency: '{"a":{"b":1}}' } },
  );
  if (sourceGiven) return;
  const holder = document.createElement('div');
  holder.hidden = true;
  const card = new SafetensorsCard();
  const shown = new Promise((resolve) => {
    card.addEventListener('load', resolve, { once: true });
    card.addEventListener('error', resolve, { once: true });
  });
  card.source = blob;
  holder.attachShadow({ mode: 'closed' }).append(card);
  document.body.append(holder);
  try {
    await shown;
  } finally {
    holder.remove();
  }
}

if (browser) {
  // A failure here shows at the first open instead (preload() rejects; that open tries again).
  const warm = () =>
    preload()
      .then(warmRender)
      .catch(() => {});
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 200);
}
