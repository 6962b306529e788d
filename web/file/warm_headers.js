// The made-up headers preload() (./preload.js) runs the core and the card module on: the first
// bytes (length prefix and header; no data is ever read) of a kohya LyCORIS adapter and of a
// Llama-style checkpoint, each about the size of a real one, so that what a first card of
// such files runs has run, long enough for the hot functions to be optimized. No file's
// values: names and shapes follow the two layouts' conventions (kohya sd-scripts and LyCORIS
// module names; Hugging Face transformers' Llama parameter names).
import { headerBytes, metadataJson } from '../write/header_bytes.js';

/** Modules of each kind in each part of the adapter (16 tensors each: 1,760 in all). */
const ADAPTER_MODULES = 110;
/** Decoder layers of the checkpoint (9 tensors each). */
const CHECKPOINT_LAYERS = 32;

/**
 * A header's tensors in `dtypeName`, laid out one after another, and then the header's bytes as
 * the package's writer makes them (web/write/header_bytes.js).
 * @param {import('../core/wasm_module.js').Core} core
 * @param {string} dtypeName
 */
function layout(core, dtypeName) {
  const dtype = /** @type {import('../core/tables.js').DtypeRow} */ (
    core.tables.dtypes.find((d) => d.name === dtypeName)
  );
  /** @type {{ name: string, dtype: { name: string }, shape: number[], begin: number, end: number }[]} */
  const entries = [];
  let offset = 0;
  return {
    /** @param {string} name @param {number[]} shape */
    add(name, shape) {
      const end = offset + (shape.reduce((a, b) => a * b, 1) * dtype.unitBytes) / dtype.unitElements;
      entries.push({ name, dtype, shape, begin: offset, end });
      offset = end;
    },
    /** @param {Record<string, string>} metadata @returns {{ parts: Uint8Array[], size: number }} the prefix and header, and the file's size */
    start(metadata) {
      const header = headerBytes(core, metadataJson(metadata), entries);
      return { parts: [header], size: header.byteLength + offset };
    },
  };
}

/**
 * The first bytes of a kohya-style adapter (its length prefix and header; the data is never
 * read): text encoder and UNet modules as LoRA, LoKr and LoHa, with kohya's training metadata
 * (a tag frequency, dataset folders, network args), so that what a first card of such a file
 * runs (the analysis, the adapter scan, the metadata's JSON, the card and its tree) has run once.
 * `modules` modules of each kind in each part.
 * @param {import('../core/wasm_module.js').Core} core
 * @param {number} modules
 */
function adapterStart(core, modules) {
  const metadata = {
    format: 'pt',
    ss_network_module: 'lycoris.kohya',
    ss_network_dim: '4',
    ss_network_alpha: '1',
    ss_network_args: JSON.stringify({ conv_dim: '4', algo: 'lokr' }),
    ss_tag_frequency: JSON.stringify({ '10_warm': { warm: 3, 'a tag': 1, 'another tag': 2 } }),
    ss_dataset_dirs: JSON.stringify({ '10_warm': { n_repeats: 10, img_count: 3 } }),
    ss_sd_model_name: 'v1-5-pruned.safetensors',
    ss_output_name: 'warm',
    ss_training_started_at: '1700000000.5',
    sshs_model_hash: '0'.repeat(64),
  };
  const tensors = layout(core, 'F16');
  const add = tensors.add;
  for (let i = 0; i < modules; i++) {
    const parts = [
      `lora_te_text_model_encoder_layers_${i}_mlp_fc1`,
      `lora_unet_down_blocks_0_attentions_${i}_transformer_blocks_0_attn1_to_q`,
    ];
    for (const [kind, at] of [
      ['lora', `${parts[0]}_lora`],
      ['lokr', `${parts[1]}_lokr`],
      ['hada', `${parts[0]}_hada`],
      ['lora', parts[1]],
    ]) {
      add(`${at}.alpha`, []);
      if (kind === 'lora') {
        add(`${at}.lora_down.weight`, [4, 320]);
        add(`${at}.lora_up.weight`, [320, 4]);
      } else if (kind === 'lokr') {
        for (const w of ['lokr_w1_a', 'lokr_w1_b', 'lokr_w2_a', 'lokr_w2_b']) add(`${at}.${w}`, [4, 4]);
      } else {
        for (const w of ['hada_w1_a', 'hada_w1_b', 'hada_w2_a', 'hada_w2_b']) add(`${at}.${w}`, [4, 320]);
      }
    }
  }
  return tensors.start(metadata);
}

/**
 * The first bytes of a Llama-style checkpoint of `layers` decoder layers (BF16, 4096 wide).
 * @param {import('../core/wasm_module.js').Core} core
 * @param {number} layers
 */
function checkpointStart(core, layers) {
  const tensors = layout(core, 'BF16');
  tensors.add('model.embed_tokens.weight', [32000, 4096]);
  for (let i = 0; i < layers; i++) {
    const at = `model.layers.${i}`;
    for (const p of ['q_proj', 'k_proj', 'v_proj', 'o_proj']) tensors.add(`${at}.self_attn.${p}.weight`, [4096, 4096]);
    /** @type {[string, number[]][]} */
    const mlp = [
      ['gate_proj', [11008, 4096]],
      ['up_proj', [11008, 4096]],
      ['down_proj', [4096, 11008]],
    ];
    for (const [p, shape] of mlp) tensors.add(`${at}.mlp.${p}.weight`, shape);
    tensors.add(`${at}.input_layernorm.weight`, [4096]);
    tensors.add(`${at}.post_attention_layernorm.weight`, [4096]);
  }
  tensors.add('model.norm.weight', [4096]);
  tensors.add('lm_head.weight', [32000, 4096]);
  return tensors.start({ format: 'pt' });
}

/**
 * The two headers preload() runs, as { parts, size } (the length prefix and header, and the file's size).
 * @param {import('../core/wasm_module.js').Core} core
 */
export function warmHeaders(core) {
  return [adapterStart(core, ADAPTER_MODULES), checkpointStart(core, CHECKPOINT_LAYERS)];
}
