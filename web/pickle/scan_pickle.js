// scanPickle: a PyTorch checkpoint's (or any pickle's) scan, without running it. The pickle
// module (cpp/wasm/pickle_scan_session.h) asks, round after round, for the byte ranges it needs
// (the pickles, the zip directory: never the storages) and for the deflated records it cannot
// inflate itself; this file reads them from the source and inflates them with
// DecompressionStream('deflate-raw').
import { SafetensorsError, errorText, readError } from '../core/errors.js';
import { loadPickleModule } from '../core/modules.js';
import { toByteSource } from '../source/byte_source.js';

/** Rounds before a file is given up on: the committed checkpoints need at most 12. */
const MAX_ROUNDS = 64;
/** Reads of one round in flight at once. */
const READS_AT_ONCE = 8;
/** Missed ranges closer than this are read as one. */
const MERGE_GAP = 4096;

/** @typedef {import('./types.js').PickleScan} PickleScan */
/** @typedef {import('../wasm/safetensors_pickle.js').PickleScan} ScanSession */
/** @typedef {import('../core/wasm_module.js').WasmModule<import('../wasm/safetensors_pickle.js').PickleModule>} PickleWasm */

/**
 * The file's name, where the source has one: a File's, a path's or a URL's last part.
 * @param {unknown} source
 */
export function fileName(source) {
  if (typeof File !== 'undefined' && source instanceof File) return source.name;
  const text = typeof source === 'string' ? source : source instanceof URL ? source.pathname : '';
  return text.slice(text.replace(/[?#].*$/, '').lastIndexOf('/') + 1).replace(/[?#].*$/, '');
}

/**
 * Inflates a raw deflate stream that the zip directory says is `size` bytes once inflated; null
 * when it is not valid deflate or not that size (the scan then reports the record unreadable).
 * @param {Uint8Array<ArrayBuffer>} input a copy out of the heap
 * @param {number} size
 * @returns {Promise<Uint8Array | null>}
 */
async function inflateRaw(input, size) {
  const out = new Uint8Array(size);
  let at = 0;
  try {
    const stream = new Blob([input]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (/** @type {unknown} */ (stream))) {
      if (chunk.byteLength > size - at) return null; // longer than the directory says
      out.set(chunk, at);
      at += chunk.byteLength;
    }
  } catch {
    return null; // not deflate: the finding says so
  }
  return at === size ? out : null;
}

/**
 * Copies `bytes` into the room the session reserves, then hands them over with `take`.
 * @param {PickleWasm} wasm
 * @param {ScanSession} session
 * @param {Uint8Array} bytes
 * @param {() => void} take
 */
function handOver(wasm, session, bytes, take) {
  wasm.call(() => {
    const ptr = session.reserve(bytes.byteLength);
    wasm.heap.set(bytes, ptr);
    take();
  }, `reading a checkpoint's pickles`);
}

/**
 * `ranges` ([offset, length] pairs, in file order) read with up to READS_AT_ONCE reads in
 * flight, ranges less than MERGE_GAP apart read as one: a zip of 1,200 records asks for 1,200
 * local headers in one round, and one read after another cost a round trip each (a Range
 * request for a URL). Resolves to [offset, bytes] pairs.
 * @param {import('../source/byte_source.js').ByteSource} bytes
 * @param {[number, number][]} ranges
 * @returns {Promise<[number, Uint8Array][]>}
 */
async function readMisses(bytes, ranges) {
  /** @type {[number, number][]} */
  const merged = [];
  for (const [offset, length] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    const end = Math.min(offset + length, bytes.size);
    if (last && offset - (last[0] + last[1]) <= MERGE_GAP) last[1] = Math.max(last[1], end - last[0]);
    else merged.push([offset, end - offset]);
  }
  /** @type {[number, Uint8Array][]} */
  const out = new Array(merged.length);
  let next = 0;
  const worker = async () => {
    for (let i; (i = next++) < merged.length;) {
      const [offset, length] = merged[i];
      try {
        out[i] = [offset, await bytes.read(offset, length)];
      } catch (cause) {
        if (cause instanceof SafetensorsError) throw cause;
        throw readError(`the file could not be read at byte ${offset}: ${errorText(cause)}`, cause);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, merged.length) }, worker));
  return out;
}

/**
 * Runs the pickle module's scan in rounds over `bytes`, reading what each round misses; with
 * `contents`, the storages are located too and the answer has the tensors and storages
 * (cpp/scan/scan_json.h, write_checkpoint_json).
 * @param {import('../source/byte_source.js').ByteSource} bytes
 * @param {string} name the file's name
 * @param {boolean} contents
 * @returns {Promise<any>} the parsed JSON of the last round
 */
export async function runScan(bytes, name, contents) {
  const wasm = await loadPickleModule();
  const session = wasm.call((m) => new m._PickleScan(BigInt(bytes.size), name));
  try {
    wasm.call(() => session.wantContents(contents));
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const answer = JSON.parse(wasm.call(() => session.round(), `scanning a checkpoint`));
      if (!('misses' in answer)) return answer;
      for (const [offset, read] of await readMisses(bytes, answer.misses))
        handOver(wasm, session, read, () => session.add(BigInt(offset)));
      for (let input; (input = wasm.call(() => session.inflateInput()?.slice()));) {
        const inflated = await inflateRaw(input, Number(wasm.call(() => session.inflateSize())));
        if (inflated) handOver(wasm, session, inflated, () => session.inflated(true));
        else wasm.call(() => session.inflated(false));
      }
    }
  } finally {
    wasm.release(() => session.delete());
  }
  throw readError(`the checkpoint was still asking for more bytes after ${MAX_ROUNDS} rounds of reading`);
}

/**
 * Scans a PyTorch checkpoint (.pt, .pth, .ckpt, pytorch_model.bin: the torch zip or the legacy
 * format), a plain pickle, or a NumPy .npy/.npz, reading only its pickles and zip directory.
 * Nothing in the file is ever run.
 * @param {unknown} source a File/Blob, bytes, http(s) URL (read by Range) or Node path
 * @returns {Promise<PickleScan>}
 */
export async function scanPickle(source) {
  return /** @type {PickleScan} */ (await runScan(await toByteSource(source), fileName(source), false));
}
