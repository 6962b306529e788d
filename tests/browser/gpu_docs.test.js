// docs/gpu.md's example, run as written in Chromium (WebGPU on SwiftShader): only the package
// import becomes the served module and `file` a picked-like File; its result is checked
// against getTensor.
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { demoBrowser } from './demo_browser.js';
import { WEBGPU_FLAGS } from './chromium.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { weightCodes } from '../../tools/weight_codes.js';

const DOC = readFileSync(new URL('../../docs/gpu.md', import.meta.url), 'utf8');
const IMPORT = "import { openSafetensors } from 'safetensors-wasm';";
const EXAMPLE = [...DOC.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.startsWith(IMPORT));
// An integer tensor first: the example picks the first float32 one (the F16, converted).
const FILE = writeSafetensors([
  { name: 'step', dtype: 'I32', shape: [1], data: new Uint8Array(4) },
  { name: 'proj.weight', dtype: 'F16', shape: [3, 1001], data: weightCodes('F16', 3003) },
]);

const gpu = demoBrowser('stw-gpu-docs-', ['web', 'demo'], WEBGPU_FLAGS);

test("docs/gpu.md's example runs as written and doubles the tensor getTensor gives", async () => {
  expect(EXAMPLE, 'docs/gpu.md has a js block starting with the package import').toBeDefined();
  const page = await gpu.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.route('**/gpu-docs-fixture', (route) => route.fulfill({ body: Buffer.from(FILE) }));
  await page.goto(`${gpu.url}/gpu-docs-page`);
  const body = EXAMPLE.replace(IMPORT, "const { openSafetensors } = await import('/web/index.js');");
  const out = await page.evaluate(`(async () => {
    const file = new File([await (await fetch('/gpu-docs-fixture')).blob()], 'model.safetensors');
    ${body}
    const expected = await st.getTensor(name);
    const wrong = expected.filter((v, i) => !Object.is(2 * v, result[i])).length;
    return { name, as: weight.as, length: result.length, expectedLength: expected.length, wrong,
      sample: Array.from(result.slice(0, 3)), expectedSample: Array.from(expected.slice(0, 3), (v) => 2 * v) };
  })()`);
  expect(out.name).toBe('proj.weight');
  expect(out.as).toBe('float32');
  expect(out.length).toBe(3003);
  expect(out.expectedLength).toBe(3003);
  expect(out.sample).toEqual(out.expectedSample);
  expect(out.wrong).toBe(0);
  expect(errors).toEqual([]);
  await page.close();
});
