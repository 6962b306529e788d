// preload(): the core and the model card's module loaded before any file is, and each run on
// two made-up headers the size of real ones (./warm_headers.js), so that the functions a first
// open and describe() call are compiled before the user picks a file: browsers compile a
// WebAssembly function on its first call, and the hot ones again, optimized, once they have run
// a while (on a 1,750-tensor LyCORIS file, the first card 35 -> 26 ms in Chromium; issue 39).
import { initSafetensors, loadCardModule, loadPickleModule } from '../core/modules.js';
import { analyzeHeader } from '../header/read_header.js';
import { buildCard } from '../card/model_card.js';
import { warmHeaders } from './warm_headers.js';

/**
 * Loads the core and, unless told otherwise, the model card's module (the pickle scan's when
 * asked), and runs them once on a small header. Resolves once done.
 * @param {{ card?: boolean, pickle?: boolean }} [options] card: the model card's module (default true); pickle: the pickle scan's (default false)
 * @returns {Promise<void>}
 */
export async function preload(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('preload: options must be an object');
  const { card = true, pickle = false } = options;
  if (typeof card !== 'boolean' || typeof pickle !== 'boolean')
    throw new TypeError('preload: options.card and options.pickle must be booleans');
  // Each module runs as soon as it is loaded (the card's run needs the core's header table).
  const coreRun = initSafetensors().then((core) =>
    warmHeaders(core).map(({ parts, size }) => {
      const header = analyzeHeader(core, parts, size);
      void header.tensors; // decoded on first read, as opening a file does
      return header;
    }),
  );
  const cardRun =
    card &&
    Promise.all([coreRun, loadCardModule()]).then(async ([headers]) => {
      // One after the other: the card module holds one header table at a time.
      for (const header of headers) (await buildCard(header.table, header.tensorCount)).moduleTree(); // the tree lets its table go
    });
  await Promise.all([coreRun, cardRun, pickle && loadPickleModule()]);
}
