// Types of the public API of safetensors-wasm (hand-written; checked by tsc in tests/types).

/** The reference loader's error kinds, in the order its checks run. */
export type ReferenceErrorKind =
  | 'HeaderTooSmall'
  | 'HeaderTooLarge'
  | 'InvalidHeaderLength'
  | 'InvalidHeader'
  | 'InvalidHeaderDeserialization'
  | 'InvalidOffset'
  | 'ValidationOverflow'
  | 'MisalignedSlice'
  | 'TensorInvalidInfo'
  | 'MetadataIncompleteBuffer';

/** Element types the reference loader accepts. */
export type Dtype =
  | 'BOOL' | 'F4' | 'F6_E2M3' | 'F6_E3M2' | 'U8' | 'I8' | 'F8_E5M2' | 'F8_E4M3' | 'F8_E8M0'
  | 'F8_E4M3FNUZ' | 'F8_E5M2FNUZ' | 'I16' | 'U16' | 'F16' | 'BF16' | 'I32' | 'U32' | 'F32'
  | 'C64' | 'F64' | 'I64' | 'U64';

/** Anything with a size and positional reads; every other source is adapted to this. */
export interface ByteReader {
  /** Total size in bytes. */
  readonly size: number;
  /** Resolves to exactly `length` bytes starting at `offset`. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A Node `fs.promises.FileHandle` (structural, so no Node types are needed). */
export interface FileHandleLike {
  readonly fd: number;
  stat(): Promise<{ size: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** What `openSafetensors` and `validateSafetensors` read from. */
export type SafetensorsSource = Blob | ArrayBuffer | ArrayBufferView | FileHandleLike | ByteReader | string | URL;

/** The codes of our findings (README, "Findings"); a reference error kind is the other kind of code. Checked against the core's table by tests/js/documented_codes.test.js. */
export type FindingCode =
  | 'DuplicateTensorName' | 'DuplicateMetadataKey' | 'ArrayTensorEntry' | 'MapDtype' | 'UnknownTensorField'
  | 'HeaderNotPadded' | 'MisalignedTensor' | 'HugeTensor' | 'EmptyTensor' | 'ManyScalarTensors'
  | 'UnlabeledIntegerWeights' | 'UnknownMetadataKey' | 'UnusualFormat' | 'LargeMetadataValue'
  | 'LeadingWhitespace' | 'OversizedHeader' | 'NonFiniteValues' | 'AllZeroTensor'
  | 'EmbeddedHashMismatch'
  | 'IndexTensorMissing' | 'UnindexedTensor' | 'TensorInSeveralShards' | 'ShardMissing' | 'ShardNotLoadable'
  | 'UnsafeShardName' | 'IndexTotalSizeMismatch' | 'ShardNotReferenced'
  | 'ComponentMissing';

export interface Finding {
  /** Stable identifier: a reference error kind or one of ours, e.g. "DuplicateTensorName". */
  code: ReferenceErrorKind | FindingCode | (string & {});
  severity: 'error' | 'warning' | 'info';
  /** A sentence saying what it means and what to do. */
  message: string;
  /** The tensor concerned, when there is one. */
  tensor?: string;
  /** Sharded models: the shard concerned, when there is one. */
  shard?: string;
  /** Diffusers pipelines: the component concerned (its folder name, e.g. "unet"). */
  component?: string;
}

export interface TensorInfo {
  name: string;
  dtype: Dtype;
  /** Dimensions; [] for a scalar. A dimension above 2^53-1 (possible only when another is 0) is rounded: see exactShape. */
  shape: number[];
  /** Present only when a dimension is above 2^53-1: the exact shape. */
  exactShape?: bigint[];
  /** [begin, end) relative to dataStart. */
  dataOffsets: [number, number];
  byteLength: number;
}

/** What getTensor returns for each dtype with `as: 'native'` (the default). */
export interface NativeArrays {
  F32: Float32Array; F64: Float64Array; I8: Int8Array; U8: Uint8Array; BOOL: Uint8Array;
  I16: Int16Array; U16: Uint16Array; I32: Int32Array; U32: Uint32Array;
  I64: BigInt64Array; U64: BigUint64Array;
  /** Interleaved real, imaginary. */
  C64: Float32Array;
  F16: Float32Array; BF16: Float32Array; F8_E5M2: Float32Array; F8_E4M3: Float32Array;
  F8_E8M0: Float32Array; F8_E4M3FNUZ: Float32Array; F8_E5M2FNUZ: Float32Array;
  /** Two values per byte, first in the low nibble. */
  F4: Float32Array;
  /** The packed bytes: 6-bit floats have no conversion here. */
  F6_E2M3: Uint8Array; F6_E3M2: Uint8Array;
}

/** Any array getTensor can return. */
export type TensorArray = NativeArrays[Dtype];

export interface GetTensorOptions<As extends 'native' | 'float32' | 'raw' = 'native' | 'float32' | 'raw'> {
  /**
   * 'native' (default): the dtype's own array, or Float32Array for small floats and C64;
   * 'float32': a Float32Array for every dtype (F64 and 32/64-bit integers rounded to nearest
   * even; F6 kinds refuse with code "UnsupportedConversion"); 'raw': the bytes.
   */
  as?: As;
  /**
   * [start, end): only these indices of the first dimension; only their bytes are read.
   * TypeError when not two integers; RangeError when outside the tensor, on a scalar, or
   * splitting a byte (F4, F6).
   */
  rows?: [number, number];
  /** Aborts at once, even while a read is pending; the promise rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  /** Called after each chunk with bytes read so far and the total; the last call has done === total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** An array of the result's type and at least its length to fill instead of allocating; a view of it is returned. */
  into?: TensorArray;
}

/** What reads tensors: a file, or a sharded model. */
export interface TensorReader {
  /**
   * Reads one tensor (or `rows` of it) into a typed array, streaming only its bytes through a
   * bounded buffer. Rejects with SafetensorsError: "TensorNotFound", "TensorTooLarge" (more than
   * one array can hold: use rows), "UnsupportedConversion", "ReadError", "OutOfMemory",
   * "InternalError"; TypeError or RangeError for bad options (see GetTensorOptions.rows).
   */
  getTensor(name: string, options?: GetTensorOptions<'native'>): Promise<TensorArray>;
  getTensor(name: string, options: GetTensorOptions<'float32'>): Promise<Float32Array>;
  getTensor(name: string, options: GetTensorOptions<'raw'>): Promise<Uint8Array>;
  getTensor(name: string, options?: GetTensorOptions): Promise<TensorArray>;
  /**
   * Many tensors (every one without `names`) in one pass: the chosen tensors are read in file
   * order, adjacent ones as one stream (runs of up to 16 MiB), `concurrency` runs at a time
   * (default 4). The Map follows the order of `names` (else the file's). Same `as` and errors as
   * getTensor; `onProgress` counts bytes read over all of them.
   */
  /**
   * One tensor (or `rows` of it) as converted pieces, read and converted a chunk at a time
   * (`chunkBytes` of input, default 1 MiB): `offset` is the index of `values[0]` in the whole
   * tensor. `values` is a view on one reused array, valid until the next step: copy (`slice()`) or upload it before
   * continuing, and never transfer its buffer. Peak memory is one chunk, so tensors larger than
   * any array stream too.
   * Same `as`, `rows` and errors as getTensor. Finish or `break` the loop: that frees its buffers.
   */
  streamTensor(name: string, options?: StreamTensorOptions<'native'>): AsyncGenerator<{ offset: number; values: TensorArray }, void, undefined>;
  streamTensor(name: string, options: StreamTensorOptions<'float32'>): AsyncGenerator<{ offset: number; values: Float32Array }, void, undefined>;
  streamTensor(name: string, options: StreamTensorOptions<'raw'>): AsyncGenerator<{ offset: number; values: Uint8Array }, void, undefined>;
  streamTensor(name: string, options?: StreamTensorOptions): AsyncGenerator<{ offset: number; values: TensorArray }, void, undefined>;
  getTensors(names?: string[], options?: GetTensorsOptions<'native'>): Promise<Map<string, TensorArray>>;
  getTensors(names: string[] | undefined, options: GetTensorsOptions<'float32'>): Promise<Map<string, Float32Array>>;
  getTensors(names: string[] | undefined, options: GetTensorsOptions<'raw'>): Promise<Map<string, Uint8Array>>;
  getTensors(names?: string[], options?: GetTensorsOptions): Promise<Map<string, TensorArray>>;
}

export interface StreamTensorOptions<As extends 'native' | 'float32' | 'raw' = 'native' | 'float32' | 'raw'> {
  as?: As;
  rows?: [number, number];
  /** Input bytes per piece (default 1,048,576). */
  chunkBytes?: number;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface GetTensorsOptions<As extends 'native' | 'float32' | 'raw' = 'native' | 'float32' | 'raw'> {
  as?: As;
  /** Runs (or, in a sharded model, shards) read at once; default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface SafetensorsFile extends TensorReader {
  /** In data order (sorted by offsets); duplicates resolved as the reference does (last wins). */
  tensors: TensorInfo[];
  /** The __metadata__ map, or null when absent. */
  metadata: Record<string, string> | null;
  /** N, the header's length in bytes. */
  headerSize: number;
  /** 8 + N: where tensor data begins. */
  dataStart: number;
  fileSize: number;
  /** Warnings and notes about a loadable file (the same array as report.findings). */
  findings: Finding[];
  /** The verdict from the same read of the header: what validateSafetensors would return. */
  report: ValidationReport;
  /**
   * What the file is, from its header and metadata (built by the card module from the header as
   * read at open, on the first call, and kept: a new object each call). Reads no tensor data,
   * except with `readAlpha` when only an adapter's `.alpha` tensors hold its alpha (then one
   * scalar is read, on the first such call).
   */
  describe(options?: { readAlpha?: boolean; signal?: AbortSignal }): Promise<ModelCard>;
  /**
   * SHA-256 of the whole file, of its data section and of tensors, all in one streamed read
   * (bounded memory; a second and third hash run in workers where they can), checked against
   * the hashes the metadata claims. Rejects like getTensor ("ReadError", "TensorNotFound" for
   * an unknown name in `tensors`, the signal's reason when aborted).
   */
  hash(options?: HashOptions): Promise<HashResult>;
  /**
   * The same file with other metadata (null: none), as a Blob: a new header (checked by the
   * validator), then this file's data section as a slice of the original, byte for byte (its
   * data hash, AutoV3 and sshs_model_hash stay). Tensors keep their offsets. Rejects with
   * "InvalidMetadata" (a value that is not a string) and "UnsupportedSource" (a file opened
   * from a URL or FileHandle: only Blobs and bytes can be sliced without reading them).
   */
  withMetadata(metadata: Record<string, string> | null): Promise<Blob>;
  /** Node: writes the edited file to `path` (whole or not at all; in place is safe), its data section streamed from this file's source, whatever it is. */
  withMetadata(metadata: Record<string, string> | null, options: { path: string; signal?: AbortSignal }): Promise<void>;
  /**
   * The file with its float tensors (F32, F64, and BF16 or F16: the other 16-bit one) as `to`,
   * rounded to nearest with ties to even in WASM SIMD kernels (NaN stays NaN, values past the
   * largest finite one become ±Infinity), laid out as the reference writer lays them out; other
   * tensors (integers, BOOL, 8-bit and smaller floats, C64) are copied. `tensors` picks which
   * float tensors to convert. Streams a chunk at a time; the new header is checked by the
   * validator. `onProgress` counts the bytes of the tensors being converted.
   */
  convert(options: ConvertOptions & { path?: undefined }): Promise<Blob>;
  /** Node: writes the converted file to `path` (whole or not at all), in bounded memory. */
  convert(options: ConvertOptions & { path: string }): Promise<void>;
}

export interface ConvertOptions {
  to: 'F16' | 'BF16';
  tensors?: (name: string) => boolean;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface HashOptions {
  /** SHA-256 of the whole file, AutoV2 and AutoV1 (default true). */
  file?: boolean;
  /** SHA-256 of the data section [8+N, EOF) and AutoV3 (default true). */
  data?: boolean;
  /** SHA-256 of each tensor's bytes: true for all, or the names of some (default false). */
  tensors?: boolean | string[];
  signal?: AbortSignal;
  /** Called after each chunk with bytes read so far and the total; the last call has done === total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** Lowercase hex; null where not asked for (or, for AutoV1, where the file is too short). */
export interface FileHashes {
  /** SHA-256 of the whole file. */
  sha256: string | null;
  /** The first 10 hex digits of sha256 (AUTOMATIC1111's and Civitai's AutoV2). */
  autoV2: string | null;
  /** SHA-256 of the 64 KiB at 1 MiB, first 8 hex digits; null for files shorter than 1 MiB + 64 KiB. */
  autoV1: string | null;
  /** SHA-256 of bytes [8+N, EOF): kohya's sshs_model_hash, ModelSpec's hash_sha256 (without 0x). */
  dataSha256: string | null;
  /** The first 12 hex digits of dataSha256 (Civitai's AutoV3, the "addnet" hash). */
  autoV3: string | null;
  /** Only when asked: tensor name -> SHA-256 of its bytes. */
  tensors?: Record<string, string>;
}

/** One hash the metadata claims, against the computed one (as many leading digits as claimed). */
export interface HashCheck {
  key: string;
  claimed: string;
  actual: string;
  match: boolean;
}

export interface HashResult extends FileHashes {
  /** Every claim that can be compared with what was hashed (base-model hashes cannot). */
  checks: HashCheck[];
  /** An EmbeddedHashMismatch warning per failed check. */
  findings: Finding[];
}

/** A model family, and the keys, shapes or metadata that decided it. */
export interface ModelFamily {
  /** sd1, sd2, sdxl, sdxl-refiner, sd3, flux1, flux2, chroma, auraflow, pixart, stable-cascade,
   * hunyuan-video, ltxv, wan, lumina2, qwen-image, hidream, llama, qwen2, qwen3, gemma, mixtral,
   * qwen2-moe, deepseek, phi3, gpt2, gpt-neox, gpt-j, falcon, bloom, bert, t5, mamba */
  id: string;
  name: string;
  /** e.g. "dev"/"schnell" for flux1, "i2v" for wan, "moe" for qwen3 (models only, not adapters). */
  variant?: string;
  evidence: string[];
}

export type AdapterType = 'lora' | 'locon' | 'loha' | 'lokr' | 'dora' | 'glora' | 'oft' | 'diff' | 'unknown';

export interface AdapterInfo {
  type: AdapterType;
  /** How tensors are named: "kohya", "peft", "diffusers" or "lora_diffusion". */
  format: string;
  /** ss_network_dim or the LoraConfig's r; else the most common rank in the shapes. */
  rank: number | null;
  /** ss_network_alpha or the LoraConfig's lora_alpha; else null (see alphaTensor). */
  alpha: number | null;
  /** kohya/lora_diffusion: the model parts (unet, text_encoder, text_encoder_2, transformer);
   * PEFT: the adapted module names (q_proj, v_proj, ...). */
  targets: string[];
  /** ss_network_module, e.g. "networks.lora" or "lycoris.kohya". */
  networkModule?: string;
  /** When alpha is null: a `.alpha` scalar tensor holding it (describe({ readAlpha: true }) reads it). */
  alphaTensor?: string;
}

/** A node of the module tree: tensors grouped by the parts of their names. */
export interface ModuleNode {
  /** This level's part of the name ("" for the root); a chain of single modules is one node. */
  name: string;
  /** The full prefix of the tensor names below. */
  path: string;
  /** Tensors, parameters and bytes at or below this node. */
  tensors: number;
  parameters: number;
  bytes: number;
  /** Indices into SafetensorsFile.tensors of the tensors directly in this node. */
  own: number[];
  children: ModuleNode[];
}

export interface ModelCard {
  kind: 'model' | 'adapter' | 'embedding' | 'unknown';
  family: ModelFamily | null;
  adapter: AdapterInfo | null;
  parameters: {
    /** Σ product(shape) over tensors; a scalar counts 1 (as huggingface_hub counts). */
    total: number;
    byDtype: Record<string, number>;
    /** Packed layouts (gptq, awq, bitsandbytes-4bit, bitsandbytes-8bit, mlx, mxfp4). */
    quantized?: { scheme: string; estimatedTotal: number | null; note: string };
  };
  /** Language models: sizes from the shapes. */
  architecture: { layers?: number; hiddenSize?: number; vocabSize?: number; experts?: number };
  title: string | null;
  description: string | null;
  author: string | null;
  license: string | null;
  /** modelspec.date, else ss_training_finished_at as ISO 8601 UTC. */
  date: string | null;
  /** ssmd_source as written (check the scheme before linking it). */
  source: string | null;
  /** Best first; `count`: training images tagged with it, where known. */
  triggerWords: { text: string; source: string; count?: number }[];
  /** ss_tag_frequency summed over folders, most frequent first (at most 250). */
  tags: { tag: string; count: number }[];
  baseModel: { name: string | null; hash: string | null; version: string | null } | null;
  /** Every ss_* value but the JSON-valued ones, keys without "ss_"; "True"/"False"/"None"
   * and numbers converted. null when there are no ss_* keys. */
  training: Record<string, string | number | boolean | null> | null;
  /** PNG, JPEG, WebP or GIF only, checked by magic number; at most 8, 4 MiB each, 8 MiB in all. */
  images: { mime: string; source: string; bytes: number; dataUrl: string }[];
  /** Hashes written into the metadata, lowercase hex without "0x". */
  embeddedHashes: { key: string; value: string; covers: 'file' | 'data' | 'autov1' | 'base-model' }[];
  /** The tensors as a tree of modules, built on the first read of this property (then a plain value). */
  modules: ModuleNode;
}

export interface ValidationReport {
  /** True if and only if the reference loader accepts the file. */
  loadable: boolean;
  referenceError: ReferenceErrorKind | null;
  /** The reference error first (severity "error"), then warnings and notes. */
  findings: Finding[];
  /** Tensors in the header (0 when the header could not be read). */
  tensors: number;
  /** Only with `scanData: true`: the counts per tensor, or null when the file is not loadable. */
  dataScan?: DataScan | null;
  /** Only with `hash: true`: the file's hashes (no data hash when its header's length is unreadable). */
  hashes?: HashResult;
}

/** What the data scan found in one tensor. */
export interface TensorScan {
  name: string;
  dtype: Dtype;
  /** NaN values (C64: per component); 0 for integer, BOOL and F6 kinds. */
  nan: number;
  posInf: number;
  negInf: number;
  /** Every value is ±0 (false for empty tensors; NaN and infinities are not zero). */
  allZero: boolean;
}

export interface DataScan {
  /** Bytes of tensor data read. */
  bytes: number;
  /** One entry per tensor, in data order. */
  tensors: TensorScan[];
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** For http(s) URLs: the fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** For http(s) URLs: headers sent with every request, e.g. `{ Authorization: 'Bearer <token>' }`. */
  headers?: HeadersInit;
  /** For http(s) URLs: bytes asked for by the first request (default 262,144); reads inside them cost no request. */
  firstRead?: number;
}

export interface ValidateOptions extends ReadOptions {
  /** Also read every tensor once, counting NaN, infinities and all-zero tensors. */
  scanData?: boolean;
  /** Also hash the file (as SafetensorsFile.hash() with file and data) in the same read. */
  hash?: boolean;
  /** With scanData or hash: called after each chunk with bytes read so far and the total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface InitOptions {
  /** Where to fetch each .wasm from (called with "safetensors_core.wasm" or "safetensors_card.wasm");
   *  default: next to this module (new URL(..., import.meta.url)). */
  locateFile?: (path: string, prefix: string) => string;
  /** The core's .wasm bytes (safetensors_core.wasm), when you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** The card module's .wasm bytes (safetensors_card.wasm; loaded by the first describe(), never by hashing). */
  cardWasmBinary?: ArrayBuffer | Uint8Array;
}

/**
 * Loads the core's wasm module; optional (the first call of any function does it). Options given
 * are kept for every later load of either module, including the reload after one fails; call it
 * first so the first load uses them. Rejects with SafetensorsError "InitError" when the .wasm
 * cannot be loaded.
 */
export function initSafetensors(options?: InitOptions): Promise<unknown>;

/**
 * Reads the header (never the data) and returns tensors, metadata and the report; rejects with a
 * SafetensorsError whose code is the reference error kind (and whose `report` is the full report)
 * when the reference rejects the file.
 */
export function openSafetensors(source: ByteReader, options?: ReadOptions): Promise<SafetensorsFile>;
export function openSafetensors(source: SafetensorsSource, options?: ReadOptions): Promise<SafetensorsFile>;

/** The reference verdict and findings; never throws for a bad file. With scanData, also the data scan. */
export function validateSafetensors(source: SafetensorsSource, options: ValidateOptions & { scanData: true }): Promise<ValidationReport & { dataScan: DataScan | null }>;
export function validateSafetensors(source: ByteReader, options?: ValidateOptions): Promise<ValidationReport>;
export function validateSafetensors(source: SafetensorsSource, options?: ValidateOptions): Promise<ValidationReport>;

export interface IndexOptions {
  signal?: AbortSignal;
  /** For http(s) URLs (the index and its shards): the fetch to use. */
  fetch?: typeof fetch;
  /** For http(s) URLs: headers sent with every request, e.g. `{ Authorization: 'Bearer <token>' }`. */
  headers?: HeadersInit;
  /** For http(s) shards: bytes asked for by each shard's first request (default: its header's likely size from the index, at most 262,144). */
  firstRead?: number;
  /** Shards opened at once (default 8). */
  concurrency?: number;
  /** Called after each shard is opened (or found missing). */
  onProgress?: (shardsDone: number, shardsTotal: number) => void;
}

/** One picked file of a sharded model: what openSafetensorsIndex may be given in a browser. */
export type PickedFiles = FileList | File[];

/** Where a sharded model comes from. */
export type IndexSource =
  | string
  | URL
  | PickedFiles
  | { index: object | string | Blob | Uint8Array; resolve(shardName: string): SafetensorsSource | Promise<SafetensorsSource> };

export interface ShardTensorInfo extends TensorInfo {
  /** The shard file that holds it (as the index names it). */
  shard: string;
}

export interface ShardInfo {
  name: string;
  /** The shard's own verdict (for a shard that could not be read: one finding saying why). */
  report: ValidationReport;
  /** Its tensors in data order (empty when it was not read). */
  tensors: ShardTensorInfo[];
}

/** getTensor reads from the shard that holds the tensor (same options and errors as SafetensorsFile's, plus the unusable shard's code). */
export interface ShardedModel extends TensorReader {
  /** Every tensor: the index's, in its order, each from the shard the index names; then tensors only the shards hold. */
  tensors: ShardTensorInfo[];
  /** The index's metadata (total_size, total_parameters, …), or null. */
  metadata: Record<string, unknown> | null;
  /** The shards in the index's order (without an index: every .safetensors file, by name). */
  shards: ShardInfo[];
  /** Shards that cannot be used (ShardMissing, ShardNotLoadable, UnsafeShardName), then the cross-shard findings. */
  findings: Finding[];
  /** No finding is an error: every shard loads and the index matches them. */
  loadable: boolean;
  /** One model card for the whole model, from every shard's tensors (reads nothing more; built on the first call and kept: a new object each call). */
  describe(options?: { signal?: AbortSignal }): Promise<ModelCard>;
}

/**
 * Opens a sharded checkpoint: the URL of a `*.safetensors.index.json` (shards resolved next to
 * it), picked files (a folder or several files: the index and its shards; without an index,
 * every .safetensors file is a shard), a path in Node (an index or a folder), or
 * `{ index, resolve }`. Rejects with "InvalidIndex" only when the index cannot be used.
 */
export function openSafetensorsIndex(source: IndexSource, options?: IndexOptions): Promise<ShardedModel>;

/** A tensor to write: `data` is a typed array of the dtype's own kind (Uint16Array for F16/BF16 bits), a Uint8Array of raw bytes, or a Blob. */
export interface TensorToWrite {
  dtype: Dtype;
  shape: number[];
  data: ArrayBufferView | Blob;
}

/**
 * A .safetensors file as a Blob, byte for byte what the reference writer (safetensors'
 * serialize) writes for the same tensors and 0 or 1 metadata keys (more keys: sorted; the
 * reference's order is a hash map's). Rejects before writing anything: "InvalidTensor" (data
 * length or kind, unknown dtype, duplicate or non-string name, elements not filling whole
 * bytes), "InvalidMetadata" (a value that is not a string), "HeaderTooLarge" (over 100,000,000 bytes).
 */
/** Node: writes the file serializeSafetensors would give to `path`, part after part (bounded memory; whole or not at all). */
export function writeSafetensors(
  path: string,
  tensors: Record<string, TensorToWrite> | Map<string, TensorToWrite> | (TensorToWrite & { name: string })[],
  options?: { metadata?: Record<string, string> | null; signal?: AbortSignal },
): Promise<void>;

export function serializeSafetensors(
  tensors: Record<string, TensorToWrite> | Map<string, TensorToWrite> | (TensorToWrite & { name: string })[],
  options?: { metadata?: Record<string, string> | null },
): Promise<Blob>;

export interface PipelineOptions extends Omit<IndexOptions, 'onProgress'> {
  /** A checkpoint variant, e.g. "fp16": opens diffusion_pytorch_model.fp16.safetensors (and the like) instead. */
  variant?: string;
  /** Called after each component is opened (or found missing). */
  onProgress?: (componentsDone: number, componentsTotal: number) => void;
}

/** One component of a diffusers pipeline, as model_index.json lists it. */
export interface PipelineComponent {
  /** Its folder name, e.g. "unet", "text_encoder", "vae". */
  name: string;
  /** e.g. "diffusers", "transformers" (null for a disabled component). */
  library: string | null;
  /** e.g. "UNet2DConditionModel" (null for a disabled component). */
  className: string | null;
  /** "file" or "sharded": its checkpoint; "none": a component without weights (scheduler, tokenizer, disabled); "missing": it should have weights and has none (a ComponentMissing finding). */
  weights: 'file' | 'sharded' | 'none' | 'missing';
  /** The checkpoint's path in the pipeline folder, e.g. "unet/diffusion_pytorch_model.safetensors" (or its index). */
  path: string | null;
  /** The opened checkpoint (null when missing or rejected). */
  model: SafetensorsFile | ShardedModel | null;
  /** The checkpoint's verdict (null without one). */
  report: ValidationReport | null;
}

export interface SafetensorsPipeline {
  /** model_index.json's `_class_name`, e.g. "StableDiffusionXLPipeline". */
  className: string | null;
  /** model_index.json as parsed. */
  metadata: Record<string, unknown>;
  /** Every component in model_index.json's order. */
  components: PipelineComponent[];
  /** Every component's findings (each with `component`), and ComponentMissing. */
  findings: Finding[];
  /** No finding is an error. */
  loadable: boolean;
}

/**
 * Opens a diffusers pipeline: the URL of its `model_index.json` (components resolved next to
 * it, each file name tried in turn), picked files (a folder pick), or a path in Node (the folder
 * or its model_index.json). Rejects with "InvalidIndex" only when model_index.json cannot be used.
 */
export function openSafetensorsPipeline(source: string | URL | PickedFiles, options?: PipelineOptions): Promise<SafetensorsPipeline>;

/** Whether a source is a diffusers pipeline (a model_index.json URL or path, or a folder or picked files holding one). */
export function isPipelineSource(source: unknown): Promise<boolean>;

/**
 * Every `code` a SafetensorsError can have (README, "Errors"): a reference error kind for a
 * rejected file, or one of the package's own.
 */
export type ErrorCode =
  | ReferenceErrorKind
  | 'ReadError'
  | 'TensorNotFound'
  | 'TensorTooLarge'
  | 'UnsupportedConversion'
  | 'OutOfMemory'
  | 'InternalError'
  | 'InitError'
  | 'HttpError'
  | 'RangeNotSupported'
  | 'InvalidIndex'
  | 'ShardMissing'
  | 'ShardNotLoadable'
  | 'UnsafeShardName'
  | 'InvalidTensor'
  | 'InvalidMetadata'
  | 'UnsupportedSource'
  | 'WriteError';

export class SafetensorsError extends Error {
  constructor(code: ErrorCode, message: string, details?: { tensor?: string; findings?: Finding[]; report?: ValidationReport; cause?: unknown });
  readonly name: 'SafetensorsError';
  readonly code: ErrorCode;
  readonly tensor?: string;
  readonly findings: Finding[];
  /** When opening a file the reference rejects: the report of that same read. */
  readonly report?: ValidationReport;
  /** HttpError: the HTTP status the server answered. */
  readonly status?: number;
}
