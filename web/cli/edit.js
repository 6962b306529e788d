// safetensors-wasm edit: FILE with its metadata changed, written to OUT whole or not at all
// (OUT may be FILE itself); the data section is copied byte for byte.
import { SafetensorsError } from '../index.js';
import { printable } from './text.js';
import { withInput } from './files.js';
import { usage } from './usage.js';

/**
 * Splits `edit` arguments: FILE, --set KEY=VALUE..., --delete KEY..., --clear, -o OUT.
 * @param {string[]} args
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
 * safetensors-wasm edit: new metadata, the data section copied byte for byte.
 * @param {string[]} args
 */
export async function edit(args) {
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
      if (!(key in metadata))
        throw new SafetensorsError('InvalidMetadata', `--delete ${JSON.stringify(key)}: the metadata has no such key`);
      delete metadata[key];
    }
    for (const [key, value] of set) metadata[key] = value;
    const keys = Object.keys(metadata).length;
    await st.withMetadata(st.metadata === null && keys === 0 && !clear ? null : metadata, { path: out });
    console.log(
      printable(
        `wrote ${out}: ${keys} metadata key${keys === 1 ? '' : 's'}${set.length ? `, set ${set.map(([k]) => k).join(', ')}` : ''}${remove.length ? `, deleted ${remove.join(', ')}` : ''}; the ${(st.fileSize - st.dataStart).toLocaleString('en')} bytes of tensor data are unchanged`,
      ),
    );
  });
}
