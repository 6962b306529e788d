// FLUX.1-dev base-model headers for checkAdapter's tests (see adapter_bases.js), written from the
// model's published architecture.
// - FLUX.1-dev (BFL): black-forest-labs/FLUX.1-dev flux1-dev.safetensors: 19 double blocks, 38 single
//   blocks, hidden 3072, mlp 12288; img_in from 64 latent channels, txt_in from T5's 4096, vector_in
//   from CLIP's pooled 768, time_in/guidance_in from 256 (huggingface/diffusers
//   src/diffusers/models/transformers/transformer_flux.py @ 58eb52c0803ea9af3abec60841c2a093bdf1f951,
//   FluxTransformer2DModel's defaults). The same model in diffusers' layout (its transformer/ folder),
//   each BFL weight cut or renamed as scripts/convert_flux_to_diffusers.py at that commit does.

/** FLUX.1-dev's linear weights as BFL's flux1-dev.safetensors names them (no biases or norms). */
export function fluxBfl() {
  /** @type {[string, number[]][]} */
  const out = [
    ['img_in.weight', [3072, 64]],
    ['txt_in.weight', [3072, 4096]],
    ['time_in.in_layer.weight', [3072, 256]],
    ['time_in.out_layer.weight', [3072, 3072]],
    ['vector_in.in_layer.weight', [3072, 768]],
    ['vector_in.out_layer.weight', [3072, 3072]],
    ['guidance_in.in_layer.weight', [3072, 256]],
    ['guidance_in.out_layer.weight', [3072, 3072]],
    ['final_layer.linear.weight', [64, 3072]],
    ['final_layer.adaLN_modulation.1.weight', [6144, 3072]],
  ];
  for (let b = 0; b < 19; ++b)
    for (const s of ['img', 'txt']) {
      const p = `double_blocks.${b}.${s}`;
      out.push([`${p}_attn.qkv.weight`, [9216, 3072]], [`${p}_attn.proj.weight`, [3072, 3072]]);
      out.push([`${p}_mlp.0.weight`, [12288, 3072]], [`${p}_mlp.2.weight`, [3072, 12288]]);
      out.push([`${p}_mod.lin.weight`, [18432, 3072]]);
    }
  for (let b = 0; b < 38; ++b) {
    const p = `single_blocks.${b}`;
    out.push([`${p}.linear1.weight`, [21504, 3072]], [`${p}.linear2.weight`, [3072, 15360]]);
    out.push([`${p}.modulation.lin.weight`, [9216, 3072]]);
  }
  return out;
}

/** The same weights in diffusers' FluxTransformer2DModel (fused ones cut into their parts). */
export function fluxDiffusers() {
  /** @type {[string, number[]][]} */
  const out = [
    ['x_embedder.weight', [3072, 64]],
    ['context_embedder.weight', [3072, 4096]],
    ['proj_out.weight', [64, 3072]],
    ['norm_out.linear.weight', [6144, 3072]],
  ];
  for (const [e, i] of [
    ['timestep_embedder', 256],
    ['text_embedder', 768],
    ['guidance_embedder', 256],
  ])
    out.push(
      [`time_text_embed.${e}.linear_1.weight`, [3072, i]],
      [`time_text_embed.${e}.linear_2.weight`, [3072, 3072]],
    );
  for (let b = 0; b < 19; ++b) {
    const p = `transformer_blocks.${b}`;
    for (const m of ['to_q', 'to_k', 'to_v', 'add_q_proj', 'add_k_proj', 'add_v_proj', 'to_out.0', 'to_add_out'])
      out.push([`${p}.attn.${m}.weight`, [3072, 3072]]);
    for (const ff of ['ff', 'ff_context'])
      out.push([`${p}.${ff}.net.0.proj.weight`, [12288, 3072]], [`${p}.${ff}.net.2.weight`, [3072, 12288]]);
    out.push([`${p}.norm1.linear.weight`, [18432, 3072]], [`${p}.norm1_context.linear.weight`, [18432, 3072]]);
  }
  for (let b = 0; b < 38; ++b) {
    const p = `single_transformer_blocks.${b}`;
    for (const m of ['to_q', 'to_k', 'to_v']) out.push([`${p}.attn.${m}.weight`, [3072, 3072]]);
    out.push([`${p}.proj_mlp.weight`, [12288, 3072]], [`${p}.proj_out.weight`, [3072, 15360]]);
    out.push([`${p}.norm.linear.weight`, [9216, 3072]]);
  }
  return out;
}
