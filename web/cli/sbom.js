// safetensors-wasm sbom MODEL [-o OUT]: the model's CycloneDX 1.6 bill of materials (JSON), to
// stdout or to OUT (written whole under a temporary name, then renamed).
import { rename, rm, writeFile } from 'node:fs/promises';
import { createModelBom } from '../index.js';
import { printable } from './text.js';
import { usage } from './usage.js';

/** @param {string[]} args */
export async function sbom(args) {
  /** @type {string | null} */
  let out = null;
  const models = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-o' || args[i] === '--output') {
      if (i + 1 >= args.length || out !== null) return usage();
      out = args[++i];
    } else if (args[i].startsWith('-')) return usage();
    else models.push(args[i]);
  }
  if (models.length !== 1) return usage();
  let bom;
  try {
    bom = await createModelBom(models[0]);
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
