// toGPU in Chromium on WebGPU (SwiftShader) from other sources: a diffusers pipeline by URL (its
// one-file and sharded components), and a dedicated Worker on its own device; every buffer read
// back bit for bit as getTensor gives it. One file, limits, abort and progress: gpu.test.js.
import { describe, expect, test } from 'vitest';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';
import { servedFolders } from '../js/http_server.js';
import { writePipelineCase } from '../../tools/pipeline_case.js';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { IN_FILE, PRELUDE, expectSame, gpuPages } from './gpu_page.js';

const { gpu, gpuPage } = gpuPages();
const served = servedFolders('stw-gpu-served-');

describe('toGPU in Chromium (WebGPU on SwiftShader)', () => {
  test('a pipeline by URL: its one-file and sharded components upload bit for bit as their getTensor', async () => {
    // The real sharded model as the text encoder where the fixtures are (else a generated one).
    const dir = await writePipelineCase(join(gpu.dir, 'pipeline'), HAVE_REAL ? join(REAL_DIR, 'sharded') : null);
    const files = {};
    for (const path of await readdir(dir, { recursive: true, withFileTypes: true }))
      if (path.isFile())
        files[relative(dir, join(path.parentPath, path.name))] = await readFile(join(path.parentPath, path.name));
    await served.folder('pipeline', files);
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async (url) => {${PRELUDE}
      const pipeline = await lib.openSafetensorsPipeline(url);
      const out = {};
      for (const { name, model } of pipeline.components) {
        if (!model) continue;
        out[name] = { sharded: 'shards' in model, native: await h.uploadAndRead(model, device, { as: 'native' }),
          float32: await h.uploadAndRead(model, device, { chunkBytes: 1001 }) };
      }
      return out;
    })(${JSON.stringify(served.server.url('/pipeline/model_index.json'))})`);
    expect(Object.keys(out).sort()).toEqual(['text_encoder', 'unet']);
    expect(out.text_encoder.sharded).toBe(true);
    expect(out.unet.sharded).toBe(false);
    for (const component of Object.values(out)) {
      expect(component.native.names.length).toBeGreaterThan(1);
      expectSame(component.native, 'native');
      expectSame(component.float32, 'float32');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  test('in a dedicated Worker, on its own device, the same call gives the same bytes', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {
      const code = [
        "const lib = await import(self.origin + '/web/index.js');",
        "const h = await import(self.origin + '/tests/browser/gpu_in_page.js');",
        "self.onmessage = async ({ data }) => {",
        "  const st = await lib.openSafetensors(data);",
        "  const device = await h.newDevice();",
        "  postMessage({ worker: typeof document, float32: await h.uploadAndRead(st, device, { chunkBytes: 777 }),",
        "    native: await h.uploadAndRead(st, device, { as: 'native' }) });",
        "};",
        "postMessage('ready');",
      ].join('\\n');
      const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })), { type: 'module' });
      const blob = await (await fetch('/gpu-fixture/all')).blob();
      return new Promise((resolve, reject) => {
        worker.onerror = (e) => reject(new Error(e.message));
        worker.onmessage = ({ data }) => (data === 'ready' ? worker.postMessage(blob) : resolve(data));
      });
    })()`);
    expect(out.worker).toBe('undefined');
    expect(out.float32.names).toEqual(IN_FILE.map((t) => t.name));
    expectSame(out.float32, 'worker float32');
    expectSame(out.native, 'worker native');
    expect(out.float32.tensors['t.BF16'].as).toBe('float32');
    expect(errors).toEqual([]);
    await page.close();
  });
});
