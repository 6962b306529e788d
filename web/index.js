// Public API: open a .safetensors file (header, metadata, tensor list) or validate it.
import { initSafetensors, loadCardModule, loadedCardModule } from './core/modules.js';
import { toByteSource } from './source/byte_source.js';
import { SafetensorsError, tensorNotFound } from './core/errors.js';
import { readHeader } from './header/read_header.js';
import { cardObject } from './header/header_table.js';
import { buildCard } from './card/model_card.js';
import { planTensorRead } from './tensors/plan.js';
import { decodePieces, decodeTensor } from './tensors/decode.js';
import { scanData } from './tensors/data_scan.js';
import { readRanges } from './tensors/heap_stream.js';
import { throwIfAborted } from './core/abort.js';
import { openHashPass } from './hashing/hash_pass.js';
import { checkEmbeddedHashes } from './hashing/hash_checks.js';
import { openShardedModel } from './sharded/sharded_model.js';
import { openPipeline } from './sharded/pipeline.js';
import { editedHeader, serializeSafetensors, writeEdited, writeSafetensors } from './write/writer.js';
import { convertFile } from './write/convert_file.js';
import { readTensorBatch } from './tensors/batch.js';
export { isPipelineSource } from './sharded/pipeline_files.js';

export { SafetensorsError, initSafetensors, serializeSafetensors, writeSafetensors };

function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { signal, onProgress } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('options.signal must be an AbortSignal');
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('options.onProgress must be a function');
  return options;
}

/**
 * The verdict part of a decoded header: what validateSafetensors returns.
 * @param {ReturnType<typeof import('./header/header_table.js').decodeHeaderTable>} header
 * @returns {import('./index.js').ValidationReport}
 */
function verdictOf(header) {
  return { loadable: header.referenceError === null, referenceError: header.referenceError, findings: header.findings, tensors: header.tensors.length };
}

async function readSource(input, options) {
  const { signal } = options;
  const source = await toByteSource(input, options);
  const core = await initSafetensors();
  return { source, header: await readHeader(core, source, signal) };
}

function checkBoolean(options, name) {
  if (options[name] !== undefined && typeof options[name] !== 'boolean') throw new TypeError(`options.${name} must be a boolean`);
}

/**
 * The hashes of one read: what `plan` asks for, checked against the metadata's claims.
 * With `scan` (the data scan of a loadable file), the same read feeds it too.
 * @param {import('./core/modules.js').Core} core
 * @param {Awaited<ReturnType<typeof toByteSource>>} source
 * @param {import('./hashing/hash_pass.js').HashPlan} plan
 * @param {import('./index.js').ModelCard['embeddedHashes']} claims
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @param {((hashing: Awaited<ReturnType<typeof openHashPass>>) => Promise<unknown>) | null} [scan]
 * @returns {Promise<import('./index.js').HashResult>}
 */
async function hashSource(core, source, plan, claims, options, scan = null) {
  const pass = await openHashPass(plan);
  try {
    if (scan) await scan(pass);
    else await readRanges(source, pass.ranges, options, (chunk, at) => pass.push(chunk, at));
    const hashes = await pass.finish();
    const severity = core.tables.findingSeverity.get('EmbeddedHashMismatch') ?? 'warning';
    return { ...hashes, ...checkEmbeddedHashes(claims, hashes, plan.size, severity) };
  } finally {
    pass.close();
  }
}

/** Where the data section starts, when the header's length is readable and fits the file. */
function readableDataStart(header) {
  return header.dataStart >= 8 && header.dataStart <= header.fileSize ? header.dataStart : null;
}

/**
 * Bytes [begin, end) of a file opened from a Blob or bytes, without reading or copying them;
 * null for other sources (they are read).
 * @param {unknown} input
 * @returns {(begin: number, end: number) => Blob | Uint8Array | null}
 */
function slicer(input) {
  if (typeof Blob !== 'undefined' && input instanceof Blob) return (begin, end) => input.slice(begin, end);
  if (input instanceof ArrayBuffer) return (begin, end) => new Uint8Array(input, begin, end - begin);
  if (ArrayBuffer.isView(input)) return (begin, end) => new Uint8Array(input.buffer, input.byteOffset + begin, end - begin);
  return () => null;
}

/**
 * Reads the header of a .safetensors file and returns its tensors and metadata, its
 * report, and getTensor() to read tensors. Only the first 8 + N bytes are read here.
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').ReadOptions} [options]
 * @returns {Promise<import('./index.js').SafetensorsFile>}
 * @throws {SafetensorsError} when the reference loader would reject the file (with `.report`)
 */
export async function openSafetensors(input, options = {}) {
  return openFile(input, options, true);
}

/**
 * openSafetensors; without `describable`, the header table (the card's input, about the size
 * of the header again) is let go: a sharded model's shards, whose card is the model's.
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').ReadOptions} options
 * @param {boolean} describable
 * @returns {Promise<import('./index.js').SafetensorsFile>}
 */
async function openFile(input, options, describable) {
  checkOptions(options);
  const { source, header } = await readSource(input, options);
  const report = verdictOf(header);
  if (report.referenceError !== null) {
    const [first] = header.findings;
    throw new SafetensorsError(report.referenceError, first.message, { tensor: first.tensor, findings: header.findings, report });
  }
  const { dataStart, tensors, dtypeIndex } = header;
  let byIndex = null; // name -> index, built on the first getTensor: opening stays as cheap as the header parse
  let card = null; // the model card's JSON and its module tree's builder, from the first describe() or hash()
  const tensorCount = tensors.length; // as opened: the card is of the header, whatever happens to `tensors`
  const cardInput = describable ? header.table : null;
  header.table = /** @type {any} */ (null); // `header` lives as long as the file: only cardInput keeps the table
  const cardOf = async () => {
    if (!cardInput) throw new SafetensorsError('InternalError', 'this file was opened as a shard of a sharded model: describe the model instead');
    card ??= await buildCard(cardInput, tensorCount);
    if (loadedCardModule() === null) await loadCardModule(); // let go after an error: the module tree needs one
    return card;
  };
  /** @type {import('./index.js').SafetensorsFile} */
  const file = {
    tensors,
    metadata: header.metadata,
    headerSize: header.headerSize,
    dataStart,
    fileSize: header.fileSize,
    findings: header.findings,
    report,
    /**
     * Reads one tensor (or rows of it) into a typed array, streaming only its bytes.
     * @param {string} name
     * @param {{ as?: 'native' | 'float32' | 'raw', rows?: [number, number], signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void, into?: ArrayBufferView }} [tensorOptions]
     *   `into`: an array of the result's type to fill (and return a view of) instead of a new one
     */
    async getTensor(name, tensorOptions = {}) {
      checkOptions(tensorOptions);
      byIndex ??= new Map(tensors.map((t, i) => [t.name, i]));
      const index = byIndex.get(name);
      if (index === undefined) throw tensorNotFound(name, tensors);
      const tensor = tensors[index];
      const core = await initSafetensors();
      const plan = planTensorRead(tensor, core.tables.dtypes[dtypeIndex[index]], dataStart, tensorOptions);
      return decodeTensor(core, source, plan, tensor, tensorOptions);
    },
    /**
     * One tensor (or rows of it) as converted pieces, read and converted a chunk at a time:
     * `values` is a view on one reused array, valid until the next step. Peak memory is one
     * chunk whatever the tensor's size.
     * @param {string} name
     * @param {{ as?: 'native' | 'float32' | 'raw', rows?: [number, number], signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void, chunkBytes?: number }} [streamOptions]
     * @returns {AsyncGenerator<{ offset: number, values: any }>}
     */
    async* streamTensor(name, streamOptions = {}) {
      checkOptions(streamOptions);
      const { chunkBytes } = streamOptions;
      if (chunkBytes !== undefined && (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1)) throw new TypeError('options.chunkBytes must be a positive integer');
      byIndex ??= new Map(tensors.map((t, i) => [t.name, i]));
      const index = byIndex.get(name);
      if (index === undefined) throw tensorNotFound(name, tensors);
      const core = await initSafetensors();
      const plan = planTensorRead(tensors[index], core.tables.dtypes[dtypeIndex[index]], dataStart, streamOptions);
      yield* decodePieces(core, source, plan, { signal: streamOptions.signal, onProgress: streamOptions.onProgress, chunkBytes });
    },
    /**
     * Many tensors (all without `names`) in one pass over the file: adjacent tensors are read
     * as one stream, a few runs at a time. Same `as` and errors as getTensor.
     * @param {string[]} [names]
     * @param {{ as?: 'native' | 'float32' | 'raw', concurrency?: number, signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void }} [batchOptions]
     */
    async getTensors(names, batchOptions = {}) {
      checkOptions(batchOptions);
      const byName = () => (byIndex ??= new Map(tensors.map((t, i) => [t.name, i])));
      return readTensorBatch(await initSafetensors(), source, { tensors, dataStart, dtypeIndex, byName }, names, batchOptions);
    },
    /**
     * The model card, built by the card module from the header read at open (a new object each
     * call). Reads nothing more, unless `readAlpha` is set and only an adapter's `.alpha`
     * tensors hold its alpha: then one of those scalars is read.
     * @param {{ readAlpha?: boolean, signal?: AbortSignal }} [describeOptions]
     * @returns {Promise<import('./index.js').ModelCard>}
     */
    async describe(describeOptions = {}) {
      const { readAlpha = false, signal } = checkOptions(describeOptions);
      if (typeof readAlpha !== 'boolean') throw new TypeError('options.readAlpha must be a boolean');
      throwIfAborted(signal);
      /** @type {import('./index.js').ModelCard} */
      const described = cardObject(await cardOf());
      const adapter = described.adapter;
      if (readAlpha && adapter && adapter.alpha === null && adapter.alphaTensor !== undefined) {
        const [alpha] = /** @type {Float32Array} */ (await file.getTensor(adapter.alphaTensor, { as: 'float32', signal }));
        if (Number.isFinite(alpha)) adapter.alpha = alpha;
      }
      return described;
    },
    /**
     * SHA-256 of the whole file, of its data section and of tensors, in one read, checked
     * against the hashes the metadata claims.
     * @param {import('./index.js').HashOptions} [hashOptions]
     * @returns {Promise<import('./index.js').HashResult>}
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
        byIndex ??= new Map(tensors.map((t, i) => [t.name, i]));
        const indices = new Set(which.map((name) => {
          const index = byIndex?.get(name);
          if (index === undefined) throw tensorNotFound(name, tensors);
          return index;
        }));
        chosen = [...indices].sort((a, b) => a - b).map((i) => tensors[i]);
      }
      const spans = chosen?.map((t) => ({ name: t.name, begin: dataStart + t.dataOffsets[0], end: dataStart + t.dataOffsets[1] })) ?? null;
      const claims = JSON.parse((await cardOf()).json).embeddedHashes;
      const plan = { size: header.fileSize, dataStart, file: wantFile, data: wantData, tensors: spans };
      return hashSource(await initSafetensors(), source, plan, claims, hashOptions);
    },
    /**
     * The same file with other metadata (null: none), as a Blob: a new header, then the
     * original's data section as a slice of it (not copied). With `path` (Node), written to
     * that file instead, the data section streamed from this file's source.
     * @param {Record<string, string> | null} metadata
     * @param {{ path?: string, signal?: AbortSignal }} [writeOptions]
     * @returns {Promise<any>} a Blob, or nothing when written to `path`
     */
    async withMetadata(metadata, writeOptions = {}) {
      const { path, signal } = checkOptions(writeOptions);
      const edited = await editedHeader(file, metadata);
      if (path !== undefined) return writeEdited(path, edited, source, signal);
      const data = slicer(input)(edited.dataStart, header.fileSize);
      if (data === null) {
        throw new SafetensorsError('UnsupportedSource',
          'withMetadata needs a file opened from a Blob, File or bytes to return a Blob (a URL or FileHandle cannot be sliced without reading it); in Node, pass { path } to stream it to a file');
      }
      return new Blob(/** @type {BlobPart[]} */ ([edited.header, data]));
    },
    /**
     * The file with its float tensors (F32, F64 and the other 16-bit float) as F16 or BF16,
     * rounded to nearest even, laid out as the reference writer would: a Blob, or with `path`
     * (Node) a file. Other tensors are copied.
     * @param {{ to: 'F16' | 'BF16', tensors?: (name: string) => boolean, path?: string, signal?: AbortSignal,
     *   onProgress?: (done: number, total: number) => void }} convertOptions
     * @returns {Promise<any>} a Blob, or nothing when written to `path`
     */
    async convert(convertOptions) {
      return convertFile(file, source, slicer(input), checkOptions(convertOptions));
    },
  };
  return file;
}

/**
 * Says whether the reference loader accepts the file and what else is worth
 * knowing about it. Never throws for a bad file (only for bad arguments or
 * failed reads). With `scanData: true`, a loadable file's tensors are also read
 * once, chunk by chunk, counting NaN, infinities and all-zero tensors; with
 * `hash: true`, the file is hashed (and its claims checked) in that same read.
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').ValidateOptions} [options]
 * @returns {Promise<import('./index.js').ValidationReport>}
 */
export async function validateSafetensors(input, options = {}) {
  const { scanData: wantScan = false, hash: wantHash = false } = checkOptions(options);
  checkBoolean(options, 'scanData');
  checkBoolean(options, 'hash');
  const { source, header } = await readSource(input, options);
  const result = verdictOf(header);
  if (!wantScan && !wantHash) return result;
  const core = await initSafetensors();
  const scanning = wantScan && result.loadable;
  let scan = null;
  let hashes = null;
  if (wantHash) {
    const plan = { size: header.fileSize, dataStart: readableDataStart(header), file: true, data: true, tensors: null };
    // The metadata's hash claims, as the card lists them (a rejected file has no card).
    const claims = result.loadable ? JSON.parse((await buildCard(header.table, header.tensors.length)).json).embeddedHashes : [];
    const scanWith = scanning ? async (/** @type {any} */ pass) => { scan = await scanData(core, source, header, options, pass); } : null;
    hashes = await hashSource(core, source, plan, claims, options, scanWith);
  } else if (scanning) {
    scan = await scanData(core, source, header, options);
  }
  /** @type {import('./index.js').ValidationReport} */
  const out = { ...result, findings: [...header.findings, ...(scan?.findings ?? []), ...(hashes?.findings ?? [])] };
  if (wantScan) out.dataScan = scan?.dataScan ?? null;
  if (hashes) out.hashes = hashes;
  return out;
}

/**
 * Opens a sharded checkpoint (an index.json and its shards) as one model: every shard's
 * header is read (a few at a time), the index checked against them, tensors routed to
 * their shards. Throws only when the index itself cannot be read; a broken model gets findings.
 * @param {unknown} source an index URL, picked files, a path (Node) or { index, resolve }
 * @param {import('./index.js').IndexOptions} [options]
 * @returns {Promise<import('./index.js').ShardedModel>}
 */
export async function openSafetensorsIndex(source, options = {}) {
  return openShardedModel(source, checkOptions(options), (shard, shardOptions) => openFile(shard, shardOptions, false));
}

/**
 * Opens a diffusers pipeline (a folder whose model_index.json lists its components): each
 * component's checkpoint, one file or sharded, is opened and checked. Throws only when
 * model_index.json cannot be read; a missing or broken component gets findings.
 * @param {unknown} source a model_index.json URL, picked files (a folder pick), a path (Node)
 * @param {import('./index.js').PipelineOptions} [options]
 * @returns {Promise<import('./index.js').SafetensorsPipeline>}
 */
export async function openSafetensorsPipeline(source, options = {}) {
  return openPipeline(source, checkOptions(options), { openSafetensors, openSafetensorsIndex });
}
