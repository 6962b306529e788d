// Real layouts from public repositories, beside the wild fixtures: for each, the header of a
// `.safetensors` file committed there, rewritten here with the same keys, dtypes, shapes and
// metadata (the data are zeros; the files themselves are not copied), and the facts a person
// establishes from its repository (README, adapter_config.json, training scripts), in the
// notation of tests/js/wild_facts.js. `tensors()` lists them in the file's data order.
// Language-model adapters are in wild_layouts_text.js; the schemes in wild_layout_builders.js.
import { PT, newDiffusers, oldDiffusers, range, unetAttentionLora, unetLoraFacts } from './wild_layout_builders.js';
import { LFS_LAYOUTS } from './wild_layouts_lfs.js';
import { TEXT_LAYOUTS } from './wild_layouts_text.js';

/**
 * `fileBytes`: the real file's byte count (its Git LFS pointer's size, or the committed file's):
 * the header rewritten here, with its data, comes to exactly that many bytes.
 * @type {{ name: string, repo: string, path: string, commit: string, metadata: Record<string, string> | null,
 *   tensors: () => HeaderTensor[], facts: string, basis: string, fileBytes?: number }[]}
 */
export const WILD_LAYOUTS = [
  ...TEXT_LAYOUTS,
  ...LFS_LAYOUTS,
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
    name: 'diffusers_unet_instruct_pix2pix',
    repo: 'jp4589-lang/Gen-AI-Group-Project',
    path: 'pytorch_lora_weights.safetensors',
    commit: 'bd88fe98f60cfb51cc685e2fe9c7678ca7a4c624',
    fileBytes: 3226184,
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 768),
    facts: unetLoraFacts('sd1'),
    basis:
      'README: LoRA on timbrooks/instruct-pix2pix ("Stable Diffusion 1.5 based"); rank 4 by the shapes ([4, 320] down projections)',
  },
  {
    name: 'diffusers_unet_sd15_inpainting',
    repo: 'Krishna4311/Cloud-LoRA-Object-Removal',
    path: 'pytorch_lora_weights.safetensors',
    commit: 'b14641e8121390a2b4ae44eb6c7379e0a9fafaf5',
    fileBytes: 3226184,
    metadata: PT,
    tensors: () => unetAttentionLora(newDiffusers, 768),
    facts: unetLoraFacts('sd1'),
    basis:
      'README: LoRA trained on runwayml/stable-diffusion-inpainting (SD 1.5, 9-channel UNet); rank 4 by the shapes',
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
