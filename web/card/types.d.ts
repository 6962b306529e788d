// Types of the model card. Re-exported by web/index.d.ts.
import type { SafetensorsFile } from '../file/types.js';

/** A model family, and the keys, shapes or metadata that decided it. */
export interface ModelFamily {
  /** sd1, sd2, sdxl, sdxl-refiner, ssd-1b, segmind-vega, sd3, flux1, flux2, chroma, auraflow,
   * pixart, stable-cascade, hunyuan-video, ltxv, wan, lumina2, qwen-image, hidream, llama, qwen2,
   * qwen3, gemma, mixtral, qwen2-moe, deepseek, phi3, gpt2, gpt-neo, gpt-neox, gpt-j, falcon,
   * gpt-bigcode, bloom, bert, distilbert, t5, vit, whisper, opt, mamba, clip (a CLIP text encoder;
   * variant vit-l or vit-bigg where its width tells) */
  id: string;
  name: string;
  /** e.g. "dev"/"schnell" for flux1, "i2v" for wan, "moe" for qwen3 (models only, not adapters). */
  variant?: string;
  evidence: string[];
}

/** The KV cache of a decoder language model: 2 (keys and values) x layers x kvHeads x headDim x
 * the bytes of `dtype`, per token and per 1,000 tokens of context (full attention; no
 * quantized cache). */
export interface KvCacheEstimate {
  bytesPer1000Tokens: number;
  bytesPerToken: number;
  /** num_hidden_layers (n_layer) */
  layers: number;
  /** num_key_value_heads (num_kv_heads; 1 with multi_query), else num_attention_heads */
  kvHeads: number;
  /** head_dim, else hidden_size / num_attention_heads */
  headDim: number;
  dtype: string;
  /** 'config': torch_dtype (or dtype) of config.json; 'weights': the dtype most weight bytes are in */
  dtypeFrom: 'config' | 'weights';
  /** 'config.json', or 'config.json text_config' (a multimodal model's language model) */
  source: string;
}

export type AdapterType = 'lora' | 'locon' | 'loha' | 'lokr' | 'dora' | 'glora' | 'oft' | 'diff' | 'unknown';

export interface AdapterInfo {
  type: AdapterType;
  /** How tensors are named: "kohya", "peft", "diffusers", "mlx", "lora_diffusion" or "lora-vit". */
  format: string;
  /** ss_network_dim or the LoraConfig's r; else the most common rank in the shapes. */
  rank: number | null;
  /** ss_network_alpha or the LoraConfig's lora_alpha; else null (see alphaTensor). */
  alpha: number | null;
  /** kohya/lora_diffusion: the model parts (unet, text_encoder, text_encoder_2, transformer);
   * PEFT, diffusers, MLX: the adapted modules as a LoRA config's target modules name them
   * (q_proj, c_attn, to_out.0, ...); PEFT's modules_to_save copies are not targets. */
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
  /** The weights' size: as stored (data bytes, in all and by dtype), and the parameters at 16, 8
   * and 4 bits each (2, 1 and 0.5 bytes; a packed quantized layout's unpacked estimate, null
   * when the header does not determine it). Weights alone: no quantization scales, activations
   * or runtime. */
  memory: {
    bytes: number;
    byDtype: Record<string, number>;
    at16Bit: number | null;
    at8Bit: number | null;
    at4Bit: number | null;
    /** Models opened with openSafetensorsIndex (a folder, an index, picked files): the KV cache
     * of a decoder language model, from the config.json beside the weights; absent when there is
     * none, when it is not a decoder's, or when it lacks a size. */
    kvCache?: KvCacheEstimate;
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
  /** Textual inversions (kind `embedding`): how many vectors (tokens' worth) it adds, the
   * first size of each vector tensor summed, and their width (the first tensor's last size;
   * SDXL's clip_g). An A1111 `.pt` opened with openCheckpoint adds the `name` and `step` it holds
   * (null where absent). null for other kinds. */
  embedding: { vectors: number; width: number; name?: string | null; step?: number | null } | null;
  /** Every ss_* value but the JSON-valued ones, keys without "ss_"; "True"/"False"/"None"
   * and numbers converted. null when there are no ss_* keys. */
  training: Record<string, string | number | boolean | null> | null;
  /** PNG, JPEG, WebP or GIF only, checked by magic number; at most 8, 4 MiB each, 8 MiB in all. */
  images: { mime: string; source: string; bytes: number; dataUrl: string }[];
  /** Hashes written into the metadata, lowercase hex without "0x". */
  embeddedHashes: { key: string; value: string; covers: 'file' | 'data' | 'autov1' | 'base-model' }[];
  /** Which Civitai model the metadata names (AIR strings, civitai.com URLs, a claimed data hash); null when none. */
  civitai: CivitaiRef | null;
  /** The tensors as a tree of modules, built on the first read of this property (then a plain value). */
  modules: ModuleNode;
}

/** What a file's metadata says about its Civitai model, without hashing or network. */
export interface CivitaiRef {
  /** The first AIR (urn:air:...) whose source is civitai, as written. */
  air: string | null;
  /** From the AIR or a civitai.com URL. */
  modelId: number | null;
  versionId: number | null;
  /** https://civitai.com/models/{modelId}[?modelVersionId={versionId}] when the model is known. */
  pageUrl: string | null;
  /** https://civitai.com/api/v1/model-versions/by-hash/{AutoV3}, from sshs_model_hash or modelspec.hash_sha256 (not checked). */
  byHashUrl: string | null;
}

export interface CivitaiLookupOptions {
  /** Default https://civitai.com. */
  baseUrl?: string;
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Sent with the request (e.g. Authorization: Bearer <Civitai token>). */
  headers?: HeadersInit;
  signal?: AbortSignal;
}

/** A model version as Civitai's by-hash lookup answers it (strings null where Civitai gave none). */
export interface CivitaiModelVersion {
  modelId: number;
  modelName: string | null;
  versionId: number;
  versionName: string | null;
  baseModel: string | null;
  trainedWords: string[];
  air: string | null;
  downloadUrl: string | null;
  /** {baseUrl}/models/{modelId}?modelVersionId={versionId} */
  pageUrl: string;
}
