// Shared by the toGPU tests in Chromium: a file with one tensor of every dtype (NaN payloads
// included), a page on the demo server that fetches it, the page's prelude, and the bit-for-bit
// check of every buffer read back.
import { expect } from 'vitest';
import { demoBrowser } from './demo_browser.js';
import { WEBGPU_FLAGS } from './chromium.js';
import { initSafetensors, openSafetensors } from '../../web/index.js';
import { DTYPE_ORDER, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { layoutFile } from '../js/fixtures.js';

const { tables } = await initSafetensors();
const bitsOf = new Map(tables.dtypes.map((d) => [d.name, d.bits]));
// One tensor of every dtype, odd sizes so that later tensors sit at odd offsets (and native
// buffers need padding); random bytes, so every float kind has NaNs with many payloads.
export const TENSORS = DTYPE_ORDER.map((dtype, i) => {
  const elements = dtype.startsWith('F6') ? 4 * 37 : dtype === 'F4' ? 2 * 1001 : 4099;
  return {
    name: `t.${dtype}`,
    dtype,
    shape: [elements],
    data: pseudoRandomBytes((elements * bitsOf.get(dtype)) / 8, i + 7),
    gap: i % 3,
  };
});
export const FILE = layoutFile(TENSORS);
export const IN_FILE = (await openSafetensors(FILE)).tensors; // TENSORS and the gaps between them
export const FLOAT_KINDS = new Set([
  'F16',
  'BF16',
  'F4',
  'F32',
  'F64',
  'C64',
  ...DTYPE_ORDER.filter((d) => d.startsWith('F8')),
]);

/** Chromium with WebGPU and the demo server for this file's tests; gpuPage opens a page on it. */
export function gpuPages() {
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
  return { gpu, gpuPage };
}

// The page's prelude: the package, the helpers, the fixture file opened, a device.
export const PRELUDE = `
  const lib = await import('/web/index.js');
  const h = await import('/tests/browser/gpu_in_page.js');
  const st = await lib.openSafetensors(await (await fetch('/gpu-fixture/all')).blob());
  const device = await h.newDevice();`;

export function expectSame(result, label) {
  for (const [name, t] of Object.entries(result.tensors)) {
    expect(t.size, `${label} ${name}`).toBe(t.byteLength);
    expect(t.byteLength % 4, `${label} ${name}`).toBe(0);
    expect(t.gpu, `${label} ${name} (${t.as})`).toBe(t.expected);
  }
}
