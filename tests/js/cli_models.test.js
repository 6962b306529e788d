// The safetensors-wasm command line on models, run as a user would: sharded models (folders,
// index paths and URLs, every cross-shard finding, one read per shard), diffusers pipelines,
// edit and convert. validate, inspect and hash on single files: cli.test.js.
import { expect, test } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';
import { dir, good, goodAndBadFiles, run } from './cli_good_bad.js';

goodAndBadFiles();

test.skipIf(!HAVE_REAL)(
  'sharded models: validate and inspect take a folder, an index path or an index URL; every cross-shard finding shows',
  async () => {
    const { writeShardCases, INDEX_NAME } = await import('../../tools/shard_cases.js');
    const sharded = join(REAL_DIR, 'sharded');
    const { code, stdout } = await run('validate', '--json', sharded, join(sharded, INDEX_NAME), good);
    expect(code).toBe(0);
    const [folder, index, single] = JSON.parse(stdout);
    expect(folder).toMatchObject({ file: sharded, loadable: true, findings: [], tensors: 36 });
    expect(folder.shards.map((s) => [s.name, s.loadable])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [`model-0000${n}-of-00006.safetensors`, true]),
    );
    expect(index.shards).toEqual(folder.shards);
    expect(single.shards).toBeUndefined();
    const text = await run('validate', sharded);
    expect(text.stdout.split('\n')[0]).toBe(`${sharded}: loadable (36 tensors in 6 shards)`);
    expect(text.stdout).toContain('model-00002-of-00006.safetensors       1 tensor   loadable');

    const cases = await writeShardCases(sharded, join(dir, 'shard-cases'));
    const broken = JSON.parse((await run('validate', '--json', ...cases.map((c) => c.dir))).stdout);
    for (const [i, c] of cases.entries()) {
      expect(
        broken[i].findings.map((f) => f.code),
        c.code,
      ).toEqual([c.code]);
      expect(broken[i].findings[0].shard === undefined, c.code).toBe(c.code === 'IndexTotalSizeMismatch');
    }
    const notLoadable = cases.find((c) => c.code === 'ShardNotLoadable');
    const rejected = await run('validate', notLoadable.dir);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toContain(
      'model-00005-of-00006.safetensors       7 tensors  not loadable: MetadataIncompleteBuffer',
    );

    const { startServer } = await import('./http_server.js');
    const server = await startServer();
    try {
      for (const name of [
        'model-00001-of-00006.safetensors',
        'model-00002-of-00006.safetensors',
        'model-00003-of-00006.safetensors',
        'model-00004-of-00006.safetensors',
        'model-00005-of-00006.safetensors',
        'model-00006-of-00006.safetensors',
        INDEX_NAME,
      ]) {
        server.files.set(`/s/${name}`, { bytes: readFileSync(join(sharded, name)), etag: `"${name}"` });
      }
      const inspected = await run('inspect', '--json', server.url(`/s/${INDEX_NAME}`));
      expect(inspected.code).toBe(0);
      const json = JSON.parse(inspected.stdout);
      expect(json.report).toMatchObject({ loadable: true, tensors: 36 });
      expect(json.metadata).toEqual({ total_size: 4305 });
      expect(json.tensors[19]).toMatchObject({ name: 'float32_357', shard: 'model-00002-of-00006.safetensors' });
      expect(json.card.parameters.total).toBe(
        json.tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0),
      );
      const people = await run('inspect', server.url(`/s/${INDEX_NAME}`));
      expect(people.stdout).toMatch(/float32_357\s+F32\s+\[3, 5, 7\]\s+model-00002-of-00006\.safetensors\s+420/);
      const gone = await run('validate', '--json', server.url('/none/model.safetensors.index.json'));
      expect(gone.code).toBe(1);
      expect(JSON.parse(gone.stdout)[0].findings[0]).toMatchObject({ code: 'HttpError' });
    } finally {
      await server.close();
    }
  },
);

test('diffusers pipelines: validate and inspect check each component; the missing one is named', async () => {
  const { writePipelineCase } = await import('../../tools/pipeline_case.js');
  const folder = await writePipelineCase(join(dir, 'pipeline'), HAVE_REAL ? join(REAL_DIR, 'sharded') : null);
  const { code, stdout } = await run('validate', '--json', folder);
  expect(code).toBe(1);
  const [report] = JSON.parse(stdout);
  expect(report.className).toBe('StableDiffusionPipeline');
  expect(report.findings.map((f) => [f.code, f.component])).toEqual([['ComponentMissing', 'vae']]);
  expect(report.components.map((c) => [c.name, c.weights, c.loadable])).toEqual([
    ['feature_extractor', 'none', null],
    ['safety_checker', 'none', null],
    ['scheduler', 'none', null],
    ['text_encoder', 'sharded', true],
    ['tokenizer', 'none', null],
    ['unet', 'file', true],
    ['vae', 'missing', null],
  ]);
  const text = await run('validate', join(folder, 'model_index.json'));
  expect(text.stdout).toMatch(/^ {2}error {3}vae: ComponentMissing: .*diffusion_pytorch_model\.bin/m);
  expect(text.stdout).toMatch(
    /^ {2}unet +UNet2DConditionModel: unet\/diffusion_pytorch_model\.safetensors, 4 tensors, loadable$/m,
  );
  const inspected = JSON.parse((await run('inspect', '--json', folder)).stdout);
  const unet = inspected.components.find((c) => c.name === 'unet');
  expect(unet.card.parameters.total).toBe(8 * 4 * 9 + 8 + 8 * 8 * 9 + 16 * 8);
});

test.skipIf(!HAVE_REAL)(
  'sharded models: validate --scan-data --hash reads each shard once; hashes match node:crypto, scan findings name their shard',
  async () => {
    const sharded = join(REAL_DIR, 'sharded');
    const { stdout } = await run('validate', '--json', '--scan-data', '--hash', sharded);
    const [report] = JSON.parse(stdout);
    expect(report.loadable).toBe(true);
    for (const shard of report.shards) {
      const bytes = readFileSync(join(sharded, shard.name));
      const dataStart = 8 + Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
      expect(shard.hashes.dataSha256, shard.name).toBe(
        createHash('sha256').update(bytes.subarray(dataStart)).digest('hex'),
      );
      expect(shard.dataScan.bytes, shard.name).toBe(bytes.byteLength - dataStart);
    }
    // Its only tensors of zeros are BOOL masks of all false: no AllZeroTensor (issue 30).
    expect(report.findings.filter((f) => f.code === 'AllZeroTensor')).toEqual([]);
    // A shard's scan findings name it: two shards, the second with a float tensor of zeros.
    const generated = join(dir, 'zero-shards');
    await mkdir(generated);
    for (const [i, data] of [new Uint8Array(8).fill(1), new Uint8Array(8)].entries())
      await writeFile(
        join(generated, `model-0000${i + 1}-of-00002.safetensors`),
        writeSafetensors([{ name: `w${i}`, dtype: 'F32', shape: [2], data }]),
      );
    const [zeros] = JSON.parse((await run('validate', '--json', '--scan-data', generated)).stdout);
    expect(zeros.findings.map((f) => [f.code, f.shard, f.tensor])).toEqual([
      ['AllZeroTensor', 'model-00002-of-00002.safetensors', 'w1'],
    ]);
    const text = await run('validate', '--scan-data', generated);
    expect(text.stdout).toMatch(/^ {2}info {4}model-00002-of-00002\.safetensors: AllZeroTensor \[w1\]/m);
  },
);

test.skipIf(!HAVE_REAL)(
  'edit: new metadata, data byte for byte (so sshs_model_hash still holds), in place; a typo in --delete changes nothing',
  async () => {
    const { copyFile, readFile: read } = await import('node:fs/promises');
    const file = join(dir, 'lokr.safetensors');
    await copyFile(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors'), file);
    const before = await read(file);
    const edited = await run(
      'edit',
      file,
      '--set',
      'modelspec.title=A = B',
      '--delete',
      'ss_tag_frequency',
      '-o',
      file,
    );
    expect(edited.code).toBe(0);
    expect(edited.stdout).toMatch(
      /^wrote .*lokr\.safetensors: 61 metadata keys, set modelspec\.title, deleted ss_tag_frequency; the 403,452 bytes of tensor data are unchanged$/m,
    );
    const json = JSON.parse((await run('inspect', '--json', file)).stdout);
    expect(json.report.loadable).toBe(true);
    expect(json.metadata['modelspec.title']).toBe('A = B');
    expect(json.metadata.ss_tag_frequency).toBeUndefined();
    const hashed = JSON.parse((await run('hash', '--json', file)).stdout)[0];
    expect(hashed.checks.find((c) => c.key === 'sshs_model_hash').match).toBe(true);
    const dataOf = (bytes) => bytes.subarray(8 + Number(bytes.readBigUInt64LE(0)));
    expect(
      createHash('sha256')
        .update(dataOf(await read(file)))
        .digest('hex'),
    ).toBe(createHash('sha256').update(dataOf(before)).digest('hex'));
    const after = await read(file);
    const typo = await run('edit', file, '--delete', 'no_such_key', '-o', file);
    expect([typo.code, typo.stderr]).toEqual([1, expect.stringContaining('no such key')]);
    expect(await read(file)).toEqual(after);
    expect((await run('edit', file, '--set', 'novalue')).code).toBe(2);
    const bare = join(dir, 'bare.safetensors');
    expect((await run('edit', file, '--clear', '-o', bare)).code).toBe(0);
    expect(JSON.parse((await run('inspect', '--json', bare)).stdout).metadata).toEqual({});
  },
);

test.skipIf(!HAVE_REAL)('convert: GPT-2 to F16 and back to the same card; bad arguments are usage errors', async () => {
  const out = join(dir, 'gpt2-f16.safetensors');
  const converted = await run(
    'convert',
    join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors'),
    '--to',
    'f16',
    '-o',
    out,
  );
  expect(converted.code).toBe(0);
  expect(converted.stdout).toMatch(
    /^wrote .*gpt2-f16\.safetensors: 52 of 52 tensors converted to F16, 949,792 -> \d[\d,]* bytes$/m,
  );
  const json = JSON.parse((await run('inspect', '--json', out)).stdout);
  expect(json.report.loadable).toBe(true);
  expect(new Set(json.tensors.map((t) => t.dtype))).toEqual(new Set(['F16']));
  const before = JSON.parse(
    (await run('inspect', '--json', join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors'))).stdout,
  );
  expect(json.card.parameters.total).toBe(before.card.parameters.total);
  expect((await run('convert', out, '--to', 'f8', '-o', join(dir, 'x.safetensors'))).code).toBe(2);
  expect(
    (await run('convert', join(dir, 'missing.safetensors'), '--to', 'bf16', '-o', join(dir, 'x.safetensors'))).code,
  ).toBe(1);
});
