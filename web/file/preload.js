// preload(): the core and the model card's module loaded before any file is, and each run once
// on a small LoRA header, so that the functions a first open and describe() call are compiled
// before the user picks a file (browsers compile a WebAssembly function on its first call).
import { initSafetensors, loadCardModule, loadPickleModule } from '../core/modules.js';
import { analyzeHeader } from '../header/read_header.js';
import { buildCard } from '../card/model_card.js';

/** The first bytes of a small kohya LoRA (its length prefix and header; the data is not read). */
function loraStart() {
  const at = 'lora_unet_down_blocks_0_attentions_0_proj_in';
  const header = new TextEncoder().encode(
    JSON.stringify({
      __metadata__: { format: 'pt', ss_network_module: 'networks.lora', ss_network_dim: '4', ss_network_alpha: '1' },
      [`${at}.alpha`]: { dtype: 'F16', shape: [], data_offsets: [0, 2] },
      [`${at}.lora_down.weight`]: { dtype: 'F16', shape: [4, 320], data_offsets: [2, 2562] },
      [`${at}.lora_up.weight`]: { dtype: 'F16', shape: [320, 4], data_offsets: [2562, 5122] },
    }),
  );
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  return { parts: [prefix, header], size: 8 + header.byteLength + 5122 };
}

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
  const coreRun = initSafetensors().then((core) => {
    const { parts, size } = loraStart();
    const header = analyzeHeader(core, parts, size);
    void header.tensors; // decoded on first read, as opening a file does
    return header;
  });
  const cardRun =
    card &&
    Promise.all([coreRun, loadCardModule()]).then(async ([header]) =>
      (await buildCard(header.table, header.tensorCount)).moduleTree(),
    ); // the tree lets its table go
  await Promise.all([coreRun, cardRun, pickle && loadPickleModule()]);
}
