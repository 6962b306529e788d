// The model card of a model's files for its bill of materials: a sharded model through its
// index (*.safetensors.index.json), else the one .safetensors file (the largest when there are
// several and no index). Files that are not safetensors give no card.
import { openFile } from '../file/open_file.js';
import { openSafetensorsIndex } from '../sharded/open_index.js';

const INDEX_SUFFIX = '.safetensors.index.json';

/**
 * @param {import('./bom_files.js').BomFile[]} files sorted by name
 * @param {Map<string, number>} sizes name -> bytes
 * @param {{ signal?: AbortSignal }} options
 * @returns {Promise<import('../index.js').ModelCard | null>}
 */
export async function bomCard(files, sizes, options) {
  const byName = new Map(files.map((f) => [f.name, f]));
  /** @type {{ close?(): Promise<void> }[]} */
  const opened = [];
  const open = async (/** @type {import('./bom_files.js').BomFile} */ file) => {
    const bytes = await file.open();
    opened.push(bytes);
    return bytes;
  };
  try {
    const index = files.find((f) => f.name.endsWith(INDEX_SUFFIX));
    if (index) {
      const bytes = await open(index);
      const text = new TextDecoder().decode(await bytes.read(0, bytes.size));
      const dir = index.name.includes('/') ? index.name.slice(0, index.name.lastIndexOf('/') + 1) : '';
      const model = await openSafetensorsIndex(
        {
          index: text,
          resolve: async (/** @type {string} */ shard) => {
            const file = byName.get(`${dir}${shard}`);
            if (!file) throw new Error(`${dir}${shard} is not among the model's files`);
            return open(file);
          },
        },
        { signal: options.signal },
      );
      return await model.describe();
    }
    const weights = files.filter((f) => f.name.endsWith('.safetensors'));
    if (weights.length === 0) return null;
    const largest = weights.reduce((a, b) => ((sizes.get(b.name) ?? 0) > (sizes.get(a.name) ?? 0) ? b : a));
    const st = await openFile(await open(largest), { signal: options.signal }, true);
    return await st.describe({ signal: options.signal });
  } finally {
    await Promise.all(opened.map((o) => o.close?.().catch(() => {})));
  }
}
