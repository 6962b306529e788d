// The types of scanPickle (web/pickle/scan_pickle.js) and openCheckpoint (web/pickle/open_checkpoint.js).

import type { ModelCard, TensorArray } from '../index.js';

/** How safe a global is: `safe` when torch.load(weights_only=True) accepts it, `unsafe` when a
 *  public scanner (picklescan, modelscan) or torch's own blocklist lists it, `unknown` otherwise. */
export type GlobalSafety = 'safe' | 'unknown' | 'unsafe';

/** What the file is. */
export type PickleFormat = 'pytorch-zip' | 'pytorch-legacy' | 'pickle' | 'npy' | 'zip' | 'not-pickle';

/** One global (an importable name) the file's pickles name, counted over the file. */
export interface PickleGlobal {
  /** e.g. "torch._utils" */
  module: string;
  /** e.g. "_rebuild_tensor_v2" */
  name: string;
  safety: GlobalSafety;
  /** occurrences in all the file's pickles */
  count: number;
}

/** Something the scan found: a limit hit, an unreadable record, an evasion. */
export interface PickleFinding {
  /** stable, e.g. "data-after-stop" */
  code: string;
  /** plain words */
  message: string;
  /** the pickle or record ("" for the file) */
  where: string;
}

/** scanPickle's result. */
export interface PickleScan {
  /** The file's name when the source has one (File, path, URL), else "". */
  file: string;
  format: PickleFormat;
  /** `unsafe` when any global is unsafe; else `unknown` when any is unknown or anything was
   *  found; else `safe`. */
  verdict: GlobalSafety;
  globals: PickleGlobal[];
  findings: PickleFinding[];
}

/** One tensor of a checkpoint, as its pickle describes it (sizes in elements). */
export interface CheckpointTensor {
  /** dotted path from the root (after `state_dict` is unwrapped), e.g. "model.fc.weight" */
  name: string;
  /** the safetensors dtype, e.g. "F32"; null when safetensors has none (complex128, complex32) */
  dtype: string | null;
  /** torch's name, e.g. "float32" */
  torchDtype: string;
  shape: number[];
  /** in elements; a view's strides need not be row-major */
  stride: number[];
  /** the storage's key (zip record archive/data/<key>); tensors sharing one are tied */
  storage: string;
  /** where the view starts in its storage, in elements */
  storageOffset: number;
}

/** A plain value of a checkpoint (an int beyond 2^53 loses precision; NaN and infinities are null). */
export interface CheckpointObject {
  name: string;
  value: string | number | boolean | null;
}

/** openCheckpoint's result: the scan, the tensors, and getTensor. */
export interface Checkpoint extends PickleScan {
  tensors: CheckpointTensor[];
  /**
   * The plain values the pickle holds besides tensors (None, bool, int, float, str), under their
   * dotted names from the root, e.g. `{ name: "epoch", value: 3 }`; not unwrapped. At most 4,096.
   */
  objects: CheckpointObject[];
  /** Plain values past the first 4,096, not listed. */
  objectsLeftOut: number;
  /**
   * Tensors the reader did not read, so not in `tensors` (after `state_dict` is unwrapped):
   * `code` "other-tensor" for a quantized, sparse or other tensor that is not a strided view of
   * one storage, "unknown-storage", "bad-tensor-arguments", "too-deep" or "walk-limit".
   * toSafetensors refuses a checkpoint with any.
   */
  unreadTensors: { name: string; code: string; message: string }[];
  /**
   * A tensor's values in row-major order, as getTensor of a .safetensors file gives them for
   * its dtype. Rejects with "TensorNotFound", "UnsupportedConversion" (a dtype safetensors has
   * no name for), "InvalidTensor" (its storage absent or too short for the view),
   * "CorruptStorage" (a deflated storage that does not inflate to the zip directory's size and
   * CRC-32) or "ReadError". A deflated storage is inflated as a stream, keeping only the view's bytes.
   */
  getTensor(name: string): Promise<TensorArray>;
  /**
   * The model card of the checkpoint's tensors (names, dtypes, shapes), as describe() of a
   * .safetensors file builds it, with what the plain objects tell: a trainer's `epoch`,
   * `global_step`, `step` and `hyper_parameters.*` in `training`; for an A1111 textual inversion
   * (kind `embedding`), `embedding` (vectors, width, name, step), its `name` as title and
   * trigger word and its `sd_checkpoint_name`/`sd_checkpoint` as `baseModel`. Tensors of a dtype
   * safetensors lacks are left out. Built on the first call; reads no tensor data.
   */
  describe(): Promise<ModelCard>;
  /**
   * The tensors as a .safetensors file, byte for byte what
   * `safetensors.torch.save_file(state_dict, metadata={"format": "pt"})` writes (metadata
   * defaults to that). Contiguous tensors are slices of a Blob or bytes source; views are
   * written as contiguous copies; tied tensors (one storage, two names) are both written whole.
   * Rejects with "UnsafeCheckpoint" (naming the globals) when the file names any global that is
   * not `safe`, unless `allowUnsafeGlobals`; then the tensors alone are written and the metadata
   * key `safetensors_wasm.left_behind_globals` lists those globals. Rejects like getTensor for a
   * tensor it cannot read or a dtype safetensors lacks, and with "UnsupportedConversion" when
   * `unreadTensors` is not empty (quantized, sparse, …: the output would lack them). With `path` (Node), writes the file
   * there instead (whole or not at all), streaming: memory stays bounded whatever the size.
   */
  toSafetensors(options: CheckpointConvertOptions & { path: string }): Promise<undefined>;
  toSafetensors(options?: CheckpointConvertOptions): Promise<Blob>;
}

/** Checkpoint.toSafetensors's options. */
export interface CheckpointConvertOptions {
  /** The output's metadata; default `{ format: "pt" }`, as HF's convert script writes. */
  metadata?: Record<string, string> | null;
  /** Convert a file that names unsafe or unknown globals (its tensors only; nothing is run). */
  allowUnsafeGlobals?: boolean;
  /** Node: write the file to this path (whole or not at all) rather than return a Blob. */
  path?: string;
}
