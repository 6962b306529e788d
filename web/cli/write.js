// The CLI's commands that write files (web/cli/main.js): edit (metadata) and convert (to F16/BF16).
// The output is written whole or not at all; OUT may be FILE itself.
import { open } from 'node:fs/promises';
import { openSafetensors, SafetensorsError } from '../index.js';
import { printable } from './text.js';

/**
 * Splits `edit` arguments: FILE, --set KEY=VALUE..., --delete KEY..., --clear, -o OUT.
 * @returns {{ file: string, out: string, set: [string, string][], remove: string[], clear: boolean } | string} the edit, or what is wrong
 */
export function parseEdit(args) {
  /** @type {[string, string][]} */
  const set = [];
  const remove = [];
  let clear = false;
  let out = null;
  const files = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--set' || arg === '--delete' || arg === '-o') {
      const value = args[++i];
      if (value === undefined) return `${arg} needs a value`;
      if (arg === '-o') out = value;
      else if (arg === '--delete') remove.push(value);
      else {
        const eq = value.indexOf('=');
        if (eq <= 0) return `--set takes KEY=VALUE, got ${JSON.stringify(value)}`;
        set.push([value.slice(0, eq), value.slice(eq + 1)]);
      }
    } else if (arg === '--clear') clear = true;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else files.push(arg);
  }
  if (files.length !== 1) return 'edit takes one FILE';
  if (out === null) return 'edit needs -o OUT (OUT may be FILE itself)';
  return { file: files[0], out, set, remove, clear };
}

/**
 * Opens FILE (a FileHandle) and runs `fn(st)`; a file that cannot be read or used, or a
 * failure of `fn`, is printed and exits 1.
 * @param {string} command for messages
 * @param {string} file
 * @param {(st: import('../index.js').SafetensorsFile) => Promise<void>} fn
 */
async function withInput(command, file, fn) {
  const handle = await open(file, 'r').catch((error) => {
    console.error(`cannot read ${file}: ${error.message}`);
    return null;
  });
  if (!handle) return 1;
  try {
    await fn(await openSafetensors(handle));
    return 0;
  } catch (error) {
    console.error(printable(`${command}: ${error instanceof Error ? error.message : error}`));
    return 1;
  } finally {
    await handle.close();
  }
}

/** safetensors-wasm edit: new metadata, the data section copied byte for byte. */
export async function edit(args, usage) {
  const parsed = parseEdit(args);
  if (typeof parsed === 'string') {
    console.error(`edit: ${parsed}`);
    return usage();
  }
  const { file, out, set, remove, clear } = parsed;
  return withInput('edit', file, async (st) => {
    /** @type {Record<string, string>} */
    const metadata = clear ? {} : { ...st.metadata };
    for (const key of remove) {
      if (!(key in metadata)) throw new SafetensorsError('InvalidMetadata', `--delete ${JSON.stringify(key)}: the metadata has no such key`);
      delete metadata[key];
    }
    for (const [key, value] of set) metadata[key] = value;
    const keys = Object.keys(metadata).length;
    await st.withMetadata(st.metadata === null && keys === 0 && !clear ? null : metadata, { path: out });
    console.log(printable(`wrote ${out}: ${keys} metadata key${keys === 1 ? '' : 's'}${set.length ? `, set ${set.map(([k]) => k).join(', ')}` : ''}${remove.length ? `, deleted ${remove.join(', ')}` : ''}; the ${(st.fileSize - st.dataStart).toLocaleString('en')} bytes of tensor data are unchanged`));
  });
}

/** safetensors-wasm convert: float tensors rounded to F16 or BF16, the rest copied. */
export async function convert(args, usage) {
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
      console.log(printable(`wrote ${out}: ${changed} of ${written.tensors.length} tensors converted to ${to}, ${st.fileSize.toLocaleString('en')} -> ${written.fileSize.toLocaleString('en')} bytes`));
    });
    if (status !== 0) throw new Error(`${out} was written but cannot be read back`);
  });
}
