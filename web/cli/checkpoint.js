// The CLI's view of a pickle (a PyTorch checkpoint, a plain pickle): scan's lines, and what
// validate and inspect show when a FILE they were given is one rather than safetensors: the
// scan's verdict and globals, the tensors the pickle describes and their model card. Nothing in
// the pickle is run (web/pickle).
import { openCheckpoint, scanPickle } from '../index.js';
import { readStdin } from './files.js';
import { cardLines, counted, paint, printable, table } from './text.js';

/** Plain values listed in inspect's text (--json lists all that were read). */
const MAX_OBJECTS = 40;

const SAFETY_PAINT = /** @type {const} */ ({ safe: 'good', unknown: 'warn', unsafe: 'bad' });

/**
 * What a NotSafetensors finding calls a file that scan and openCheckpoint may read
 * (cpp/analysis/foreign_format.h): a zip is one when it holds a pickle (the scan says).
 */
const PICKLE_FORMATS = new Set(['pytorch-zip', 'pickle', 'zip']);

/**
 * Whether validate's report says FILE is a pickle (a torch.save zip or a plain pickle).
 * @param {import('../index.js').ValidationReport} report
 */
export const isPickleReport = (report) =>
  !report.loadable && report.findings.some((f) => f.code === 'NotSafetensors' && PICKLE_FORMATS.has(f.format ?? ''));

/** Whether the scan read a pickle: a zip of other files (no pickle, no global) is not one. */
const holdsPickle = (/** @type {{ format: string, globals: unknown[] }} */ scan) =>
  scan.format !== 'not-pickle' && !(scan.format === 'zip' && scan.globals.length === 0);

/** A FILE as the pickle reader takes it: standard input's bytes for -. */
const pickleSource = async (/** @type {string} */ path) => (path === '-' ? await readStdin() : path);

/** The scan's exit status: 0 when the file is safe, 1 otherwise. */
export const scanStatus = (/** @type {{ verdict: string }} */ scan) => (scan.verdict === 'safe' ? 0 : 1);

/** One global as a line: safety, module.name, count. */
const globalLine = (/** @type {import('../index.js').PickleGlobal} */ g) =>
  `  ${paint(SAFETY_PAINT[g.safety], g.safety.padEnd(7))} ${printable(`${g.module}.${g.name}`)} (${g.count}×)`;

/** The scan's findings as lines. */
const pickleFindingLines = (/** @type {import('../index.js').PickleScan} */ scan) =>
  scan.findings.map(
    (f) => `  ${paint('warn', 'finding')} ${f.code}: ${printable(f.message)} (${printable(f.where || 'the file')})`,
  );

/** The verdict and format, e.g. `safe (pytorch-zip, 3 globals)`. */
const verdictPart = (/** @type {import('../index.js').PickleScan} */ scan) =>
  `${paint(SAFETY_PAINT[scan.verdict], scan.verdict)} (${scan.format}, ${counted(scan.globals.length, 'global')})`;

/**
 * One FILE's scan as lines: the verdict, then each global that is not safe and each finding.
 * @param {import('../index.js').PickleScan} scan
 */
export function scanLines(scan) {
  return [
    `${printable(scan.file)}: ${verdictPart(scan)}`,
    ...scan.globals.filter((g) => g.safety !== 'safe').map(globalLine),
    ...pickleFindingLines(scan),
  ];
}

/**
 * validate on a pickle: its scan, without the file name validate already has.
 * @param {string} path
 * @returns {Promise<Omit<import('../index.js').PickleScan, 'file'> | undefined>} undefined when it holds no pickle
 */
export async function pickleScanOf(path) {
  const { format, verdict, globals, findings } = await scanPickle(await pickleSource(path));
  return holdsPickle({ format, globals }) ? { format, verdict, globals, findings } : undefined;
}

/** What a pickle is, said as not loadable by safetensors. */
const notLoadable = (/** @type {string} */ format) =>
  `${paint('bad', 'not loadable')}: ${format.startsWith('pytorch') ? 'a PyTorch pickle checkpoint' : 'a Python pickle'}, which safetensors cannot load`;

/** validate's line for a pickle: what it is, and the scan's verdict. */
export function pickleVerdictLines(
  /** @type {string} */ file,
  /** @type {Omit<import('../index.js').PickleScan, 'file'>} */ scan,
) {
  return [
    `${printable(file)}: ${notLoadable(scan.format)}; scan: ${verdictPart({ ...scan, file })}`,
    ...scan.globals.filter((g) => g.safety !== 'safe').map(globalLine),
    ...pickleFindingLines({ ...scan, file }),
  ];
}

/**
 * inspect on a pickle: its card, verdict, globals, findings, tensors and plain objects (with
 * `out`, its JSON object is pushed there instead, in inspect's shape plus `pickle` and
 * `objects`). Returns the scan's exit status, or null when FILE holds no pickle (a zip of other
 * files): nothing was printed.
 * @param {string} file
 * @param {import('../index.js').ValidationReport} report validate's (not loadable: NotSafetensors)
 * @param {object[] | null} out
 */
export async function inspectPickle(file, report, out) {
  const ckpt = await openCheckpoint(await pickleSource(file));
  const { format, verdict, globals, findings, tensors, objects, objectsLeftOut } = ckpt;
  if (!holdsPickle(ckpt)) return null;
  const card = await ckpt.describe();
  if (out) {
    const pickle = { format, verdict, globals, findings };
    out.push({ file, report, card, metadata: null, pickle, tensors, objects, objectsLeftOut });
    return scanStatus(ckpt);
  }
  console.log(
    `${file}\n${cardLines(card)
      .map((l) => `  ${l}`)
      .join('\n')}\n`,
  );
  console.log(`${printable(file)}: ${notLoadable(format)}`);
  console.log(`scan: ${verdictPart(ckpt)}; nothing in it was run`);
  for (const line of [...globals.map(globalLine), ...pickleFindingLines(ckpt)]) console.log(line);
  console.log(`${counted(tensors.length, 'tensor')}, ${counted(objects.length + objectsLeftOut, 'plain value')}`);
  if (objects.length) {
    console.log('\nobjects:');
    for (const o of objects.slice(0, MAX_OBJECTS)) console.log(printable(`  ${o.name}: ${JSON.stringify(o.value)}`));
    const more = objects.length - MAX_OBJECTS + objectsLeftOut;
    if (more > 0) console.log(`  … and ${more} more`);
  }
  if (tensors.length) {
    /** @type {(string | number)[][]} */
    const rows = [['name', 'dtype', 'shape', 'stride', 'storage', 'offset']];
    for (const t of tensors)
      rows.push([
        printable(t.name),
        t.dtype ?? `(torch.${t.torchDtype})`,
        `[${t.shape.join(', ')}]`,
        `[${t.stride.join(', ')}]`,
        printable(t.storage),
        t.storageOffset,
      ]);
    console.log(`\n${table(rows)}`);
  }
  return scanStatus(ckpt);
}
