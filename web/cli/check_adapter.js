// safetensors-wasm check-adapter ADAPTER --base BASE: whether an adapter fits a base model, from
// the two headers alone. Exit 0 compatible, 1 not, 2 when a header cannot be read or the usage
// is wrong.
import { checkAdapter } from '../index.js';
import { counted, printable } from './text.js';
import { familyMismatchText } from '../card/card_text.js';
import { misuse } from './usage.js';
import { readStdin } from './files.js';

/** Mismatches listed before "… and N more". */
const MAX_LISTED = 20;

/**
 * @param {import('../index.js').CheckAdapterResult} r
 * @param {string} adapter
 * @param {string} base
 */
export function verdictLines(r, adapter, base) {
  const what = r.adapterFormat ? `${r.adapterFormat} ${r.adapterType ?? ''}`.trim() : 'not an adapter';
  const lines = [
    `${printable(adapter)} on ${printable(base)}: ${r.compatible ? 'compatible' : 'not compatible'}`,
    r.adapterFormat
      ? `adapter: ${printable(what)}, ${counted(r.modules, 'adapted module')}; base layout: ${r.baseFormat}`
      : `adapter: ${what}; base layout: ${r.baseFormat}`,
  ];
  const families = familyMismatchText(r);
  if (families) lines.push(families);
  if (r.adapterFormat) lines.push(`matched: ${r.matched} of ${counted(r.modules, 'module')}`);
  if (r.unmatched.length > 0) {
    lines.push(`unmatched (${r.unmatched.length}):`);
    for (const m of r.unmatched.slice(0, MAX_LISTED))
      lines.push(`  ${m.key ? `${printable(m.key)}: ` : ''}${printable(m.reason)}`);
    if (r.unmatched.length > MAX_LISTED) lines.push(`  … and ${r.unmatched.length - MAX_LISTED} more`);
  }
  return lines;
}

/**
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} _term
 */
export async function checkAdapterCommand(parsed, _term) {
  const base = parsed.value('--base');
  if (base === undefined) return misuse('check-adapter', 'expected --base BASE');
  const [adapter] = /** @type {[string]} */ (parsed.files);
  if (adapter === '-' && base === '-') return misuse('check-adapter', 'standard input (-) can be read only once');
  // - is standard input, read whole: the header is all that is used, but a pipe cannot seek.
  const sourceOf = async (/** @type {string} */ arg) => (arg === '-' ? readStdin() : arg);
  let result;
  try {
    result = await checkAdapter(await sourceOf(adapter), await sourceOf(base));
  } catch (error) {
    console.error(printable(`check-adapter: ${error instanceof Error ? error.message : String(error)}`));
    return 2;
  }
  if (parsed.has('--json')) process.stdout.write(`${JSON.stringify({ adapter, base, ...result }, null, 2)}\n`);
  else console.log(verdictLines(result, adapter, base).join('\n'));
  return result.compatible ? 0 : 1;
}
