// How the layouts of wild_layouts.js are written: the naming schemes of PEFT, diffusers and
// mlx_lm, each building a real file's tensors (names, dtypes, shapes) in its data order.

/** @typedef {{ name: string, dtype: string, shape: number[] }} HeaderTensor */

export const range = (/** @type {number} */ n, from = 0) => Array.from({ length: n }, (_, i) => i + from);
export const byName = (/** @type {HeaderTensor[]} */ list) => list.sort((a, b) => (a.name < b.name ? -1 : 1));

/**
 * PEFT's save of a LoRA: `<prefix><layer>.<module>.lora_A.weight` [r, in] and lora_B [out, r],
 * plus `extra` tensors (modules_to_save), in name order as safetensors' torch writer stores them.
 * @param {string} prefix
 * @param {number} layers
 * @param {[string, number, number][]} modules [name, in, out]
 * @param {number} r
 * @param {HeaderTensor[]} [extra]
 */
export function peft(prefix, layers, modules, r, extra = [], dtype = 'F32') {
  const out = [...extra];
  for (const layer of range(layers))
    for (const [module, inDim, outDim] of modules) {
      out.push({ name: `${prefix}${layer}.${module}.lora_A.weight`, dtype, shape: [r, inDim] });
      out.push({ name: `${prefix}${layer}.${module}.lora_B.weight`, dtype, shape: [outDim, r] });
    }
  return byName(out);
}

/** The attention blocks of the Stable Diffusion 1.x/2.x UNet (diffusers names) and their widths. */
const UNET_ATTENTIONS = [
  ...[0, 1, 2].flatMap((b) => [0, 1].map((a) => [`down_blocks.${b}.attentions.${a}`, [320, 640, 1280][b]])),
  ['mid_block.attentions.0', 1280],
  ...[1, 2, 3].flatMap((b) => [0, 1, 2].map((a) => [`up_blocks.${b}.attentions.${a}`, [1280, 640, 320][b - 1]])),
];

/**
 * A diffusers UNet attention LoRA (train_text_to_image_lora.py): `name(block, attn, proj, part)`
 * gives each key; q, k, v and out of self- (attn1) and cross-attention (attn2), whose k and v
 * read the text context (`context` wide).
 * @param {(path: string, proj: string, part: 'down' | 'up') => string} name
 * @param {number} context
 * @param {string} dtype
 */
export function unetAttentionLora(name, context, dtype = 'F32') {
  /** @type {HeaderTensor[]} */
  const out = [];
  for (const [block, width] of UNET_ATTENTIONS)
    for (const attn of ['attn1', 'attn2'])
      for (const proj of ['to_q', 'to_k', 'to_v', 'to_out.0']) {
        const inDim = attn === 'attn2' && (proj === 'to_k' || proj === 'to_v') ? context : width;
        const path = `${block}.transformer_blocks.0.${attn}`;
        out.push({ name: name(path, proj, 'down'), dtype, shape: [4, /** @type {number} */ (inDim)] });
        out.push({ name: name(path, proj, 'up'), dtype, shape: [/** @type {number} */ (width), 4] });
      }
  return byName(out);
}

// diffusers >= 0.21 (unet.…to_k.lora.down.weight) and before (…processor.to_k_lora.down.weight).
export const newDiffusers = (/** @type {string} */ p, /** @type {string} */ proj, /** @type {string} */ part) =>
  `unet.${p}.${proj}.lora.${part}.weight`;
export const oldDiffusers = (/** @type {string} */ p, /** @type {string} */ proj, /** @type {string} */ part) =>
  `${p}.processor.${proj.replace('.0', '')}_lora.${part}.weight`;

/**
 * mlx_lm's LoRA: `model.layers.<n>.self_attn.<q|v>_proj.lora_a` [in, r] and lora_b [r, out], in
 * the order given (mlx saves a dict's order): "23v b" is layer 23's v_proj.lora_b.
 * @param {string} order
 * @param {Record<string, [number, number]>} sizes per module letter: [in, out]
 * @param {number} r
 */
export function mlx(order, sizes, r) {
  return order.split(',').map((item) => {
    const [, layer, m, part] = /** @type {RegExpExecArray} */ (/^(\d+)(\w) ([ab])$/.exec(item));
    const [inDim, outDim] = sizes[m];
    const name = `model.layers.${layer}.self_attn.${m}_proj.lora_${part}`;
    return { name, dtype: 'F32', shape: part === 'a' ? [inDim, r] : [r, outDim] };
  });
}

export const PT = { format: 'pt' };

// GPT-2's blocks under PEFT's prefix, and the attention and MLP projections PEFT users adapt.
export const GPT2_BLOCKS = 'base_model.model.transformer.h.';
/** @type {[string, number, number][]} */
export const GPT2_C_ATTN_C_PROJ = [
  ['attn.c_attn', 768, 2304],
  ['attn.c_proj', 768, 768],
  ['mlp.c_proj', 3072, 768],
];

// T5's self-attention (layer 0 of each block) and the decoder's cross-attention (layer 1).
export const DISTILBERT_BLOCKS = 'base_model.model.distilbert.transformer.layer.';
/** @type {[string, number, number][]} */
export const DISTILBERT_Q_V = [
  ['attention.q_lin', 768, 768],
  ['attention.v_lin', 768, 768],
];
/** @type {[string, number, number][]} */
export const T5_SELF_Q_V = [
  ['layer.0.SelfAttention.q', 512, 512],
  ['layer.0.SelfAttention.v', 512, 512],
];
/** @type {[string, number, number][]} */
export const T5_CROSS_Q_V = [
  ['layer.1.EncDecAttention.q', 512, 512],
  ['layer.1.EncDecAttention.v', 512, 512],
];

/** The facts of a train_text_to_image_lora.py output (rank 4 by default, the UNet's attention);
 * the old attention processors named to_out[0] `to_out_lora`: `to_out` is right for them too. */
export const unetLoraFacts = (/** @type {string} */ family, out = 'to_out.0') =>
  `kind \`adapter\`; family \`${family}\`; adapter_type \`lora\`; adapter_format \`diffusers\`; rank \`4\`; targets \`to_q,to_k,to_v,${out}\``;
