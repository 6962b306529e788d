// safetensors-wasm convert: FILE with its float tensors rounded to F16 or BF16 (the others
// copied), written to OUT whole or not at all.
import { counted, printable } from './text.js';
import { withInput } from './files.js';
import { misuse } from './usage.js';

/**
 * safetensors-wasm convert: float tensors rounded to F16 or BF16, the rest copied.
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function convert(parsed, term) {
  const [file] = parsed.files;
  const to = parsed.value('--to')?.toUpperCase();
  const out = parsed.value('-o');
  if (to !== 'F16' && to !== 'BF16')
    return misuse(
      'convert',
      `expected --to f16 or --to bf16${to === undefined ? '' : `, got ${parsed.value('--to')}`}`,
    );
  if (out === undefined) return misuse('convert', 'expected -o OUT');
  return withInput('convert', file, async (st) => {
    const before = new Map(st.tensors.map((t) => [t.name, t.dtype]));
    await term.withProgress(`converting ${printable(file)}`, (onProgress) => st.convert({ to, path: out, onProgress }));
    // The file written, read back as a user would: what changed, and its size.
    const status = await withInput('convert', out, async (written) => {
      const changed = written.tensors.filter((t) => before.get(t.name) !== t.dtype).length;
      console.log(
        printable(
          `wrote ${out}: ${changed} of ${counted(written.tensors.length, 'tensor')} converted to ${to}, ${st.fileSize.toLocaleString('en')} -> ${written.fileSize.toLocaleString('en')} bytes`,
        ),
      );
    });
    if (status !== 0) throw new Error(`${out} was written but cannot be read back`);
  });
}
