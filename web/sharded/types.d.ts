// Types of sharded models and diffusers pipelines. Re-exported by web/index.d.ts.
import type { ModelCard } from '../card/types.js';
import type { Finding } from '../core/types.js';
import type { SafetensorsFile, ValidationReport } from '../file/types.js';
import type { SafetensorsSource } from '../source/types.js';
import type { TensorInfo, TensorReader } from '../tensors/types.js';
import type { GpuUploader } from '../gpu/types.js';

export interface IndexOptions {
  signal?: AbortSignal;
  /** For http(s) URLs (the index and its shards): the fetch to use. */
  fetch?: typeof fetch;
  /** For http(s) URLs: headers sent with every request, e.g. `{ Authorization: 'Bearer <token>' }`. */
  headers?: HeadersInit;
  /** For http(s) shards: bytes asked for by each shard's first request (default: its header's likely size from the index, at most 262,144). */
  firstRead?: number;
  /** Shards opened at once (default 256: every shard's header in one round trip; docs/remote-and-sharded.md says why for each transport). */
  concurrency?: number;
  /** Header bytes read at once, at most (default 67,108,864: 64 MiB); a header longer than that is read when nothing else is. */
  maxBytesInFlight?: number;
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
  | {
      index: object | string | Blob | Uint8Array;
      resolve(shardName: string): SafetensorsSource | Promise<SafetensorsSource>;
      /** The model's config.json, for the KV cache: as OpenOptions.config takes it. */
      config?: Blob | Uint8Array | string | URL | null;
    };

export interface ShardTensorInfo extends TensorInfo {
  /** The shard file that holds it (as the index names it). */
  shard: string;
}

export interface ShardInfo {
  name: string;
  /** The shard's own verdict (for a shard that could not be read: one finding saying why). */
  report: ValidationReport;
  /** Its tensors in data order, as the shard's own file lists them (empty when it was not read). */
  tensors: TensorInfo[];
}

/** getTensor reads from the shard that holds the tensor (same options and errors as SafetensorsFile's, plus the unusable shard's code). */
export interface ShardedModel extends TensorReader, GpuUploader {
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

export interface PipelineOptions extends Omit<IndexOptions, 'onProgress'> {
  /** A checkpoint variant, e.g. "fp16": opens diffusion_pytorch_model.fp16.safetensors (and the like) instead; a component without a file of the variant is opened from its plain weights, as diffusers does. */
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
