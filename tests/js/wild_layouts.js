// Real layouts from public repositories, beside the wild fixtures: for each, the header of a
// `.safetensors` file committed there, rewritten here with the same keys, dtypes, shapes and
// metadata (the data are zeros; the files themselves are not copied), and the facts a person
// establishes from its repository (README, adapter_config.json, training scripts), in the
// notation of tests/js/wild_facts.js. `tensors()` lists them in the file's data order.

/** @typedef {{ name: string, dtype: string, shape: number[] }} HeaderTensor */

const range = (/** @type {number} */ n, from = 0) => Array.from({ length: n }, (_, i) => i + from);
const byName = (/** @type {HeaderTensor[]} */ list) => list.sort((a, b) => (a.name < b.name ? -1 : 1));

/**
 * PEFT's save of a LoRA: `<prefix><layer>.<module>.lora_A.weight` [r, in] and lora_B [out, r],
 * plus `extra` tensors (modules_to_save), in name order as safetensors' torch writer stores them.
 * @param {string} prefix
 * @param {number} layers
 * @param {[string, number, number][]} modules [name, in, out]
 * @param {number} r
 * @param {HeaderTensor[]} [extra]
 */
function peft(prefix, layers, modules, r, extra = [], dtype = 'F32') {
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
function unetAttentionLora(name, context, dtype = 'F32') {
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
const newDiffusers = (/** @type {string} */ p, /** @type {string} */ proj, /** @type {string} */ part) =>
  `unet.${p}.${proj}.lora.${part}.weight`;
const oldDiffusers = (/** @type {string} */ p, /** @type {string} */ proj, /** @type {string} */ part) =>
  `${p}.processor.${proj.replace('.0', '')}_lora.${part}.weight`;

/**
 * mlx_lm's LoRA: `model.layers.<n>.self_attn.<q|v>_proj.lora_a` [in, r] and lora_b [r, out], in
 * the order given (mlx saves a dict's order): "23v b" is layer 23's v_proj.lora_b.
 * @param {string} order
 * @param {Record<string, [number, number]>} sizes per module letter: [in, out]
 * @param {number} r
 */
function mlx(order, sizes, r) {
  return order.split(',').map((item) => {
    const [, layer, m, part] = /** @type {RegExpExecArray} */ (/^(\d+)(\w) ([ab])$/.exec(item));
    const [inDim, outDim] = sizes[m];
    const name = `model.layers.${layer}.self_attn.${m}_proj.lora_${part}`;
    return { name, dtype: 'F32', shape: part === 'a' ? [inDim, r] : [r, outDim] };
  });
}

const PT = { format: 'pt' };

// GPT-2's blocks under PEFT's prefix, and the attention and MLP projections PEFT users adapt.
const GPT2_BLOCKS = 'base_model.model.transformer.h.';
/** @type {[string, number, number][]} */
const GPT2_C_ATTN_C_PROJ = [
  ['attn.c_attn', 768, 2304],
  ['attn.c_proj', 768, 768],
  ['mlp.c_proj', 3072, 768],
];

/** The facts of a train_text_to_image_lora.py output (rank 4 by default, the UNet's attention);
 * the old attention processors named to_out[0] `to_out_lora`: `to_out` is right for them too. */
const unetLoraFacts = (/** @type {string} */ family, out = 'to_out.0') =>
  `kind \`adapter\`; family \`${family}\`; adapter_type \`lora\`; adapter_format \`diffusers\`; rank \`4\`; targets \`to_q,to_k,to_v,${out}\``;

/**
 * @type {{ name: string, repo: string, path: string, commit: string, metadata: Record<string, string> | null,
 *   tensors: () => HeaderTensor[], facts: string, basis: string }[]}
 */
export const WILD_LAYOUTS = [
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
    name: 'peft_distilbert_emotion',
    repo: 'dayanidhi04/emotion-classification-distilbert-lora',
    path: 'adapter_model.safetensors',
    commit: '675b21410fb7a00b51a6e3dfa3ef72cdd945ca67',
    metadata: PT,
    tensors: () =>
      peft(
        'base_model.model.distilbert.transformer.layer.',
        6,
        [
          ['attention.q_lin', 768, 768],
          ['attention.v_lin', 768, 768],
        ],
        8,
        [
          { name: 'base_model.model.classifier.bias', dtype: 'F32', shape: [6] },
          { name: 'base_model.model.classifier.weight', dtype: 'F32', shape: [6, 768] },
          { name: 'base_model.model.pre_classifier.bias', dtype: 'F32', shape: [768] },
          { name: 'base_model.model.pre_classifier.weight', dtype: 'F32', shape: [768, 768] },
        ],
      ),
    facts:
      'kind `adapter`; family `distilbert|bert`; adapter_type `lora`; adapter_format `peft`; rank `8`; targets `q_lin,v_lin`',
    basis: 'adapter_config.json: base distilbert-base-uncased, r 8, q_lin, v_lin; modules_to_save classifiers',
  },
  {
    name: 'diffusers_unet_sd21',
    repo: 'JustinJiangNext/lora-2.0',
    path: 'pytorch_lora_weights.safetensors',
    commit: '0b97622d1f4fce1a9643353fa2cc0222404dfa08',
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 1024),
    facts: unetLoraFacts('sd2'),
    basis: 'lora.sh: train_text_to_image_lora.py on stabilityai/stable-diffusion-2-1 (default rank 4)',
  },
  {
    name: 'diffusers_unet_sd21_base_bf16',
    repo: 'vfph55/my_lora',
    path: 'pytorch_lora_weights.safetensors',
    commit: 'ec91104d267a5e0012f6ee3bdbbaee87d5f913de',
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 1024, 'BF16'),
    facts: unetLoraFacts('sd2'),
    basis:
      'lora_inference.py loads it on stabilityai/stable-diffusion-2-1-base; README: trained on naruto-blip-captions',
  },
  {
    name: 'diffusers_unet_sd15',
    repo: 'timohavdk/sd-lora',
    path: 'pytorch_lora_weights.safetensors',
    commit: '75f8a216e7f43700a60b8fd8a73c45b66b7c4faf',
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 768),
    facts: unetLoraFacts('sd1'),
    basis: 'script.sh: train_text_to_image_lora.py on stable-diffusion-v1-5',
  },
  {
    name: 'diffusers_unet_sd15_course',
    repo: 'mvclab-ntust-course/course3-B11115019',
    path: 'pytorch_lora_weights.safetensors',
    commit: '57992c59c3224668abd4ca126dadcafd8b000f0d',
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 768),
    facts: unetLoraFacts('sd1'),
    basis: 'README: train_text_to_image_lora.py on runwayml/stable-diffusion-v1-5',
  },
  {
    name: 'diffusers_unet_sd15_notebook',
    repo: 'Riniii09/IAssignment2',
    path: 'pytorch_lora_weights.safetensors',
    commit: '2955a22ee43d09326dfc4f574f2cdca885844b04',
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 768),
    facts: unetLoraFacts('sd1'),
    basis: 'DiffusionModel.ipynb: train_text_to_image_lora.py on stable-diffusion-v1-5',
  },
  {
    name: 'diffusers_old_processor_sd14',
    repo: 'wellCh4n/pokemon-diffusers',
    path: 'pytorch_lora_weights.safetensors',
    commit: '4560ab6f80b398bccdd2168d680fc4f918cc5aad',
    metadata: PT,
    tensors: () => unetAttentionLora(oldDiffusers, 768),
    facts: unetLoraFacts('sd1', 'to_out.0|to_out'),
    basis: 'Training.ipynb: train_text_to_image_lora.py on CompVis/stable-diffusion-v1-4 (2023 attention processors)',
  },
  {
    name: 'diffusers_old_processor_sd15',
    repo: 'qwerty-aditya/rick_and_morty_LoRA',
    path: 'pytorch_lora_weights.safetensors',
    commit: '30a921da5b447f7e42af90beb3506852afe692f9',
    metadata: PT,
    tensors: () => unetAttentionLora(oldDiffusers, 768),
    facts: unetLoraFacts('sd1', 'to_out.0|to_out'),
    basis:
      'README and main.py: train_text_to_image_lora.py, loaded with unet.load_attn_procs on runwayml/stable-diffusion-v1-5',
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
  {
    name: 'lora_vit_sam_rank8',
    repo: 'MathieuNlp/Sam_LoRA',
    path: 'lora_weights/lora_rank8.safetensors',
    commit: '788decc0551307b3806928dbe48651a2d4383407',
    metadata: null,
    tensors: () => [
      ...range(24).map((i) => ({ name: `w_a_${String(i).padStart(3, '0')}`, dtype: 'F32', shape: [8, 768] })),
      ...range(24).map((i) => ({ name: `w_b_${String(i).padStart(3, '0')}`, dtype: 'F32', shape: [768, 8] })),
    ],
    facts: 'kind `adapter`; family `-`; adapter_type `lora`; rank `8`',
    basis:
      "README: LoRA (JamesQFreeman/LoRA-ViT's w_a/w_b) on SAM's ViT-B image encoder (q and v of 12 blocks), rank 8",
  },
  {
    name: 'torch_save_model_mlp',
    repo: 'CoffeeVampir3/Model-Saving-Test-Repo',
    path: 'model.safetensors',
    commit: 'eeaef5051ba943fa89a34731aec458589b877d13',
    metadata: { version: '1.0', git_tag: 'v1.45' },
    tensors: () => [
      { name: 'fc1.bias', dtype: 'F32', shape: [20] },
      { name: 'fc1.weight', dtype: 'F32', shape: [20, 10] },
      { name: 'fc2.bias', dtype: 'F32', shape: [10] },
      { name: 'fc2.weight', dtype: 'F32', shape: [10, 20] },
    ],
    facts: 'kind `model|unknown`; family `-`; adapter_type `-`',
    basis: "test-save.py: safetensors.torch.save_model of a two-layer MLP with {'version', 'git_tag'} metadata",
  },
];
