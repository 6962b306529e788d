// config.json facts of real models, for the KV cache tests (Node and Chromium).

// jeevanchaps/Meta-Llama3.1-8B-Instruct-assessment, config.json @ 3c36ac64c04b (Llama-3.1-8B-Instruct,
// the Llama 3 8B sizes: 32 layers, 32 heads, 8 key/value heads of 128; saved as float16).
export const LLAMA31_8B = {
  architectures: ['LlamaForCausalLM'],
  head_dim: 128,
  hidden_size: 4096,
  model_type: 'llama',
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  torch_dtype: 'float16',
  vocab_size: 128256,
};

// HelgeS/capp-gpt-serve, model/config.json @ 0ed644ff4f13: the config of the real tiny GPT-2 of
// the fixtures (transformers_gpt2_tiny_f32, that repository's model/model.safetensors): GPT-2
// names, no key/value head count (one per head), 64 / 4 = 16 per head, float32.
export const GPT2_TINY = {
  architectures: ['GPT2LMHeadModel'],
  model_type: 'gpt2',
  n_embd: 64,
  n_head: 4,
  n_layer: 4,
  torch_dtype: 'float32',
  vocab_size: 53,
};

// wswplay/stable-diffusion-v1-4, text_encoder/config.json @ d43bc75b1173: a CLIP text encoder, no decoder.
export const SD14_TEXT_ENCODER = {
  architectures: ['CLIPTextModel'],
  hidden_size: 768,
  model_type: 'clip_text_model',
  num_attention_heads: 12,
  num_hidden_layers: 12,
  torch_dtype: 'float32',
};
