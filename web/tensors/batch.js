// st.getTensors(names): many tensors in one pass over the file. The chosen tensors are sorted
// by offset and grouped into runs of adjacent ones (up to RUN_BYTES, or one larger tensor);
// each run is one stream of the source, handed out tensor by tensor to the same decoder
// getTensor uses. A few runs are read at once.
import { throwIfAborted, untilAborted } from '../core/abort.js';
import { readError, tensorNotFound } from '../core/errors.js';
import { planTensorRead } from './plan.js';
import { copyTensor, decodeTensor } from './decode.js';

/** A run ends once it holds this many bytes (a single larger tensor is a run of its own). */
export const RUN_BYTES = 16 << 20;
/** Runs read at once unless `concurrency` says otherwise. */
export const BATCH_CONCURRENCY = 4;

/** @typedef {import('../index.js').TensorInfo} TensorInfo */
/** @typedef {import('../index.js').TensorArray} TensorArray */

/**
 * Tensors by offset, cut into runs of adjacent ones.
 * @param {TensorInfo[]} chosen
 */
function runsOf(chosen) {
  const runs = [];
  let run = null;
  for (const t of chosen) {
    const [begin, end] = t.dataOffsets;
    if (run && run.end === begin && run.end - run.begin + (end - begin) <= RUN_BYTES) {
      run.tensors.push(t);
      run.end = end;
    } else {
      run = { begin, end, tensors: [t] };
      runs.push(run);
    }
  }
  return runs;
}

/**
 * One stream of a run, served as consecutive ranges: `chunks(offset, length)` must be asked
 * for in order, each starting where the last ended.
 */
export class RunReader {
  /**
   * @param {import('../source/byte_source.js').ByteSource} source
   * @param {number} offset
   * @param {number} length
   * @param {AbortSignal} [signal]
   */
  constructor(source, offset, length, signal) {
    this.iterator = source.chunks(offset, length, signal)[Symbol.asyncIterator]();
    this.at = offset;
    /** @type {Uint8Array | null} the rest of a chunk the last range did not take */
    this.rest = null;
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @returns {AsyncGenerator<Uint8Array>}
   */
  async *chunks(offset, length) {
    if (offset !== this.at) throw new Error(`safetensors-wasm: run read out of order (${offset}, expected ${this.at})`);
    for (let left = length; left > 0;) {
      /** @type {Uint8Array} */
      let chunk;
      if (this.rest !== null) {
        chunk = this.rest;
        this.rest = null;
      } else {
        const step = await this.iterator.next();
        if (step.done)
          throw readError(`the file ended at byte ${this.at}, inside a tensor; it changed while being read`);
        chunk = step.value;
      }
      if (chunk.byteLength > left) {
        this.rest = chunk.subarray(left);
        chunk = chunk.subarray(0, left);
      }
      left -= chunk.byteLength;
      this.at += chunk.byteLength;
      yield chunk;
    }
  }

  async close() {
    await this.iterator.return?.();
  }
}

/** A run read whole: its tensors' bytes are views of one array. */
class MemoryRun {
  /**
   * @param {number} offset the run's file offset
   * @param {Uint8Array} bytes
   */
  constructor(offset, bytes) {
    this.offset = offset;
    this.whole = bytes;
  }

  /**
   * @param {number} offset
   * @param {number} length
   */
  bytes(offset, length) {
    return this.whole.subarray(offset - this.offset, offset - this.offset + length);
  }

  /**
   * The ByteSource.chunks of decodeTensor: the range as one chunk.
   * @param {number} offset
   * @param {number} length
   */
  async *chunks(offset, length) {
    yield this.bytes(offset, length);
  }

  async close() {}
}

/**
 * @param {import('../core/wasm_module.js').Core} core
 * @param {import('../source/byte_source.js').ByteSource} source the file's byte source
 * @param {{ tensors: TensorInfo[], dataStart: number, dtypeIndex: ArrayLike<number>, byName: () => Map<string, number> }} file
 * @param {string[] | undefined} names
 * @param {{ as?: 'native' | 'float32' | 'raw', concurrency?: number, signal?: AbortSignal,
 *   onProgress?: (done: number, total: number) => void }} options
 * @returns {Promise<Map<string, TensorArray>>} in the order of `names` (or of the file's tensors)
 */
export async function readTensorBatch(core, source, file, names, options) {
  const { as, concurrency = BATCH_CONCURRENCY, signal, onProgress } = options;
  if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string')))
    throw new TypeError('names must be an array of tensor names');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new TypeError('options.concurrency must be a positive integer');
  const byName = file.byName();
  const indices =
    names === undefined
      ? file.tensors.map((_, i) => i)
      : [...new Set(names)].map((name) => {
          const index = byName.get(name);
          if (index === undefined) throw tensorNotFound(name, file.tensors);
          return index;
        });
  // Plans first: an option a tensor cannot take (e.g. float32 of F6) fails before any read.
  const plans = new Map(
    indices.map((i) => [
      i,
      planTensorRead(file.tensors[i], core.tables.dtypes[file.dtypeIndex[i]], file.dataStart, { as }),
    ]),
  );
  const indexOf = new Map(indices.map((i) => [file.tensors[i], i]));
  const runs = runsOf(indices.map((i) => file.tensors[i]).sort((a, b) => a.dataOffsets[0] - b.dataOffsets[0]));
  const total = runs.reduce((sum, r) => sum + (r.end - r.begin), 0);
  let done = 0;
  /** @type {Map<number, TensorArray>} */
  const results = new Map();
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < runs.length && !failed) {
      const run = runs[next++];
      const start = file.dataStart + run.begin;
      // A run of several tensors (at most RUN_BYTES) is read whole: small tensors then cost no stream each.
      const reader =
        run.tensors.length > 1
          ? new MemoryRun(start, await untilAborted(source.read(start, run.end - run.begin, signal), signal))
          : new RunReader(source, start, run.end - run.begin, signal);
      try {
        for (const tensor of run.tensors) {
          const index = /** @type {number} */ (indexOf.get(tensor));
          const plan = /** @type {import('./plan.js').ReadPlan} */ (plans.get(index));
          if (plan.kind === 'copy' && reader instanceof MemoryRun) {
            throwIfAborted(signal);
            results.set(index, copyTensor(plan, tensor, reader.bytes(plan.offset, plan.byteLength)));
            done += plan.byteLength;
            onProgress?.(done, total);
            continue;
          }
          let seen = 0;
          const progress = (/** @type {number} */ d) => {
            done += d - seen;
            seen = d;
            onProgress?.(done, total);
          };
          results.set(index, await decodeTensor(core, reader, plan, tensor, { signal, onProgress: progress }));
        }
      } catch (error) {
        failed = true; // the other workers stop after their current run
        throw error;
      } finally {
        await reader.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runs.length) }, worker));
  throwIfAborted(signal);
  if (total === 0) onProgress?.(0, 0);
  return new Map(indices.map((i) => [file.tensors[i].name, /** @type {TensorArray} */ (results.get(i))])); // every one was read
}
