// safetensors-wasm diff A B: what changed between two checkpoints (files, sharded models,
// URLs): tensors added, removed, changed (with --data their bytes), metadata keys.
// Exit 0 when identical, 1 when they differ, 2 when a side cannot be read or the usage is wrong.
import { diffSafetensors } from '../index.js';
import { printable } from './text.js';
import { parseArgs, usage } from './usage.js';

/** Names listed per group before "… and N more". */
const MAX_LISTED = 20;

const shapeText = (/** @type {number[]} */ shape) => `[${shape.join(', ')}]`;
const clipped = (/** @type {string} */ text) => printable(text.length > 120 ? `${text.slice(0, 120)}…` : text);

/**
 * @template T
 * @param {string} title
 * @param {T[]} items
 * @param {(item: T) => string} line
 */
function group(title, items, line) {
  if (items.length === 0) return [];
  const shown = items.slice(0, MAX_LISTED).map((item) => `  ${line(item)}`);
  if (items.length > MAX_LISTED) shown.push(`  … and ${items.length - MAX_LISTED} more`);
  return [`${title} (${items.length}):`, ...shown];
}

/** @param {import('../index.js').DiffChange} c */
function changeText(c) {
  const parts = [];
  if (c.dtype) parts.push(`dtype ${c.dtype[0]} → ${c.dtype[1]}`);
  if (c.shape) parts.push(`shape ${shapeText(c.shape[0])} → ${shapeText(c.shape[1])}`);
  if (c.data) {
    const { maxAbsDiff, differentElements, sha256 } = c.data;
    const values =
      maxAbsDiff === null
        ? 'bytes differ'
        : `max |a − b| ${maxAbsDiff.toPrecision(4)} in ${differentElements} elements`;
    parts.push(`${values} (sha256 ${sha256[0].slice(0, 12)} → ${sha256[1].slice(0, 12)})`);
  }
  return `${printable(c.name)}: ${parts.join('; ')}`;
}

/**
 * @param {import('../index.js').DiffResult} d
 * @param {[string, string]} sides
 */
function diffLines(d, sides) {
  const { added, removed, changed, unchanged } = d.tensors;
  const lines = [
    `${printable(sides[0])} → ${printable(sides[1])}: ${d.identical ? 'identical' : 'different'}`,
    ...group('tensors added', added, (t) => `${printable(t.name)} ${t.dtype} ${shapeText(t.shape)}`),
    ...group('tensors removed', removed, (t) => `${printable(t.name)} ${t.dtype} ${shapeText(t.shape)}`),
    ...group('tensors changed', changed, changeText),
    `tensors unchanged: ${unchanged}${d.dataCompared ? ' (bytes compared)' : ' (dtype and shape; --data compares bytes)'}`,
  ];
  if (d.metadata === null) {
    lines.push('metadata: not compared (a file against a sharded model)');
  } else {
    const { added: plus, removed: minus, changed: edits } = d.metadata;
    lines.push(
      ...group('metadata added', plus, (k) => clipped(k)),
      ...group('metadata removed', minus, (k) => clipped(k)),
      ...group(
        'metadata changed',
        edits,
        (e) => `${clipped(e.key)}: ${clipped(JSON.stringify(e.a))} → ${clipped(JSON.stringify(e.b))}`,
      ),
    );
  }
  return lines;
}

/** @param {string[]} args */
export async function diff(args) {
  const parsed = parseArgs(args, ['--json', '--data']);
  if (!parsed || parsed.files.length !== 2) return usage();
  const [a, b] = /** @type {[string, string]} */ (parsed.files);
  let result;
  try {
    result = await diffSafetensors(a, b, { data: parsed.has('--data') });
  } catch (error) {
    console.error(printable(`diff: ${error instanceof Error ? error.message : String(error)}`));
    return 2;
  }
  if (parsed.has('--json')) process.stdout.write(`${JSON.stringify({ a, b, ...result }, null, 2)}\n`);
  else console.log(diffLines(result, [a, b]).join('\n'));
  return result.identical ? 0 : 1;
}
