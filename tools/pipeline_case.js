// A diffusers pipeline folder for the tests and the demo: model_index.json as diffusers writes
// it, a one-file UNet (with an fp16 variant beside it), a sharded text encoder (the real
// sharded model when given, copied into the temporary folder), a VAE saved only as a pickle
// .bin (so: ComponentMissing), and components without weights.
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSafetensors } from './write_safetensors.js';

export const PIPELINE_CONFIG = {
  _class_name: 'StableDiffusionPipeline',
  _diffusers_version: '0.30.0',
  feature_extractor: ['transformers', 'CLIPImageProcessor'],
  requires_safety_checker: false,
  safety_checker: [null, null],
  scheduler: ['diffusers', 'PNDMScheduler'],
  text_encoder: ['transformers', 'CLIPTextModel'],
  tokenizer: ['transformers', 'CLIPTokenizer'],
  unet: ['diffusers', 'UNet2DConditionModel'],
  vae: ['diffusers', 'AutoencoderKL'],
};

const tensor = (name, dtype, shape, bytesPer) => ({
  name,
  dtype,
  shape,
  data: new Uint8Array(shape.reduce((a, b) => a * b, 1) * bytesPer).fill(1),
});

/** The UNet's tensors (a few conv_in / down-block names, as a UNet2DConditionModel has). */
export function unetTensors(dtype = 'F32') {
  const size = dtype === 'F32' ? 4 : 2;
  return [
    tensor('conv_in.weight', dtype, [8, 4, 3, 3], size),
    tensor('conv_in.bias', dtype, [8], size),
    tensor('down_blocks.0.resnets.0.conv1.weight', dtype, [8, 8, 3, 3], size),
    tensor('time_embedding.linear_1.weight', dtype, [16, 8], size),
  ];
}

/** A two-shard text encoder, for when the real sharded model is not at hand. */
async function writeShardedEncoder(dir) {
  const shards = [
    ['model-00001-of-00002.safetensors', [tensor('text_model.embeddings.token_embedding.weight', 'F32', [16, 4], 4)]],
    ['model-00002-of-00002.safetensors', [tensor('text_model.final_layer_norm.weight', 'F32', [4], 4)]],
  ];
  const weightMap = {};
  let total = 0;
  for (const [name, tensors] of shards) {
    await writeFile(join(dir, name), writeSafetensors(tensors, { format: 'pt' }));
    for (const t of tensors) ((weightMap[t.name] = name), (total += t.data.byteLength));
  }
  await writeFile(
    join(dir, 'model.safetensors.index.json'),
    JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2),
  );
}

/**
 * Writes the pipeline folder into `out`.
 * @param {string} out
 * @param {string | null} shardedDir a sharded model's folder (model.safetensors.index.json and shards) for the text encoder
 */
export async function writePipelineCase(out, shardedDir = null) {
  for (const folder of ['unet', 'text_encoder', 'vae', 'scheduler', 'tokenizer'])
    await mkdir(join(out, folder), { recursive: true });
  await writeFile(join(out, 'model_index.json'), JSON.stringify(PIPELINE_CONFIG, null, 2));
  await writeFile(join(out, 'unet', 'config.json'), '{"_class_name": "UNet2DConditionModel"}');
  await writeFile(
    join(out, 'unet', 'diffusion_pytorch_model.safetensors'),
    writeSafetensors(unetTensors('F32'), { format: 'pt' }),
  );
  await writeFile(
    join(out, 'unet', 'diffusion_pytorch_model.fp16.safetensors'),
    writeSafetensors(unetTensors('F16'), { format: 'pt' }),
  );
  if (shardedDir) {
    for (const name of await readdir(shardedDir))
      await copyFile(join(shardedDir, name), join(out, 'text_encoder', name));
  } else {
    await writeShardedEncoder(join(out, 'text_encoder'));
  }
  await writeFile(join(out, 'vae', 'config.json'), '{"_class_name": "AutoencoderKL"}');
  await writeFile(join(out, 'vae', 'diffusion_pytorch_model.bin'), new Uint8Array(64));
  await writeFile(join(out, 'scheduler', 'scheduler_config.json'), '{"_class_name": "PNDMScheduler"}');
  await writeFile(join(out, 'tokenizer', 'vocab.json'), '{}');
  return out;
}
