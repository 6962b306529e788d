// The made-up headers preload() (./preload.js) runs the core and the card module on: the first
// bytes (length prefix and header; no data is ever read) of a kohya LyCORIS adapter and of a
// Llama-style checkpoint, each about the size of a real one, so that what a first card of
// such files runs has run, long enough for the hot functions to be optimized. No file's
// values: names and shapes follow the two layouts' conventions (kohya sd-scripts and LyCORIS
// module names; Hugging Face transformers' Llama parameter names).

/** Modules of each kind in each part of the adapter (16 tensors each: 1,760 in all). */
const ADAPTER_MODULES = 110;
/** Decoder layers of the checkpoint (9 tensors each). */
const CHECKPOINT_LAYERS = 32;

/**
 * @param {Record<string, unknown>} header
 * @param {number} dataBytes
 */
function start(header, dataBytes) {
  const text = JSON.stringify(header);
  // Padded with spaces to a multiple of 8, as safetensors' writer pads.
  const bytes = new TextEncoder().encode(text + ' '.repeat((8 - (text.length % 8)) % 8));
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setBigUint64(0, BigInt(bytes.byteLength), true);
  return { parts: [prefix, bytes], size: 8 + bytes.byteLength + dataBytes };
}

/**
 * A header's tensors, laid out one after another.
 * @param {Record<string, unknown>} header
 * @param {string} dtype
 * @param {number} size bytes per element
 */
function tensorAdder(header, dtype, size) {
  let offset = 0;
  return {
    /** @param {string} name @param {number[]} shape */
    add(name, shape) {
      const bytes = size * shape.reduce((a, b) => a * b, 1);
      header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
      offset += bytes;
    },
    get bytes() {
      return offset;
    },
  };
}

/**
 * The first bytes of a kohya-style adapter (its length prefix and header; the data is never
 * read): text encoder and UNet modules as LoRA, LoKr and LoHa, with kohya's training metadata
 * (a tag frequency, dataset folders, network args), so that what a first card of such a file
 * runs (the analysis, the adapter scan, the metadata's JSON, the card and its tree) has run once.
 * `modules` modules of each kind in each part.
 * @param {number} modules
 */
function adapterStart(modules) {
  /** @type {Record<string, unknown>} */
  const header = {
    __metadata__: {
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
    },
  };
  const tensors = tensorAdder(header, 'F16', 2);
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
  return start(header, tensors.bytes);
}

/**
 * The first bytes of a Llama-style checkpoint of `layers` decoder layers (BF16, 4096 wide).
 * @param {number} layers
 */
function checkpointStart(layers) {
  /** @type {Record<string, unknown>} */
  const header = { __metadata__: { format: 'pt' } };
  const tensors = tensorAdder(header, 'BF16', 2);
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
  return start(header, tensors.bytes);
}

/** The two headers preload() runs, as { parts, size } (a length prefix and a header, and the file size). */
export function warmHeaders() {
  return [adapterStart(ADAPTER_MODULES), checkpointStart(CHECKPOINT_LAYERS)];
}
