// createModelBom in Chromium: a dropped folder (Files with webkitRelativePath, as a folder pick
// gives them) becomes the same CycloneDX 1.6 BOM as in Node, checked against the official schema.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { demoBrowser, openDemo } from './demo_browser.js';
import { createModelBom } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR } from '../js/fixtures.js';

const demo = demoBrowser('stw-bom-');
const FIXED = { timestamp: '2026-01-02T03:04:05.000Z', serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79' };

describe.skipIf(!HAVE_REAL)('createModelBom in Chromium', () => {
  test('a picked folder: the LoKr and a README, with their SHA-256 and the card; as Node makes it', async () => {
    const lokr = new Uint8Array(await readFile(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors')));
    const readme = new TextEncoder().encode('# a LoKr\n');
    const folder = join(demo.dir, 'my-lokr');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'lokr.safetensors'), lokr);
    await writeFile(join(folder, 'README.md'), readme);
    const { page, errors } = await openDemo(demo);
    // A string, not a function: Vitest rewrites import() inside functions it compiles.
    await page.evaluate(`(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.webkitdirectory = true;
      input.id = 'bom-folder';
      document.body.append(input);
    })()`);
    await page.setInputFiles('#bom-folder', folder);
    const inPage = await page.evaluate(`(async (fixed) => {
      const { createModelBom } = await import('/web/index.js');
      const files = document.getElementById('bom-folder').files;
      const bom = await createModelBom(files, { timestamp: new Date(fixed.timestamp), serialNumber: fixed.serialNumber });
      return JSON.stringify(bom);
    })(${JSON.stringify(FIXED)})`);
    expect(errors).toEqual([]);
    const bom = JSON.parse(inPage);
    const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
    expect(await validator.validate(inPage)).toBeNull();
    const sha = (b) => createHash('sha256').update(b).digest('hex');
    expect(bom.components.map((c) => [c.name, c.hashes[0].content])).toEqual([
      ['README.md', sha(readme)],
      ['lokr.safetensors', sha(lokr)],
    ]);
    // The same BOM as Node's from the folder on disk.
    const node = await createModelBom(folder, {
      timestamp: new Date(FIXED.timestamp),
      serialNumber: FIXED.serialNumber,
    });
    expect(bom).toEqual(node);
  });
});
