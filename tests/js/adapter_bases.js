// Base-model headers for checkAdapter's tests, written from each model's published
// architecture (the keys and shapes its checkpoints hold; data left out: a header-only file is
// a file cut short whose header is whole, which is all checkAdapter reads).
// - SD 1.5 single file (LDM): runwayml/stable-diffusion-v1-5 v1-5-pruned-emaonly.safetensors, whose
//   UNet is unet/config.json (block_out_channels 320/640/1280/1280, layers_per_block 2,
//   cross_attention_dim 768, conv proj_in) and text encoder CLIP ViT-L/14 (12 layers of 768);
//   LDM names and block numbering as in CompVis/stable-diffusion configs/stable-diffusion/v1-inference.yaml.
// - SD 2.1: stabilityai/stable-diffusion-2-1 unet/config.json (context 1024, linear proj_in).
// - SDXL base 1.0 (LDM): stabilityai/stable-diffusion-xl-base-1.0 sd_xl_base_1.0.safetensors; UNet
//   unet/config.json (320/640/1280, transformer_layers_per_block 1/2/10 from level 1, context 2048,
//   addition_embed 2816), conditioner.embedders.0 CLIP-L and .1 OpenCLIP ViT-bigG (32 layers of 1280,
//   fused attn.in_proj_weight [3840, 1280]).
// - FLUX.1-dev in BFL's and diffusers' layouts: flux_bases.js.
// - LLMs from each model's config.json: google/gemma-2b (18 layers, 2048 wide, 8 heads of 256,
//   1 KV head, mlp 16384), distilbert/distilgpt2 (GPT-2: Conv1D weights stored [in, out], 6 layers
//   of 768, keys without `transformer.`), google-t5/t5-small (6+6 blocks of 512, 8 heads of 64),
//   google-bert/bert-base-uncased (12 layers of 768, keys under `bert.`), distilbert-base-uncased
//   (6 layers of 768 under `distilbert.transformer.`), bigscience/bloom-560m (24 layers of 1024,
//   fused query_key_value [3072, 1024], keys `h.N` without `transformer.`), google/gemma-3-270m
//   (18 layers, hidden 640, 4 heads and 1 KV head of 256).

import { fluxBfl, fluxDiffusers } from './flux_bases.js';

const range = (/** @type {number} */ n) => Array.from({ length: n }, (_, i) => i);

/**
 * A Stable Diffusion UNet in LDM names (no prefix).
 * @param {{ channels: number[], depth: number[], context: number, convProj: boolean, addEmbed?: number }} c
 *   depth: transformer blocks per attention at each level (0: none)
 */
export function ldmUnet({ channels, depth, context, convProj, addEmbed }) {
  /** @type {[string, number[]][]} */
  const out = [];
  const t = (/** @type {string} */ name, /** @type {number[]} */ shape) => out.push([`${name}.weight`, shape]);
  const emb = channels[0] * 4;
  t('time_embed.0', [emb, channels[0]]);
  t('time_embed.2', [emb, emb]);
  if (addEmbed) (t('label_emb.0.0', [emb, addEmbed]), t('label_emb.0.2', [emb, emb]));
  t('input_blocks.0.0', [channels[0], 4, 3, 3]);
  const resnet = (/** @type {string} */ p, /** @type {number} */ cin, /** @type {number} */ ch) => {
    t(`${p}.in_layers.0`, [cin]);
    t(`${p}.in_layers.2`, [ch, cin, 3, 3]);
    t(`${p}.emb_layers.1`, [ch, emb]);
    t(`${p}.out_layers.0`, [ch]);
    t(`${p}.out_layers.3`, [ch, ch, 3, 3]);
    if (cin !== ch) t(`${p}.skip_connection`, [ch, cin, 1, 1]);
  };
  const attention = (/** @type {string} */ p, /** @type {number} */ ch, /** @type {number} */ blocks) => {
    t(`${p}.norm`, [ch]);
    t(`${p}.proj_in`, convProj ? [ch, ch, 1, 1] : [ch, ch]);
    for (const b of range(blocks)) {
      const q = `${p}.transformer_blocks.${b}`;
      for (const a of ['attn1', 'attn2']) {
        t(`${q}.${a}.to_q`, [ch, ch]);
        for (const kv of ['to_k', 'to_v']) t(`${q}.${a}.${kv}`, [ch, a === 'attn1' ? ch : context]);
        t(`${q}.${a}.to_out.0`, [ch, ch]);
      }
      t(`${q}.ff.net.0.proj`, [ch * 8, ch]);
      t(`${q}.ff.net.2`, [ch, ch * 4]);
      for (const n of [1, 2, 3]) t(`${q}.norm${n}`, [ch]);
    }
    t(`${p}.proj_out`, convProj ? [ch, ch, 1, 1] : [ch, ch]);
  };
  const skips = [channels[0]];
  let ch = channels[0];
  channels.forEach((width, level) => {
    for (const i of [0, 1]) {
      const n = 1 + level * 3 + i;
      resnet(`input_blocks.${n}.0`, ch, width);
      ch = width;
      if (depth[level]) attention(`input_blocks.${n}.1`, ch, depth[level]);
      skips.push(ch);
    }
    if (level < channels.length - 1) (t(`input_blocks.${3 + level * 3}.0.op`, [ch, ch, 3, 3]), skips.push(ch));
  });
  const last = channels.length - 1;
  resnet('middle_block.0', ch, ch);
  attention('middle_block.1', ch, depth[last] || depth[last - 1]);
  resnet('middle_block.2', ch, ch);
  [...channels].reverse().forEach((width, up) => {
    const level = last - up;
    for (const i of [0, 1, 2]) {
      const n = up * 3 + i;
      resnet(`output_blocks.${n}.0`, ch + /** @type {number} */ (skips.pop()), width);
      ch = width;
      if (depth[level]) attention(`output_blocks.${n}.1`, ch, depth[level]);
      if (i === 2 && level > 0) t(`output_blocks.${n}.${depth[level] ? 2 : 1}.conv`, [ch, ch, 3, 3]);
    }
  });
  t('out.0', [channels[0]]);
  t('out.2', [4, channels[0], 3, 3]);
  return out;
}

/** CLIP ViT-L/14's text encoder as transformers names it (no prefix). */
export function clipL(width = 768, layers = 12) {
  /** @type {[string, number[]][]} */
  const out = [
    ['text_model.embeddings.token_embedding.weight', [49408, width]],
    ['text_model.embeddings.position_embedding.weight', [77, width]],
  ];
  for (const l of range(layers)) {
    const p = `text_model.encoder.layers.${l}`;
    for (const proj of ['q_proj', 'k_proj', 'v_proj', 'out_proj'])
      out.push([`${p}.self_attn.${proj}.weight`, [width, width]]);
    out.push([`${p}.mlp.fc1.weight`, [width * 4, width]], [`${p}.mlp.fc2.weight`, [width, width * 4]]);
    out.push([`${p}.layer_norm1.weight`, [width]], [`${p}.layer_norm2.weight`, [width]]);
  }
  out.push(['text_model.final_layer_norm.weight', [width]]);
  return out;
}

/** An OpenCLIP text encoder as open_clip names it (no prefix): fused attn.in_proj_weight. */
export function openClip(width, layers) {
  /** @type {[string, number[]][]} */
  const out = [['token_embedding.weight', [49408, width]]];
  for (const l of range(layers)) {
    const p = `transformer.resblocks.${l}`;
    out.push([`${p}.attn.in_proj_weight`, [width * 3, width]], [`${p}.attn.out_proj.weight`, [width, width]]);
    out.push([`${p}.mlp.c_fc.weight`, [width * 4, width]], [`${p}.mlp.c_proj.weight`, [width, width * 4]]);
    out.push([`${p}.ln_1.weight`, [width]], [`${p}.ln_2.weight`, [width]]);
  }
  return out;
}

const prefixed = (/** @type {string} */ prefix, /** @type {[string, number[]][]} */ list) =>
  list.map(([n, s]) => /** @type {[string, number[]]} */ ([prefix + n, s]));

const SD1_UNET = { channels: [320, 640, 1280, 1280], depth: [1, 1, 1, 0], context: 768, convProj: true };
const SDXL_UNET = { channels: [320, 640, 1280], depth: [0, 2, 10], context: 2048, convProj: false, addEmbed: 2816 };

export const bases = {
  sd15Ldm: () => [
    ...prefixed('model.diffusion_model.', ldmUnet(SD1_UNET)),
    ...prefixed('cond_stage_model.transformer.', clipL()),
  ],
  sd21Ldm: () => [
    ...prefixed('model.diffusion_model.', ldmUnet({ ...SD1_UNET, context: 1024, convProj: false })),
    ...prefixed('cond_stage_model.model.', openClip(1024, 23)),
  ],
  sdxlLdm: () => [
    ...prefixed('model.diffusion_model.', ldmUnet(SDXL_UNET)),
    ...prefixed('conditioner.embedders.0.transformer.', clipL()),
    ...prefixed('conditioner.embedders.1.model.', openClip(1280, 32)),
  ],
  fluxBfl,
  fluxDiffusers,
  gemma2b: () =>
    range(18).flatMap((l) => {
      const p = `model.layers.${l}`;
      return /** @type {[string, number[]][]} */ ([
        [`${p}.self_attn.q_proj.weight`, [2048, 2048]],
        [`${p}.self_attn.k_proj.weight`, [256, 2048]],
        [`${p}.self_attn.v_proj.weight`, [256, 2048]],
        [`${p}.self_attn.o_proj.weight`, [2048, 2048]],
        [`${p}.mlp.gate_proj.weight`, [16384, 2048]],
      ]);
    }),
  distilgpt2: () =>
    range(6).flatMap(
      (l) =>
        /** @type {[string, number[]][]} */ ([
          [`h.${l}.attn.c_attn.weight`, [768, 2304]],
          [`h.${l}.attn.c_proj.weight`, [768, 768]],
          [`h.${l}.mlp.c_fc.weight`, [768, 3072]],
        ]),
    ),
  bertBase: () =>
    range(12).flatMap((l) =>
      ['query', 'key', 'value'].map(
        (m) => /** @type {[string, number[]]} */ ([`bert.encoder.layer.${l}.attention.self.${m}.weight`, [768, 768]]),
      ),
    ),
  distilbert: () =>
    range(6).flatMap((l) =>
      ['q_lin', 'k_lin', 'v_lin', 'out_lin'].map(
        (m) =>
          /** @type {[string, number[]]} */ ([`distilbert.transformer.layer.${l}.attention.${m}.weight`, [768, 768]]),
      ),
    ),
  bloom560m: () =>
    range(24).flatMap(
      (l) =>
        /** @type {[string, number[]][]} */ ([
          [`h.${l}.self_attention.query_key_value.weight`, [3072, 1024]],
          [`h.${l}.self_attention.dense.weight`, [1024, 1024]],
        ]),
    ),
  gemma3_270m: () =>
    range(18).flatMap((l) => {
      const p = `model.layers.${l}.self_attn`;
      return /** @type {[string, number[]][]} */ ([
        [`${p}.q_proj.weight`, [1024, 640]],
        [`${p}.k_proj.weight`, [256, 640]],
        [`${p}.v_proj.weight`, [256, 640]],
        [`${p}.o_proj.weight`, [640, 1024]],
      ]);
    }),
  t5small: () =>
    ['encoder', 'decoder'].flatMap((part) =>
      range(6).flatMap((l) => {
        const attentions =
          part === 'decoder' ? ['layer.0.SelfAttention', 'layer.1.EncDecAttention'] : ['layer.0.SelfAttention'];
        return attentions.flatMap((a) =>
          ['q', 'k', 'v', 'o'].map(
            (m) => /** @type {[string, number[]]} */ ([`${part}.block.${l}.${a}.${m}.weight`, [512, 512]]),
          ),
        );
      }),
    ),
};
