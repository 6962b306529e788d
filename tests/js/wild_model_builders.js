// How the whole-model layouts of wild_layouts_lfs.js are written: transformers' CLIP text
// encoder, diffusers' Stable Diffusion 1.x UNet, the SDXL UNet's attention LoRA of diffusers'
// train_text_to_image_lora_sdxl.py, and AutoGPTQ's packed linear layers. Each builds a real
// file's tensors (names, dtypes, shapes) from its config.json; the layouts then name the order
// the writer used (safetensors sorts by dtype then name; before 0.3 by name alone).
import { DTYPE_ORDER } from '../../tools/write_safetensors.js';
import { byName, range } from './wild_layout_builders.js';

/** @typedef {import('./wild_layout_builders.js').HeaderTensor} HeaderTensor */

/** The data order of safetensors >= 0.3: dtype (by the reference's order) descending, then name. */
export const writerOrder = (/** @type {HeaderTensor[]} */ list) =>
  list.sort((a, b) => DTYPE_ORDER.indexOf(b.dtype) - DTYPE_ORDER.indexOf(a.dtype) || (a.name < b.name ? -1 : 1));

/** A list and a helper that adds `name.weight` (shape) and `name.bias` ([shape[0]]). */
function tensorList(/** @type {string} */ dtype) {
  /** @type {HeaderTensor[]} */
  const list = [];
  const add = (/** @type {string} */ name, /** @type {number[]} */ shape, type = dtype) =>
    list.push({ name, dtype: type, shape });
  const linear = (/** @type {string} */ name, /** @type {number[]} */ shape) => {
    add(`${name}.weight`, shape);
    add(`${name}.bias`, [shape[0]]);
  };
  return { list, add, linear };
}

/**
 * transformers' CLIPTextModel (CLIPTextModelWithProjection when `projection`): config.json's
 * hidden_size, intermediate_size and num_hidden_layers; `positionIds`: the I64 position_ids
 * buffer that transformers before 4.31 saved.
 * @param {{ width: number, inner: number, layers: number, projection?: number, positionIds?: boolean }} config
 */
export function clipTextEncoder({ width, inner, layers, projection, positionIds }) {
  const { list, add, linear } = tensorList('F32');
  add('text_model.embeddings.position_embedding.weight', [77, width]);
  add('text_model.embeddings.token_embedding.weight', [49408, width]);
  if (positionIds) add('text_model.embeddings.position_ids', [1, 77], 'I64');
  for (const layer of range(layers)) {
    const p = `text_model.encoder.layers.${layer}.`;
    linear(`${p}layer_norm1`, [width]);
    linear(`${p}layer_norm2`, [width]);
    linear(`${p}mlp.fc1`, [inner, width]);
    linear(`${p}mlp.fc2`, [width, inner]);
    for (const proj of ['k_proj', 'v_proj', 'q_proj', 'out_proj']) linear(`${p}self_attn.${proj}`, [width, width]);
  }
  linear('text_model.final_layer_norm', [width]);
  if (projection) add('text_projection.weight', [projection, width]);
  return list;
}

/**
 * diffusers' UNet2DConditionModel of Stable Diffusion 1.x (unet/config.json: block_out_channels
 * 320, 640, 1280, 1280; layers_per_block 2; cross_attention_dim 768; conv proj_in/proj_out).
 */
export function sd1Unet() {
  const { list, add, linear } = tensorList('F32');
  const channels = [320, 640, 1280, 1280];
  const resnet = (/** @type {string} */ p, /** @type {number} */ cin, /** @type {number} */ c) => {
    linear(`${p}.norm1`, [cin]);
    linear(`${p}.conv1`, [c, cin, 3, 3]);
    linear(`${p}.time_emb_proj`, [c, 1280]);
    linear(`${p}.norm2`, [c]);
    linear(`${p}.conv2`, [c, c, 3, 3]);
    if (cin !== c) linear(`${p}.conv_shortcut`, [c, cin, 1, 1]);
  };
  const attention = (/** @type {string} */ p, /** @type {number} */ c) => {
    linear(`${p}.norm`, [c]);
    linear(`${p}.proj_in`, [c, c, 1, 1]);
    const block = `${p}.transformer_blocks.0`;
    for (const attn of ['attn1', 'attn2']) {
      const context = attn === 'attn2' ? 768 : c;
      add(`${block}.${attn}.to_q.weight`, [c, c]);
      add(`${block}.${attn}.to_k.weight`, [c, context]);
      add(`${block}.${attn}.to_v.weight`, [c, context]);
      linear(`${block}.${attn}.to_out.0`, [c, c]);
    }
    linear(`${block}.ff.net.0.proj`, [8 * c, c]);
    linear(`${block}.ff.net.2`, [c, 4 * c]);
    for (const norm of ['norm1', 'norm2', 'norm3']) linear(`${block}.${norm}`, [c]);
    linear(`${p}.proj_out`, [c, c, 1, 1]);
  };
  linear('conv_in', [320, 4, 3, 3]);
  linear('time_embedding.linear_1', [1280, 320]);
  linear('time_embedding.linear_2', [1280, 1280]);
  const skips = [320];
  let width = 320;
  channels.forEach((c, i) => {
    for (const j of [0, 1]) {
      resnet(`down_blocks.${i}.resnets.${j}`, width, c);
      width = c;
      if (i < 3) attention(`down_blocks.${i}.attentions.${j}`, c);
      skips.push(c);
    }
    if (i < 3) {
      linear(`down_blocks.${i}.downsamplers.0.conv`, [c, c, 3, 3]);
      skips.push(c);
    }
  });
  attention('mid_block.attentions.0', 1280);
  resnet('mid_block.resnets.0', 1280, 1280);
  resnet('mid_block.resnets.1', 1280, 1280);
  [...channels].reverse().forEach((c, i) => {
    for (const j of [0, 1, 2]) {
      resnet(`up_blocks.${i}.resnets.${j}`, (j === 0 ? width : c) + /** @type {number} */ (skips.pop()), c);
      if (i > 0) attention(`up_blocks.${i}.attentions.${j}`, c);
    }
    width = c;
    if (i < 3) linear(`up_blocks.${i}.upsamplers.0.conv`, [c, c, 3, 3]);
  });
  linear('conv_norm_out', [320]);
  linear('conv_out', [4, 320, 3, 3]);
  return list;
}

/** The SDXL UNet's attention blocks (diffusers names), their widths and transformer depths. */
const SDXL_ATTENTIONS = [
  ...[0, 1].map((a) => [`down_blocks.1.attentions.${a}`, 640, 2]),
  ...[0, 1].map((a) => [`down_blocks.2.attentions.${a}`, 1280, 10]),
  ['mid_block.attentions.0', 1280, 10],
  ...[0, 1, 2].map((a) => [`up_blocks.0.attentions.${a}`, 1280, 10]),
  ...[0, 1, 2].map((a) => [`up_blocks.1.attentions.${a}`, 640, 2]),
];

/** train_text_to_image_lora_sdxl.py's UNet LoRA (rank 4, q/k/v/out of both attentions), diffusers keys. */
export function sdxlUnetLora() {
  /** @type {HeaderTensor[]} */
  const list = [];
  for (const [block, width, depth] of SDXL_ATTENTIONS)
    for (const b of range(/** @type {number} */ (depth)))
      for (const attn of ['attn1', 'attn2'])
        for (const proj of ['to_q', 'to_k', 'to_v', 'to_out.0']) {
          const inDim = attn === 'attn2' && (proj === 'to_k' || proj === 'to_v') ? 2048 : width;
          const p = `unet.${block}.transformer_blocks.${b}.${attn}.${proj}.lora`;
          list.push({ name: `${p}.down.weight`, dtype: 'F32', shape: [4, /** @type {number} */ (inDim)] });
          list.push({ name: `${p}.up.weight`, dtype: 'F32', shape: [/** @type {number} */ (width), 4] });
        }
  return byName(list);
}

/**
 * One linear layer as AutoGPTQ (2023) saves it, 4-bit in groups of 128: qweight [in/8, out] and
 * g_idx [in] (I32), qzeros [in/128, out/8] (I32), scales [in/128, out] and bias [out] (F16).
 * @param {(name: string, shape: number[], type?: string) => void} add
 * @param {string} module
 * @param {number} inDim
 * @param {number} outDim
 */
function gptqLinear(add, module, inDim, outDim) {
  add(`${module}.qweight`, [inDim / 8, outDim], 'I32');
  add(`${module}.qzeros`, [inDim / 128, outDim / 8], 'I32');
  add(`${module}.scales`, [inDim / 128, outDim]);
  add(`${module}.g_idx`, [inDim], 'I32');
  add(`${module}.bias`, [outDim]);
}

/**
 * AutoGPTQ of a GPTBigCode model (config.json: n_embd, n_layer, n_positions, vocab_size;
 * multi_query: one key/value head of 128); embeddings, norms and lm_head stay F16.
 * @param {{ width: number, layers: number, positions: number, vocab: number }} config
 */
export function gptqBigCode({ width, layers, positions, vocab }) {
  const { list, add, linear } = tensorList('F16');
  add('lm_head.weight', [vocab, width]);
  add('transformer.wte.weight', [vocab, width]);
  add('transformer.wpe.weight', [positions, width]);
  linear('transformer.ln_f', [width]);
  for (const layer of range(layers)) {
    const p = `transformer.h.${layer}.`;
    linear(`${p}ln_1`, [width]);
    linear(`${p}ln_2`, [width]);
    gptqLinear(add, `${p}attn.c_attn`, width, width + 256);
    gptqLinear(add, `${p}attn.c_proj`, width, width);
    gptqLinear(add, `${p}mlp.c_fc`, width, 4 * width);
    gptqLinear(add, `${p}mlp.c_proj`, 4 * width, width);
  }
  return writerOrder(list);
}

/**
 * AutoGPTQ of a Llama model (config.json: hidden_size, intermediate_size, num_hidden_layers,
 * vocab_size; as many key/value heads as heads); embeddings, norms and lm_head stay F16.
 * @param {{ width: number, inner: number, layers: number, vocab: number }} config
 */
export function gptqLlama({ width, inner, layers, vocab }) {
  const { list, add } = tensorList('F16');
  add('lm_head.weight', [vocab, width]);
  add('model.embed_tokens.weight', [vocab, width]);
  add('model.norm.weight', [width]);
  for (const layer of range(layers)) {
    const p = `model.layers.${layer}.`;
    add(`${p}input_layernorm.weight`, [width]);
    add(`${p}post_attention_layernorm.weight`, [width]);
    for (const proj of ['q_proj', 'k_proj', 'v_proj', 'o_proj']) gptqLinear(add, `${p}self_attn.${proj}`, width, width);
    gptqLinear(add, `${p}mlp.gate_proj`, width, inner);
    gptqLinear(add, `${p}mlp.up_proj`, width, inner);
    gptqLinear(add, `${p}mlp.down_proj`, inner, width);
  }
  return writerOrder(list);
}
