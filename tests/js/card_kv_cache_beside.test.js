// The KV cache wherever a config.json sits beside the weights (issue 37, item 4): one file
// opened by its path in Node (the config.json in its folder), one file given its config as a
// File, bytes, a path or a URL, a folder or a pick of one model.safetensors and its config.json,
// each component of a diffusers pipeline, and the CLI's inspect FILE and inspect FOLDER.
import { describe, expect, test } from 'vitest';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSafetensors, openSafetensorsIndex, openSafetensorsPipeline } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';
import { servedFolders } from './http_server.js';
import { run } from './cli_run.js';
import { GPT2_TINY, LLAMA31_8B, SD14_TEXT_ENCODER } from './model_configs.js';

// Llama 3 8B's sizes in bfloat16: 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 131,072 a token.
const LLAMA3_8B = JSON.stringify({ ...LLAMA31_8B, torch_dtype: 'bfloat16' });
const LLAMA_KV = { bytesPerToken: 131_072, bytesPer1000Tokens: 131_072_000, dtype: 'BF16', dtypeFrom: 'config' };
const KV_LINE = /\n {2}KV cache +125\.0 MiB per 1,000 tokens \(32 layers × 8 KV heads × 128 × BF16, config\.json\)\n/;
const BF16 = (/** @type {string} */ name, /** @type {number[]} */ shape) => ({
  name,
  dtype: 'BF16',
  shape,
  data: new Uint8Array(shape.reduce((a, b) => a * b, 1) * 2),
});
const LLAMA_FILE = writeSafetensors([
  BF16('model.layers.0.self_attn.q_proj.weight', [8, 8]),
  BF16('model.layers.0.mlp.gate_proj.weight', [16, 8]),
]);
const CLIP_TEXT = JSON.stringify(SD14_TEXT_ENCODER);

const served = servedFolders('st-kv-beside-');
const folder = served.folder;

describe('one file and its config.json', () => {
  test('opened by its path in Node: the config.json in its folder; { config: null }: none', async () => {
    const dir = await folder('one', { 'model.safetensors': LLAMA_FILE, 'config.json': LLAMA3_8B });
    const st = await openSafetensors(join(dir, 'model.safetensors'));
    const card = await st.describe();
    expect(card.memory.kvCache).toMatchObject({ ...LLAMA_KV, layers: 32, kvHeads: 8, headDim: 128 });
    expect(card.family?.id).toBe('llama');
    expect(st.findings).toEqual([]);
    const without = await openSafetensors(join(dir, 'model.safetensors'), { config: null });
    expect((await without.describe()).memory.kvCache).toBeUndefined();
    const alone = await folder('alone', { 'model.safetensors': LLAMA_FILE });
    const lone = await openSafetensors(join(alone, 'model.safetensors'));
    expect((await lone.describe()).memory.kvCache).toBeUndefined();
    expect(lone.findings).toEqual([]);
  });

  test('the config given as a File, its bytes, a path or a URL: the same estimate; a 404: none', async () => {
    const dir = await folder('given', { 'model.safetensors': LLAMA_FILE, 'config.json': LLAMA3_8B });
    const configBytes = new TextEncoder().encode(LLAMA3_8B);
    const configs = [
      new File([configBytes], 'config.json'),
      configBytes,
      join(dir, 'config.json'),
      served.server.url('/given/config.json'),
      new URL(served.server.url('/given/config.json')),
    ];
    for (const config of configs) {
      for (const source of [LLAMA_FILE, served.server.url('/given/model.safetensors')]) {
        const st = await openSafetensors(source, { config });
        expect((await st.describe()).memory.kvCache).toMatchObject(LLAMA_KV);
        expect(st.findings).toEqual([]);
      }
    }
    // A URL of a file finds no config.json by itself (no request is made for one).
    const before = served.server.log.length;
    const remote = await openSafetensors(served.server.url('/given/model.safetensors'));
    expect((await remote.describe()).memory.kvCache).toBeUndefined();
    expect(served.server.log.slice(before).some((r) => r.path.endsWith('config.json'))).toBe(false);
    const missing = await openSafetensors(LLAMA_FILE, { config: served.server.url('/given/none.json') });
    expect((await missing.describe()).memory.kvCache).toBeUndefined();
    expect(missing.findings).toEqual([]);
  });

  test('a config.json that is not JSON, or a path that cannot be read: one ConfigUnreadable finding', async () => {
    const dir = await folder('broken', { 'model.safetensors': LLAMA_FILE, 'config.json': '{"num_hidden_layers": 32,' });
    const cases = [
      [await openSafetensors(join(dir, 'model.safetensors')), /config\.json .*not valid JSON/],
      [await openSafetensors(LLAMA_FILE, { config: join(dir, 'absent.json') }), /config\.json .*cannot be read/],
    ];
    for (const [st, message] of /** @type {[import('../../web/index.js').SafetensorsFile, RegExp][]} */ (cases)) {
      expect(st.findings).toEqual([]);
      const card = await st.describe();
      expect(card.memory.kvCache).toBeUndefined();
      expect(card.family?.id).toBe('llama');
      await st.describe();
      expect(st.findings).toEqual([
        { code: 'ConfigUnreadable', severity: 'info', message: expect.stringMatching(message) },
      ]);
      expect(st.report.findings).toBe(st.findings);
      expect(st.report.loadable).toBe(true);
    }
  });

  test('a config option of another kind is a TypeError, before anything is read', async () => {
    for (const config of [42, {}, ['config.json'], new URL('file:///config.json')]) {
      let reads = 0;
      const source = { size: LLAMA_FILE.byteLength, read: async () => (reads++, new Uint8Array(0)) };
      await expect(openSafetensors(source, { config: /** @type {any} */ (config) })).rejects.toThrow(
        /options\.config must be/,
      );
      expect(reads).toBe(0);
    }
  });

  test.skipIf(!HAVE_REAL)('the real tiny GPT-2 beside its repository config.json: 2,048 bytes a token', async () => {
    const dir = join(served.dir, 'gpt2');
    await mkdir(dir);
    await copyFile(join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors'), join(dir, 'model.safetensors'));
    await writeFile(join(dir, 'config.json'), JSON.stringify(GPT2_TINY));
    const card = await (await openSafetensors(join(dir, 'model.safetensors'))).describe();
    // 2 x 4 layers x 4 heads (one KV head each) x 64 / 4 x 4 bytes (float32).
    expect(card.memory.kvCache).toEqual({
      bytesPer1000Tokens: 2_048_000,
      bytesPerToken: 2048,
      layers: 4,
      kvHeads: 4,
      headDim: 16,
      dtype: 'F32',
      dtypeFrom: 'config',
      source: 'config.json',
    });
    expect(card.family?.id).toBe('gpt2');
    const shown = await run(['inspect', '--json', join(dir, 'model.safetensors')]);
    expect(JSON.parse(shown.stdout).card.memory.kvCache.bytesPerToken).toBe(2048);
  });
});

describe('a folder or a pick of one model.safetensors and its config.json', () => {
  test('openSafetensorsIndex on the folder, or on [file, config]: a model of one shard with the KV cache', async () => {
    const dir = await folder('pick', { 'model.safetensors': LLAMA_FILE, 'config.json': LLAMA3_8B });
    const picked = [new File([LLAMA_FILE], 'model.safetensors'), new File([LLAMA3_8B], 'config.json')];
    for (const source of [dir, picked, [...picked].reverse()]) {
      const model = await openSafetensorsIndex(source);
      expect(model.shards.map((s) => s.name)).toEqual(['model.safetensors']);
      expect((await model.describe()).memory.kvCache).toMatchObject(LLAMA_KV);
    }
  });

  test('inspect FOLDER and inspect FILE: the KV cache line, 131,072 bytes a token; a bad config: its finding', async () => {
    const dir = await folder('cli', { 'model.safetensors': LLAMA_FILE, 'config.json': LLAMA3_8B });
    for (const argument of [dir, join(dir, 'model.safetensors')]) {
      const shown = await run(['inspect', argument]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(KV_LINE);
      const json = JSON.parse((await run(['inspect', '--json', argument])).stdout);
      const [entry] = Array.isArray(json) ? json : [json];
      expect(entry.card.memory.kvCache).toMatchObject(LLAMA_KV);
    }
    const bad = await folder('cli-bad', { 'model.safetensors': LLAMA_FILE, 'config.json': '{"n_layer": 2,' });
    const shown = await run(['inspect', bad]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toMatch(/^ {2}KV cache/m);
    expect(shown.stdout).toMatch(/info +ConfigUnreadable: the config\.json beside the weights is not valid JSON/);
  });
});

describe('each component of a diffusers pipeline, with its own config.json', () => {
  // HiDream-I1's layout (HiDream-ai/HiDream-I1-Full, model_index.json): a CLIP text encoder,
  // Llama 3.1 8B as text_encoder_4 (sharded), the transformer with a diffusers config.
  const INDEX = {
    weight_map: {
      'model.layers.0.mlp.gate_proj.weight': 'model-00001-of-00001.safetensors',
      'model.layers.0.self_attn.q_proj.weight': 'model-00001-of-00001.safetensors',
    },
  };
  const files = {
    'model_index.json': JSON.stringify({
      _class_name: 'HiDreamImagePipeline',
      text_encoder: ['transformers', 'CLIPTextModelWithProjection'],
      text_encoder_4: ['transformers', 'LlamaForCausalLM'],
      transformer: ['diffusers', 'HiDreamImageTransformer2DModel'],
      llama_one: ['transformers', 'LlamaForCausalLM'],
    }),
    'text_encoder/model.safetensors': writeSafetensors([
      { name: 'text_model.final_layer_norm.weight', dtype: 'F32', shape: [8], data: new Uint8Array(32) },
    ]),
    'text_encoder/config.json': CLIP_TEXT,
    'text_encoder_4/model-00001-of-00001.safetensors': LLAMA_FILE,
    'text_encoder_4/model.safetensors.index.json': JSON.stringify(INDEX),
    'text_encoder_4/config.json': LLAMA3_8B,
    'llama_one/model.safetensors': LLAMA_FILE,
    'llama_one/config.json': LLAMA3_8B,
    'transformer/diffusion_pytorch_model.safetensors': writeSafetensors([BF16('x_embedder.proj.weight', [8, 8])]),
    // HiDream-ai/HiDream-I1-Full, transformer/config.json: sizes, but a diffusers model's.
    'transformer/config.json': JSON.stringify({
      _class_name: 'HiDreamImageTransformer2DModel',
      attention_head_dim: 128,
      num_attention_heads: 20,
      num_layers: 16,
      num_single_layers: 32,
    }),
  };

  test('from a path, picked files and a URL: the KV cache of the decoders only', async () => {
    const dir = await folder('hidream', files);
    const picked = Object.entries(files).map(([path, content]) => {
      const file = new File([content], path.split('/').pop() ?? path);
      Object.defineProperty(file, 'webkitRelativePath', { value: `hidream/${path}` });
      return file;
    });
    for (const source of [dir, picked, served.server.url('/hidream/model_index.json')]) {
      const pipeline = await openSafetensorsPipeline(/** @type {any} */ (source));
      const kv = Object.fromEntries(
        await Promise.all(
          pipeline.components.map(async (c) => [c.name, (await c.model?.describe())?.memory.kvCache?.bytesPerToken]),
        ),
      );
      expect(kv).toEqual({
        llama_one: 131_072,
        text_encoder: undefined,
        text_encoder_4: 131_072,
        transformer: undefined,
      });
      expect(pipeline.findings).toEqual([]);
    }
    const shown = await run(['inspect', dir]);
    expect(shown.stdout.match(/^ {2}KV cache +125\.0 MiB per 1,000 tokens/gm)).toHaveLength(2);
  });
});
