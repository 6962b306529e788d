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
  // Both sides open at once; when both fail, A's failure is the one told (whichever came first).
  const sides = await Promise.allSettled(
    [a, b].map((side) => (isOpened(side) ? side : open(side, { ...openOptions, signal }))),
  );
  for (const side of sides) if (side.status === 'rejected') throw side.reason;
  const [left, right] = sides.map((side) => /** @type {PromiseFulfilledResult<Checkpoint>} */ (side).value);
  // One pass over each side's tensors: no per-tensor closures or pairs on a million tensors.
  /** @type {Map<string, number>} */
  const rightIndex = new Map();
  right.tensors.forEach((t, i) => rightIndex.set(t.name, i));
  const matched = new Uint8Array(right.tensors.length);
  /** @type {DiffResult['tensors']['removed']} */
  const removed = [];
  /** @type {DiffResult['tensors']['changed']} */
  const changed = [];
  /** @type {TensorInfo[]} */ const sameLeft = [];
  /** @type {TensorInfo[]} */ const sameRight = [];
  for (const t of left.tensors) {
    const i = rightIndex.get(t.name);
    if (i === undefined) {
      removed.push(brief(t));
      continue;
    }
    matched[i] = 1;
    const other = right.tensors[i];
    const shapeChanged = other.shape.length !== t.shape.length || other.shape.some((d, k) => d !== t.shape[k]);
    if (other.dtype === t.dtype && !shapeChanged) {
      sameLeft.push(t);
      sameRight.push(other);
      continue;
    }
    changed.push({
      name: t.name,
      ...(other.dtype !== t.dtype && { dtype: [t.dtype, other.dtype] }),
      ...(shapeChanged && { shape: [t.shape, other.shape] }),
    });
  }
  // A name twice on the right (only the last is in rightIndex): by name, as a set.
  const leftNames = rightIndex.size === right.tensors.length ? null : new Set(left.tensors.map((t) => t.name));
  const added = right.tensors.filter((t, i) => (leftNames ? !leftNames.has(t.name) : matched[i] === 0)).map(brief);
  let unchanged = sameLeft.length;
  if (data) {
    const total = sameLeft.reduce((sum, t) => sum + t.byteLength, 0);
    let done = 0;
    const found = (/** @type {TensorInfo} */ tensor, /** @type {import('../index.js').DiffData | null} */ bytes) => {
      if (bytes) {
        changed.push({ name: tensor.name, data: bytes });
        unchanged -= 1;
      }
      done += tensor.byteLength;
      onProgress?.(done, total);
    };
    // Small tensors in batches (both sides read them together), in order; others streamed.
    const batching = [left, right].every((side) => side.getTensors && side.getTensor);
    const core = await initSafetensors();
    const storages = new Map(core.tables.dtypes.map((d) => [String(d.name), d.storage]));
    const storageOf = (/** @type {string} */ dtype) => storages.get(dtype) ?? '';
    let from = 0; // the batch is sameLeft[from, to) and sameRight[from, to)
    let batchBytes = 0;
    const flush = async (/** @type {number} */ to) => {
      throwIfAborted(signal);
      const diffs = await batchDataDiff(
        /** @type {import('./data_batch.js').BatchSide} */ (left),
        /** @type {import('./data_batch.js').BatchSide} */ (right),
        sameLeft.slice(from, to),
        sameRight.slice(from, to),
        storageOf,
        signal,
      );
      for (let k = 0; k < diffs.length; k++) found(sameLeft[from + k], diffs[k]);
      from = to;
      batchBytes = 0;
    };
    for (let i = 0; i < sameLeft.length; i++) {
      const tensor = sameLeft[i];
      const small = batching && tensor.byteLength <= BATCH_TENSOR_BYTES;
      if (i > from && !(small && fitsBatch(i - from, batchBytes, tensor))) await flush(i);
      if (small) {
        batchBytes += tensor.byteLength;
        continue;
      }
      throwIfAborted(signal);
      found(tensor, await dataDiff(left, right, tensor, signal));
      from = i + 1;
    }
    if (sameLeft.length > from) await flush(sameLeft.length);
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
