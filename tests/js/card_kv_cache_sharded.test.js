// The KV cache on the card of a sharded model opened with its config.json beside the weights
// (issue 29, item 6): a folder, its index, picked files and a URL; a bad config.json and none;
// inspect's KV cache line. The estimate from real configs: card_kv_cache.test.js.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSafetensorsIndex } from '../../web/index.js';
import { kvCacheText } from '../../web/card/card_text.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { servedFolders } from './http_server.js';
import { run } from './cli_run.js';
import { LLAMA31_8B, SD14_TEXT_ENCODER } from './model_configs.js';

describe('a sharded model with its config.json', () => {
  const served = servedFolders('st-kv-');
  const shard = writeSafetensors([
    { name: 'model.layers.0.self_attn.q_proj.weight', dtype: 'BF16', shape: [4, 4], data: new Uint8Array(32) },
    { name: 'model.layers.0.mlp.gate_proj.weight', dtype: 'BF16', shape: [8, 4], data: new Uint8Array(64) },
  ]);
  const index = {
    metadata: { total_size: 96 },
    weight_map: {
      'model.layers.0.mlp.gate_proj.weight': 'model-00001-of-00001.safetensors',
      'model.layers.0.self_attn.q_proj.weight': 'model-00001-of-00001.safetensors',
    },
  };
  /**
   * A folder `name` (on disk and served at /name/) with the shard, the index and `config`.
   * @param {string} name
   * @param {string | Uint8Array | null} config config.json's text or bytes; null: none
   */
  async function folder(name, config) {
    /** @type {Record<string, Uint8Array | string>} */
    const files = {
      'model-00001-of-00001.safetensors': shard,
      'model.safetensors.index.json': JSON.stringify(index),
    };
    if (config !== null) files['config.json'] = config;
    return served.folder(name, files);
  }

  test('from a folder, its index, picked files and a URL: the same KV cache; the config read once', async () => {
    const dir = await folder('llama', JSON.stringify({ ...LLAMA31_8B, torch_dtype: 'bfloat16' }));
    const picked = ['model-00001-of-00001.safetensors', 'model.safetensors.index.json', 'config.json'].map(
      (n) => new File([readFileSync(join(dir, n))], n),
    );
    const sources = [
      dir,
      join(dir, 'model.safetensors.index.json'),
      picked,
      served.server.url('/llama/model.safetensors.index.json'),
    ];
    for (const source of sources) {
      const model = await openSafetensorsIndex(/** @type {any} */ (source));
      const card = await model.describe();
      expect(card.memory.kvCache).toMatchObject({
        bytesPer1000Tokens: 131_072_000,
        dtype: 'BF16',
        dtypeFrom: 'config',
      });
      expect(card.family?.id).toBe('llama');
      expect(kvCacheText(card)).toBe('125.0 MiB per 1,000 tokens (32 layers × 8 KV heads × 128 × BF16, config.json)');
      expect(model.findings).toEqual([]);
      const configReads = served.server.log.filter((r) => r.path.endsWith('/config.json')).length;
      await model.describe();
      expect(served.server.log.filter((r) => r.path.endsWith('/config.json')).length).toBe(configReads);
    }
  });

  test('no config.json: no estimate and no finding; a bad one: a ConfigUnreadable finding, not a crash', async () => {
    for (const [name, config] of /** @type {[string, string | null][]} */ ([
      ['none', null],
      ['encoder', JSON.stringify(SD14_TEXT_ENCODER)],
    ])) {
      for (const source of [await folder(name, config), served.server.url(`/${name}/model.safetensors.index.json`)]) {
        const model = await openSafetensorsIndex(source);
        expect((await model.describe()).memory.kvCache).toBeUndefined();
        expect(model.findings).toEqual([]);
      }
    }
    for (const [name, config] of /** @type {[string, string | Uint8Array][]} */ ([
      ['truncated', JSON.stringify(LLAMA31_8B).slice(0, 40)],
      ['not-utf8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])],
    ])) {
      const dir = await folder(name, config);
      for (const source of [dir, served.server.url(`/${name}/model.safetensors.index.json`)]) {
        const model = await openSafetensorsIndex(source);
        expect(model.loadable).toBe(true);
        const card = await model.describe();
        expect(card.memory.kvCache).toBeUndefined();
        expect(card.family?.id).toBe('llama');
        expect(model.findings).toEqual([
          {
            code: 'ConfigUnreadable',
            severity: 'info',
            message: expect.stringMatching(/config\.json .*not valid JSON/),
          },
        ]);
        await model.describe();
        expect(model.findings).toHaveLength(1);
      }
    }
  });

  test('inspect prints the KV cache line of a folder, and the finding of a bad config.json', async () => {
    const good = await folder('cli-llama', JSON.stringify({ ...LLAMA31_8B, torch_dtype: 'bfloat16' }));
    const shown = await run(['inspect', good]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /\n {2}KV cache +125\.0 MiB per 1,000 tokens \(32 layers × 8 KV heads × 128 × BF16, config\.json\)\n/,
    );
    const bad = await run(['inspect', await folder('cli-bad', '{"num_hidden_layers": 32,')]);
    expect(bad.code).toBe(0);
    expect(bad.stdout).not.toMatch(/^ {2}KV cache/m);
    expect(bad.stdout).toMatch(/info +ConfigUnreadable: the config\.json beside the weights is not valid JSON/);
  });
});
