// The KV cache on the card of a model opened with its config.json (issue 29, item 6): the
// config.json sizes of real models (each cites the repository, path and commit it copies; the
// expected bytes are worked out here from the formula, 2 x layers x kv heads x head size x
// bytes); config.json read once (configOnce). A sharded model with its config beside the
// weights: card_kv_cache_sharded.test.js.
import { describe, expect, test } from 'vitest';
import { initSafetensors } from '../../web/index.js';
import { kvCacheEstimate, mainFloatDtype } from '../../web/card/kv_cache.js';
import { configOnce } from '../../web/sharded/model_config.js';
import { LLAMA31_8B, SD14_TEXT_ENCODER } from './model_configs.js';

const { tables } = await initSafetensors();
const bits = (/** @type {string} */ name) => tables.dtypes.find((d) => d.name === name)?.bits ?? null;

// CesarChaMal/Wizard-Vicuna-30B-Uncensored-GPTQ, config.json @ 3af62c796031 (LLaMA 30B: no
// num_key_value_heads, so one per head; no head_dim, so 6656 / 52 = 128).
const WIZARD_VICUNA_30B = {
  architectures: ['LlamaForCausalLM'],
  hidden_size: 6656,
  model_type: 'llama',
  num_attention_heads: 52,
  num_hidden_layers: 60,
  torch_dtype: 'float16',
  quantization_config: { bits: 4, group_size: -1, quant_method: 'gptq' },
};
// Decentralised-AI/WizardCoder-15B-1.0-GPTQ, config.json @ 9bbbdc1afc23 (GPTBigCode: GPT-2 names,
// multi_query: one key/value head; 6144 / 48 = 128).
const WIZARDCODER_15B = {
  architectures: ['GPTBigCodeForCausalLM'],
  model_type: 'gpt_bigcode',
  multi_query: true,
  n_embd: 6144,
  n_head: 48,
  n_layer: 40,
  torch_dtype: 'float16',
};
// Ibtasam-98/medgemma-27b-it, config.json @ 248890241658 (Gemma 3: the language model's sizes in
// text_config; head_dim 128 where 5376 / 32 would be 168).
const MEDGEMMA_27B = {
  architectures: ['Gemma3ForConditionalGeneration'],
  model_type: 'gemma3',
  text_config: {
    head_dim: 128,
    hidden_size: 5376,
    model_type: 'gemma3_text',
    num_attention_heads: 32,
    num_hidden_layers: 62,
    num_key_value_heads: 16,
    sliding_window: 1024,
    torch_dtype: 'bfloat16',
  },
  torch_dtype: 'bfloat16',
  vision_config: { hidden_size: 1152, num_attention_heads: 16, num_hidden_layers: 27 },
};

describe('the KV cache of a decoder language model from its config.json', () => {
  test('real configs: Llama 3 8B, LLaMA 30B, StarCoder (multi-query), MedGemma (text_config)', () => {
    expect(kvCacheEstimate(LLAMA31_8B, null, bits)).toEqual({
      bytesPer1000Tokens: 131_072_000,
      bytesPerToken: 131_072, // 2 x 32 x 8 x 128 x 2
      layers: 32,
      kvHeads: 8,
      headDim: 128,
      dtype: 'F16',
      dtypeFrom: 'config',
      source: 'config.json',
    });
    expect(kvCacheEstimate(WIZARD_VICUNA_30B, null, bits)?.bytesPerToken).toBe(1_597_440); // 2 x 60 x 52 x 128 x 2
    expect(kvCacheEstimate(WIZARDCODER_15B, null, bits)).toMatchObject({ bytesPerToken: 20_480, kvHeads: 1 }); // 2 x 40 x 1 x 128 x 2
    expect(kvCacheEstimate(MEDGEMMA_27B, null, bits)).toMatchObject({
      bytesPerToken: 507_904, // 2 x 62 x 16 x 128 x 2
      headDim: 128,
      dtype: 'BF16',
      source: 'config.json text_config',
    });
  });

  test('Llama 3 8B in bfloat16: 131,072 bytes a token; the weights dtype when the config names none', () => {
    const bf16 = { ...LLAMA31_8B, torch_dtype: 'bfloat16' };
    expect(kvCacheEstimate(bf16, null, bits)?.bytesPerToken).toBe(131_072);
    const unnamed = { ...LLAMA31_8B, torch_dtype: undefined };
    expect(kvCacheEstimate(unnamed, 'F32', bits)).toMatchObject({ bytesPerToken: 262_144, dtypeFrom: 'weights' });
    expect(kvCacheEstimate(unnamed, null, bits)).toBeNull();
    expect(kvCacheEstimate({ ...unnamed, dtype: 'bfloat16' }, 'F32', bits)?.dtype).toBe('BF16');
    expect(mainFloatDtype({ I32: 900, F16: 100, BF16: 50 })).toBe('F16'); // a GPTQ file's packs are not floats
    expect(mainFloatDtype({ U8: 10 })).toBeNull();
  });

  test('no estimate where the config cannot give one: never a guess', () => {
    expect(kvCacheEstimate(SD14_TEXT_ENCODER, 'F32', bits)).toBeNull(); // not a decoder
    expect(kvCacheEstimate({ ...LLAMA31_8B, is_encoder_decoder: true }, null, bits)).toBeNull();
    // A diffusers config (its ConfigMixin writes _class_name) with a decoder's field names.
    const unnamed = { ...LLAMA31_8B, architectures: undefined };
    expect(kvCacheEstimate(unnamed, null, bits)?.bytesPerToken).toBe(131_072);
    expect(kvCacheEstimate({ ...unnamed, _class_name: 'SanaTransformer2DModel' }, null, bits)).toBeNull();
    expect(kvCacheEstimate({ ...LLAMA31_8B, kv_lora_rank: 512 }, null, bits)).toBeNull(); // DeepSeek's latent cache
    for (const field of ['num_hidden_layers', 'num_attention_heads'])
      expect(kvCacheEstimate({ ...LLAMA31_8B, [field]: undefined }, null, bits)).toBeNull();
    const noHeadDim = { ...LLAMA31_8B, head_dim: undefined };
    expect(kvCacheEstimate(noHeadDim, null, bits)?.headDim).toBe(128); // 4096 / 32
    expect(kvCacheEstimate({ ...noHeadDim, hidden_size: 4097 }, null, bits)).toBeNull(); // not a whole head size
    expect(kvCacheEstimate({ ...LLAMA31_8B, num_key_value_heads: null }, null, bits)?.kvHeads).toBe(32);
    for (const bad of [0, -8, 2.5, '8', 1e20])
      expect(kvCacheEstimate({ ...LLAMA31_8B, num_key_value_heads: bad }, null, bits)).toBeNull();
    expect(kvCacheEstimate({ ...LLAMA31_8B, torch_dtype: 'int8' }, null, bits)).toBeNull();
    for (const notConfig of [null, 3, 'x', [LLAMA31_8B]]) expect(kvCacheEstimate(notConfig, 'F16', bits)).toBeNull();
  });
});

test('config.json is read once; a read that was aborted is tried again; a problem is told once', async () => {
  const controller = new AbortController();
  controller.abort(new Error('stopped'));
  let reads = 0;
  const read = async () => {
    reads++;
    if (reads === 1) throw new Error('the connection closed');
    return new TextEncoder().encode('{"num_hidden_layers": 2}');
  };
  /** @type {string[]} */
  const problems = [];
  const config = configOnce(read, (p) => problems.push(p));
  await expect(config(controller.signal)).rejects.toThrow('stopped');
  expect(await config()).toEqual({ num_hidden_layers: 2 });
  expect(await config()).toEqual({ num_hidden_layers: 2 });
  expect(reads).toBe(2);
  const broken = configOnce(
    async () => new TextEncoder().encode('{'),
    (p) => problems.push(p),
  );
  expect(await broken()).toBeNull();
  expect(await broken()).toBeNull();
  const failing = configOnce(
    async () => {
      throw new Error('permission denied');
    },
    (p) => problems.push(p),
  );
  expect(await failing()).toBeNull();
  expect(problems).toEqual([
    expect.stringMatching(/not valid JSON/),
    'the config.json beside the weights cannot be read (permission denied)',
  ]);
});
