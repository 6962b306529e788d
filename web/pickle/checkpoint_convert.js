// A checkpoint's tensors as a .safetensors file (Checkpoint.toSafetensors): the bytes
// safetensors.torch.save_file(state_dict, metadata={"format": "pt"}) writes (the package's
// writer, web/write, lays files out as the reference writer does). Contiguous tensors are slices
// of the source where it is a Blob or bytes; views are gathered into contiguous copies. Tied
// tensors (one storage under two names) are each written whole, as save_file does for tensors
// given as separate copies. A file naming a global that is not safe is refused unless asked.
import { SafetensorsError } from '../core/errors.js';
import { serializeSafetensors } from '../write/writer.js';

/** The metadata key that lists the globals left behind by { allowUnsafeGlobals: true }. */
export const LEFT_BEHIND_KEY = 'safetensors_wasm.left_behind_globals';

/**
 * @param {import('./types.js').Checkpoint} ckpt
 * @param {(name: string) => Promise<Uint8Array | Blob>} data a tensor's bytes, row-major
 * @param {import('./types.js').CheckpointConvertOptions} [options]
 * @returns {Promise<Blob>}
 */
export async function checkpointToSafetensors(ckpt, data, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
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
  const tensors = [];
  for (const t of ckpt.tensors) {
    tensors.push({
      name: t.name,
      dtype: /** @type {import("../index.js").Dtype} */ (t.dtype),
      shape: t.shape,
      data: await data(t.name),
    });
  }
  const written = left.length ? { ...(metadata ?? {}), [LEFT_BEHIND_KEY]: named.join(',') } : metadata;
  return serializeSafetensors(tensors, { metadata: written });
}
