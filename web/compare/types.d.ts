// Types of comparing two checkpoints (diffSafetensors) and of checking an adapter against its base
// (checkAdapter). Re-exported by web/index.d.ts.
import type { Dtype } from '../core/types.js';

export interface DiffOptions {
  /** Also compare the bytes of every tensor whose dtype and shape match (each is read on both sides). */
  data?: boolean;
  signal?: AbortSignal;
  /** With `data`: bytes compared so far (of the first side), of the total to compare. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** For sides given as http(s) URLs: the fetch to use. */
  fetch?: typeof fetch;
  /** For sides given as http(s) URLs: headers sent with every request. */
  headers?: HeadersInit;
}

/** A tensor only one side has. */
export interface DiffTensor {
  name: string;
  dtype: Dtype;
  shape: number[];
}

/** The bytes of a tensor whose dtype and shape match on both sides, when they differ. */
export interface DiffData {
  equal: false;
  /** Each side's SHA-256 of the tensor's bytes (lowercase hex), first side first. */
  sha256: [string, string];
  /** For float dtypes: the largest |a − b| over the elements (Infinity where only one side is NaN or the infinities differ); null for others. */
  maxAbsDiff: number | null;
  /** For float dtypes: how many elements differ (NaN against NaN counts as equal); null for others. */
  differentElements: number | null;
}

/** A tensor both sides have that differs: in dtype or shape (each as [first, second]), or in its bytes. */
export interface DiffChange {
  name: string;
  dtype?: [Dtype, Dtype];
  shape?: [number[], number[]];
  data?: DiffData;
}

export interface DiffResult {
  /** Nothing differs: no tensor added, removed or changed, and no metadata key (when compared). */
  identical: boolean;
  /** Whether tensor bytes were compared (`data`). */
  dataCompared: boolean;
  tensors: {
    /** Tensors only the second side has. */
    added: DiffTensor[];
    /** Tensors only the first side has. */
    removed: DiffTensor[];
    changed: DiffChange[];
    /** Tensors on both sides with the same dtype and shape (and bytes, when compared). */
    unchanged: number;
  };
  /**
   * Metadata keys added, removed, changed (values as the sides hold them: a file's are strings, an
   * index's may be numbers); null when one side is a file and the other a sharded
   * model (a file's __metadata__ and an index's metadata are different things).
   */
  metadata: { added: string[]; removed: string[]; changed: { key: string; a: unknown; b: unknown }[] } | null;
}

export interface CheckAdapterOptions {
  signal?: AbortSignal;
  /** For sides given as http(s) URLs: the fetch to use. */
  fetch?: typeof fetch;
  /** For sides given as http(s) URLs: headers sent with every request. */
  headers?: HeadersInit;
}

/** An adapted module that does not fit the base, or (key "") a reason about the file as a whole. */
export interface AdapterMismatch {
  /** The module as the adapter names it ("lora_unet_..._to_k", "base_model.model....q_proj"); "" for the whole file. */
  key: string;
  /** Why: not in the base (and which part of it was searched), a shape that does not fit, a convention not supported. */
  reason: string;
}

export interface CheckAdapterResult {
  /** Every adapted module was found in the base and its shapes fit. */
  compatible: boolean;
  /** Adapted modules found in the base with fitting shapes (one per module, not per tensor). */
  matched: number;
  /** Adapted modules in the adapter (0 when it is not an adapter). */
  modules: number;
  unmatched: AdapterMismatch[];
  /** The base's layout: ldm (a single-file Stable Diffusion checkpoint), diffusers, bfl (FLUX), transformers, unknown. */
  baseFormat: 'ldm' | 'diffusers' | 'bfl' | 'transformers' | 'unknown';
  /** kohya, peft, diffusers, mlx, lora_diffusion, ... as the model card says; null when the first file is not an adapter. */
  adapterFormat: string | null;
  /** lora, locon, loha, lokr, dora, ... as the model card says; null likewise. */
  adapterType: string | null;
  /** The model family each header is of, as the model card finds it (`card.family`'s id and name); null when not recognised. */
  adapterFamily: { id: string; name: string } | null;
  baseFamily: { id: string; name: string } | null;
}
