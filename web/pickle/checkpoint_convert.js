// A checkpoint's tensors as a .safetensors file (Checkpoint.toSafetensors): the bytes
// safetensors.torch.save_file(state_dict, metadata={"format": "pt"}) writes, laid out by the
// package's writer rules (web/write/header_bytes.js: the reference's tensor order, header and
// padding; tests/checkpoints/safetensors_layout.py checks the result against torch.load).
// Contiguous tensors are slices of the source where it is a Blob or bytes, else chunks read
// (or inflated, for a deflated storage) while writing; views are gathered into contiguous
// copies. Tied tensors (one storage under two names) are each written whole: save_file refuses
// them and save_model keeps one name. A file naming a global that is not safe is refused
// unless asked; a file holding a tensor not read (quantized, sparse, ...) is refused.
import { SafetensorsError } from '../core/errors.js';
import { initSafetensors } from '../core/modules.js';
import { metadataJson, packedHeader, referenceOrder } from '../write/header_bytes.js';
import { writeParts } from '../write/writer.js';

/** The metadata key that lists the globals left behind by { allowUnsafeGlobals: true }. */
export const LEFT_BEHIND_KEY = 'safetensors_wasm.left_behind_globals';

/**
 * A tensor's bytes read only when iterated (a deflated storage's, or a source without slices).
 * @typedef {{ size: number, [Symbol.asyncIterator](): AsyncIterator<Uint8Array> }} LazyBytes
 */

/**
 * The file's parts: its header, then each tensor's bytes in the reference's order.
 * @param {import('./types.js').Checkpoint} ckpt
 * @param {(name: string) => Promise<Uint8Array | Blob | LazyBytes>} data a tensor's bytes, row-major
 * @param {import('./types.js').CheckpointConvertOptions} options
 */
async function planParts(ckpt, data, options) {
  const { metadata = { format: 'pt' }, allowUnsafeGlobals = false } = options;
  const left = ckpt.globals.filter((g) => g.safety !== 'safe');
  const named = left.map((g) => `${g.module}.${g.name}`);
  if (left.length && !allowUnsafeGlobals) {
    const list = left.map((g) => `${g.module}.${g.name} (${g.safety})`).join(', ');
    throw new SafetensorsError(
      'UnsafeCheckpoint',
      `the checkpoint names ${left.length} global${left.length === 1 ? '' : 's'} that torch's weights-only loader does not accept: ${list}. Nothing was written; { allowUnsafeGlobals: true } converts its tensors alone, running nothing`,
    );
  }
  // Everything the output would lack, named at once: tensors not read (sparse, ...) and
  // tensors of a dtype safetensors has none for (complex128, quantized, bits, ...).
  const lacking = [
    ...ckpt.tensors.filter((t) => !t.dtype).map((t) => `${JSON.stringify(t.name)} is torch.${t.torchDtype}`),
    ...ckpt.unreadTensors.map((u) => `${JSON.stringify(u.name)} (${u.code}: ${u.message})`),
  ];
  if (lacking.length) {
    throw new SafetensorsError(
      'UnsupportedConversion',
      `the checkpoint holds ${lacking.length === 1 ? 'a tensor' : `${lacking.length} tensors`} that safetensors cannot hold or this reader cannot read, which the output would lack: ${lacking.join(', ')}. Nothing was written`,
    );
  }
  const core = await initSafetensors();
  const rows = new Map(core.tables.dtypes.map((d) => [d.name, d]));
  const entries = [];
  for (const t of ckpt.tensors) {
    const part = await data(t.name);
    const size = part instanceof Uint8Array ? part.byteLength : part.size;
    const dtype = /** @type {import('../core/tables.js').DtypeRow} */ (
      rows.get(/** @type {import("../index.js").Dtype} */ (t.dtype))
    );
    entries.push({ name: t.name, dtype, shape: t.shape, size, part });
  }
  entries.sort(referenceOrder);
  const written = left.length ? { ...(metadata ?? {}), [LEFT_BEHIND_KEY]: named.join(',') } : metadata;
  const { header, laid } = await packedHeader(core, metadataJson(written), entries);
  return [header, ...laid.map((e) => e.part)];
}

/**
 * @param {import('./types.js').Checkpoint} ckpt
 * @param {(name: string) => Promise<Uint8Array | Blob | LazyBytes>} data a tensor's bytes, row-major
 * @param {import('./types.js').CheckpointConvertOptions} [options]
 * @returns {Promise<Blob | undefined>} the file, or nothing once written to options.path
 */
export async function checkpointToSafetensors(ckpt, data, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  if (options.path !== undefined && typeof options.path !== 'string')
    throw new TypeError('options.path must be a string');
  const parts = await planParts(ckpt, data, options);
  if (options.path !== undefined) {
    await writeParts(options.path, parts);
    return undefined;
  }
  /** @type {(Uint8Array | Blob)[]} */
  const held = [];
  for (const p of parts) {
    if (p instanceof Uint8Array || p instanceof Blob) held.push(p);
    else for await (const chunk of p) held.push(chunk.slice());
  }
  return new Blob(/** @type {BlobPart[]} */ (held));
}
