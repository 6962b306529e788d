// A checkpoint's model card: the card module builds it (web/card/model_card.js) from a header
// table written for the checkpoint's tensors (names, dtypes, shapes), as for a sharded model;
// then the facts its plain objects carry are added where the card has a field for them: an
// A1111 textual inversion's name, step and base model (its vectors and width are the card's),
// and a trainer's epoch and step.
import { initSafetensors } from '../core/modules.js';
import { cardOnce } from '../card/model_card.js';
import { cardObject } from '../card/card_table.js';
import { writeHeaderTable } from '../header/header_table_writer.js';

/** @typedef {import('../index.js').ModelCard} ModelCard */
/** @typedef {import('./types.js').CheckpointTensor} CheckpointTensor */
/** @typedef {import('./types.js').CheckpointObject} CheckpointObject */

/**
 * The keys A1111's textual inversion writes beside its vectors (AUTOMATIC1111/stable-diffusion-webui,
 * modules/textual_inversion/textual_inversion.py, Embedding.save): `string_to_token` {"*": 265},
 * `string_to_param` {"*": vectors [n, width]}, `name`, `step`, `sd_checkpoint` (the base model's
 * short hash) and `sd_checkpoint_name`.
 */
const A1111_VECTORS = 'string_to_param.*';

/**
 * Training counters a checkpoint's root holds: Lightning's (Lightning-AI/pytorch-lightning,
 * trainer/connectors/checkpoint_connector.py, dump_checkpoint: `epoch`, `global_step`,
 * `pytorch-lightning_version`, and the saved `hyper_parameters`), A1111's `step`.
 */
const TRAINING_KEYS = new Set(['epoch', 'global_step', 'step', 'pytorch-lightning_version']);
const HYPER_PARAMETERS = 'hyper_parameters.';

/**
 * Adds the facts of the checkpoint's plain objects to its card.
 * @param {ModelCard} card
 * @param {CheckpointTensor[]} tensors
 * @param {CheckpointObject[]} objects
 */
function withObjectFacts(card, tensors, objects) {
  const value = new Map(objects.map((o) => [o.name, o.value]));
  /** @type {Record<string, string | number | boolean | null>} */
  const training = {};
  for (const { name, value: v } of objects) {
    if (TRAINING_KEYS.has(name) || name.startsWith(HYPER_PARAMETERS)) training[name] = v;
  }
  if (Object.keys(training).length) card.training = { ...training, ...card.training };
  if (card.kind !== 'embedding' || card.embedding === null || !tensors.some((t) => t.name === A1111_VECTORS)) {
    return card;
  }
  const text = (/** @type {string} */ key) => {
    const v = value.get(key);
    return typeof v === 'string' && v !== '' ? v : null;
  };
  const step = value.get('step');
  const name = text('name');
  card.embedding = { ...card.embedding, name, step: typeof step === 'number' ? step : null };
  if (name !== null) {
    card.title ??= name;
    if (!card.triggerWords.some((w) => w.text === name)) card.triggerWords.unshift({ text: name, source: 'name' });
  }
  const base = { name: text('sd_checkpoint_name'), hash: text('sd_checkpoint'), version: null };
  if (card.baseModel === null && (base.name !== null || base.hash !== null)) card.baseModel = base;
  return card;
}

/**
 * The checkpoint's describe(): its card, built once on the first call (later calls build a new
 * object from it). Tensors of a dtype safetensors lacks (complex128) are left out of the card.
 * @param {CheckpointTensor[]} tensors
 * @param {CheckpointObject[]} objects
 * @returns {() => Promise<ModelCard>}
 */
export function checkpointDescribe(tensors, objects) {
  const described = tensors.filter((t) => t.dtype !== null);
  /** @type {ReturnType<typeof cardOnce> | null} */
  let built = null;
  return async () => {
    const core = await initSafetensors();
    built ??= cardOnce(() => {
      /** @type {Map<string, number>} */
      const bits = new Map(core.tables.dtypes.map((d) => [d.name, d.bits]));
      const rows = described.map((t) => {
        const dtype = /** @type {string} */ (t.dtype);
        const count = t.shape.reduce((a, b) => a * b, 1);
        return { name: t.name, dtype, shape: t.shape, byteLength: Math.ceil((count * (bits.get(dtype) ?? 0)) / 8) };
      });
      return writeHeaderTable(rows, null, core.tables.dtypes);
    }, described.length);
    return withObjectFacts(cardObject(await built()), described, objects);
  };
}
