// The KV cache a decoder language model needs per 1,000 tokens of context, from the config.json
// beside its weights: 2 (keys and values) x layers x key/value heads x head size x bytes per
// element x 1,000. Field names as transformers' configs write them (PretrainedConfig and the
// attribute_map of GPT-2-style configs: n_layer, n_head, n_embd); GPTBigCode and Falcon-7B
// set multi_query (one key/value head). Multimodal configs keep the language model's sizes in
// text_config. Anything missing or not a positive whole number gives no estimate: never a guess.

/** @typedef {import('../index.js').KvCacheEstimate} KvCacheEstimate */
/** @typedef {import('../index.js').ModelCard} ModelCard */

/** torch dtype names (config.json's torch_dtype, or dtype since transformers 4.56) -> safetensors dtypes. */
const TORCH_DTYPES = new Map([
  ['bfloat16', 'BF16'],
  ['float16', 'F16'],
  ['half', 'F16'],
  ['float32', 'F32'],
  ['float', 'F32'],
  ['float64', 'F64'],
  ['double', 'F64'],
]);

/** Architectures whose name says they generate text left to right (transformers' class names). */
const DECODER_CLASS = /(ForCausalLM|LMHeadModel|ForConditionalGeneration)$/;

const positive = (/** @type {unknown} */ v) => (Number.isSafeInteger(v) && /** @type {number} */ (v) > 0 ? v : null);

/**
 * The first field of `names` that `config` holds as a positive whole number, or null.
 * @param {Record<string, unknown>} config
 * @param {string[]} names
 */
function sizeField(config, names) {
  for (const name of names) if (name in config) return /** @type {number | null} */ (positive(config[name]));
  return null;
}

/**
 * The estimate for a parsed config.json, or null when it is not a decoder language model's or
 * lacks a size. `weightDtype`: the dtype most of the weights' bytes are in, used when the config
 * names none; `dtypeBits(name)`: a dtype's bits per element (the core's dtype table).
 * @param {unknown} parsed
 * @param {string | null} weightDtype
 * @param {(dtype: string) => number | null} dtypeBits
 * @returns {KvCacheEstimate | null}
 */
export function kvCacheEstimate(parsed, weightDtype, dtypeBits) {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const top = /** @type {Record<string, unknown>} */ (parsed);
  // diffusers' configs (a UNet's, a transformer's) carry _class_name (its ConfigMixin): no decoder's.
  if (top.is_encoder_decoder === true || typeof top._class_name === 'string') return null;
  const architectures = Array.isArray(top.architectures) ? top.architectures : [];
  if (architectures.length && !architectures.some((a) => typeof a === 'string' && DECODER_CLASS.test(a))) return null;
  const nested = top.text_config;
  const text =
    nested !== null && typeof nested === 'object' && !Array.isArray(nested)
      ? /** @type {Record<string, unknown>} */ (nested)
      : top;
  // Multi-head latent attention (DeepSeek-V2/V3) caches a compressed latent, not keys and values.
  if ('kv_lora_rank' in text) return null;
  const layers = sizeField(text, ['num_hidden_layers', 'n_layer', 'num_layers']);
  const heads = sizeField(text, ['num_attention_heads', 'n_head']);
  if (layers === null || heads === null) return null;
  // As transformers does, a key/value head count that is absent or null means one per head.
  const kvName = ['num_key_value_heads', 'num_kv_heads'].find((n) => text[n] !== undefined && text[n] !== null);
  const kvHeads =
    text.multi_query === true ? 1 : kvName ? /** @type {number | null} */ (positive(text[kvName])) : heads;
  const hidden = sizeField(text, ['hidden_size', 'n_embd', 'd_model']);
  const headDim =
    text.head_dim !== undefined && text.head_dim !== null
      ? sizeField(text, ['head_dim'])
      : hidden !== null && hidden % heads === 0
        ? hidden / heads
        : null;
  if (kvHeads === null || headDim === null) return null;
  const named = text.torch_dtype ?? text.dtype ?? top.torch_dtype ?? top.dtype;
  const configDtype = typeof named === 'string' ? (TORCH_DTYPES.get(named) ?? null) : null;
  const dtype = configDtype ?? weightDtype;
  const bits = dtype === null ? null : dtypeBits(dtype);
  if (dtype === null || bits === null || bits % 8 !== 0) return null;
  const bytesPerToken = 2 * layers * kvHeads * headDim * (bits / 8);
  return {
    bytesPer1000Tokens: bytesPerToken * 1000,
    bytesPerToken,
    layers,
    kvHeads,
    headDim,
    dtype,
    dtypeFrom: configDtype ? 'config' : 'weights',
    source: text === top ? 'config.json' : 'config.json text_config',
  };
}

/**
 * The float dtype most of the weights' bytes are in (a cache holds floats: a quantized model's
 * integer packs do not count), or null.
 * @param {Record<string, number>} bytesByDtype the card's memory.byDtype
 */
export function mainFloatDtype(bytesByDtype) {
  const floats = new Set(TORCH_DTYPES.values());
  let best = null;
  for (const [dtype, bytes] of Object.entries(bytesByDtype))
    if (floats.has(dtype) && (best === null || bytes > bytesByDtype[best])) best = dtype;
  return best;
}

/**
 * `card` with memory.kvCache, when the config.json `readConfig` gives (once read) allows an
 * estimate; `dtypes`: the core's dtype table.
 * @param {ModelCard} card a copy of the card, changed in place
 * @param {(signal?: AbortSignal) => Promise<unknown>} readConfig
 * @param {{ name: string, bits: number }[]} dtypes
 * @param {AbortSignal} [signal]
 */
export async function withKvCache(card, readConfig, dtypes, signal) {
  const parsed = await readConfig(signal);
  const bits = (/** @type {string} */ name) => dtypes.find((d) => d.name === name)?.bits ?? null;
  const kvCache = kvCacheEstimate(parsed, mainFloatDtype(card.memory.byDtype), bits);
  if (kvCache) card.memory.kvCache = kvCache;
  return card;
}
