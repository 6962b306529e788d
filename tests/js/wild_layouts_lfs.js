// Real layouts of files kept in Git LFS (see wild_layouts.js): the repository holds a pointer
// whose `size` is the real file's byte count, and its config.json, adapter_config.json or
// training script gives the keys and shapes. `fileBytes` is that size: the header rewritten here
// with the tensors in the writer's data order comes to exactly that many bytes, 8-byte length,
// JSON (padded to 8 where the writer pads) and data (card_wild.test.js checks it), which is
// how each layout was confirmed against the real file without its bytes.
import { PT, byName, peft } from './wild_layout_builders.js';
import { clipTextEncoder, gptqBigCode, gptqLlama, sd1Unet, sdxlUnetLora, writerOrder } from './wild_model_builders.js';

const SD14 = 'wswplay/stable-diffusion-v1-4';
const SDXL = 'andrewcchoi/stabilityai-stable-diffusion-xl-base-1.0';
const SDXL_COMMIT = 'bf714989e22c57ddc1c453bf74dab4521acb81d8';
const SD14_COMMIT = 'd43bc75b11735b6886b906c5713433d4faee227b';

/** @type {(typeof import('./wild_layouts.js').WILD_LAYOUTS)} */
export const LFS_LAYOUTS = [
  {
    name: 'gptq_gpt_bigcode_wizardcoder_15b',
    repo: 'Decentralised-AI/WizardCoder-15B-1.0-GPTQ',
    path: 'gptq_model-4bit-128g.safetensors',
    commit: '9bbbdc1afc23b94bed20148cdeff05c094e38c74',
    fileBytes: 9198428896,
    metadata: null,
    tensors: () => gptqBigCode({ width: 6144, layers: 40, positions: 8192, vocab: 49153 }),
    facts: 'kind `model`; family `gpt-bigcode`; adapter_type `-`; quantized `gptq`',
    basis:
      'config.json: GPTBigCodeForCausalLM (bigcode/starcoder), n_embd 6144, n_layer 40, multi_query; quantize_config.json and README: AutoGPTQ, 4 bits, group_size 128',
  },
  {
    name: 'gptq_llama2_13b_mythomax',
    repo: 'Barksdale27/1',
    path: 'model.safetensors',
    commit: '2a6a8d47826271a065b7589f001c359022b4950d',
    fileBytes: 7259435192,
    // AutoGPTQ's save_quantized metadata, from quantize_config.json; the version's value is not
    // in the repository (any five-character version gives the pointer's byte count).
    metadata: {
      format: 'pt',
      auto_gptq_version: '0.4.2',
      gptq_bits: '4',
      gptq_group_size: '128',
      gptq_desc_act: 'False',
      gptq_damp_percent: '0.1',
    },
    tensors: () => gptqLlama({ width: 5120, inner: 13824, layers: 40, vocab: 32000 }),
    facts: 'kind `model`; family `llama`; adapter_type `-`; quantized `gptq`',
    basis:
      'config.json: LlamaForCausalLM (MythoMax L2 13B), hidden_size 5120, 40 layers, 40 key/value heads; quantize_config.json: 4 bits, group_size 128, desc_act false, damp 0.1; README: made with AutoGPTQ',
  },
  {
    name: 'peft_falcon_7b_qkv_dense_mlp',
    repo: 'ibrahimm7004/falcon-7b-finetuned-twitter-sentiment',
    path: 'adapter_model.safetensors',
    commit: 'edd79b5667726819ec8f19a85a4e01d4237ce9c6',
    fileBytes: 130583912,
    metadata: PT,
    tensors: () =>
      peft(
        'base_model.model.transformer.h.',
        32,
        [
          ['self_attention.query_key_value', 4544, 4672],
          ['self_attention.dense', 4544, 4544],
          ['mlp.dense_h_to_4h', 4544, 18176],
          ['mlp.dense_4h_to_h', 18176, 4544],
        ],
        16,
      ),
    facts:
      'kind `adapter`; family `falcon`; adapter_type `lora`; adapter_format `peft`; rank `16`; targets `query_key_value,dense,dense_h_to_4h,dense_4h_to_h`',
    basis:
      'adapter_config.json: base ybelkada/falcon-7b-sharded-bf16, r 16, target_modules dense_h_to_4h, query_key_value, dense, dense_4h_to_h; configuration_falcon.py beside it (71 heads of 64, one key/value head)',
  },
  {
    name: 'peft_internlm_7b_xtuner_f16',
    repo: 'melonwine/internlm-chat-7b-ft-adapter',
    path: 'adapter_model.safetensors',
    commit: 'e21ba911ce40429615f6bf978889450927467c0f',
    fileBytes: 319876032,
    metadata: PT,
    tensors: () =>
      peft(
        'base_model.model.model.layers.',
        32,
        [
          ['self_attn.q_proj', 4096, 4096],
          ['self_attn.k_proj', 4096, 4096],
          ['self_attn.v_proj', 4096, 4096],
          ['self_attn.o_proj', 4096, 4096],
          ['mlp.gate_proj', 4096, 11008],
          ['mlp.up_proj', 4096, 11008],
          ['mlp.down_proj', 11008, 4096],
        ],
        64,
        [],
        'F16',
      ),
    facts:
      'kind `adapter`; family `internlm|llama|-`; adapter_type `lora`; adapter_format `peft`; rank `64`; targets `q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj`',
    basis:
      'adapter_config.json and xtuner_config.py: base internlm-chat-7b (float16), r 64, the seven projections (keys alone cannot tell InternLM from Llama)',
  },
  {
    name: 'peft_llama31_8b_unsloth_all_linear',
    repo: 'CogniX-LTD/Cogni-OpenModel',
    path: 'adapter_model.safetensors',
    commit: 'd0d6ce3f9f6fdbd822fe6ded0008fd900d66bcac',
    fileBytes: 167832240,
    metadata: PT,
    tensors: () =>
      peft(
        'base_model.model.model.layers.',
        32,
        [
          ['self_attn.q_proj', 4096, 4096],
          ['self_attn.k_proj', 4096, 1024],
          ['self_attn.v_proj', 4096, 1024],
          ['self_attn.o_proj', 4096, 4096],
          ['mlp.gate_proj', 4096, 14336],
          ['mlp.up_proj', 4096, 14336],
          ['mlp.down_proj', 14336, 4096],
        ],
        16,
      ),
    facts:
      'kind `adapter`; family `llama|-`; adapter_type `lora`; adapter_format `peft`; rank `16`; targets `q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj`',
    basis:
      'adapter_config.json: base unsloth/meta-llama-3.1-8b-bnb-4bit, r 16, the seven projections; config.json: 32 layers, 4096 wide, 8 key/value heads of 128, MLP 14336; README: Unsloth 2024.9',
  },
  {
    name: 'diffusers_sdxl_unet_lora',
    repo: 'meankitdas/stable_diffusion_xl',
    path: 'pytorch_lora_weights.safetensors',
    commit: '8990c8b21dcd4971aa053b35b858ee2f3e5343ed',
    fileBytes: 23390424,
    metadata: PT,
    tensors: sdxlUnetLora,
    facts:
      'kind `adapter`; family `sdxl`; adapter_type `lora`; adapter_format `diffusers`; rank `4`; targets `to_q,to_k,to_v,to_out.0`',
    basis:
      'README (written by train_text_to_image_lora_sdxl.py): LoRA for stabilityai/stable-diffusion-xl-base-1.0, text encoder LoRA disabled; the script adapts to_q/to_k/to_v/to_out.0 at rank 4 by default',
  },
  {
    name: 'sd14_unet',
    repo: SD14,
    path: 'unet/diffusion_pytorch_model.safetensors',
    commit: SD14_COMMIT,
    fileBytes: 3438167534,
    metadata: PT,
    tensors: () => byName(sd1Unet()),
    facts: 'kind `model`; family `sd1`; adapter_type `-`',
    basis:
      'model_index.json: StableDiffusionPipeline; unet/config.json: UNet2DConditionModel, block_out_channels 320-1280, cross_attention_dim 768 (a 2022 file: name order, header not padded)',
  },
  {
    name: 'sd14_text_encoder',
    repo: SD14,
    path: 'text_encoder/model.safetensors',
    commit: SD14_COMMIT,
    fileBytes: 492265879,
    metadata: PT,
    tensors: () => byName(clipTextEncoder({ width: 768, inner: 3072, layers: 12, positionIds: true })),
    facts: 'kind `model`; family `clip`; variant `vit-l`; adapter_type `-`',
    basis:
      'text_encoder/config.json: CLIPTextModel from openai/clip-vit-large-patch14, hidden_size 768, 12 layers, transformers 4.21 (position_ids saved)',
  },
  {
    name: 'sd21_text_encoder',
    repo: 'jack-op11/stable-diffusion-2-1',
    path: 'text_encoder/model.safetensors',
    commit: 'e03f2e1bfb01fd2b61759920b353fb1bbdcbf767',
    fileBytes: 1361597018,
    metadata: PT,
    tensors: () => byName(clipTextEncoder({ width: 1024, inner: 4096, layers: 23, positionIds: true })),
    facts: 'kind `model`; family `clip`; variant `vit-h|-`; adapter_type `-`',
    basis:
      'text_encoder/config.json: CLIPTextModel (OpenCLIP ViT-H/14 text tower), hidden_size 1024, 23 layers, transformers 4.25',
  },
  {
    name: 'sdxl_text_encoder',
    repo: SDXL,
    path: 'text_encoder/model.safetensors',
    commit: SDXL_COMMIT,
    fileBytes: 492265168,
    metadata: PT,
    tensors: () => writerOrder(clipTextEncoder({ width: 768, inner: 3072, layers: 12 })),
    facts: 'kind `model`; family `clip`; variant `vit-l`; adapter_type `-`',
    basis: 'text_encoder/config.json: CLIPTextModel, hidden_size 768, 12 layers, transformers 4.32',
  },
  {
    name: 'sdxl_text_encoder_2',
    repo: SDXL,
    path: 'text_encoder_2/model.safetensors',
    commit: SDXL_COMMIT,
    fileBytes: 2778702264,
    metadata: PT,
    tensors: () => writerOrder(clipTextEncoder({ width: 1280, inner: 5120, layers: 32, projection: 1280 })),
    facts: 'kind `model`; family `clip`; variant `vit-bigg`; adapter_type `-`',
    basis:
      'text_encoder_2/config.json: CLIPTextModelWithProjection (OpenCLIP ViT-bigG/14 text tower), hidden_size 1280, 32 layers, projection_dim 1280',
  },
];
