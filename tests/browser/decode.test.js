// getTensor in real Chromium: every dtype of a generated file and a picked real file decode
// in the page exactly as they do in Node.
import { describe, expect, test } from 'vitest';
import { demoBrowser, openDemo } from './demo_browser.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSafetensors } from '../../web/index.js';
import { ALL_DTYPES, allDtypesFile } from './test_models.js';

const TENSORS = ALL_DTYPES;
const FILE = allDtypesFile();

// Arrays as JSON-safe lists: numbers keep -0 and NaN apart as strings, BigInts as strings.
function plain(array) {
  return Array.from(array, (v) =>
    typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v,
  );
}

const demo = demoBrowser('stw-browser-decode-', ['web', 'demo']);

describe('getTensor in Chromium', () => {
  test('every dtype of a picked file decodes as in Node, native and float32', async () => {
    const path = join(demo.dir, 'all_dtypes.safetensors');
    await writeFile(path, FILE);
    const { page, errors } = await openDemo(demo); // the demo page gives an input to pick with
    await page.setInputFiles('[data-testid=file-input]', path);
    // A string, not a function: Vitest rewrites import() inside functions it compiles.
    const inPage = await page.evaluate(`(async (names) => {
      const { openSafetensors: open } = await import('/web/index.js');
      const file = document.querySelector('[data-testid=file-input]').files[0];
      const st = await open(file);
      const plainList = ${plain.toString()};
      const out = {};
      for (const name of names) {
        const native = await st.getTensor(name);
        const float32 = await st.getTensor(name, { as: 'float32' }).then((a) => plainList(a), (e) => e.name + ':' + e.code);
        out[name] = { type: native.constructor.name, native: plainList(native), float32 };
      }
      return out;
    })(${JSON.stringify(TENSORS.map((t) => t.name))})`);
    const st = await openSafetensors(FILE);
    for (const { name } of TENSORS) {
      const native = await st.getTensor(name);
      const float32 = await st.getTensor(name, { as: 'float32' }).then(
        (a) => plain(a),
        (e) => `${e.name}:${e.code}`,
      );
      expect(inPage[name].type, name).toBe(native.constructor.name);
      expect(inPage[name].native, name).toEqual(plain(native));
      expect(inPage[name].float32, name).toEqual(float32);
    }
    expect(inPage['t.F6_E2M3'].float32).toBe('SafetensorsError:UnsupportedConversion');
    expect(errors).toEqual([]);
    await page.close();
  });
});
