// Types of the public API of safetensors-wasm (hand-written; checked by tsc in tests/types):
// the entry points here, the types of each part in its folder's types.d.ts.
/**
 * Open, validate and inspect .safetensors files: the whole API (see docs/api.md for how the parts fit).
 * @module safetensors-wasm
 */
export * from './core/types.js';
export * from './source/types.js';
export * from './tensors/types.js';
export * from './file/types.js';
export * from './hashing/types.js';
export * from './card/types.js';
export * from './sharded/types.js';
export * from './write/types.js';
export * from './compare/types.js';
export * from './signing/types.js';
export * from './gpu/types.js';
export * from './pickle/types.js';
import type { InitOptions, SafetensorsError } from './core/types.js';
import type { OpenOptions, SafetensorsFile, ValidateOptions, ValidationReport } from './file/types.js';
import type {
  IndexOptions,
  IndexSource,
  PickedFiles,
  PipelineOptions,
  SafetensorsPipeline,
  ShardedModel,
} from './sharded/types.js';
import type { ByteReader, SafetensorsSource } from './source/types.js';
import type { DataScan } from './tensors/types.js';
import type { TensorToWrite } from './write/types.js';
import type { CheckAdapterOptions, CheckAdapterResult, DiffOptions, DiffResult } from './compare/types.js';
import type { Checkpoint, PickleScan } from './pickle/types.js';
import type { ModelSource, SignatureVerification, VerifySignatureOptions } from './signing/types.js';

/**
 * Loads the core's wasm module; optional (the first call of any function does it). Options given
 * are kept for every later load of either module, including the reload after one fails; call it
 * first so the first load uses them. Rejects with SafetensorsError "InitError" when the .wasm
 * cannot be loaded.
 */
export function initSafetensors(options?: InitOptions): Promise<unknown>;

/** Which modules {@link preload} starts loading. */
export interface PreloadOptions {
  /** The model card's module, which describe() needs (default true). */
  card?: boolean;
  /** The pickle scan's module, which scanPickle and openCheckpoint need (default false). */
  pickle?: boolean;
}

/**
 * Starts loading the core's wasm module and (unless `{ card: false }`) the model card's, so that
 * the first openSafetensors and describe() do not wait for them, and runs them once on a small
 * header (browsers compile WebAssembly functions on their first call): call it as early as a
 * page knows it will show a card, for example before the user picks a file. Resolves once done;
 * rejects with SafetensorsError "InitError" when one cannot be (the next call that needs
 * it tries again). Uses the options initSafetensors was given: call that first when you give any.
 */
export function preload(options?: PreloadOptions): Promise<void>;

/**
 * Reads the header (never the data) and returns tensors, metadata and the report; rejects with a
 * SafetensorsError whose code is the reference error kind (and whose `report` is the full report)
 * when the reference rejects the file.
 */
export function openSafetensors(source: ByteReader, options?: OpenOptions): Promise<SafetensorsFile>;
export function openSafetensors(source: SafetensorsSource, options?: OpenOptions): Promise<SafetensorsFile>;

/** The reference verdict and findings; never throws for a bad file. With scanData, also the data scan. */
export function validateSafetensors(
  source: SafetensorsSource,
  options: ValidateOptions & { scanData: true },
): Promise<ValidationReport & { dataScan: DataScan | null }>;
export function validateSafetensors(source: ByteReader, options?: ValidateOptions): Promise<ValidationReport>;
export function validateSafetensors(source: SafetensorsSource, options?: ValidateOptions): Promise<ValidationReport>;

/**
 * Opens a sharded checkpoint: the URL of a `*.safetensors.index.json` (shards resolved next to
 * it), picked files (a folder or several files: the index and its shards; without an index,
 * every .safetensors file is a shard), a path in Node (an index or a folder), or
 * `{ index, resolve, config? }`. The config.json beside the weights (in the folder, among the
 * picked files, beside the index URL, or `config` as OpenOptions.config takes it) gives
 * describe() the KV cache: a folder or a pick of one `model.safetensors` and its `config.json`
 * is a model of one shard. Every shard's header is read at once, within `concurrency` and
 * `maxBytesInFlight`; an index URL's config.json is asked for beside it, so that the model and
 * its card cost two round trips. Rejects with "InvalidIndex" only when the index cannot be used.
 */
export function openSafetensorsIndex(source: IndexSource, options?: IndexOptions): Promise<ShardedModel>;

/** Node: writes the file serializeSafetensors would give to `path`, part after part (bounded memory; whole or not at all). */
export function writeSafetensors(
  path: string,
  tensors: Record<string, TensorToWrite> | Map<string, TensorToWrite> | (TensorToWrite & { name: string })[],
  options?: { metadata?: Record<string, string> | null; signal?: AbortSignal },
): Promise<void>;

/**
 * A .safetensors file as a Blob, byte for byte what the reference writer (safetensors'
 * serialize) writes for the same tensors and 0 or 1 metadata keys (more keys: sorted; the
 * reference's order is a hash map's). Rejects before writing anything: "InvalidTensor" (data
 * length or kind, unknown dtype, duplicate or non-string name, elements not filling whole
 * bytes), "InvalidMetadata" (a value that is not a string), "HeaderTooLarge" (over 100,000,000 bytes).
 */
export function serializeSafetensors(
  tensors: Record<string, TensorToWrite> | Map<string, TensorToWrite> | (TensorToWrite & { name: string })[],
  options?: { metadata?: Record<string, string> | null },
): Promise<Blob>;

/**
 * Opens a diffusers pipeline: the URL of its `model_index.json` (components resolved next to
 * it, each file name tried in turn), picked files (a folder pick), or a path in Node (the folder
 * or its model_index.json). Rejects with "InvalidIndex" only when model_index.json cannot be used.
 */
export function openSafetensorsPipeline(
  source: string | URL | PickedFiles,
  options?: PipelineOptions,
): Promise<SafetensorsPipeline>;

/** Whether a source is a diffusers pipeline (a model_index.json URL or path, or a folder or picked files holding one). */
export function isPipelineSource(source: unknown): Promise<boolean>;

/**
 * What changed between two checkpoints: each side a SafetensorsFile or ShardedModel, or any source
 * openSafetensors or openSafetensorsIndex takes (an index URL or path, picked files or a folder is
 * a sharded model). Tensors are matched by name, so one model in another sharding compares equal.
 */
export function diffSafetensors(a: unknown, b: unknown, options?: DiffOptions): Promise<DiffResult>;

/**
 * Whether an adapter (LoRA, LoCon, LoHa, LoKr, DoRA; kohya, PEFT, diffusers or MLX names) fits a
 * base model, from the two headers alone (no tensor data is read): every adapted module is looked
 * up in the base across naming conventions (kohya and diffusers names against LDM single-file and
 * diffusers layouts, PEFT and MLX against transformers checkpoints) and its shapes checked. Each
 * side is a file, an opened SafetensorsFile or ShardedModel, or what openSafetensors or
 * openSafetensorsIndex takes. A first file that is not an adapter gets a verdict saying so; a
 * header that cannot be read rejects with a SafetensorsError.
 */
export function checkAdapter(
  adapter: unknown,
  base: unknown,
  options?: CheckAdapterOptions,
): Promise<CheckAdapterResult>;

/**
 * Asks Civitai which model version a hash belongs to (GET {baseUrl}/api/v1/model-versions/by-hash/{hash});
 * hash: AutoV1, AutoV2, AutoV3 or SHA-256 (hex, "0x" allowed). null when Civitai knows no such file (404);
 * SafetensorsError HttpError (other statuses), ReadError (network) or UnexpectedResponse (not a model version).
 */
export function lookupCivitai(
  hash: string,
  options?: import('./card/types.js').CivitaiLookupOptions,
): Promise<import('./card/types.js').CivitaiModelVersion | null>;

export * from './bom/types.js';
/**
 * A CycloneDX 1.6 bill of materials (JSON object) of a model: a machine-learning-model component with a
 * modelCard from the model card, one file component per file with its SHA-256, and a signature check's
 * result when given. Every file is read once.
 */
export function createModelBom(
  model: import('./bom/types.js').BomModelSource,
  options?: import('./bom/types.js').ModelBomOptions,
): Promise<import('./bom/types.js').CycloneDxBom>;

/**
 * Verifies an OpenSSF model signature (model_signing v1.x: a Sigstore bundle over the model's
 * files) with a public key, a certificate chain or Sigstore keyless, then every file. Never
 * throws for a bad signature or model (see `error`); TypeError for bad options, the signal's
 * reason on abort.
 */
export function verifyModelSignature(
  model: ModelSource,
  options: VerifySignatureOptions,
): Promise<SignatureVerification>;

/**
 * Scans a PyTorch checkpoint (.pt, .pth, .ckpt, pytorch_model.bin), a plain pickle or a NumPy
 * .npy/.npz without running it: every global its pickles name, each marked safe, unknown or
 * unsafe, the findings, and a verdict. Reads only the pickles and the zip directory (by Range
 * for a URL), never the tensors; loads its own wasm module on first use. Rejects with a
 * SafetensorsError (`ReadError`, `HttpError`, ...) only when the source cannot be read; a file
 * that is not a pickle gets the format `not-pickle` and the verdict `unknown`.
 * @example
 * const scan = await scanPickle(file);
 * if (scan.verdict !== 'safe') console.log(scan.globals.filter((g) => g.safety !== 'safe'));
 */
export function scanPickle(source: SafetensorsSource | ByteReader): Promise<PickleScan>;

/**
 * Opens a PyTorch checkpoint (the torch zip or the legacy format) without running it: the scan
 * of scanPickle, the tensors its pickle describes (names joined with dots; a `state_dict` entry
 * unwrapped, as HF's convert script, ComfyUI and kohya do), and getTensor, which reads a
 * tensor's storage bytes by range (views at storage offsets, strided and transposed views
 * gathered) and returns what getTensor of a .safetensors file returns for that dtype. Loads its
 * code and the pickle wasm module on first use. Rejects like scanPickle when the source cannot
 * be read.
 * @example
 * const ckpt = await openCheckpoint(file);
 * const first = await ckpt.getTensor(ckpt.tensors[0].name);
 */
export function openCheckpoint(source: SafetensorsSource | ByteReader): Promise<Checkpoint>;
