// safetensors-wasm edit: FILE with its metadata changed, written to OUT whole or not at all
// (OUT may be FILE itself); the data section is copied byte for byte.
import { SafetensorsError } from '../index.js';
import { printable } from './text.js';
import { withInput } from './files.js';
import { misuse } from './usage.js';

/**
 * safetensors-wasm edit: new metadata, the data section copied byte for byte.
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function edit(parsed, term) {
  const [file] = parsed.files;
  const out = parsed.value('-o');
  if (out === undefined) return misuse('edit', 'expected -o OUT (OUT may be FILE itself)');
  /** @type {[string, string][]} */
  const set = [];
  for (const value of parsed.all('--set')) {
    const eq = value.indexOf('=');
    if (eq <= 0) return misuse('edit', `--set takes KEY=VALUE, got ${JSON.stringify(value)}`);
    set.push([value.slice(0, eq), value.slice(eq + 1)]);
  }
  const remove = parsed.all('--delete');
  const clear = parsed.has('--clear');
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
    await term.withProgress(`writing ${printable(out)}`, (onProgress) =>
      st.withMetadata(st.metadata === null && keys === 0 && !clear ? null : metadata, { path: out, onProgress }),
    );
    console.log(
      printable(
        `wrote ${out}: ${keys} metadata key${keys === 1 ? '' : 's'}${set.length ? `, set ${set.map(([k]) => k).join(', ')}` : ''}${remove.length ? `, deleted ${remove.join(', ')}` : ''}; the ${(st.fileSize - st.dataStart).toLocaleString('en')} bytes of tensor data are unchanged`,
      ),
    );
  });
}
