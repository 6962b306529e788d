// The reads behind <safetensors-card>'s buttons, without the DOM: hashes (of a file, or of each
// shard of a sharded model in turn), the data scan, a tensor's first values, a checkpoint
// converted and saved. Loaded with ./read_results.js on the first click of one, so that a page
// that only shows cards never downloads them.
import { LEFT_BEHIND_KEY } from '../pickle/checkpoint_convert.js';
import { formatBytes, outputName, plural } from './card_words.js';
import { saveBlob } from '../write/save_blob.js';

/** A tensor's preview holds at most this many values (whole rows of its first dimension). */
const PREVIEW_ELEMENTS = 4096;
/** A row larger than this is not read for a preview. */
const MAX_PREVIEW_ROW = 1 << 24;
/** Values written out in a preview. */
const PREVIEW_SHOWN = 64;

/**
 * The package's functions these reads call, given by ./card_actions.js: a module loaded with
 * import() that imported ../index.js itself would make Rolldown (Vite 8) split the package's open
 * path into chunks of their own, which every page then fetches (docs/bundlers.md).
 * @typedef {Pick<typeof import('../index.js'), 'lookupCivitai' | 'openSafetensors' | 'validateSafetensors'>} Api
 */

/**
 * @typedef {import('./card_actions.js').CardAnswer} CardAnswer
 * @typedef {import('./open_answer.js').Answer} Answer
 * @typedef {import('../index.js').HashResult} HashResult
 * @typedef {import('../index.js').Finding} Finding
 * @typedef {{ signal: AbortSignal, onProgress: (done: number, total: number) => void }} ReadContext
 * @typedef {{ name: string, hashes: HashResult }} ShardHashes
 * @typedef {{ file: HashResult | null, shards: ShardHashes[], findings: Finding[] }} Hashed
 */

/**
 * Each loadable shard of a model, read whole in turn by validateSafetensors with `options`;
 * progress runs over all of them. The findings each read adds come with their shard.
 * @param {Api} api
 * @param {import('./open_answer.js').ModelAnswer} answer
 * @param {import('../index.js').ValidateOptions} options
 * @param {ReadContext} context
 */
async function eachShard(api, answer, options, { signal, onProgress }) {
  const shards = answer.shards.filter((s) => s.report.loadable);
  const results = [];
  for (const [i, shard] of shards.entries()) {
    const source = shard.source();
    if (source === null) continue;
    const progress = (/** @type {number} */ done, /** @type {number} */ total) =>
      onProgress(i + (total === 0 ? 1 : done / total), shards.length);
    const report = await api.validateSafetensors(source, { ...options, signal, onProgress: progress });
    const added = report.findings.slice(shard.report.findings.length).map((f) => ({ ...f, shard: shard.name }));
    results.push({ name: shard.name, report, added });
  }
  return results;
}

/**
 * The hashes of what is shown: a file's (loadable or not: "is my download intact?"), each
 * shard's, or a checkpoint's; the findings of claims that do not match.
 * @param {Api} api
 * @param {Answer} answer a file, model or checkpoint answer
 * @param {ReadContext} context
 * @returns {Promise<Hashed>}
 */
export async function hashAnswer(api, answer, context) {
  if (answer.kind === 'model') {
    const results = await eachShard(api, answer, { hash: true }, context);
    const shards = results.map((r) => ({ name: r.name, hashes: /** @type {HashResult} */ (r.report.hashes) }));
    return { file: null, shards, findings: results.flatMap((r) => r.added) };
  }
  if (answer.kind === 'file' && answer.opened) {
    const file = await answer.opened.hash(context);
    return { file, shards: [], findings: file.findings };
  }
  if (answer.kind !== 'file' && answer.kind !== 'checkpoint')
    throw new TypeError(`nothing to hash in a ${answer.kind}`);
  const report = await api.validateSafetensors(answer.source, { hash: true, ...context });
  const file = /** @type {HashResult} */ (report.hashes);
  return { file, shards: [], findings: file.findings };
}

/**
 * The data scan of a loadable file or of each loadable shard: per tensor its NaN, infinities and
 * whether it is all zero.
 * @param {Api} api
 * @param {Answer} answer a file or model answer
 * @param {ReadContext} context
 * @returns {Promise<{ tensors: import('../index.js').TensorScan[], bytes: number, shards: number, findings: Finding[] }>}
 */
export async function scanAnswer(api, answer, context) {
  if (answer.kind === 'model') {
    const results = await eachShard(api, answer, { scanData: true }, context);
    const scans = results.map((r) => r.report.dataScan).filter((s) => s !== null && s !== undefined);
    return {
      tensors: scans.flatMap((s) => s.tensors),
      bytes: scans.reduce((sum, s) => sum + s.bytes, 0),
      shards: results.length,
      findings: results.flatMap((r) => r.added),
    };
  }
  if (answer.kind !== 'file') throw new TypeError(`nothing to scan in a ${answer.kind}`);
  const report = await api.validateSafetensors(answer.source, { scanData: true, ...context });
  const added = report.findings.slice(answer.report.findings.length);
  return { tensors: report.dataScan?.tensors ?? [], bytes: report.dataScan?.bytes ?? 0, shards: 0, findings: added };
}

/** A value as a preview writes it: fractions to 6 significant digits. */
export const formatValue = (/** @type {unknown} */ v) =>
  typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(6) : String(v);

/**
 * A tensor's first values as text: whole rows of its first dimension, as many as fit in
 * PREVIEW_ELEMENTS (at least one), decoded by getTensor.
 * @param {{ getTensor(name: string, options?: object): Promise<ArrayLike<unknown> & { subarray(a: number, b: number): ArrayLike<unknown> }> }} opened
 * @param {{ name: string, dtype: string | null, shape: number[] }} t
 */
export async function previewText(opened, t) {
  const rowElements = t.shape.slice(1).reduce((a, b) => a * b, 1);
  if (rowElements > MAX_PREVIEW_ROW)
    return `${t.name}: one row holds ${rowElements.toLocaleString('en')} values; too many to preview here.`;
  const checkpoint = !('dataOffsets' in t);
  if (checkpoint && t.shape.reduce((a, b) => a * b, 1) > MAX_PREVIEW_ROW)
    return `${t.name}: ${t.shape.reduce((a, b) => a * b, 1).toLocaleString('en')} values; too many to preview here.`;
  const rows =
    t.shape.length === 0 || checkpoint
      ? null
      : [0, Math.min(t.shape[0], Math.max(1, Math.floor(PREVIEW_ELEMENTS / Math.max(rowElements, 1))))];
  const started = performance.now();
  const values = await opened.getTensor(t.name, rows ? { rows } : {});
  const ms = performance.now() - started;
  const first = Array.from(values.subarray(0, PREVIEW_SHOWN), formatValue).join(', ');
  const what = rows
    ? `rows ${rows[0]}–${rows[1]} of ${t.shape[0]}`
    : t.shape.length
      ? `[${t.shape.join(', ')}]`
      : 'scalar';
  return `${t.name} (${t.dtype}, ${what}, ${values.length.toLocaleString('en')} values, ${ms.toFixed(1)} ms):\n${first}${values.length > PREVIEW_SHOWN ? ', …' : ''}`;
}

/**
 * Converts a checkpoint (its tensors only when `allowUnsafeGlobals`), reads the result back as a
 * user would open it, and saves it (a save picker, else a download); what happened, in a
 * sentence. Rejects with the package's UnsafeCheckpoint when the checkpoint names a global that
 * is not safe and the user has not chosen "tensors only".
 * @param {Api} api
 * @param {import('./open_answer.js').CheckpointAnswer} a
 * @param {boolean} allowUnsafeGlobals
 * @param {ReadContext} context
 */
export async function convertAndSave(api, a, allowUnsafeGlobals, { signal, onProgress }) {
  const blob = await a.opened.toSafetensors({ metadata: { format: 'pt' }, allowUnsafeGlobals });
  signal.throwIfAborted();
  const written = await api.openSafetensors(blob, { signal });
  const saved = await saveBlob(blob, outputName(a.name), onProgress);
  if (!saved) return 'Not saved: no file was picked.';
  const left = written.metadata?.[LEFT_BEHIND_KEY];
  const what = `${plural(written.tensors.length, 'tensor')}, ${formatBytes(blob.size)}, ${written.report.loadable ? 'loadable' : 'NOT loadable'}`;
  return (
    `${saved.how === 'saved' ? 'Saved' : 'Downloaded'} ${saved.name}: ${what}.` +
    (left ? ` Left behind, and listed in its metadata (${LEFT_BEHIND_KEY}): ${left.split(',').join(', ')}.` : '')
  );
}
