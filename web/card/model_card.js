// The model card of an opened file (or of a sharded model's merged tensors), built by the card
// module (loaded on the first card asked for) from a header table: the one the core gave JS at
// open, which is not parsed again, nor read from the file. The card module decodes the table
// once (cpp/wasm/decoded_header_table.h) and keeps the decoded form for the module tree, built
// on the first read of `card.modules` (web/card/card_table.js, cardObject), until the tree is
// built or another table comes in. A card is built once per file or model: later describe()
// calls only copy it.
import { loadCardModule, loadedCardModule } from '../core/modules.js';
import { decodeCardTable, decodeModuleTreeTable } from './card_table.js';
import { SafetensorsError } from '../core/errors.js';

const versionMismatch = () =>
  new SafetensorsError(
    'InternalError',
    'the model card module could not read the header table: the two .wasm files are probably from different versions of the package; serve the ones that came with it',
  );

/**
 * A header table in the card module's heap (an Embind _DecodedHeaderTable).
 * @typedef {import('../wasm/safetensors_card.js').DecodedHeaderTable} DecodedHeaderTable
 * @typedef {import('../core/wasm_module.js').WasmModule<import('../core/wasm_module.js').CardModule>} CardWasm
 * @typedef {{ card: CardWasm, table: DecodedHeaderTable, deleted: boolean }} HeapTable
 */

/**
 * The last table copied in, kept (decoded) for its card's module tree until another table is
 * copied in: the card module never holds more than one header table, as when every table was
 * freed at once, and the next table reuses its memory. A tree whose table was let go copies it
 * in again from JS's copy (what every tree cost before).
 * @type {HeapTable | null}
 */
let lastTable = null;

/**
 * Copies `headerTable` into the card module (not decoded yet: the first table asked for does it),
 * letting the last one go first.
 * @param {CardWasm} card
 * @param {Uint8Array} headerTable
 * @returns {HeapTable}
 */
function copyIn(card, headerTable) {
  if (lastTable) letGo(lastTable);
  const what = 'a copy of the header table for the model card';
  /** @type {DecodedHeaderTable} */
  const table = card.call((m) => new m._DecodedHeaderTable(headerTable.byteLength), what);
  const entry = { card, table, deleted: false };
  lastTable = entry;
  const ptr = card.call(() => table.bytes(), what);
  if (ptr === 0) {
    letGo(entry);
    throw new SafetensorsError(
      'OutOfMemory',
      `${what} (${headerTable.byteLength} bytes): more WebAssembly memory than could be had`,
    );
  }
  card.call((m) => m.HEAPU8.set(headerTable, ptr), what);
  return entry;
}

/**
 * Deletes `entry`'s table (skipped when its module was let go: its memory went with it).
 * @param {HeapTable} entry
 */
function letGo(entry) {
  if (lastTable === entry) lastTable = null;
  if (!entry.deleted) {
    entry.deleted = true;
    entry.card.release(() => entry.table.delete());
  }
}

/**
 * Asks the card module for one of a header table's tables; a copy of it.
 * @param {HeapTable} entry
 * @param {(table: DecodedHeaderTable) => Uint8Array | null} ask
 * @param {string} what
 */
function tableOf(entry, ask, what) {
  const out = entry.card.call(() => ask(entry.table)?.slice() ?? null, what);
  if (out === null) throw versionMismatch();
  return out;
}

/** A card built from a header table: its JSON, and its module tree on the first call of moduleTree(). */
export class BuiltCard {
  /** @type {ReturnType<typeof decodeModuleTreeTable> | null} the flat tree, once built */
  flat = null;

  /** @type {number} tensors sized from dtype and shape: their data_offsets could not be trusted */
  sizedFromShapes = 0;

  /**
   * @param {string} json
   * @param {boolean} kohyaNames how the tree splits names (the card table says)
   * @param {Uint8Array} headerTable JS's copy, for a tree whose decoded table was let go
   * @param {HeapTable} entry the decoded table in the card module
   * @param {number} tensorCount
   */
  constructor(json, kohyaNames, headerTable, entry, tensorCount) {
    this.json = json;
    this.kohyaNames = kohyaNames;
    /** @type {Uint8Array | null} let go once the tree is built */
    this.headerTable = headerTable;
    /** @type {HeapTable | null} */
    this.entry = entry;
    this.tensorCount = tensorCount;
  }

  /** Whether moduleTree() still needs the card module (it is synchronous: it cannot load it). */
  needsModule() {
    return this.flat === null && loadedCardModule() === null;
  }

  /** The flat module tree, built on the first call from the table the card module decoded. */
  moduleTree() {
    if (this.flat) return this.flat;
    const card = loadedCardModule();
    if (card === null || this.headerTable === null) {
      throw new SafetensorsError(
        'InternalError',
        'the model card module was let go after an error; call describe() again to read the module tree',
      );
    }
    const entry =
      this.entry && !this.entry.deleted && this.entry.card === card ? this.entry : copyIn(card, this.headerTable);
    this.entry = null;
    try {
      const table = tableOf(entry, (t) => t.moduleTreeTable(this.kohyaNames), 'building the module tree');
      this.flat = decodeModuleTreeTable(table, this.tensorCount);
    } finally {
      letGo(entry);
      card.releaseIfSwollen();
    }
    this.headerTable = null;
    return this.flat;
  }
}

/**
 * The card built from a loadable file's header table (or one written for a sharded model).
 * @param {Uint8Array} headerTable
 * @param {number} tensorCount
 * @returns {Promise<BuiltCard>}
 */
export async function buildCard(headerTable, tensorCount) {
  const card = await loadCardModule();
  const entry = copyIn(card, headerTable);
  try {
    const read = decodeCardTable(tableOf(entry, (t) => t.cardTable(), 'building the model card'));
    const built = new BuiltCard(read.json, read.kohyaNames, headerTable, entry, tensorCount);
    built.sizedFromShapes = read.sizedFromShapes;
    return built;
  } catch (error) {
    letGo(entry);
    throw error;
  } finally {
    card.releaseIfSwollen();
  }
}

/**
 * A card built on first use and kept: the function returned builds it on its first call (once,
 * also when called again before that build ends; again after a failed build) and later only
 * returns it, loading the card module again when it was let go and the tree is still to build.
 * @param {Uint8Array | (() => Uint8Array)} headerTable the table, or what writes it
 * @param {number} tensorCount
 * @returns {() => Promise<BuiltCard>}
 */
export function cardOnce(headerTable, tensorCount) {
  /** @type {Uint8Array | (() => Uint8Array) | null} let go once the card is built */
  let input = headerTable;
  /** @type {Promise<BuiltCard> | null} */
  let building = null;
  return async () => {
    if (building === null) {
      const attempt = (async () => {
        const table = typeof input === 'function' ? input() : /** @type {Uint8Array} */ (input);
        const built = await buildCard(table, tensorCount);
        input = null;
        return built;
      })();
      building = attempt;
      attempt.catch(() => {
        if (building === attempt) building = null; // the next call tries again
      });
    }
    const built = await building;
    if (built.needsModule()) await loadCardModule();
    return built;
  };
}
