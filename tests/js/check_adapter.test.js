// checkAdapter and `safetensors-wasm check-adapter`: real adapters (../shared fixtures, and the
// real layouts of wild_layouts*.js) against base headers written from the real base models
// (adapter_bases.js). Generated pairs, sharded and HTTP bases, bad input:
// check_adapter_generated.test.js.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { checkAdapter } from '../../web/index.js';
import { bases } from './adapter_bases.js';
import { headerOnly, loraFile } from './header_only.js';
import { WILD_LAYOUTS } from './wild_layouts.js';
import { HAVE_REAL, REAL_DIR, haveFixtures, recordingSource } from './fixtures.js';
import { familyMismatchText } from '../../web/card/card_text.js';

const WILD_DIR = new URL('../../../shared/fixtures/wild/', import.meta.url).pathname;
const HAVE_WILD = haveFixtures(WILD_DIR);

const base = Object.fromEntries(Object.entries(bases).map(([k, f]) => [k, headerOnly(f())]));
const fixture = async (/** @type {string} */ path) => new Uint8Array(await readFile(path));
const layout = (/** @type {string} */ name) => {
  const found = WILD_LAYOUTS.find((l) => l.name === name);
  if (!found) throw new Error(name);
  return headerOnly(found.tensors());
};

describe.runIf(HAVE_WILD && HAVE_REAL)('real adapters against their real bases', () => {
  test.each([
    ['real LoKr (kohya + LyCORIS) on SD 1.5', `${REAL_DIR}kohya_lycoris_lokr_dim4_f16.safetensors`, 'sd15Ldm', 350],
    [
      'kohya FLUX LoRA (cut short) on FLUX.1-dev BFL',
      `${WILD_DIR}kohya_flux_lora_truncated.safetensors`,
      'fluxBfl',
      304,
    ],
    ['PEFT UNet LoRA on SD 1.5', `${WILD_DIR}peft_sd15_unet_to_qkv.safetensors`, 'sd15Ldm', 96],
    ['diffusers attention processors on SD 1.5', `${WILD_DIR}diffusers_old_processor_sd15.safetensors`, 'sd15Ldm', 128],
    ['mlx_lm LoRA on gemma-2b', `${WILD_DIR}mlx_lora_gemma2b_q_v.safetensors`, 'gemma2b', 8],
    [
      'PEFT on distilgpt2 (Conv1D, no transformer. prefix)',
      `${WILD_DIR}peft_distilgpt2_c_attn.safetensors`,
      'distilgpt2',
      6,
    ],
    ['PEFT on t5-small', `${WILD_DIR}peft_t5_small_q_v.safetensors`, 't5small', 36],
    ['PEFT on bert-base (classifier saved)', `${WILD_DIR}peft_bert_query_value_seqcls.safetensors`, 'bertBase', 24],
    ['PEFT on distilbert', `${WILD_DIR}peft_distilbert_q_lin_v_lin.safetensors`, 'distilbert', 12],
    [
      'PEFT on bloom-560m (fused query_key_value)',
      `${WILD_DIR}peft_bloom560m_query_key_value.safetensors`,
      'bloom560m',
      24,
    ],
    ['PEFT on gemma-3-270m', `${WILD_DIR}peft_gemma3_270m_qkvo.safetensors`, 'gemma3_270m', 72],
  ])('%s', async (_, path, baseName, modules) => {
    const r = await checkAdapter(await fixture(path), base[baseName]);
    expect(r.unmatched).toEqual([]);
    expect(r).toMatchObject({ compatible: true, matched: modules, modules });
  });

  test('an SD 1.5 LoKr on SDXL and a FLUX LoRA on SD 1.5: not compatible, with reasons', async () => {
    const lokr = await checkAdapter(await fixture(`${REAL_DIR}kohya_lycoris_lokr_dim4_f16.safetensors`), base.sdxlLdm);
    expect(lokr.compatible).toBe(false);
    expect(lokr.matched).toBeLessThan(lokr.modules / 2);
    expect(lokr.unmatched.some((m) => /no module of the base's unet is named down_blocks_3/.test(m.reason))).toBe(true);
    // What each side is, from the card: the words a user needs first.
    expect(lokr).toMatchObject({ adapterFamily: { id: 'sd1' }, baseFamily: { id: 'sdxl' } });
    expect(familyMismatchText(lokr)).toBe(
      'the adapter is for Stable Diffusion 1.x (sd1); the base is Stable Diffusion XL (sdxl)',
    );
    const flux = await checkAdapter(await fixture(`${WILD_DIR}kohya_flux_lora_truncated.safetensors`), base.sd15Ldm);
    expect(flux).toMatchObject({ compatible: false, matched: 0, baseFormat: 'ldm', adapterFormat: 'kohya' });
    expect(flux).toMatchObject({ adapterFamily: { id: 'flux1' }, baseFamily: { id: 'sd1' } });
    expect(flux.unmatched[0].reason).toMatch(/double_blocks_0_img_attn_proj/);
  });

  test('the kohya FLUX LoRA on FLUX.1-dev in diffusers layout: qkv and linear1 found as their stacked parts', async () => {
    const r = await checkAdapter(await fixture(`${WILD_DIR}kohya_flux_lora_truncated.safetensors`), base.fluxDiffusers);
    expect(r.unmatched).toEqual([]);
    expect(familyMismatchText(r)).toBeNull(); // compatible: nothing to say of families
    expect(r).toMatchObject({ compatible: true, matched: 304, baseFormat: 'diffusers', adapterFormat: 'kohya' });
  });

  test('a textual inversion and a model are not adapters; lora_diffusion is said unsupported', async () => {
    const ti = await checkAdapter(
      await fixture(`${WILD_DIR}diffusers_textual_inversion_sd15.safetensors`),
      base.sd15Ldm,
    );
    expect(ti).toMatchObject({ compatible: false, adapterFormat: null, modules: 0 });
    expect(ti.unmatched).toEqual([
      { key: '', reason: expect.stringMatching(/textual-inversion embedding, not an adapter/) },
    ]);
    const model = await checkAdapter(await fixture(`${WILD_DIR}tinygrad_cnn.safetensors`), base.sd15Ldm);
    expect(model.unmatched[0].reason).toMatch(/not an adapter/);
    const cloneofsimo = await checkAdapter(
      await fixture(`${WILD_DIR}cloneofsimo_analog_svd_rank4.safetensors`),
      base.sd15Ldm,
    );
    expect(cloneofsimo.compatible).toBe(false);
    expect(cloneofsimo.unmatched[0].reason).toMatch(/^not supported: lora_diffusion/);
  });

  test('the adapter given as a { size, read } source is read up to its header only', async () => {
    const bytes = await fixture(`${WILD_DIR}peft_sd15_unet_to_qkv.safetensors`);
    const headerEnd = 8 + Number(new DataView(bytes.buffer).getBigUint64(0, true));
    const source = recordingSource(bytes);
    expect((await checkAdapter(source, base.sd15Ldm)).compatible).toBe(true);
    const furthest = Math.max(...source.reads.map(([offset, length]) => offset + length));
    expect(furthest).toBeLessThanOrEqual(headerEnd);
    expect(headerEnd).toBeLessThan(bytes.byteLength / 20);
  });
});

describe('real layouts (wild_layouts.js) against SD 1.5 and SD 2.1', () => {
  test('an SD 2.1 diffusers LoRA fits SD 2.1, not SD 1.5 (cross-attention 1024 against 768)', async () => {
    const sd21 = layout('diffusers_unet_sd21');
    expect(await checkAdapter(sd21, base.sd21Ldm)).toMatchObject({ compatible: true, matched: 128 });
    const wrong = await checkAdapter(sd21, base.sd15Ldm);
    expect(wrong.compatible).toBe(false);
    expect(wrong.matched).toBe(96);
    expect(wrong.unmatched[0].reason).toMatch(/reads 1024 inputs; .* takes 768/);
  });
  test('SD 1.x layouts fit SD 1.5 in LDM and in diffusers layout', async () => {
    for (const name of ['diffusers_unet_sd15', 'diffusers_old_processor_sd14'])
      expect((await checkAdapter(layout(name), base.sd15Ldm)).compatible).toBe(true);
  });
  test('a PEFT LoRA on the GPTQ MythoMax-L2-13B: checked against the unpacked [out, in] of its qweights', async () => {
    const gptq = layout('gptq_llama2_13b_mythomax'); // q_proj qweight [640, 5120] I32, down_proj [1728, 5120]
    const modules = /** @type {[string, number, number, number][]} */ ([
      ['base_model.model.model.layers.0.self_attn.q_proj', 16, 5120, 5120],
      ['base_model.model.model.layers.39.mlp.down_proj', 16, 13824, 5120],
    ]);
    const ok = await checkAdapter(loraFile(modules, 'lora_A.weight', 'lora_B.weight'), gptq);
    expect(ok.unmatched).toEqual([]);
    expect(ok).toMatchObject({ compatible: true, matched: 2, baseFormat: 'transformers' });
    const llama7b = loraFile(
      [['base_model.model.model.layers.0.mlp.down_proj', 16, 11008, 4096]],
      'lora_A.weight',
      'lora_B.weight',
    );
    expect((await checkAdapter(llama7b, gptq)).unmatched).toEqual([
      {
        key: 'base_model.model.model.layers.0.mlp.down_proj',
        reason:
          "lora_A.weight [16, 11008] reads 11008 inputs; the base's model.layers.0.mlp.down_proj.qweight (unpacked) [5120, 13824] takes 13824",
      },
    ]);
  });
});
