// createModelBom and `safetensors-wasm sbom`: CycloneDX 1.6 JSON, checked against the official
// 1.6 JSON schema (shipped by @cyclonedx/cyclonedx-library, validated with its strict validator),
// on models made here (real files read in place: bom_real.test.js).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelBom, verifyModelSignature } from '../../web/index.js';
import { PACKAGE_VERSION } from '../../web/bom/bom.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { publicPem, signModel } from './model_signer.js';
import { FIXED, props, schemaErrors, sha256 } from './bom_check.js';

// A kohya LoRA: one up/down pair, with the metadata kohya's train_network.py writes.
const lora = writeSafetensors(
  [
    {
      name: 'lora_unet_down_blocks_0_attentions_0_proj_in.lora_down.weight',
      dtype: 'F16',
      shape: [4, 320],
      data: new Uint8Array(2560),
    },
    {
      name: 'lora_unet_down_blocks_0_attentions_0_proj_in.lora_up.weight',
      dtype: 'F16',
      shape: [320, 4],
      data: new Uint8Array(2560),
    },
  ],
  {
    'modelspec.title': 'Watercolor <b>style</b>',
    'modelspec.author': 'someone',
    'modelspec.license': 'CreativeML Open RAIL-M',
    'modelspec.description': 'See urn:air:sdxl:lora:civitai:328553@368189',
    ss_network_module: 'networks.lora',
    ss_network_dim: '4',
    ss_network_alpha: '1.0',
    ss_base_model_version: 'sdxl_base_v1-0',
    ss_sd_model_name: 'sd_xl_base_1.0.safetensors',
    ss_learning_rate: '0.0001',
    ss_num_epochs: '10',
  },
);

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-bom-'));
  await mkdir(join(dir, 'lora', 'docs'), { recursive: true });
  await writeFile(join(dir, 'lora', 'watercolor.safetensors'), lora);
  await writeFile(join(dir, 'lora', 'README.md'), '# Watercolor\n');
  await writeFile(join(dir, 'lora', 'docs', 'sample.txt'), 'a prompt');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('createModelBom', () => {
  test('a folder: the model with its model card, each file with its SHA-256; valid CycloneDX 1.6', async () => {
    const calls = [];
    const bom = await createModelBom(join(dir, 'lora'), { ...FIXED, onProgress: (d, t) => calls.push([d, t]) });
    expect(await schemaErrors(bom)).toBeNull();
    expect(bom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: FIXED.serialNumber,
      version: 1,
    });
    expect(bom.metadata.timestamp).toBe('2026-01-02T03:04:05Z');
    expect(bom.metadata.tools.components[0]).toEqual({
      type: 'library',
      name: 'safetensors-wasm',
      version: PACKAGE_VERSION,
    });
    const model = bom.metadata.component;
    expect(model).toMatchObject({
      type: 'machine-learning-model',
      name: 'Watercolor <b>style</b>', // kept as text: a BOM is data, never HTML
      authors: [{ name: 'someone' }],
      licenses: [{ license: { name: 'CreativeML Open RAIL-M' } }],
      pedigree: {
        ancestors: [{ type: 'machine-learning-model', name: 'sd_xl_base_1.0.safetensors', version: 'sdxl_base_v1-0' }],
      },
      externalReferences: [{ type: 'website', url: 'https://civitai.com/models/328553?modelVersionId=368189' }],
    });
    expect(model.modelCard.modelParameters).toEqual({
      architectureFamily: 'sdxl',
      modelArchitecture: 'Stable Diffusion XL, lora adapter',
    });
    const card = props(model.modelCard.properties);
    expect(card).toMatchObject({
      'safetensors-wasm:kind': 'adapter',
      'safetensors-wasm:parameters': String(2 * 4 * 320),
      'safetensors-wasm:parameters:F16': String(2 * 4 * 320),
      'safetensors-wasm:dtypes': 'F16',
      'safetensors-wasm:family': 'sdxl',
      'safetensors-wasm:adapter': 'lora',
      'safetensors-wasm:adapter:format': 'kohya',
      'safetensors-wasm:adapter:rank': '4',
      'safetensors-wasm:adapter:alpha': '1',
      'safetensors-wasm:training:learning_rate': '0.0001',
      'safetensors-wasm:training:num_epochs': '10',
      'safetensors-wasm:civitai:air': 'urn:air:sdxl:lora:civitai:328553@368189',
    });
    const files = { 'README.md': '# Watercolor\n', 'docs/sample.txt': 'a prompt', 'watercolor.safetensors': lora };
    expect(bom.components.map((c) => c.name)).toEqual(Object.keys(files));
    for (const c of bom.components) {
      expect(c.type).toBe('file');
      expect(c.hashes).toEqual([{ alg: 'SHA-256', content: sha256(files[c.name]) }]);
      expect(props(c.properties)['safetensors-wasm:bytes']).toBe(String(Buffer.byteLength(files[c.name])));
    }
    expect(bom.dependencies[0]).toEqual({ ref: 'model', dependsOn: bom.components.map((c) => c['bom-ref']) });
    const total = Object.values(files).reduce((s, f) => s + Buffer.byteLength(f), 0);
    expect(calls.at(-1)).toEqual([total, total]);
  });

  test("a signature check's result is recorded on the model and on each file", async () => {
    const model = new Map([
      ['weights.safetensors', lora],
      ['config.json', new TextEncoder().encode('{}')],
    ]);
    const signature = {
      verified: false,
      method: 'public-key',
      serialization: 'files',
      hashType: 'sha256',
      signer: { keyHint: 'abc' },
      error: { code: 'ModelModified', message: 'a file changed' },
      files: [
        { name: 'config.json', status: 'ok' },
        { name: 'weights.safetensors', status: 'modified' },
        { name: 'tokenizer.json', status: 'missing' },
      ],
    };
    const bom = await createModelBom(model, { ...FIXED, signature });
    expect(await schemaErrors(bom)).toBeNull();
    const status = Object.fromEntries(
      bom.components.map((c) => [c.name, props(c.properties)['safetensors-wasm:signature:status']]),
    );
    expect(status).toEqual({ 'config.json': 'ok', 'weights.safetensors': 'modified' });
    const p = bom.metadata.component.properties;
    expect(props(p)).toMatchObject({
      'safetensors-wasm:signature:verified': 'false',
      'safetensors-wasm:signature:method': 'public-key',
      'safetensors-wasm:signature:signer': '{"keyHint":"abc"}',
      'safetensors-wasm:signature:error': 'a file changed',
    });
    expect(p).toContainEqual({ name: 'safetensors-wasm:signature:file', value: 'missing tokenizer.json' });
  });

  test('files that are not safetensors: a model without a card; bad arguments and aborts', async () => {
    const bom = await createModelBom(new Map([['notes.txt', new Uint8Array([1, 2, 3])]]), FIXED);
    expect(await schemaErrors(bom)).toBeNull();
    expect(bom.metadata.component).toEqual({
      type: 'machine-learning-model',
      'bom-ref': 'model',
      name: 'model',
    });
    await expect(createModelBom(new Map())).rejects.toBeInstanceOf(TypeError);
    await expect(createModelBom(lora, { serialNumber: 'x' })).rejects.toBeInstanceOf(TypeError);
    const controller = new AbortController();
    controller.abort();
    await expect(createModelBom(lora, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const random = await createModelBom(new Blob([lora]));
    expect(random.serialNumber).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(await schemaErrors(random)).toBeNull();
  });

  test('one file: its component names the file, where the signature of the same file names its resource "."', async () => {
    const path = join(dir, 'lora', 'watercolor.safetensors');
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const signature = JSON.stringify(signModel(new Map([['.', lora]]), key));
    const verification = await verifyModelSignature(path, { signature, publicKey: publicPem(key) });
    expect(verification).toMatchObject({ verified: true, files: [{ name: '.', status: 'ok' }] });
    const bom = await createModelBom(path, { ...FIXED, signature: verification });
    expect(await schemaErrors(bom)).toBeNull();
    expect(
      bom.components.map((c) => [
        c.name,
        c.hashes[0].content,
        props(c.properties)['safetensors-wasm:signature:status'],
      ]),
    ).toEqual([['watercolor.safetensors', sha256(lora), 'ok']]);
    expect(props(bom.metadata.component.properties)['safetensors-wasm:signature:verified']).toBe('true');
    expect(bom.metadata.component.properties.map((p) => p.name)).not.toContain('safetensors-wasm:signature:file');
    // Bytes without a name: the file is model.safetensors.
    const unnamed = await createModelBom(new Blob([lora]), FIXED);
    expect(unnamed.components.map((c) => c.name)).toEqual(['model.safetensors']);
    // A picked file keeps its own name.
    const picked = await createModelBom([new File([lora], 'picked.safetensors')], FIXED);
    expect(picked.components.map((c) => c.name)).toEqual(['picked.safetensors']);
  });

  test("PACKAGE_VERSION is package.json's", async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(PACKAGE_VERSION).toBe(pkg.version);
  });
});
