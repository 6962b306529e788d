// Converts checkpoints as the CLI does (a local file opened as a Blob, written to a path by
// toSafetensors), many in one Node process, for check_conversions.py. Arguments: IN OUT pairs.
// Prints one JSON line per pair: { file, ok } or { file, code, message }.
import { openAsBlob } from 'node:fs';
import { openCheckpoint } from '../../web/index.js';

const args = process.argv.slice(2);
for (let i = 0; i + 1 < args.length; i += 2) {
  const [file, out] = [args[i], args[i + 1]];
  try {
    const ckpt = await openCheckpoint(await openAsBlob(file));
    await ckpt.toSafetensors({ path: out });
    console.log(JSON.stringify({ file, ok: true }));
  } catch (error) {
    const e = /** @type {any} */ (error);
    console.log(JSON.stringify({ file, code: e?.code ?? 'Error', message: String(e?.message ?? e) }));
  }
}
