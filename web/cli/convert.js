// safetensors-wasm convert: FILE with its float tensors rounded to F16 or BF16 (the others
// copied), or, without --to, a PyTorch checkpoint's tensors as a .safetensors file (nothing in
// it run; --verify reads both back and compares every tensor, streamed), written to OUT whole
// or not at all.
import { stat } from 'node:fs/promises';
import { openCheckpoint, openSafetensors } from '../index.js';
import { tensorChunks } from '../pickle/open_checkpoint.js';
import { toByteSource } from '../source/byte_source.js';
import { counted, printable } from './text.js';
import { withFile, withInput } from './files.js';
import { misuse } from './usage.js';

/**
 * Whether two streams of chunks hold the same bytes (chunk boundaries may differ), holding one
 * chunk of each at a time.
 * @param {AsyncIterable<Uint8Array>} a
 * @param {AsyncIterable<Uint8Array>} b
 */
export async function sameStreams(a, b) {
  const right = b[Symbol.asyncIterator]();
  let chunk = /** @type {Uint8Array} */ (new Uint8Array(0));
  let at = 0;
  for await (const left of a) {
    for (let i = 0; i < left.byteLength;) {
      if (at === chunk.byteLength) {
        const next = await right.next();
        if (next.done) return false;
        [chunk, at] = [next.value, 0];
        continue;
      }
      const n = Math.min(left.byteLength - i, chunk.byteLength - at);
      for (let k = 0; k < n; k++) if (left[i + k] !== chunk[at + k]) return false;
      i += n;
      at += n;
    }
  }
  while (at === chunk.byteLength) {
    const next = await right.next();
    if (next.done) return true;
    [chunk, at] = [next.value, 0];
  }
  return false;
}

/**
 * A checkpoint FILE's tensors written to OUT; with --verify, both files read back and every
 * tensor compared. Exit 1 when refused (a global that is not safe, without
 * --allow-unsafe-globals), unreadable, or different.
 * @param {import('./usage.js').Parsed} parsed
 * @param {string} file
 * @param {string} out
 */
async function convertCheckpoint(parsed, file, out) {
  try {
    // A local file is read through a FileHandle: each contiguous tensor streamed in 4 MiB reads
    // (fewer and larger than a Blob's stream gives, and right past 4 GiB, where Node 20's
    // openAsBlob is not), views gathered one at a time; memory stays bounded whatever the size.
    return await withFile(file, async (source) => {
      const ckpt = await openCheckpoint(source);
      if (ckpt.format !== 'pytorch-zip' && ckpt.format !== 'pytorch-legacy') {
        throw new Error(
          `${file} is not a PyTorch checkpoint (${ckpt.format}); for a .safetensors file give --to f16|bf16`,
        );
      }
      await ckpt.toSafetensors({ allowUnsafeGlobals: parsed.has('--allow-unsafe-globals'), path: out });
      const made = `${counted(ckpt.tensors.length, 'tensor')} from ${file} (${ckpt.format}, verdict ${ckpt.verdict})`;
      console.log(printable(`wrote ${out}: ${made}, ${(await stat(out)).size.toLocaleString('en')} bytes`));
      return parsed.has('--verify')
        ? withFile(out, async (written) =>
            verify(ckpt, /** @type {import('node:fs/promises').FileHandle} */ (written), out),
          )
        : 0;
    });
  } catch (error) {
    const hint = /** @type {any} */ (error)?.code === 'UnsafeCheckpoint' ? ' (here: --allow-unsafe-globals)' : '';
    console.error(printable(`convert: ${error instanceof Error ? error.message : error}${hint}`));
    return 1;
  }
}

/**
 * Every tensor of the checkpoint read again and compared with the written file's, by name,
 * dtype, shape and bytes, streamed (one view in memory at a time): 0 when all are equal and
 * the file has no other, else 1.
 * @param {import('../index.js').Checkpoint} ckpt
 * @param {import('node:fs/promises').FileHandle} handle the written file
 * @param {string} out
 */
async function verify(ckpt, handle, out) {
  const written = await openSafetensors(handle);
  const bytes = await toByteSource(handle);
  const chunksOf = /** @type {(name: string) => Promise<AsyncIterable<Uint8Array>>} */ (tensorChunks.get(ckpt));
  const byName = new Map(written.tensors.map((t) => [t.name, t]));
  let same = 0;
  for (const t of ckpt.tensors) {
    const w = byName.get(t.name);
    const matches =
      w !== undefined &&
      w.dtype === t.dtype &&
      w.shape.join() === t.shape.join() &&
      (await sameStreams(
        await chunksOf(t.name),
        bytes.chunks(written.dataStart + w.dataOffsets[0], w.dataOffsets[1] - w.dataOffsets[0]),
      ));
    if (matches) same++;
    else console.error(printable(`convert: tensor ${t.name} differs in ${out}`));
  }
  const extra = written.tensors.length - ckpt.tensors.length;
  const more = extra ? `, ${extra} more in ${out}` : '';
  console.log(printable(`verified: ${same} of ${counted(ckpt.tensors.length, 'tensor')} equal${more}`));
  return same === ckpt.tensors.length && extra === 0 ? 0 : 1;
}

/**
 * safetensors-wasm convert: float tensors rounded to F16 or BF16, the rest copied.
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function convert(parsed, term) {
  const [file] = parsed.files;
  const to = parsed.value('--to')?.toUpperCase();
  const out = parsed.value('-o');
  if (to === undefined && out !== undefined) return convertCheckpoint(parsed, file, out);
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
