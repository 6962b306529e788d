// Diffusers pipelines (issue 11): a folder whose model_index.json lists components, each with
// its own checkpoint (one file or sharded), opened from a path, picked files and a URL.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  initSafetensors,
  isPipelineSource,
  openSafetensors,
  openSafetensorsIndex,
  openSafetensorsPipeline,
} from '../../web/index.js';
import { loadCardModule } from '../../web/core/modules.js';
import { PIPELINE_CONFIG, unetTensors, writePipelineCase } from '../../tools/pipeline_case.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';
import { startServer } from './http_server.js';

const SHARDED = join(REAL_DIR, 'sharded');

/** Every file under `dir`, as a folder pick gives them (webkitRelativePath from the picked folder). */
async function pickedFolder(dir, top = 'pipeline') {
  const out = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const file = new File([await readFile(path)], entry.name);
    Object.defineProperty(file, 'webkitRelativePath', { value: `${top}/${relative(dir, path)}` });
    out.push(file);
  }
  return out;
}

/** What a pipeline is, in a form two ways of opening it can be compared by. */
const summary = (p) =>
  p.components.map((c) => [c.name, c.weights, c.path, c.report?.loadable ?? null, c.model?.tensors.length ?? null]);

describe('diffusers pipelines', () => {
  let work;
  let dir;
  let server;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'st-pipeline-'));
    dir = await writePipelineCase(join(work, 'pipeline'), HAVE_REAL ? SHARDED : null);
    server = await startServer();
    for (const file of await pickedFolder(dir))
      server.files.set(`/${file.webkitRelativePath}`, { bytes: new Uint8Array(await file.arrayBuffer()), etag: '"1"' });
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  test(`each component's checkpoint, one file or sharded${HAVE_REAL ? ' (the text encoder is the real sharded model)' : ' (../shared absent: a generated sharded text encoder)'}`, async () => {
    const progress = [];
    const p = await openSafetensorsPipeline(dir, { onProgress: (done, total) => progress.push([done, total]) });
    expect(p.className).toBe('StableDiffusionPipeline');
    expect(p.metadata).toEqual(PIPELINE_CONFIG);
    expect(progress.at(-1)).toEqual([7, 7]);
    const encoder = await openSafetensorsIndex(join(dir, 'text_encoder'));
    expect(summary(p)).toEqual([
      ['feature_extractor', 'none', null, null, null],
      ['safety_checker', 'none', null, null, null],
      ['scheduler', 'none', null, null, null],
      ['text_encoder', 'sharded', 'text_encoder/model.safetensors.index.json', true, encoder.tensors.length],
      ['tokenizer', 'none', null, null, null],
      ['unet', 'file', 'unet/diffusion_pytorch_model.safetensors', true, 4],
      ['vae', 'missing', null, null, null],
    ]);
    // The VAE is a pickle only: one finding, an error, naming what the folder holds.
    expect(p.findings.map((f) => [f.code, f.severity, f.component])).toEqual([['ComponentMissing', 'error', 'vae']]);
    expect(p.findings[0].message).toContain('diffusion_pytorch_model.bin');
    expect(p.loadable).toBe(false);
    // The components' models read like any file or sharded model.
    const unet = p.components.find((c) => c.name === 'unet').model;
    expect(Array.from(await unet.getTensor('conv_in.bias'))).toEqual(
      Array.from(new Float32Array(new Uint8Array(32).fill(1).buffer)),
    );
    expect((await unet.describe()).family?.id ?? null).toBe(
      (
        await (
          await openSafetensors(await readFile(join(dir, 'unet', 'diffusion_pytorch_model.safetensors')))
        ).describe()
      ).family?.id ?? null,
    );
    const textEncoder = p.components.find((c) => c.name === 'text_encoder').model;
    expect(textEncoder.tensors).toEqual(encoder.tensors);
    const first = encoder.tensors[0].name;
    expect(await textEncoder.getTensor(first)).toEqual(await encoder.getTensor(first));
  });

  test("each component's card is built once: describing it again runs nothing in the core or the card module", async () => {
    const p = await openSafetensorsPipeline(dir);
    for (const name of ['unet', 'text_encoder']) {
      const { model } = p.components.find((c) => c.name === name);
      const first = await model.describe();
      expect(first.modules.tensors, name).toBe(model.tensors.length); // the tree built too
      const calls = [vi.spyOn(await initSafetensors(), 'call'), vi.spyOn(await loadCardModule(), 'call')];
      try {
        const again = await model.describe();
        expect(again).not.toBe(first);
        expect(JSON.stringify(again)).toBe(JSON.stringify(first));
        for (const spy of calls) expect(spy, name).not.toHaveBeenCalled();
      } finally {
        for (const spy of calls) spy.mockRestore();
      }
    }
  });

  test('a variant opens the variant files; a component without one falls back to its plain weights, as diffusers does', async () => {
    const p = await openSafetensorsPipeline(join(dir, 'model_index.json'), { variant: 'fp16' });
    const unet = p.components.find((c) => c.name === 'unet');
    expect([unet.weights, unet.path, unet.model.tensors.map((t) => t.dtype)]).toEqual([
      'file',
      'unet/diffusion_pytorch_model.fp16.safetensors',
      ['F16', 'F16', 'F16', 'F16'],
    ]);
    // The text encoder has no fp16 checkpoint: its plain sharded one is opened.
    const encoder = p.components.find((c) => c.name === 'text_encoder');
    expect([encoder.weights, encoder.path, encoder.report.loadable]).toEqual([
      'sharded',
      'text_encoder/model.safetensors.index.json',
      true,
    ]);
    expect(p.findings.filter((f) => f.component === 'text_encoder')).toEqual([]);
    expect(p.findings.map((f) => [f.code, f.component])).toEqual([['ComponentMissing', 'vae']]);
    // Over HTTP too: the variant's names answer 404, then the plain ones are asked for.
    const remote = await openSafetensorsPipeline(server.url('/pipeline/model_index.json'), { variant: 'fp16' });
    expect(summary(remote)).toEqual(summary(p));
    await expect(openSafetensorsPipeline(dir, { variant: '../x' })).rejects.toThrow(TypeError);
  });

  test('picked as a folder and by URL: the same pipeline; over HTTP only components with weights are asked for', async () => {
    const fromPath = summary(await openSafetensorsPipeline(dir));
    const files = await pickedFolder(dir);
    expect(await isPipelineSource(files)).toBe(true);
    expect(summary(await openSafetensorsPipeline(files))).toEqual(fromPath);
    server.log.length = 0;
    const url = server.url('/pipeline/model_index.json');
    expect(await isPipelineSource(url)).toBe(true);
    const remote = await openSafetensorsPipeline(url);
    expect(summary(remote)).toEqual(fromPath);
    const asked = new Set(server.log.map((l) => l.path.split('/')[2]));
    expect([...asked].sort()).toEqual(['model_index.json', 'text_encoder', 'unet', 'vae']);
    // Over HTTP the folder cannot be listed: the VAE's message names the files tried.
    expect(remote.findings.map((f) => f.component)).toEqual(['vae']);
    expect(remote.findings[0].message).toContain('diffusion_pytorch_model.safetensors.index.json');
  });

  test('a rejected component gets its own findings, tagged with the component; the others open', async () => {
    const broken = await mkdtemp(join(work, 'broken-'));
    await writePipelineCase(broken);
    const bytes = writeSafetensors(unetTensors('F32'));
    await writeFile(
      join(broken, 'unet', 'diffusion_pytorch_model.safetensors'),
      bytes.subarray(0, bytes.byteLength - 4),
    );
    const p = await openSafetensorsPipeline(broken);
    const unet = p.components.find((c) => c.name === 'unet');
    expect([unet.weights, unet.model, unet.report.loadable]).toEqual(['file', null, false]);
    const own = p.findings.filter((f) => f.component === 'unet');
    expect(own.length).toBeGreaterThan(0);
    expect(own.some((f) => f.severity === 'error')).toBe(true);
    expect(p.components.find((c) => c.name === 'text_encoder').report.loadable).toBe(true);
  });

  test('model_index.json that cannot be used throws InvalidIndex; openSafetensorsIndex points to openSafetensorsPipeline', async () => {
    const bad = await mkdtemp(join(work, 'bad-'));
    await writeFile(join(bad, 'model_index.json'), '{"unet": ["diffusers", "UNet2DConditionModel"],');
    expect((await rejection(openSafetensorsPipeline(bad))).code).toBe('InvalidIndex');
    await writeFile(join(bad, 'model_index.json'), '{"../unet": ["diffusers", "UNet2DConditionModel"]}');
    const climbing = await rejection(openSafetensorsPipeline(bad));
    expect([climbing.code, climbing.message]).toEqual(['InvalidIndex', expect.stringContaining('plain folder name')]);
    expect((await rejection(openSafetensorsPipeline(join(work, 'nothing-here')))).code).toBe('InvalidIndex');
    const wrongOpener = await rejection(openSafetensorsIndex(dir));
    expect([wrongOpener.code, wrongOpener.message]).toEqual([
      'InvalidIndex',
      expect.stringContaining('openSafetensorsPipeline'),
    ]);
    expect((await rejection(openSafetensorsIndex(await pickedFolder(dir)))).message).toContain(
      'openSafetensorsPipeline',
    );
    expect(await isPipelineSource(join(dir, 'unet'))).toBe(false);
  });
});
