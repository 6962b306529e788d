// The hashes of one read of a file (st.hash, validateSafetensors({ hash })): SHA-256 of the
// whole file, of its data section and of each tensor, and AutoV1's window, all fed the same
// chunks. Definitions: AUTOMATIC1111/stable-diffusion-webui (modules/hashes.py; AutoV1 is
// model_hash in modules/sd_models.py), kohya-ss/sd-scripts (library/train_util.py:
// addnet_hash_safetensors, addnet_hash_legacy), ModelSpec's hash_sha256
// (https://github.com/Stability-AI/ModelSpec) and https://github.com/civitai/model-scanner
// (Tasks/HashTask.cs).
import { localLane, newSha256, workerLane } from './sha256_lane.js';

/** AutoV1 hashes these bytes of the file: 64 KiB at 1 MiB (A1111's model_hash). */
export const AUTOV1_WINDOW = { offset: 0x100000, length: 0x10000 };
/** Reads shorter than this hash every lane on this thread (starting a worker costs more). */
export const PARALLEL_MIN_BYTES = 32 << 20;

/**
 * @typedef {{ name: string, begin: number, end: number }} TensorSpan  absolute file offsets
 * @typedef {{
 *   size: number, dataStart: number | null, file: boolean, data: boolean,
 *   tensors: TensorSpan[] | null, parallel?: boolean,
 * }} HashPlan
 *   dataStart: null when the header could not be read (then no data or tensor hashes);
 *   tensors: in file order, not overlapping; parallel: false keeps every lane on this thread
 */

/**
 * The byte ranges the plan reads, as [offset, length] pairs in file order.
 * @param {Pick<HashPlan, 'size' | 'dataStart' | 'file' | 'data' | 'tensors'>} plan
 * @returns {[number, number][]}
 */
function rangesOf({ size, dataStart, file, data, tensors }) {
  if (file) return [[0, size]];
  if (data && dataStart !== null) return [[dataStart, size - dataStart]];
  /** @type {[number, number][]} */
  const ranges = [];
  for (const { begin, end } of tensors ?? []) {
    if (end === begin) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[0] + last[1] === begin) last[1] += end - begin;
    else ranges.push([begin, end - begin]);
  }
  return ranges;
}

/**
 * Opens the lanes a plan needs: the last wanted on this thread, the others in workers when the
 * read is long enough to be worth it and workers start here. The last is the tensor lane when
 * tensors are hashed: it cuts a digest per tensor, which costs a message each way in a worker
 * (a million one-byte tensors took seconds of messages), and nothing here.
 * @param {boolean[]} wanted file, data, tensors
 * @param {boolean} parallel
 */
async function openLanes(wanted, parallel) {
  /** @type {(import('./sha256_lane.js').Sha256Lane | null)[]} */
  const lanes = [];
  const local = wanted.lastIndexOf(true);
  try {
    for (const [i, want] of wanted.entries()) {
      if (!want) lanes.push(null);
      else if (parallel && i !== local) lanes.push((await workerLane()) ?? (await localLane()));
      else lanes.push(await localLane());
    }
    return lanes;
  } catch (error) {
    for (const lane of lanes) lane?.close();
    throw error;
  }
}

/**
 * @param {HashPlan} plan
 * @returns {Promise<{
 *   ranges: [number, number][],
 *   push(chunk: Uint8Array, at: number): Promise<void>,
 *   finish(): Promise<import('../index.js').FileHashes>,
 *   close(): void,
 * }>}
 *   push: the next chunk of the ranges, in order (`at`: its file offset); close: always, at the end
 */
export async function openHashPass(plan) {
  const { size, file } = plan;
  const dataStart = plan.dataStart;
  const data = plan.data && dataStart !== null;
  const tensors = dataStart === null ? null : plan.tensors;
  const ranges = rangesOf({ ...plan, data, tensors });
  const bytes = ranges.reduce((sum, [, length]) => sum + length, 0);
  const [fileLane, dataLane, tensorLane] = await openLanes(
    [file, data, tensors !== null],
    (plan.parallel ?? true) && bytes >= PARALLEL_MIN_BYTES,
  );
  const window =
    file && size >= AUTOV1_WINDOW.offset + AUTOV1_WINDOW.length ? new Uint8Array(AUTOV1_WINDOW.length) : null;
  /** @type {Promise<string>[]} */
  const tensorDigests = [];
  let next = 0; // the first tensor not yet cut

  /**
   * @param {import('./sha256_lane.js').Sha256Lane} lane
   * @param {Uint8Array} piece
   */
  async function feed(lane, piece) {
    const wait = lane.update(piece);
    if (wait) await wait;
  }

  /**
   * @param {Uint8Array} chunk
   * @param {number} at its file offset
   */
  async function pushTensors(chunk, at) {
    const list = /** @type {TensorSpan[]} */ (tensors);
    const lane = /** @type {import('./sha256_lane.js').Sha256Lane} */ (tensorLane);
    const end = at + chunk.byteLength;
    for (; next < list.length; next++) {
      const t = list[next];
      const from = Math.max(t.begin, at);
      if (from < Math.min(t.end, end)) await feed(lane, chunk.subarray(from - at, Math.min(t.end, end) - at));
      if (t.end > end) break;
      tensorDigests.push(lane.cut());
    }
  }

  /**
   * @param {Uint8Array} window
   * @param {Uint8Array} chunk
   * @param {number} at its file offset
   */
  function copyWindow(window, chunk, at) {
    const from = Math.max(at, AUTOV1_WINDOW.offset);
    const to = Math.min(at + chunk.byteLength, AUTOV1_WINDOW.offset + AUTOV1_WINDOW.length);
    if (from < to) window.set(chunk.subarray(from - at, to - at), from - AUTOV1_WINDOW.offset);
  }

  return {
    ranges,
    async push(chunk, at) {
      // Workers first, so that they hash while this thread does its own part.
      const waits = [];
      if (dataLane) {
        const skip = Math.max(0, /** @type {number} */ (dataStart) - at);
        if (skip < chunk.byteLength) waits.push(feed(dataLane, chunk.subarray(skip)));
      }
      if (tensorLane) waits.push(pushTensors(chunk, at));
      if (fileLane) waits.push(feed(fileLane, chunk));
      if (window) copyWindow(window, chunk, at);
      await Promise.all(waits);
    },
    async finish() {
      if (tensorLane) await pushTensors(new Uint8Array(0), size); // empty tensors at the end
      const sha256 = fileLane ? await fileLane.cut() : null;
      const dataSha256 = dataLane ? await dataLane.cut() : null;
      let autoV1 = null;
      if (window) {
        const hasher = await newSha256();
        hasher.update(window);
        autoV1 = hasher.digest().slice(0, 8);
      }
      /** @type {import('../index.js').FileHashes} */
      const result = {
        sha256,
        autoV2: sha256?.slice(0, 10) ?? null,
        autoV1,
        dataSha256,
        autoV3: dataSha256?.slice(0, 12) ?? null,
      };
      if (tensors) {
        const digests = await Promise.all(tensorDigests);
        result.tensors = Object.fromEntries(tensors.map((t, i) => [t.name, digests[i]]));
      }
      return result;
    },
    close() {
      for (const lane of [fileLane, dataLane, tensorLane]) lane?.close();
    },
  };
}
