// diffSafetensors in Chromium on two picked Files, data compared: the same answer Node gives.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickInPage } from './demo_browser.js';
import { diffSafetensors, serializeSafetensors } from '../../web/index.js';

const demo = demoBrowser('stw-browser-diff-');

const bytesOf = async (tensors, metadata) =>
  new Uint8Array(await (await serializeSafetensors(tensors, { metadata })).arrayBuffer());

describe('diff in Chromium', () => {
  test('two picked files: tensors, bytes and metadata compared as in Node', async () => {
    const big = new Float32Array(300_000).map((_, i) => Math.sin(i));
    const a = await bytesOf(
      {
        w: { dtype: 'F32', shape: [300_000], data: big },
        h: { dtype: 'F16', shape: [2], data: new Uint16Array([1, 2]) },
      },
      { note: 'a' },
    );
    const changed = big.slice();
    changed[299_999] += 2;
    const b = await bytesOf(
      { w: { dtype: 'F32', shape: [300_000], data: changed }, x: { dtype: 'U8', shape: [1], data: new Uint8Array(1) } },
      { note: 'b' },
    );
    await writeFile(join(demo.dir, 'a.safetensors'), a);
    await writeFile(join(demo.dir, 'b.safetensors'), b);
    const { page, errors } = await openDemo(demo);
    await pickInPage(page, [join(demo.dir, 'a.safetensors'), join(demo.dir, 'b.safetensors')]);
    // A string, not a function: Vitest rewrites import() inside functions it compiles.
    const inPage = await page.evaluate(`(async () => {
      const { diffSafetensors } = await import('/web/index.js');
      const [a, b] = document.querySelector('[data-testid=two-files]').files;
      return diffSafetensors(a, b, { data: true });
    })()`);
    expect(inPage).toEqual(await diffSafetensors(a, b, { data: true }));
    expect(inPage.tensors.changed[0].data.maxAbsDiff).toBeCloseTo(2, 5);
    expect(errors).toEqual([]);
  });
});
