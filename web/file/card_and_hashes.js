// The methods of an opened file that describe it: describe (the model card) and hash.
import { tensorNotFound } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';
import { initSafetensors } from '../core/modules.js';
import { cardObject } from '../card/card_table.js';
import { withKvCache } from '../card/kv_cache.js';
import { hashSource } from '../hashing/hash_source.js';
import { checkBoolean, checkOptions } from './options.js';

/**
 * @param {import('./open_file.js').OpenedFile} opened
 * @param {() => import('../index.js').SafetensorsFile} self the handle, for describe's alpha read
 */
export function cardAndHashes({ source, header, byName, cardOf, readConfig }, self) {
  const { tensors, dataStart } = header;
  /** @type {number | null} the alpha read for describe({ readAlpha }), once it was */
  let alphaRead = null;
  return {
    /**
     * The model card, built by the card module from the header read at open, on the first call
     * (later calls only copy it: a new object each call), with the KV cache when a config.json
     * was given or sits beside the file's path (read on the first call). Reads no tensor data,
     * unless `readAlpha` is set and only an adapter's `.alpha` tensors hold its alpha: then one
     * of those scalars is read, on the first such call.
     * @param {{ readAlpha?: boolean, signal?: AbortSignal }} [describeOptions]
     * @returns {Promise<import('../index.js').ModelCard>}
     */
    async describe(describeOptions = {}) {
      const { readAlpha = false, signal } = checkOptions(describeOptions);
      if (typeof readAlpha !== 'boolean') throw new TypeError('options.readAlpha must be a boolean');
      throwIfAborted(signal);
      const core = await initSafetensors();
      /** @type {import('../index.js').ModelCard} */
      const described = await withKvCache(cardObject(await cardOf()), readConfig, core.tables.dtypes, signal);
      const adapter = described.adapter;
      if (readAlpha && adapter && adapter.alpha === null && adapter.alphaTensor !== undefined) {
        alphaRead ??= /** @type {Float32Array} */ (
          await self().getTensor(adapter.alphaTensor, { as: 'float32', signal })
        )[0];
        if (Number.isFinite(alphaRead)) adapter.alpha = alphaRead;
      }
      return described;
    },
    /**
     * SHA-256 of the whole file, of its data section and of tensors, in one read, checked
     * against the hashes the metadata claims (found by the core's analysis at open: the card
     * module is not needed).
     * @param {import('../index.js').HashOptions} [hashOptions]
     * @returns {Promise<import('../index.js').HashResult>}
     */
    async hash(hashOptions = {}) {
      const { file: wantFile = true, data: wantData = true, tensors: which = false } = checkOptions(hashOptions);
      checkBoolean(hashOptions, 'file');
      checkBoolean(hashOptions, 'data');
      if (typeof which !== 'boolean' && !(Array.isArray(which) && which.every((n) => typeof n === 'string'))) {
        throw new TypeError('options.tensors must be a boolean or an array of tensor names');
      }
      let chosen = null;
      if (which === true) chosen = tensors;
      else if (which !== false) {
        const indices = new Set(
          which.map((name) => {
            const index = byName().get(name);
            if (index === undefined) throw tensorNotFound(name, tensors);
            return index;
          }),
        );
        chosen = [...indices].sort((a, b) => a - b).map((i) => tensors[i]);
      }
      const spans =
        chosen?.map((t) => ({
          name: t.name,
          begin: dataStart + t.dataOffsets[0],
          end: dataStart + t.dataOffsets[1],
        })) ?? null;
      const plan = { size: header.fileSize, dataStart, file: wantFile, data: wantData, tensors: spans };
      return hashSource(await initSafetensors(), source, plan, header.embeddedHashes, hashOptions);
    },
  };
}
