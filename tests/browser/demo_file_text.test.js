// What the demo says about a file, in Chromium (issue 30): bidi controls in names and metadata
// shown as code points in text and tooltips, and a tensor list true of an adapter, sizes in binary
// units. Dropped folders, failures and races: demo_sources.test.js.
import { describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';
import { text } from './demo_pick.js';

const demo = demoBrowser('stw-sources-');

describe('what the demo says about a file (Chromium)', () => {
  test('bidi controls in names and metadata are shown as code points, in text and tooltips alike', async () => {
    const path = join(demo.dir, 'bidi.safetensors');
    const title = 'invoice\u202Eexe.txt';
    await writeFile(
      path,
      writeSafetensors([{ name: 'layer\u2066.w\u200Feight', dtype: 'F32', shape: [1], data: pseudoRandomBytes(4) }], {
        'modelspec.title': title,
        'ss_tag\u061C': 'a\u202Ab\u202Cc',
        'modelspec.author': 'x\u2067y\u2069',
      }),
    );
    const { page, errors } = await openDemo(demo);
    await pickFile(page, path);
    await page.click('[data-testid=metadata-box] > summary');
    expect(await text(page, 'card-title')).toBe('invoice[U+202E]exe.txt');
    expect(await text(page, 'metadata')).toContain('ss_tag[U+061C]');
    expect(await text(page, 'metadata')).toContain('a[U+202A]b[U+202C]c');
    expect(await text(page, 'tensor-table')).toContain('[U+200F]eight');
    // Nowhere on the page or in the card's shadow root (but in the editor's fields, which must
    // keep the value to save it, and in data- attributes, which hold names as keys and are never
    // displayed) is a bidi control left, in text or in an attribute (tooltips).
    const left = await page.evaluate(() => {
      const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
      const found = [];
      for (const root of [document.body, document.getElementById('card').shadowRoot]) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.closest?.('#edit-box') || node.parentElement?.closest('#edit-box')) continue;
          if (node.nodeType === Node.TEXT_NODE && bidi.test(node.data)) found.push(node.data);
          if (node.nodeType === Node.ELEMENT_NODE)
            for (const a of node.attributes)
              if (!a.name.startsWith('data-') && bidi.test(a.value)) found.push(`${a.name}=${a.value}`);
        }
      }
      return found;
    });
    expect(left).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the tensor list says what the tensors are, and sizes are in binary units everywhere', async () => {
    const path = join(demo.dir, 'two-tensor-lora.safetensors');
    await writeFile(
      path,
      writeSafetensors([
        { name: 'lora_unet_proj_in.lora_down.weight', dtype: 'F16', shape: [4, 320], data: pseudoRandomBytes(2560, 1) },
        { name: 'lora_unet_proj_in.lora_up.weight', dtype: 'F16', shape: [320, 4], data: pseudoRandomBytes(2560, 2) },
      ]),
    );
    const dotless = join(demo.dir, 'dotless.safetensors');
    await writeFile(
      dotless,
      writeSafetensors([{ name: 'emb', dtype: 'F32', shape: [3], data: pseudoRandomBytes(12) }]),
    );
    const { page, errors } = await openDemo(demo);
    expect(await text(page, 'tensor-note')).toMatch(/^16 tensors of a LoRA adapter\. /);
    await pickFile(page, path);
    expect(await text(page, 'tensor-note')).toMatch(/^2 tensors of a LoRA adapter\. /);
    expect(await text(page, 'card-parameters')).toMatch(/^2,560 /);
    const facts = await page.locator('[data-testid=card-facts]').innerText();
    expect(facts).toMatch(/Size\s+5\.\d KiB \([\d,]+ bytes\); header \d+ bytes/);
    await pickFile(page, dotless);
    expect(await text(page, 'tensor-note')).toMatch(/^1 tensor\. /);
    // Decimal units (KB, MB) appear nowhere on the page nor in the card.
    expect(await page.textContent('main')).not.toMatch(/\d ?[KMGT]B\b/);
    expect(await page.$eval('safetensors-card', (card) => card.shadowRoot.textContent)).not.toMatch(/\d ?[KMGT]B\b/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
