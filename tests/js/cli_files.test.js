// The command line on folders, pipelines and its own output (issue 30): a folder of unrelated
// LoRAs is its files, each with its verdict; --variant falls back as diffusers does; convert's
// output hashes clean and is read from a URL in one request per run; BOOL masks of all false
// are not AllZeroTensor.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { writePipelineCase } from '../../tools/pipeline_case.js';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';
import { startServer } from './http_server.js';
import { run } from './cli_run.js';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const f32 = (...values) => new Uint8Array(Float32Array.from(values).buffer);

/** A kohya-style LoRA: the same tensor names in every file, as LoRAs of one base model have. */
const lora = (scale) =>
  writeSafetensors(
    [
      { name: 'lora_unet_mid_block_attentions_0_proj_in.alpha', dtype: 'F32', shape: [], data: f32(4) },
      {
        name: 'lora_unet_mid_block_attentions_0_proj_in.lora_down.weight',
        dtype: 'F32',
        shape: [1, 2],
        data: f32(scale, 1),
      },
      {
        name: 'lora_unet_mid_block_attentions_0_proj_in.lora_up.weight',
        dtype: 'F32',
        shape: [2, 1],
        data: f32(1, scale),
      },
    ],
    { ss_network_module: 'networks.lora' },
  );

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-cli-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('folders', { timeout: 180_000 }, () => {
  test('a folder of unrelated LoRAs (no index): each file gets its own verdict, in validate and inspect', async () => {
    const loras = join(dir, 'loras');
    await mkdir(loras);
    await writeFile(join(loras, 'style_a.safetensors'), lora(2));
    await writeFile(join(loras, 'style_b.safetensors'), lora(3));
    await writeFile(join(loras, 'broken.safetensors'), lora(5).subarray(0, 50));
    await writeFile(join(loras, 'notes.txt'), 'not a model');
    const { code, stdout } = await run(['validate', '--json', loras]);
    expect(code).toBe(1);
    const results = JSON.parse(stdout);
    expect(results.map((r) => [r.file, r.loadable, r.tensors])).toEqual([
      [join(loras, 'broken.safetensors'), false, 0],
      [join(loras, 'style_a.safetensors'), true, 3],
      [join(loras, 'style_b.safetensors'), true, 3],
    ]);
    for (const r of results) {
      expect(r.shards).toBeUndefined();
      expect(r.findings.map((f) => f.code)).not.toContain('TensorInSeveralShards');
    }
    const text = await run(['validate', loras]);
    expect(text.stdout).toContain(`${join(loras, 'style_a.safetensors')}: loadable (3 tensors)\n`);
    const inspected = JSON.parse((await run(['inspect', '--json', loras])).stdout);
    expect(inspected.map((i) => [i.file, i.card?.kind ?? null])).toEqual([
      [join(loras, 'broken.safetensors'), null],
      [join(loras, 'style_a.safetensors'), 'adapter'],
      [join(loras, 'style_b.safetensors'), 'adapter'],
    ]);
  });

  test('a folder of files named as the shards of one checkpoint, without an index, is still one model', async () => {
    const shards = join(dir, 'shards');
    await mkdir(shards);
    await writeFile(
      join(shards, 'model-00001-of-00002.safetensors'),
      writeSafetensors([{ name: 'a.weight', dtype: 'F32', shape: [1], data: f32(1) }]),
    );
    await writeFile(
      join(shards, 'model-00002-of-00002.safetensors'),
      writeSafetensors([{ name: 'b.weight', dtype: 'F32', shape: [1], data: f32(2) }]),
    );
    const [model] = JSON.parse((await run(['validate', '--json', shards])).stdout);
    expect([model.file, model.loadable, model.tensors, model.shards.length]).toEqual([shards, true, 2, 2]);
    expect((await run(['validate', shards])).stdout.split('\n')[0]).toBe(`${shards}: loadable (2 tensors in 2 shards)`);
  });

  test('--variant fp16: the fp16 checkpoint where a component has one, its plain one where not', async () => {
    const pipeline = await writePipelineCase(join(dir, 'pipeline'), HAVE_REAL ? join(REAL_DIR, 'sharded') : null);
    const [plain] = JSON.parse((await run(['validate', '--json', pipeline])).stdout);
    const [fp16] = JSON.parse((await run(['validate', '--json', '--variant', 'fp16', pipeline])).stdout);
    const paths = (r) => Object.fromEntries(r.components.filter((c) => c.path).map((c) => [c.name, c.path]));
    expect(paths(plain)).toEqual({
      text_encoder: 'text_encoder/model.safetensors.index.json',
      unet: 'unet/diffusion_pytorch_model.safetensors',
    });
    expect(paths(fp16)).toEqual({
      text_encoder: 'text_encoder/model.safetensors.index.json',
      unet: 'unet/diffusion_pytorch_model.fp16.safetensors',
    });
    const inspected = JSON.parse((await run(['inspect', '--json', '--variant=fp16', pipeline])).stdout);
    expect(inspected.components.find((c) => c.name === 'unet').path).toBe(
      'unet/diffusion_pytorch_model.fp16.safetensors',
    );
    expect((await run(['validate', '--variant', pipeline])).code).toBe(2); // the variant's name is missing
  });
});

describe('convert and its output', { timeout: 180_000 }, () => {
  test('hash on our own converted file: no EmbeddedHashMismatch (the stale claims are gone), exit 0', async () => {
    const tensors = [{ name: 'w', dtype: 'F32', shape: [4], data: f32(1, 2, 3, 4) }];
    const data = writeSafetensors(tensors);
    const dataHash = sha256(data.subarray(8 + Number(new DataView(data.buffer).getBigUint64(0, true))));
    const source = join(dir, 'claims.safetensors');
    await writeFile(
      source,
      writeSafetensors(tensors, { sshs_model_hash: dataHash, 'modelspec.hash_sha256': dataHash }),
    );
    expect((await run(['hash', source])).code).toBe(0);
    const out = join(dir, 'claims-f16.safetensors');
    expect((await run(['convert', source, '--to', 'f16', '-o', out])).code).toBe(0);
    const hashed = await run(['hash', out]);
    expect([hashed.code, hashed.stdout]).toEqual([0, expect.not.stringContaining('MISMATCH')]);
    expect(JSON.parse((await run(['inspect', '--json', out])).stdout).metadata).toEqual({});
  });

  test('convert from a URL: the tensors in one request, not one per tensor', async () => {
    const tensors = Array.from({ length: 38 }, (_, i) => ({
      name: `h.${String(i).padStart(2, '0')}.weight`,
      dtype: 'F32',
      shape: [4096],
      data: new Uint8Array(16384).fill(i),
    }));
    const bytes = writeSafetensors(tensors, { format: 'pt' });
    const server = await startServer();
    try {
      server.files.set('/m.safetensors', { bytes, etag: '"1"' });
      const out = join(dir, 'from-url.safetensors');
      const converted = await run(['convert', server.url('/m.safetensors'), '--to', 'bf16', '-o', out]);
      expect(converted.stdout).toContain('38 of 38 tensors converted to BF16');
      // The first request (256 KiB: the header and the first tensors), then one for the rest.
      expect(server.log.map((r) => r.range)).toEqual(['bytes=0-262143', `bytes=262144-${bytes.byteLength - 1}`]);
      const local = join(dir, 'local.safetensors');
      await writeFile(local, bytes);
      await run(['convert', local, '--to', 'bf16', '-o', join(dir, 'from-file.safetensors')]);
      expect(sha256(await readFile(out))).toBe(sha256(await readFile(join(dir, 'from-file.safetensors'))));
    } finally {
      await server.close();
    }
  });
});

describe('data scan', { timeout: 180_000 }, () => {
  test('a BOOL mask of all false is not an AllZeroTensor; a float tensor of zeros still is', async () => {
    const path = join(dir, 'mask.safetensors');
    await writeFile(
      path,
      writeSafetensors([
        { name: 'attention_mask', dtype: 'BOOL', shape: [8], data: new Uint8Array(8) },
        { name: 'bias', dtype: 'F32', shape: [2], data: f32(0, 0) },
      ]),
    );
    const [r] = JSON.parse((await run(['validate', '--json', '--scan-data', path])).stdout);
    const zero = r.findings.filter((f) => f.code === 'AllZeroTensor');
    expect(zero.map((f) => [f.tensor, f.message.slice(0, 22)])).toEqual([['bias', '1 tensor is all zeros ']]);
    const masks = join(dir, 'masks.safetensors');
    await writeFile(masks, writeSafetensors([{ name: 'm', dtype: 'BOOL', shape: [4], data: new Uint8Array(4) }]));
    const [m] = JSON.parse((await run(['validate', '--json', '--scan-data', masks])).stdout);
    expect(m.findings).toEqual([]);
  });

  test.skipIf(!HAVE_REAL)('the real files with BOOL tensors: no AllZeroTensor names a BOOL tensor', async () => {
    const files = ['burn_pytorch_bool_buffer.safetensors', 'fluxml_torch_all_dtypes_with_metadata.safetensors'];
    const results = JSON.parse(
      (await run(['validate', '--json', '--scan-data', ...files.map((f) => join(REAL_DIR, f))])).stdout,
    );
    for (const r of results) {
      const bools = new Set(r.dataScan.tensors.filter((t) => t.dtype === 'BOOL').map((t) => t.name));
      expect(bools.size, r.file).toBeGreaterThan(0);
      for (const f of r.findings.filter((f) => f.code === 'AllZeroTensor'))
        expect(bools.has(f.tensor), f.message).toBe(false);
    }
  });
});
