// The card panel's memory lines in Chromium (issue 29, item 6): a picked file shows what its
// weights take, and a picked folder with a decoder's config.json also its KV cache per 1,000
// tokens, as does one file picked with its config.json; a folder whose config.json is broken
// shows the finding and no KV cache line.
import { describe, expect, test } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { LLAMA31_8B } from '../js/model_configs.js';

const demo = demoBrowser('stw-card-memory-');
const text = (page, testid) => page.textContent(`[data-testid=${testid}]`);

// Llama 3.1 8B's sizes, its torch_dtype set to bfloat16.
const LLAMA3_8B_CONFIG = { ...LLAMA31_8B, torch_dtype: 'bfloat16' };

/** A folder with one BF16 shard of Llama names, its index and `config` as config.json. */
async function modelFolder(name, config) {
  const dir = join(demo.dir, name);
  await mkdir(dir, { recursive: true });
  const shard = writeSafetensors([
    { name: 'model.layers.0.self_attn.q_proj.weight', dtype: 'BF16', shape: [64, 64], data: new Uint8Array(8192) },
    { name: 'model.layers.0.mlp.gate_proj.weight', dtype: 'BF16', shape: [128, 64], data: new Uint8Array(16384) },
  ]);
  const weightMap = {
    'model.layers.0.mlp.gate_proj.weight': 'model-00001-of-00001.safetensors',
    'model.layers.0.self_attn.q_proj.weight': 'model-00001-of-00001.safetensors',
  };
  await writeFile(join(dir, 'model-00001-of-00001.safetensors'), shard);
  await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: weightMap }));
  await writeFile(join(dir, 'config.json'), config);
  return dir;
}

async function pickFolder(page, dir) {
  await page.evaluate(() => {
    document.body.dataset.state = 'picking';
  });
  await page.setInputFiles('[data-testid=folder-input]', dir);
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state));
}

describe('the card panel shows memory and the KV cache (Chromium)', () => {
  test('a picked file: the weights at 16, 8 and 4 bits; no KV cache line', async () => {
    const { page, errors } = await openDemo(demo);
    const path = join(demo.dir, 'f32.safetensors');
    await writeFile(
      path,
      writeSafetensors([{ name: 'w', dtype: 'F32', shape: [256, 256], data: new Uint8Array(262144) }]),
    );
    await pickFile(page, path);
    expect(await text(page, 'card-memory')).toBe('256.0 KiB stored; 16-bit 128.0 KiB, 8-bit 64.0 KiB, 4-bit 32.0 KiB');
    expect(await page.$('[data-testid=card-kv-cache]')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a picked folder with a Llama 3 8B config.json: 125.0 MiB per 1,000 tokens', async () => {
    const { page, errors } = await openDemo(demo);
    await pickFolder(page, await modelFolder('llama3', JSON.stringify(LLAMA3_8B_CONFIG)));
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await text(page, 'card-memory')).toMatch(/^24\.0 KiB stored; 16-bit 24\.0 KiB/);
    // 2 x 32 layers x 8 heads x 128 x 2 bytes = 131,072 bytes a token.
    expect(await text(page, 'card-kv-cache')).toBe(
      '125.0 MiB per 1,000 tokens (32 layers × 8 KV heads × 128 × BF16, config.json)',
    );
    const labels = await page.$$eval('[data-testid=card-facts] dt', (dts) => dts.map((d) => d.textContent));
    const at = labels.indexOf('Parameters');
    expect(labels.slice(at, at + 4)).toEqual(['Parameters', 'Size', 'Memory', 'KV cache']);
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a file picked with its config.json (issue 37): the KV cache line; a broken one: the finding', async () => {
    const { page, errors } = await openDemo(demo);
    const dir = join(demo.dir, 'one-file');
    await mkdir(dir, { recursive: true });
    const weights = join(dir, 'model.safetensors');
    await writeFile(
      weights,
      writeSafetensors([
        { name: 'model.layers.0.self_attn.q_proj.weight', dtype: 'BF16', shape: [64, 64], data: new Uint8Array(8192) },
      ]),
    );
    await writeFile(join(dir, 'config.json'), JSON.stringify(LLAMA3_8B_CONFIG));
    await pickFile(page, [weights, join(dir, 'config.json')]);
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await text(page, 'card-title')).toBe('model.safetensors');
    expect(await text(page, 'card-kv-cache')).toBe(
      '125.0 MiB per 1,000 tokens (32 layers × 8 KV heads × 128 × BF16, config.json)',
    );
    if (process.env.SCREENSHOT_FILE) await page.screenshot({ path: process.env.SCREENSHOT_FILE, fullPage: true });
    // The same file alone: no KV cache line.
    await pickFile(page, weights);
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await page.$('[data-testid=card-kv-cache]')).toBeNull();
    await writeFile(join(dir, 'config.json'), '{"num_hidden_layers": 32,');
    await pickFile(page, [weights, join(dir, 'config.json')]);
    expect(await page.$('[data-testid=card-kv-cache]')).toBeNull();
    expect(await page.textContent('[data-testid=findings]')).toMatch(/ConfigUnreadable/);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a folder whose config.json is not JSON: the ConfigUnreadable finding, no KV cache line', async () => {
    const { page, errors } = await openDemo(demo);
    await pickFolder(page, await modelFolder('broken-config', '{"num_hidden_layers": 32,'));
    expect(await text(page, 'verdict')).toBe('loadable');
    expect(await page.$('[data-testid=card-kv-cache]')).toBeNull();
    expect(await text(page, 'card-memory')).toMatch(/^24\.0 KiB stored/);
    expect(await page.textContent('[data-testid=findings]')).toMatch(/ConfigUnreadable/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
