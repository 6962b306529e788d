// checkAdapter on generated pairs: kohya SDXL, diffusers FLUX and PEFT Llama adapters against
// base headers written from the real base models (adapter_bases.js), with rank, in and out
// mismatches, sharded and HTTP bases read header only, and bad input. Real adapters and real
// layouts: check_adapter.test.js.
import { describe, expect, test } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAdapter, serializeSafetensors } from '../../web/index.js';
import { bases } from './adapter_bases.js';
import { headerOnly, loraFile } from './header_only.js';
import { startServer } from './http_server.js';

const base = Object.fromEntries(Object.entries(bases).map(([k, f]) => [k, headerOnly(f())]));

describe('generated pairs', () => {
  const sdxlModule = 'lora_unet_input_blocks_4_1_transformer_blocks_1_attn2_to_k';
  test('kohya SDXL (LDM names, te1 and te2) on SDXL; rank, in and out mismatches and a missing module', async () => {
    const good = loraFile([
      [sdxlModule, 8, 2048, 640],
      ['lora_te1_text_model_encoder_layers_3_mlp_fc1', 8, 768, 3072],
      ['lora_te2_text_model_encoder_layers_31_self_attn_v_proj', 8, 1280, 1280],
    ]);
    expect(await checkAdapter(good, base.sdxlLdm)).toMatchObject({ compatible: true, matched: 3, baseFormat: 'ldm' });
    const bad = headerOnly([
      [`${sdxlModule}.lora_down.weight`, [8, 2048]],
      [`${sdxlModule}.lora_up.weight`, [640, 4]],
      ['lora_unet_input_blocks_5_1_proj_in.lora_down.weight', [8, 600]],
      ['lora_unet_input_blocks_5_1_proj_in.lora_up.weight', [640, 8]],
      ['lora_unet_input_blocks_5_1_proj_out.lora_down.weight', [8, 640]],
      ['lora_unet_input_blocks_5_1_proj_out.lora_up.weight', [320, 8]],
      ['lora_unet_input_blocks_1_1_proj_in.lora_down.weight', [8, 320]],
      ['lora_unet_input_blocks_1_1_proj_in.lora_up.weight', [320, 8]],
    ]);
    const r = await checkAdapter(bad, base.sdxlLdm);
    expect(r).toMatchObject({ compatible: false, matched: 0, modules: 4 });
    expect(r.unmatched.map((m) => m.reason)).toEqual([
      expect.stringMatching(/lora_up.weight has rank 4, its pair rank 8/),
      expect.stringMatching(/reads 600 inputs; the base's .*input_blocks.5.1.proj_in.weight \[640, 640\] takes 640/),
      expect.stringMatching(/gives 320 outputs; .* has 640/),
      expect.stringMatching(/no module of the base's unet is named input_blocks_1_1_proj_in/),
    ]);
  });

  test('a diffusers FLUX LoRA on FLUX.1-dev in BFL layout; an MLP of another width does not fit', async () => {
    // Every linear module of diffusers' FluxTransformer2DModel, as diffusers' trainers name them.
    const modules = bases.fluxDiffusers().map(([name, [out, inputs]]) => {
      const m = /** @type {[string, number, number, number]} */ ([`transformer.${name.slice(0, -7)}`, 16, inputs, out]);
      return m;
    });
    const lora = loraFile(modules, 'lora_A.weight', 'lora_B.weight');
    const r = await checkAdapter(lora, base.fluxBfl);
    expect(r.unmatched).toEqual([]);
    expect(r).toMatchObject({ compatible: true, matched: 504, modules: 504, baseFormat: 'bfl' });
    const mlp = modules.find(([m]) => m === 'transformer.single_transformer_blocks.5.proj_mlp');
    if (mlp) mlp[3] = 9216;
    const wrong = await checkAdapter(loraFile(modules, 'lora_A.weight', 'lora_B.weight'), base.fluxBfl);
    expect(wrong).toMatchObject({ compatible: false, matched: 503 });
    expect(wrong.unmatched).toEqual([
      {
        key: 'transformer.single_transformer_blocks.5.proj_mlp',
        reason:
          "lora_B.weight [9216, 16] gives 9216 outputs; the base's single_blocks.5.linear1.weight [21504, 3072] " +
          '(its rows 9216 to 21503, a part of a fused weight: 12288 rows) has 12288',
      },
    ]);
  });

  test('PEFT on a Llama layout, a sharded base with and without `model.`, and a LoRA for another model', async () => {
    const adapter = loraFile(
      [0, 1].map((l) => [`base_model.model.model.layers.${l}.self_attn.k_proj`, 8, 2048, 256]),
      'lora_A.weight',
      'lora_B.weight',
    );
    expect((await checkAdapter(adapter, base.gemma2b)).compatible).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'check-adapter-'));
    const weights = (/** @type {string} */ prefix, /** @type {number} */ l) => ({
      [`${prefix}layers.${l}.self_attn.k_proj.weight`]: {
        dtype: 'F16',
        shape: [256, 2048],
        data: new Uint16Array(256 * 2048),
      },
    });
    for (const [l, file] of [
      [0, 'model-00001-of-00002.safetensors'],
      [1, 'model-00002-of-00002.safetensors'],
    ])
      await writeFile(
        join(dir, file),
        new Uint8Array(await (await serializeSafetensors(weights('', Number(l)))).arrayBuffer()),
      );
    const sharded = await checkAdapter(adapter, dir);
    expect(sharded).toMatchObject({ compatible: true, matched: 2, baseFormat: 'transformers' });
    const llama = await checkAdapter(
      loraFile([['base_model.model.model.layers.0.self_attn.k_proj', 8, 4096, 1024]], 'lora_A.weight', 'lora_B.weight'),
      base.gemma2b,
    );
    expect(llama.compatible).toBe(false);
    expect(llama.unmatched[0].reason).toMatch(/reads 4096 inputs/);
    const sdOnLlm = await checkAdapter(loraFile([[sdxlModule, 8, 2048, 640]]), base.gemma2b);
    expect(sdOnLlm.unmatched[0].reason).toMatch(/input_blocks_4_1/);
  });

  test('an HTTP base: only header bytes are asked for', async () => {
    const server = await startServer();
    try {
      const bytes = await (
        await serializeSafetensors({
          'model.layers.0.self_attn.k_proj.weight': {
            dtype: 'F32',
            shape: [256, 2048],
            data: new Float32Array(256 * 2048),
          },
        })
      ).arrayBuffer();
      server.files.set('/base.safetensors', { bytes: new Uint8Array(bytes), etag: '"b"' });
      const ranges = [];
      const fetchCounting = /** @type {typeof fetch} */ (
        async (url, init) => {
          ranges.push(new Headers(init?.headers).get('range'));
          return fetch(url, init);
        }
      );
      const adapter = loraFile(
        [['base_model.model.model.layers.0.self_attn.k_proj', 8, 2048, 256]],
        'lora_A.weight',
        'lora_B.weight',
      );
      const r = await checkAdapter(adapter, server.url('/base.safetensors'), { fetch: fetchCounting });
      expect(r.compatible).toBe(true);
      const headerEnd = 8 + Number(new DataView(bytes).getBigUint64(0, true));
      expect(ranges.length).toBeGreaterThan(0);
      let asked = 0;
      for (const range of ranges) {
        const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
        expect(m).not.toBeNull();
        asked += Number(m?.[2]) - Number(m?.[1]) + 1;
      }
      // One window of at most 256 KiB from the start (README: the header in one request when it
      // fits), against a file of 2 MiB: the tensor data is never asked for.
      expect(asked).toBeLessThanOrEqual(256 * 1024);
      expect(headerEnd).toBeLessThan(asked);
      expect(bytes.byteLength).toBeGreaterThan(2 * 1024 * 1024); // and the data (2 MiB) is beyond it
    } finally {
      await server.close();
    }
  });

  test('bad input: a cut-short base header, an adapter as base, options checked', async () => {
    const adapter = loraFile([['lora_unet_conv_in', 4, 4, 320]]);
    await expect(checkAdapter(adapter, base.sd15Ldm.subarray(0, 100))).rejects.toMatchObject({
      name: 'SafetensorsError',
    });
    const both = await checkAdapter(adapter, adapter);
    expect(both.unmatched[0].reason).toMatch(/adapter itself/);
    await expect(checkAdapter(adapter, base.sd15Ldm, /** @type {any} */ ('x'))).rejects.toThrow(TypeError);
  });
});
