// Real layouts of language-model adapters (PEFT, mlx_lm) from public repositories: see
// wild_layouts.js.
import {
  DISTILBERT_BLOCKS,
  DISTILBERT_Q_V,
  GPT2_BLOCKS,
  GPT2_C_ATTN_C_PROJ,
  PT,
  T5_CROSS_Q_V,
  T5_SELF_Q_V,
  byName,
  mlx,
  peft,
} from './wild_layout_builders.js';

/**
 * @type {{ name: string, repo: string, path: string, commit: string, metadata: Record<string, string> | null,
 *   tensors: () => HeaderTensor[], facts: string, basis: string }[]}
 */
export const TEXT_LAYOUTS = [
  {
    name: 'peft_gpt2_c_attn_c_proj',
    repo: 'abrhaleyarefaine1997/gpt2-tigrinya-lora',
    path: 'adapter_model.safetensors',
    commit: 'f9bbefc3e4b04fed0faf3f1dbfba835a3f667659',
    metadata: PT,
    tensors: () => peft(GPT2_BLOCKS, 12, GPT2_C_ATTN_C_PROJ, 8),
    facts:
      'kind `adapter`; family `gpt2`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `c_attn,c_proj`',
    basis: 'adapter_config.json: base gpt2, r 8, target_modules c_attn, c_proj',
  },
  {
    name: 'peft_gpt2_seqcls_score',
    repo: 'anirudh-ak/peft-gpt2',
    path: 'model/lora_model/adapter_model.safetensors',
    commit: '36faf9eb2a0871c79a4141908ade907134295b25',
    metadata: PT,
    tensors: () =>
      peft(GPT2_BLOCKS, 12, [['attn.c_attn', 768, 2304]], 8, [
        { name: 'base_model.model.score.weight', dtype: 'F32', shape: [6, 768] },
      ]),
    facts: 'kind `adapter`; family `gpt2`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `c_attn`',
    basis: 'adapter_config.json: base gpt2, r 8, target_modules c_attn, SEQ_CLS (the score head saved)',
  },
  {
    name: 'peft_gpt2_medium_c_attn',
    repo: 'ArchitSharma2357/TherapyAI',
    path: 'adapter_model.safetensors',
    commit: '8bbd5d81c612956e194bbfc091f1531b2411d753',
    metadata: PT,
    tensors: () => peft(GPT2_BLOCKS, 24, [['attn.c_attn', 1024, 3072]], 8),
    facts: 'kind `adapter`; family `gpt2`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `c_attn`',
    basis: 'adapter_config.json: base gpt2-medium (24 blocks of 1024), r 8, target_modules c_attn',
  },
  {
    name: 'peft_dialogpt_small',
    repo: 'Kanishakgoel/Problem-3-The-Virtual-Patient',
    path: 'adapter_model.safetensors',
    commit: '3f076d0a05fff682e385e8d5ea2f5919a8fd507f',
    metadata: PT,
    tensors: () => peft(GPT2_BLOCKS, 12, GPT2_C_ATTN_C_PROJ, 4),
    facts:
      'kind `adapter`; family `gpt2`; adapter_type `lora`; adapter_format `peft`; rank `4`; targets `c_attn,c_proj`',
    basis: 'adapter_config.json: base microsoft/DialoGPT-small (a GPT-2), r 4, target_modules c_proj, c_attn',
  },
  {
    name: 'peft_gpt_neo_125m',
    repo: 'SARAELSAFTY/Movies-_with_lora',
    path: 'model/adapter_model.safetensors',
    commit: '24488c5c36df1a20b1a3d360f0b897147255b1c3',
    metadata: PT,
    tensors: () =>
      peft(
        GPT2_BLOCKS,
        12,
        [
          ['attn.attention.q_proj', 768, 768],
          ['attn.attention.v_proj', 768, 768],
        ],
        8,
      ),
    facts:
      'kind `adapter`; family `gpt-neo`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `q_proj,v_proj`',
    basis: 'model/adapter_config.json: base EleutherAI/gpt-neo-125M, r 8, target_modules v_proj, q_proj',
  },
  {
    name: 'peft_gemma_2b_f16',
    repo: 'Jr1407/SQL',
    path: 'adapter_model.safetensors',
    commit: '9c5e412e9f1b62512dd4b74389c82ccbf5d5573e',
    metadata: PT,
    tensors: () =>
      peft(
        'base_model.model.model.layers.',
        18,
        [
          ['self_attn.q_proj', 2048, 2048],
          ['self_attn.v_proj', 2048, 256],
        ],
        16,
        [],
        'F16',
      ),
    facts:
      'kind `adapter`; family `gemma|llama|-`; adapter_type `lora`; adapter_format `peft`; rank `16`; targets `q_proj,v_proj`',
    basis: 'adapter_config.json: base google/gemma-2b, r 16, target_modules q_proj, v_proj',
  },
  {
    name: 'peft_gpt2_review_c_attn',
    repo: 'shibbir24/Smart-Review-AI',
    path: 'lora_adapter/adapter_model.safetensors',
    commit: 'f48d5d12ef0841f2da5f260290023817d70a615f',
    metadata: PT,
    tensors: () => peft(GPT2_BLOCKS, 12, [['attn.c_attn', 768, 2304]], 8),
    facts: 'kind `adapter`; family `gpt2`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `c_attn`',
    basis: 'adapter_config.json: base gpt2, r 8, target_modules q_proj, c_attn, v_proj (GPT-2 has only c_attn of them)',
  },
  {
    name: 'peft_gemma3_270m_q_v',
    repo: '0112LY/logo-gemma-lora',
    path: 'adapter/adapter_model.safetensors',
    commit: '1c9246770378cd1e1eb1251cbfdde84194e48686',
    metadata: PT,
    tensors: () =>
      peft(
        'base_model.model.model.layers.',
        18,
        [
          ['self_attn.q_proj', 640, 1024],
          ['self_attn.v_proj', 640, 256],
        ],
        4,
      ),
    facts:
      'kind `adapter`; family `gemma|gemma3|llama|-`; adapter_type `lora`; adapter_format `peft`; rank `4`; targets `q_proj,v_proj`',
    basis: 'adapter/adapter_config.json: base google/gemma-3-270m-it, r 4, target_modules v_proj, q_proj',
  },
  {
    name: 'peft_t5_small_summarizer',
    repo: 'apurvandroid/ai-summarizer-backend',
    path: 'lora_adapter/adapter_model.safetensors',
    commit: '9a3d71a0a6cf424f67630fde6f2b145bae660baf',
    metadata: PT,
    tensors: () =>
      byName([
        ...peft('base_model.model.encoder.block.', 6, T5_SELF_Q_V, 8),
        ...peft('base_model.model.decoder.block.', 6, [...T5_SELF_Q_V, ...T5_CROSS_Q_V], 8),
      ]),
    facts: 'kind `adapter`; family `t5`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `q,v`',
    basis: 'lora_adapter/adapter_config.json: base t5-small, r 8, target_modules v, q, SEQ_2_SEQ_LM',
  },
  {
    name: 'peft_stella_400m_o_proj',
    repo: 'akseljoonas/biotech-news-sentiment',
    path: 'lora_adapter/adapter_model.safetensors',
    commit: 'fa2c25394be849018ed66f44d54da737445d7149',
    metadata: PT,
    tensors: () => peft('base_model.model.encoder.layer.', 24, [['attention.o_proj', 1024, 1024]], 16),
    facts: 'kind `adapter`; adapter_type `lora`; adapter_format `peft`; rank `16`; targets `o_proj`',
    basis:
      'lora_adapter/adapter_config.json: base NovaSearch/stella_en_400M_v5, r 16, target_modules q/k/v/o_proj (its attention fuses q, k and v: only o_proj exists); no family of ours',
  },
  {
    name: 'peft_distilbert_emotion',
    repo: 'dayanidhi04/emotion-classification-distilbert-lora',
    path: 'adapter_model.safetensors',
    commit: '675b21410fb7a00b51a6e3dfa3ef72cdd945ca67',
    metadata: PT,
    tensors: () =>
      peft(DISTILBERT_BLOCKS, 6, DISTILBERT_Q_V, 8, [
        { name: 'base_model.model.classifier.bias', dtype: 'F32', shape: [6] },
        { name: 'base_model.model.classifier.weight', dtype: 'F32', shape: [6, 768] },
        { name: 'base_model.model.pre_classifier.bias', dtype: 'F32', shape: [768] },
        { name: 'base_model.model.pre_classifier.weight', dtype: 'F32', shape: [768, 768] },
      ]),
    facts:
      'kind `adapter`; family `distilbert|bert`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `q_lin,v_lin`',
    basis: 'adapter_config.json: base distilbert-base-uncased, r 8, q_lin, v_lin; modules_to_save classifiers',
  },
  {
    name: 'mlx_lora_qwen25_05b',
    repo: 'wyek1n/MLX-CLI',
    path: 'adapters/adapters.safetensors',
    commit: '3938f0ef8c11672d928af0312b8ff43d1b32b785',
    metadata: null,
    tensors: () =>
      mlx(
        '23v b,23q b,22v b,21q a,22q a,20q b,21v b,21v a,21q b,22v a,23q a,20v a,20v b,23v a,22q b,20q a',
        { q: [896, 896], v: [896, 128] },
        8,
      ),
    facts:
      'kind `adapter`; family `qwen2|llama|-`; adapter_type `lora`; adapter_format `mlx|mlx-lm|mlx_lm`; rank `8`; targets `q_proj,v_proj`',
    basis: 'adapters/adapter_config.json: mlx_lm lora on Qwen2.5-0.5B-Instruct, rank 8, alpha 16, num_layers 4',
  },
];
