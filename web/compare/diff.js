// What changed between two checkpoints: tensors added, removed or changed (dtype, shape and,
// when asked, their bytes), and metadata keys. Either side may be a file or a sharded model,
// opened already or given as a source; tensors are matched by name, so the same model saved
// with another sharding compares equal.
import { initSafetensors } from '../core/modules.js';
import { throwIfAborted } from '../core/abort.js';
import { localLane } from '../hashing/sha256_lane.js';
import { compareStreams, elementDiff, sameBytes } from './lockstep.js';
import { BATCH_TENSOR_BYTES, FLOAT_STORAGES, batchDataDiff, fitsBatch } from './data_batch.js';

/** @typedef {import('../index.js').TensorInfo} TensorInfo */
/** @typedef {import('../index.js').DiffOptions} DiffOptions */
/** @typedef {import('../index.js').DiffResult} DiffResult */
/**
 * What diff needs of an opened checkpoint (a SafetensorsFile or a ShardedModel).
 * @typedef {{ tensors: TensorInfo[], metadata: Record<string, unknown> | null, shards?: unknown[],
 *   streamTensor: import('../index.js').TensorReader['streamTensor'],
 *   getTensors?: import('../index.js').TensorReader['getTensors'],
 *   getTensor?: import('../index.js').TensorReader['getTensor'] }} Checkpoint
 */

/**
 * @param {unknown} side
 * @returns {side is Checkpoint}
 */
function isOpened(side) {
  return (
    typeof side === 'object' &&
    side !== null &&
    Array.isArray(/** @type {any} */ (side).tensors) &&
    typeof (/** @type {any} */ (side).streamTensor) === 'function'
  );
}

/**
 * @param {TensorInfo} t
 * @returns {import('../index.js').DiffTensor}
 */
const brief = (t) => ({ name: t.name, dtype: t.dtype, shape: t.shape });

/** Metadata values as text, to compare (an index's metadata holds numbers too). */
const valueText = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Keys added, removed and changed between two metadata maps.
 * @param {Record<string, unknown> | null} a
 * @param {Record<string, unknown> | null} b
 * @returns {NonNullable<DiffResult['metadata']>}
 */
function metadataDiff(a, b) {
  const left = a ?? {};
  const right = b ?? {};
  return {
    added: Object.keys(right).filter((k) => !Object.hasOwn(left, k)),
    removed: Object.keys(left).filter((k) => !Object.hasOwn(right, k)),
    changed: Object.keys(left)
      .filter((k) => Object.hasOwn(right, k) && valueText(left[k]) !== valueText(right[k]))
      .map((key) => ({ key, a: left[key], b: right[key] })),
  };
}

/**
 * The bytes of one tensor on both sides: null when equal, else each side's SHA-256 and, for
 * float dtypes, the largest difference between elements (a second read).
 * @param {Checkpoint} a
 * @param {Checkpoint} b
 * @param {TensorInfo} tensor a's entry (b's has the same dtype and shape)
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<import('../index.js').DiffData | null>}
 */
async function dataDiff(a, b, tensor, signal) {
  const [laneA, laneB] = await Promise.all([localLane(), localLane()]);
  try {
    let equal = true;
    await compareStreams(
      a.streamTensor(tensor.name, { as: 'raw', signal }),
      b.streamTensor(tensor.name, { as: 'raw', signal }),
      (x, y) => {
        laneA.update(/** @type {Uint8Array} */ (x));
        laneB.update(/** @type {Uint8Array} */ (y));
        if (equal) equal = sameBytes(/** @type {Uint8Array} */ (x), /** @type {Uint8Array} */ (y));
      },
    );
    /** @type {[string, string]} */
    const sha256 = [await laneA.cut(), await laneB.cut()];
    if (equal) return null;
    const core = await initSafetensors();
    const as = FLOAT_STORAGES.get(core.tables.dtypes.find((d) => d.name === tensor.dtype)?.storage ?? '');
    if (!as) return { equal: false, sha256, maxAbsDiff: null, differentElements: null };
    const values = elementDiff();
    await compareStreams(
      a.streamTensor(tensor.name, { as: /** @type {'native' | 'float32'} */ (as), signal }),
      b.streamTensor(tensor.name, { as: /** @type {'native' | 'float32'} */ (as), signal }),
      values.add,
    );
    return { equal: false, sha256, ...values.result() };
  } finally {
    laneA.close();
    laneB.close();
  }
}

/**
 * @param {unknown} a
 * @param {unknown} b
 * @param {DiffOptions} options
 * @param {(source: unknown, options: object) => Promise<Checkpoint>} open opens a side given as a source
 * @returns {Promise<DiffResult>}
 */
export async function diffCheckpoints(a, b, options, open) {
  const { data = false, signal, onProgress, ...openOptions } = options;
  const [left, right] = await Promise.all(
    [a, b].map((side) => (isOpened(side) ? side : open(side, { ...openOptions, signal }))),
  );
  const rightByName = new Map(right.tensors.map((t) => [t.name, t]));
  const leftNames = new Set(left.tensors.map((t) => t.name));
  const added = right.tensors.filter((t) => !leftNames.has(t.name)).map(brief);
  const removed = left.tensors.filter((t) => !rightByName.has(t.name)).map(brief);
  /** @type {DiffResult['tensors']['changed']} */
  const changed = [];
  const sameLayout = left.tensors.filter((t) => {
    const other = rightByName.get(t.name);
    if (!other) return false;
    const shapeChanged = other.shape.length !== t.shape.length || other.shape.some((d, i) => d !== t.shape[i]);
    if (other.dtype === t.dtype && !shapeChanged) return true;
    changed.push({
      name: t.name,
      ...(other.dtype !== t.dtype && { dtype: [t.dtype, other.dtype] }),
      ...(shapeChanged && { shape: [t.shape, other.shape] }),
    });
    return false;
  });
  let unchanged = sameLayout.length;
  if (data) {
    const total = sameLayout.reduce((sum, t) => sum + t.byteLength, 0);
    let done = 0;
    const found = (/** @type {TensorInfo} */ tensor, /** @type {import('../index.js').DiffData | null} */ bytes) => {
      if (bytes) {
        changed.push({ name: tensor.name, data: bytes });
        unchanged -= 1;
      }
      done += tensor.byteLength;
      onProgress?.(done, total);
    };
    // Small tensors in batches (both sides read them with getTensors), in order; others streamed.
    const batching = [left, right].every((side) => side.getTensors && side.getTensor);
    const core = await initSafetensors();
    const storages = new Map(core.tables.dtypes.map((d) => [String(d.name), d.storage]));
    const storageOf = (/** @type {string} */ dtype) => storages.get(dtype) ?? '';
    /** @type {TensorInfo[]} */
    let batch = [];
    let batchBytes = 0;
    const flush = async () => {
      throwIfAborted(signal);
      const diffs = await batchDataDiff(
        /** @type {import('./data_batch.js').BatchSide} */ (left),
        /** @type {import('./data_batch.js').BatchSide} */ (right),
        batch.map((t) => [t, /** @type {TensorInfo} */ (rightByName.get(t.name))]),
        storageOf,
        signal,
      );
      batch.forEach((tensor, i) => found(tensor, diffs[i]));
      batch = [];
      batchBytes = 0;
    };
    for (const tensor of sameLayout) {
      const small = batching && tensor.byteLength <= BATCH_TENSOR_BYTES;
      if (batch.length > 0 && !(small && fitsBatch(batch, batchBytes, tensor))) await flush();
      if (small) {
        batch.push(tensor);
        batchBytes += tensor.byteLength;
        continue;
      }
      throwIfAborted(signal);
      found(tensor, await dataDiff(left, right, tensor, signal));
    }
    if (batch.length > 0) await flush();
  }
  // A file's __metadata__ and an index's metadata are different things: compared only like with like.
  const comparable = Boolean(left.shards) === Boolean(right.shards);
  const metadata = comparable ? metadataDiff(left.metadata, right.metadata) : null;
  const identical =
    added.length === 0 &&
    removed.length === 0 &&
    changed.length === 0 &&
    (metadata === null || metadata.added.length + metadata.removed.length + metadata.changed.length === 0);
  return { identical, dataCompared: data, tensors: { added, removed, changed, unchanged }, metadata };
}
