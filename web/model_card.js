// The model card of an opened file, built by the card module (loaded on the first card asked
// for) from the header table the core gave JS at open: nothing is parsed twice, nothing is
// read from the file, and changes to the file's JS objects do not change its card.
import { loadCardModule } from './core.js';
import { decodeCardTable } from './header_table.js';
import { SafetensorsError } from './errors.js';

/**
 * The decoded card table (web/header_table.js: cardObject makes the public ModelCard of it).
 * @param {Uint8Array} headerTable a loadable file's header table, as the core wrote it
 * @param {number} tensorCount
 */
export async function buildCard(headerTable, tensorCount) {
  const card = await loadCardModule();
  const ptr = card.malloc(headerTable.byteLength, 'a copy of the header table for the model card');
  try {
    const table = card.call((m) => {
      m.HEAPU8.set(headerTable, ptr);
      return m._cardTable(ptr, headerTable.byteLength)?.slice() ?? null;
    }, 'building the model card');
    if (table === null) {
      throw new SafetensorsError('InternalError',
        'the model card module could not read the header table: the two .wasm files are probably from different versions of the package; serve the ones that came with it');
    }
    return decodeCardTable(table, tensorCount);
  } finally {
    card.free(ptr);
    card.releaseIfSwollen();
  }
}
