// The model card of an opened file, built by the card module (loaded on the first card asked
// for) from the header table the core gave JS at open: nothing is parsed twice, nothing is
// read from the file, and changes to the file's JS objects do not change its card. The module
// tree is built apart, on the first read of `card.modules` (web/card/card_table.js, cardObject).
import { loadCardModule, loadedCardModule } from '../core/modules.js';
import { decodeCardTable, decodeModuleTreeTable } from './card_table.js';
import { SafetensorsError } from '../core/errors.js';

const versionMismatch = () => new SafetensorsError('InternalError',
  'the model card module could not read the header table: the two .wasm files are probably from different versions of the package; serve the ones that came with it');

/**
 * Runs `build(module, ptr)` on a copy of the header table in the card module's heap; returns a
 * copy of the table it gives.
 * @param {import('../core/wasm_module.js').WasmModule} card
 * @param {Uint8Array} headerTable
 * @param {(module: any, ptr: number) => Uint8Array | null} build
 * @param {string} what
 */
function onHeaderTable(card, headerTable, build, what) {
  const ptr = card.malloc(headerTable.byteLength, 'a copy of the header table for the model card');
  try {
    const table = card.call((m) => {
      m.HEAPU8.set(headerTable, ptr);
      return build(m, ptr)?.slice() ?? null;
    }, what);
    if (table === null) throw versionMismatch();
    return table;
  } finally {
    card.free(ptr);
    card.releaseIfSwollen();
  }
}

/**
 * The card built from a loadable file's header table: its JSON, and `moduleTree()`, which builds
 * the flat module tree on its first call (synchronously: the card module is loaded by then).
 * @param {Uint8Array} headerTable a loadable file's header table, as the core wrote it
 * @param {number} tensorCount
 */
export async function buildCard(headerTable, tensorCount) {
  const card = await loadCardModule();
  const { json, kohyaNames } = decodeCardTable(onHeaderTable(card, headerTable, (m, ptr) => m._cardTable(ptr, headerTable.byteLength), 'building the model card'));
  /** @type {ReturnType<typeof decodeModuleTreeTable> | null} */
  let flat = null;
  const moduleTree = () => {
    if (flat) return flat;
    const loaded = loadedCardModule();
    if (loaded === null) {
      throw new SafetensorsError('InternalError', 'the model card module was let go after an error; call describe() again to read the module tree');
    }
    const table = onHeaderTable(loaded, headerTable, (m, ptr) => m._moduleTreeTable(ptr, headerTable.byteLength, kohyaNames), 'building the module tree');
    return (flat = decodeModuleTreeTable(table, tensorCount));
  };
  return { json, moduleTree };
}
