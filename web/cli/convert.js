// safetensors-wasm convert: FILE with its float tensors rounded to F16 or BF16 (the others
// copied), written to OUT whole or not at all.
import { printable } from './text.js';
import { withInput } from './files.js';
import { usage } from './usage.js';

/**
 * safetensors-wasm convert: float tensors rounded to F16 or BF16, the rest copied.
 * @param {string[]} args
 */
export async function convert(args) {
  const files = [];
  let to = null;
  let out = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--to') to = String(args[++i] ?? '').toUpperCase();
    else if (args[i] === '-o') out = args[++i] ?? null;
    else files.push(args[i]);
  }
  if (files.length !== 1 || files[0].startsWith('-') || (to !== 'F16' && to !== 'BF16') || !out) {
    console.error('convert: takes FILE --to f16|bf16 -o OUT');
    return usage();
  }
  return withInput('convert', files[0], async (st) => {
    const before = new Map(st.tensors.map((t) => [t.name, t.dtype]));
    await st.convert({ to, path: out });
    // The file written, read back as a user would: what changed, and its size.
    const status = await withInput('convert', out, async (written) => {
      const changed = written.tensors.filter((t) => before.get(t.name) !== t.dtype).length;
      console.log(
        printable(
          `wrote ${out}: ${changed} of ${written.tensors.length} tensors converted to ${to}, ${st.fileSize.toLocaleString('en')} -> ${written.fileSize.toLocaleString('en')} bytes`,
        ),
      );
    });
    if (status !== 0) throw new Error(`${out} was written but cannot be read back`);
  });
}
