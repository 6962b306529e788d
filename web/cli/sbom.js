// safetensors-wasm sbom MODEL [-o OUT]: the model's CycloneDX 1.6 bill of materials (JSON), to
// stdout or to OUT (written whole under a temporary name, then renamed).
import { rename, rm, writeFile } from 'node:fs/promises';
import { createModelBom } from '../index.js';
import { printable } from './text.js';

/**
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function sbom(parsed, term) {
  const out = parsed.value('-o') ?? null;
  const models = parsed.files;
  let bom;
  try {
    bom = await term.withProgress(`hashing ${printable(models[0])}`, (onProgress) =>
      createModelBom(models[0], { onProgress }),
    );
  } catch (error) {
    console.error(printable(`sbom: cannot read ${models[0]}: ${error instanceof Error ? error.message : error}`));
    return 1;
  }
  const text = `${JSON.stringify(bom, null, 2)}\n`;
  if (out === null) {
    process.stdout.write(text);
    return 0;
  }
  const partial = `${out}.partial-${process.pid}`;
  try {
    await writeFile(partial, text);
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    console.error(printable(`sbom: cannot write ${out}: ${error instanceof Error ? error.message : error}`));
    return 1;
  }
  return 0;
}
