// <safetensors-card>'s tensor table: a search box that filters by name, columns sortable by
// name, dtype and size, and one page of rows at a time, so that a file of 1,000,000 tensors puts
// at most PAGE_ROWS rows in the tree. The filtered and sorted order is an index array computed
// once per (tensors, search, sort) and kept; names are text, never HTML.
import { html, nothing } from 'lit';
import { grouped, shortBytes } from '../card/card_text.js';
import { plural, shown, shownCut, tensorScanText } from './card_words.js';

/** Rows on one page. */
export const PAGE_ROWS = 100;
/** Past this many tensors, names sort by code units (0.4 s for 1,000,000) rather than naturally (layers.2 before layers.10: 1.7 s). */
const NATURAL_SORT_LIMIT = 200_000;
/** A search waits this long after the last key before filtering. */
const SEARCH_DELAY_MS = 120;
/** A name longer than this is shown cut, with its length said (a row's data-name holds it whole). */
const MAX_NAME_CHARS = 400;

const NATURAL = new Intl.Collator('en', { numeric: true });

/**
 * A row of the table: a .safetensors tensor (TensorInfo, with `shard` in a sharded model) or a
 * checkpoint's (CheckpointTensor).
 * @typedef {{ name: string, dtype: string | null, shape: number[], byteLength?: number, dataOffsets?: [number, number], shard?: string, storage?: string, torchDtype?: string }} Row
 * @typedef {'' | 'name' | 'dtype' | 'size'} SortKey
 */

const values = (/** @type {number[]} */ shape) => shape.reduce((a, b) => a * b, 1);
/** The size a row is sorted by: its bytes, or for a checkpoint's tensor its values. */
const sizeOf = (/** @type {Row} */ t) => t.byteLength ?? values(t.shape);

/** @typedef {import('lit').ReactiveController} ReactiveController */

/** @implements {ReactiveController} */
export class TensorTable {
  /** @param {import('lit').ReactiveControllerHost & HTMLElement} host */
  constructor(host) {
    this.host = host;
    host.addController(this);
    /** @type {Row[]} */
    this.rows = [];
    this.query = '';
    /** @type {SortKey} */
    this.sortKey = '';
    this.descending = false;
    this.page = 0;
    /** @type {number[] | null} the filtered and sorted order, or null to compute */
    this.order = null;
    /** @type {string[] | null} lower-case names, made on the first search */
    this.lower = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  hostDisconnected() {
    clearTimeout(this.timer);
  }

  /** New tensors (none: []): search, sort and page start again. */
  show(/** @type {Row[]} */ rows) {
    this.rows = rows;
    this.query = '';
    this.sortKey = '';
    this.descending = false;
    this.page = 0;
    this.order = null;
    this.lower = null;
    clearTimeout(this.timer);
  }

  /** The rows' indices, filtered by the search and sorted. */
  view() {
    if (this.order) return this.order;
    const { rows } = this;
    const query = this.query.trim().toLowerCase();
    /** @type {number[]} */
    let order = [];
    if (query === '') order = Array.from(rows.keys());
    else {
      this.lower ??= rows.map((t) => t.name.toLowerCase());
      const lower = this.lower;
      for (let i = 0; i < lower.length; i++) if (lower[i].includes(query)) order.push(i);
    }
    const by = this.sortKey;
    const sign = this.descending ? -1 : 1;
    if (by === 'name') {
      const compare =
        rows.length <= NATURAL_SORT_LIMIT
          ? NATURAL.compare
          : (/** @type {string} */ a, /** @type {string} */ b) => (a < b ? -1 : a > b ? 1 : 0);
      order.sort((a, b) => sign * compare(rows[a].name, rows[b].name) || a - b);
    } else if (by === 'dtype') {
      order.sort((a, b) => sign * String(rows[a].dtype).localeCompare(String(rows[b].dtype)) || a - b);
    } else if (by === 'size') {
      order.sort((a, b) => sign * (sizeOf(rows[a]) - sizeOf(rows[b])) || a - b);
    }
    this.order = order;
    return order;
  }

  /** @param {SortKey} key a click on a column's header: sorts by it, or the other way round */
  sortBy(key) {
    if (this.sortKey === key) this.descending = !this.descending;
    else [this.sortKey, this.descending] = [key, key === 'size'];
    this.order = null;
    this.page = 0;
    this.host.requestUpdate();
  }

  /** @param {Event} event the search box's input */
  searched(event) {
    const value = /** @type {HTMLInputElement} */ (event.target).value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.query = value;
      this.order = null;
      this.page = 0;
      this.host.requestUpdate();
    }, SEARCH_DELAY_MS);
  }

  /** @param {number} page */
  turn(page) {
    this.page = page;
    this.host.requestUpdate();
  }

  /**
   * The table's template.
   * @param {object} with
   * @param {(row: Row) => void} with.onPreview a click on a tensor's name
   * @param {Map<string, import('../index.js').TensorScan> | null} with.scan the data scan's results, once run
   * @param {string} with.note what the tensors are, above the table
   * @param {(row: Row) => string} [with.storage] a checkpoint's tensor: where its bytes are
   */
  render({ onPreview, scan, note, storage }) {
    const { rows } = this;
    const order = this.view();
    const pages = Math.max(1, Math.ceil(order.length / PAGE_ROWS));
    const page = Math.min(this.page, pages - 1);
    const first = page * PAGE_ROWS;
    const shownRows = order.slice(first, first + PAGE_ROWS);
    const sharded = rows.length > 0 && rows[0].shard !== undefined;
    const checkpoint = rows.length > 0 && rows[0].byteLength === undefined;
    /** @param {SortKey} key @param {string} label @param {string} [cls] */
    const header = (key, label, cls = '') =>
      html`<th
        scope="col"
        class=${cls}
        aria-sort=${this.sortKey === key ? (this.descending ? 'descending' : 'ascending') : 'none'}
      > <button type="button" data-testid="sort-${key}" @click=${() => this.sortBy(key)}>${label}${this.sortKey === key ? (this.descending ? ' ▼' : ' ▲') : ''}</button></th>`;
    const range =
      order.length === 0
        ? this.query
          ? `No tensor name holds “${this.query}”.`
          : 'No tensors.'
        : `${grouped(first + 1)}–${grouped(first + shownRows.length)} of ${grouped(order.length)}${order.length < rows.length ? ` (of ${plural(rows.length, 'tensor')})` : ''}`;
    return html`<section part="tensors" aria-labelledby="tensors-title">
      <h3 id="tensors-title">Tensors (<span data-testid="tensor-count">${grouped(rows.length)}</span>)</h3>
      <p class="muted" data-testid="tensor-note">${note}</p>
      <div class="tools">
        <input
          type="search"
          data-testid="tensor-search"
          aria-label="Filter tensors by name"
          placeholder="Filter by name"
          .value=${this.query}
          @input=${(/** @type {Event} */ e) => this.searched(e)}
        /><span class="muted" role="status" data-testid="tensor-range">${range}</span></div>
      <div class="table-wrap">
        <table data-testid="tensor-table">
          <caption class="visually-hidden">Tensors, page ${page + 1} of ${pages}; click a name to preview its first values</caption>
          <thead>
            <tr>
              ${header('name', 'Name')} ${header('dtype', 'Dtype', 'mid-up')}
              <th scope="col" class="mid-up">Shape</th>
              ${sharded ? html`<th scope="col" class="wide-only">Shard</th>` : nothing}
              ${
                checkpoint
                  ? html`<th scope="col" class="wide-only">Storage</th>`
                  : html`<th scope="col" class="wide-only">Offsets</th>`
              }
              ${header('size', checkpoint ? 'Values' : 'Size', 'num')}
              ${scan ? html`<th scope="col">Values</th>` : nothing}
            </tr>
          </thead>
          <tbody>
            ${shownRows.map((i) => {
              const t = rows[i];
              const scanned = scan?.get(t.name);
              const [scanText, scanClass] = scanned ? tensorScanText(scanned) : ['', ''];
              const dtype = t.dtype ?? `torch.${t.torchDtype}`;
              const shape = `[${t.shape.join(', ')}]`;
              return html`<tr data-name=${t.name} data-testid="tensor-row">
                <td>
                  <button type="button" class="name" @click=${() => onPreview(t)}>${shownCut(t.name, MAX_NAME_CHARS)}</button> <div class="narrow-only muted mono">${dtype} ${shape}</div></td>
                <td class="mid-up">${dtype}</td>
                <td class="mono mid-up">${shape}</td>
                ${sharded ? html`<td class="wide-only">${shown(t.shard)}</td>` : nothing}
                <td class="wide-only mono">${checkpoint ? shown(storage?.(t) ?? t.storage) : t.dataOffsets ? `${t.dataOffsets[0]}–${t.dataOffsets[1]}` : ''}</td>
                <td class="num">${checkpoint ? grouped(values(t.shape)) : shortBytes(t.byteLength ?? 0)}</td>${scan ? html`<td class=${scanClass} data-testid="scan-cell">${scanText}</td>` : nothing}</tr>`;
            })}
          </tbody> </table></div>
      ${
        pages > 1
          ? html`<nav class="pager" aria-label="Pages of tensors">
              <button type="button" ?disabled=${page === 0} @click=${() => this.turn(0)}>First</button>
              <button
                type="button"
                data-testid="page-previous"
                ?disabled=${page === 0}
                @click=${() => this.turn(page - 1)}
              >Previous</button>
              <span>Page ${grouped(page + 1)} of ${grouped(pages)}</span>
              <button
                type="button"
                data-testid="page-next"
                ?disabled=${page >= pages - 1}
                @click=${() => this.turn(page + 1)}
              >Next</button> <button type="button" ?disabled=${page >= pages - 1} @click=${() => this.turn(pages - 1)}>Last</button></nav>`
          : nothing
      }
    </section>`;
  }
}
