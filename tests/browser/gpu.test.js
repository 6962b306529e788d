// toGPU in Chromium on WebGPU (SwiftShader): every buffer read back and compared bit for bit
// with getTensor, for every dtype in both layouts (NaN payloads included); the refusal of a
// tensor over maxBufferSize before anything is made or read; abort, progress, a lost device.
import { describe, expect, test } from 'vitest';
import { demoBrowser } from './demo_browser.js';
import { WEBGPU_FLAGS } from './chromium.js';
import { initSafetensors, openSafetensors } from '../../web/index.js';
import { DTYPE_ORDER, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR, layoutFile } from '../js/fixtures.js';
import { servedFolders } from '../js/http_server.js';
import { writePipelineCase } from '../../tools/pipeline_case.js';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

const { tables } = await initSafetensors();
const bitsOf = new Map(tables.dtypes.map((d) => [d.name, d.bits]));
// One tensor of every dtype, odd sizes so that later tensors sit at odd offsets (and native
// buffers need padding); random bytes, so every float kind has NaNs with many payloads.
const TENSORS = DTYPE_ORDER.map((dtype, i) => {
  const elements = dtype.startsWith('F6') ? 4 * 37 : dtype === 'F4' ? 2 * 1001 : 4099;
  return {
    name: `t.${dtype}`,
    dtype,
    shape: [elements],
    data: pseudoRandomBytes((elements * bitsOf.get(dtype)) / 8, i + 7),
    gap: i % 3,
  };
});
const FILE = layoutFile(TENSORS);
const IN_FILE = (await openSafetensors(FILE)).tensors; // TENSORS and the gaps between them
const FLOAT_KINDS = new Set([
  'F16',
  'BF16',
  'F4',
  'F32',
  'F64',
  'C64',
  ...DTYPE_ORDER.filter((d) => d.startsWith('F8')),
]);

const gpu = demoBrowser('stw-gpu-', ['web', 'demo', 'tests'], WEBGPU_FLAGS);
const served = servedFolders('stw-gpu-served-');

/** A page on the server (127.0.0.1: a secure context) that fetches FILE at /gpu-fixture/all. */
async function gpuPage() {
  const page = await gpu.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.route('**/gpu-fixture/all', (route) => route.fulfill({ body: Buffer.from(FILE) }));
  await page.goto(`${gpu.url}/web/index.d.ts`);
  return { page, errors };
}

// The page's prelude: the package, the helpers, the fixture file opened, a device.
const PRELUDE = `
  const lib = await import('/web/index.js');
  const h = await import('/tests/browser/gpu_in_page.js');
  const st = await lib.openSafetensors(await (await fetch('/gpu-fixture/all')).blob());
  const device = await h.newDevice();`;

function expectSame(result, label) {
  for (const [name, t] of Object.entries(result.tensors)) {
    expect(t.size, `${label} ${name}`).toBe(t.byteLength);
    expect(t.byteLength % 4, `${label} ${name}`).toBe(0);
    expect(t.gpu, `${label} ${name} (${t.as})`).toBe(t.expected);
  }
}

describe('toGPU in Chromium (WebGPU on SwiftShader)', () => {
  test('every dtype, default layout and both explicit ones, bit for bit as getTensor gives', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {${PRELUDE}
      const floats = st.tensors.filter((t) => !t.dtype.startsWith('F6')).map((t) => t.name);
      return {
        adapter: (await navigator.gpu.requestAdapter()).info.vendor,
        byDefault: await h.uploadAndRead(st, device),
        float32: await h.uploadAndRead(st, device, { as: 'float32', names: floats, chunkBytes: 1000 }),
        native: await h.uploadAndRead(st, device, { as: 'native', chunkBytes: 999 }),
        f6: await st.toGPU(device, { as: 'float32', names: ['t.F16', 't.F6_E2M3'] }).catch((e) => e.code),
      };
    })()`);
    expect(out.byDefault.names).toEqual(IN_FILE.map((t) => t.name));
    for (const { name, dtype } of IN_FILE) {
      expect(out.byDefault.tensors[name].as, name).toBe(FLOAT_KINDS.has(dtype) ? 'float32' : 'native');
      expect(out.byDefault.tensors[name].dtype).toBe(dtype);
      expect(out.native.tensors[name].as).toBe('native');
    }
    expect(Object.keys(out.float32.tensors)).toHaveLength(IN_FILE.filter((t) => !t.dtype.startsWith('F6')).length);
    expectSame(out.byDefault, 'default');
    expectSame(out.float32, 'float32');
    expectSame(out.native, 'native');
    // F16 as float32: 4,099 values, 16,396 bytes; natively 8,198 bytes padded to 8,200.
    expect(out.float32.tensors['t.F16'].byteLength).toBe(4099 * 4);
    expect(out.native.tensors['t.F16'].byteLength).toBe(8200);
    // NaN payloads were compared: the float32 F16 and BF16 buffers hold NaNs of several bit patterns.
    for (const name of ['t.F16', 't.BF16', 't.F8_E5M2']) {
      const words = new Uint32Array(Buffer.from(out.float32.tensors[name].gpu, 'base64').buffer.slice(0));
      const nans = new Set([...words].filter((w) => (w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0));
      expect(nans.size, name).toBeGreaterThan(1);
    }
    expect(out.f6).toBe('UnsupportedConversion');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a tensor over maxBufferSize is refused before any buffer is made or byte read; one over the binding limit is flagged', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {${PRELUDE}
      // 64 Mi + 4 F16 values: natively 134,217,736 bytes (over the 128 MiB binding limit), as
      // float32 268,435,472 (over the 256 MiB maxBufferSize). Only the header is real.
      const n = 64 * 1024 * 1024 + 4;
      const json = JSON.stringify({ small: { dtype: 'F32', shape: [4], data_offsets: [0, 16] },
        empty: { dtype: 'F16', shape: [0, 5], data_offsets: [16, 16] },
        big: { dtype: 'F16', shape: [n], data_offsets: [16, 16 + 2 * n] } }).padEnd(256, ' ');
      const head = new Uint8Array(8 + json.length);
      new DataView(head.buffer).setBigUint64(0, BigInt(json.length), true);
      head.set(new TextEncoder().encode(json), 8);
      const source = h.zerosAfter(head, head.length + 16 + 2 * n);
      const big = await lib.openSafetensors(source);
      const readsAtOpen = source.readsPastHead;
      const { device: counted, counts } = h.countingDevice(device);
      // Chromium raises a requiredLimits value below the default to the default: the device has 256 MiB.
      const small = await (await navigator.gpu.requestAdapter()).requestDevice({ requiredLimits: { maxBufferSize: 4096 } });
      const refused = await big.toGPU(counted).then(() => null, (e) => ({ name: e.name, code: e.code, tensor: e.tensor, message: e.message }));
      const after = { created: counts.created, reads: source.readsPastHead - readsAtOpen };
      const native = await big.toGPU(counted, { as: 'native' });
      const flags = [...native].map(([name, t]) => [name, t.byteLength, t.overBindingLimit]);
      for (const t of native.values()) t.buffer.destroy();
      return { refused, after, flags, limits: [device.limits.maxBufferSize, device.limits.maxStorageBufferBindingSize],
        smallLimit: small.limits.maxBufferSize };
    })()`);
    expect(out.limits).toEqual([268435456, 134217728]);
    expect(out.smallLimit).toBe(268435456);
    expect(out.refused).toMatchObject({ name: 'SafetensorsError', code: 'TensorTooLarge', tensor: 'big' });
    expect(out.refused.message).toContain('268435472 bytes');
    expect(out.refused.message).toContain('maxBufferSize of 268435456 bytes');
    expect(out.after).toEqual({ created: 0, reads: 0 });
    expect(out.flags).toEqual([
      ['small', 16, false],
      ['empty', 0, false],
      ['big', 134217736, true],
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('abort destroys the buffers made so far; progress counts every byte; a lost device is a DeviceLost', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {${PRELUDE}
      const outcome = (p) => p.then(() => 'resolved', (e) => e.name + ':' + (e.code ?? ''));
      const names = st.tensors.filter((t) => !t.dtype.startsWith('F6')).map((t) => t.name);
      const calls = [];
      await st.toGPU(device, { names, chunkBytes: 4096, onProgress: (d, t) => calls.push([d, t]) });
      const abort = h.countingDevice(device);
      const controller = new AbortController();
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
      const aborted = await outcome(st.toGPU(abort.device, { usage, chunkBytes: 4096, signal: controller.signal,
        onProgress: (d) => d > 20000 && controller.abort() }));
      // A destroyed buffer cannot be copied from: WebGPU says so through a validation error.
      device.pushErrorScope('validation');
      const target = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(abort.counts.made[0], 0, target, 0, 16);
      device.queue.submit([encoder.finish()]);
      const copyError = (await device.popErrorScope())?.message ?? null;
      const missing = h.countingDevice(device);
      const notFound = await outcome(st.toGPU(missing.device, { names: ['t.F16', 'nope'] }));
      const lostDuring = h.countingDevice(await h.newDevice());
      const during = await outcome(st.toGPU(lostDuring.device, { chunkBytes: 4096,
        onProgress: (d) => d > 20000 && lostDuring.real.destroy() }));
      const before = await outcome(st.toGPU(lostDuring.device, { names: ['t.F16'] }));
      return { calls, aborted, abortCounts: [abort.counts.created, abort.counts.destroyed], copyError, notFound,
        missingCreated: missing.counts.created, during, before, duringCounts: [lostDuring.counts.created, lostDuring.counts.destroyed] };
    })()`);
    const total = IN_FILE.filter((t) => !t.dtype.startsWith('F6')).reduce((sum, t) => sum + t.byteLength, 0);
    expect(out.calls.at(-1)).toEqual([total, total]);
    expect(out.calls.every(([d, t], i) => t === total && (i === 0 || d >= out.calls[i - 1][0]))).toBe(true);
    expect(out.aborted).toMatch(/^AbortError:/);
    expect(out.abortCounts[0]).toBeGreaterThan(1);
    expect(out.abortCounts[1]).toBe(out.abortCounts[0]);
    expect(out.copyError).toMatch(/destroyed/i);
    expect(out.notFound).toBe('SafetensorsError:TensorNotFound');
    expect(out.missingCreated).toBe(0);
    expect(out.during).toBe('SafetensorsError:DeviceLost');
    expect(out.before).toBe('SafetensorsError:DeviceLost');
    expect(out.duringCounts[1]).toBe(out.duringCounts[0]);
    expect(errors).toEqual([]);
    await page.close();
  });

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
