// Does this adapter fit this base model: both headers (a file, a sharded model, a URL; never
// tensor data) go to the card module as header tables, which looks every adapted module up in
// the base and checks its shapes (cpp/adapter/adapter_check.h). Only what the headers hold is read.
import { initSafetensors, loadCardModule } from '../core/modules.js';
import { SafetensorsError } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';
import { readSource, verdictOf } from '../file/validate.js';
import { writeHeaderTable } from '../header/header_table_writer.js';
import { sourceKind } from '../source/source_kind.js';
import { buildCard } from '../card/model_card.js';

/** @typedef {import('../index.js').CheckAdapterOptions} CheckAdapterOptions */
/** @typedef {import('../index.js').CheckAdapterResult} CheckAdapterResult */
/** @typedef {import('../wasm/safetensors_card.js').DecodedHeaderTable} DecodedHeaderTable */
/** @typedef {{ name: string, dtype: string, shape: number[], byteLength: number }} TensorLike */

/** Metadata the header table can hold: string values only (an index's numbers are left out). */
function textMetadata(/** @type {unknown} */ metadata) {
  if (metadata === null || typeof metadata !== 'object') return null;
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => typeof v === 'string'));
}

/**
 * An opened SafetensorsFile or ShardedModel.
 * @param {unknown} side
 * @returns {side is { tensors: TensorLike[], metadata: unknown }}
 */
const isOpened = (side) =>
  typeof side === 'object' && side !== null && Array.isArray(/** @type {any} */ (side).tensors) && 'metadata' in side;

/**
 * A side's header table: of the header as read (a file cut short whose header is whole has one),
 * or written for a sharded model's tensors. Throws a typed error when the header cannot be read.
 * @param {unknown} side
 * @param {string} which "adapter" or "base", for messages
 * @param {CheckAdapterOptions} options
 * @param {typeof import('../index.js').openSafetensorsIndex} openIndex
 * @returns {Promise<Uint8Array>}
 */
async function headerTableOf(side, which, options, openIndex) {
  const core = await initSafetensors();
  const write = (/** @type {{ tensors: TensorLike[], metadata: unknown }} */ m) =>
    writeHeaderTable(m.tensors, textMetadata(m.metadata), core.tables.dtypes);
  if (isOpened(side)) return write(side);
  if ((await sourceKind(side)) === 'model') return write(await openIndex(/** @type {any} */ (side), options));
  const { header } = await readSource(/** @type {any} */ (side), options);
  if (header.table && header.tensorCount > 0) return header.table;
  const { referenceError, findings } = verdictOf(header);
  // What the file is instead (a Git LFS pointer, a pickle) says more than the length it fails on.
  const why = (findings.find((f) => f.code === 'NotSafetensors') ?? findings[0])?.message ?? 'it holds no tensors';
  throw new SafetensorsError(referenceError ?? 'InvalidTensor', `the ${which}'s header cannot be used: ${why}`, {
    findings,
  });
}

/**
 * Copies `bytes` into a new table object of the card module.
 * @param {import('../core/wasm_module.js').WasmModule<import('../core/wasm_module.js').CardModule>} card
 * @param {Uint8Array} bytes
 * @param {DecodedHeaderTable[]} made collects it, to delete
 */
function tableIn(card, bytes, made) {
  const what = 'a header table for checkAdapter';
  /** @type {DecodedHeaderTable} */
  const table = card.call((m) => new m._DecodedHeaderTable(bytes.byteLength), what);
  made.push(table);
  const ptr = card.call(() => table.bytes(), what);
  if (ptr === 0) throw new SafetensorsError('OutOfMemory', `${what} (${bytes.byteLength} bytes): no memory left`);
  card.call((m) => m.HEAPU8.set(bytes, ptr), what);
  return table;
}

/**
 * @param {unknown} adapter
 * @param {unknown} base
 * @param {CheckAdapterOptions} options
 * @param {typeof import('../index.js').openSafetensorsIndex} openIndex
 * @returns {Promise<CheckAdapterResult>}
 */
export async function checkAdapterSides(adapter, base, options, openIndex) {
  const { signal } = options;
  const [adapterTable, baseTable] = await Promise.all([
    headerTableOf(adapter, 'adapter', options, openIndex),
    headerTableOf(base, 'base', options, openIndex),
  ]);
  throwIfAborted(signal);
  const card = await loadCardModule();
  /** @type {DecodedHeaderTable[]} */
  const made = [];
  let checked;
  try {
    const a = tableIn(card, adapterTable, made);
    const b = tableIn(card, baseTable, made);
    const json = card.call(() => a.adapterCheck(b), 'checking the adapter against the base');
    if (json === null) throw new SafetensorsError('InternalError', 'the card module could not read a header table');
    checked = JSON.parse(json);
  } finally {
    for (const table of made) card.release(() => table.delete());
    card.releaseIfSwollen();
  }
  // What each header is (the card's family), so that an adapter for another model says so.
  return { ...checked, adapterFamily: await familyOf(adapterTable), baseFamily: await familyOf(baseTable) };
}

/**
 * The family the model card finds in a header table, as { id, name }; null when none.
 * @param {Uint8Array} headerTable
 */
async function familyOf(headerTable) {
  const family = JSON.parse((await buildCard(headerTable, 0)).json).family; // no module tree is read
  return family ? { id: family.id, name: family.name } : null;
}
