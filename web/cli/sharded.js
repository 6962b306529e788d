// The CLI's sharded models and diffusers pipelines (web/cli/main.js): an argument that is an index
// (a .json path or URL) or a folder is opened with openSafetensorsIndex, or, when it holds a
// model_index.json, with openSafetensorsPipeline; these give its report and its text.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isHttpUrl } from '../source/http_source.js';
import { counted, hashLines, printable } from './text.js';
import { sourceKind } from '../source/source_kind.js';

/**
 * A shard in a model's report: its verdict, and with validate --scan-data / --hash its scan and hashes.
 * @typedef {{ name: string, loadable: boolean, referenceError: import('../index.js').ReferenceErrorKind | null, tensors: number,
 *   dataScan?: import('../index.js').DataScan | null, hashes?: import('../index.js').HashResult | null }} ShardEntry
 */
/**
 * A component in a pipeline's report (loadable and referenceError null without a checkpoint).
 * @typedef {Pick<import('../index.js').PipelineComponent, 'name' | 'library' | 'className' | 'weights' | 'path'>
 *   & { loadable: boolean | null, referenceError: import('../index.js').ReferenceErrorKind | null, tensors: number }} ComponentEntry
 */
/**
 * A sharded model's or a pipeline's report, in the shape of a file's, with its shards or components.
 * @typedef {{ loadable: boolean, referenceError: null, findings: import('../index.js').Finding[], tensors: number }} WholeReport
 * @typedef {WholeReport & { shards: ShardEntry[] }} ModelReport
 * @typedef {WholeReport & { className: string | null, components: ComponentEntry[] }} PipelineReport
 */

/**
 * Whether the argument names a sharded model: an index (path or URL ending in .json) or a folder.
 * @param {string} arg
 */
export async function isModelArgument(arg) {
  return (await sourceKind(arg)) === 'model';
}

// How transformers and diffusers name the shards of one checkpoint: NAME-00001-of-00003.safetensors.
const SHARD_NAME = /^(.*)-(\d+)-of-(\d+)\.safetensors$/;

/**
 * A folder without an index is one sharded model only when its .safetensors files are named as
 * the shards of one checkpoint (same NAME, same count); any other folder (a folder of LoRAs)
 * holds files that each get their own verdict: their paths, by name. Null for anything else
 * (a file, a URL, a folder with an index or model_index.json).
 * @param {string} arg
 * @returns {Promise<string[] | null>}
 */
export async function separateFiles(arg) {
  if (isHttpUrl(arg) || arg === '-') return null;
  const entries = await readdir(arg, { withFileTypes: true }).catch(() => null);
  if (entries === null) return null;
  const names = entries.filter((e) => e.isFile()).map((e) => e.name);
  if (names.some((n) => n.endsWith('.index.json') || n === 'model_index.json')) return null;
  const files = names.filter((n) => n.endsWith('.safetensors')).sort();
  const shards = files.map((n) => SHARD_NAME.exec(n));
  const [first] = shards;
  const oneModel = first && shards.every((m) => m && m[1] === first[1] && m[3] === first[3]);
  return oneModel || files.length === 0 ? null : files.map((n) => join(arg, n));
}

/**
 * The model's report in the shape of a file's, plus its shards' verdicts.
 * @param {import('../index.js').ShardedModel} model
 * @returns {ModelReport}
 */
export function modelReport(model) {
  return {
    loadable: model.loadable,
    referenceError: null,
    findings: model.findings,
    tensors: model.tensors.length,
    shards: model.shards.map((s) => ({
      name: s.name,
      loadable: s.report.loadable,
      referenceError: s.report.referenceError,
      tensors: s.report.tensors,
    })),
  };
}

/**
 * validate --scan-data / --hash on a sharded model: each loadable shard is read as a file would
 * be (one shard at a time, each in one pass). Its scan and hashes go into its entry of
 * `report.shards`; their findings join the model's, each with its shard.
 * @param {string} path the model argument
 * @param {ModelReport} report
 * @param {import('../index.js').ShardedModel} model
 * @param {{ scanData?: boolean, hash?: boolean }} options
 * @param {typeof import('../file/validate_file.js').validateSafetensors} validate
 * @param {import('./terminal.js').Terminal} term for its progress bars
 */
export async function checkShardData(path, report, model, options, validate, term) {
  const { locateModel } = await import('../sharded/shard_sources.js');
  const files = await locateModel(path, {});
  for (const [i, entry] of report.shards.entries()) {
    if (!entry.loadable) continue;
    const source = await files.resolve(entry.name);
    const result = await term.withProgress(`reading ${printable(entry.name)}`, (onProgress) =>
      validate(source, { ...options, onProgress }),
    );
    if (options.scanData) entry.dataScan = result.dataScan ?? null;
    if (options.hash) entry.hashes = result.hashes ?? null;
    // The header's findings are the shard's report's; what follows them is the read's.
    for (const f of result.findings.slice(model.shards[i].report.findings.length))
      report.findings.push({ ...f, shard: entry.name });
  }
}

/**
 * Each hashed shard's hash lines, under its name.
 * @param {{ shards: ShardEntry[] }} report
 */
export function shardHashLines(report) {
  return report.shards
    .filter((s) => s.hashes)
    .flatMap((s) => [
      printable(`  ${s.name}:`),
      ...hashLines(/** @type {import('../index.js').HashResult} */ (s.hashes)).map((l) => `    ${l}`),
    ]);
}

/**
 * One line per shard: its name, tensors and verdict.
 * @param {{ shards: ShardEntry[] }} report
 */
export function shardLines(report) {
  const width = Math.max(...report.shards.map((s) => s.name.length));
  const scanned = (/** @type {ShardEntry} */ s) => (s.dataScan ? `, data scanned (${s.dataScan.bytes} bytes)` : '');
  return report.shards.map((s) =>
    printable(
      `  ${s.name.padEnd(width)}  ${String(s.tensors).padStart(6)} ${s.tensors === 1 ? 'tensor ' : 'tensors'}  ${s.loadable ? 'loadable' : `not loadable${s.referenceError ? `: ${s.referenceError}` : ''}`}${scanned(s)}`,
    ),
  );
}

/**
 * A pipeline's report in the shape of a file's, plus its components' verdicts.
 * @param {import('../index.js').SafetensorsPipeline} pipeline
 * @returns {PipelineReport}
 */
export function pipelineReport(pipeline) {
  const components = pipeline.components.map((c) => ({
    name: c.name,
    library: c.library,
    className: c.className,
    weights: c.weights,
    path: c.path,
    loadable: c.report?.loadable ?? null,
    referenceError: c.report?.referenceError ?? null,
    tensors: c.model?.tensors.length ?? 0,
  }));
  return {
    loadable: pipeline.loadable,
    referenceError: null,
    findings: pipeline.findings,
    tensors: components.reduce((sum, c) => sum + c.tensors, 0),
    className: pipeline.className,
    components,
  };
}

/**
 * One line per component: its name, class, checkpoint and verdict.
 * @param {{ components: ComponentEntry[] }} report
 */
export function componentLines(report) {
  const width = Math.max(...report.components.map((c) => c.name.length));
  return report.components.map((c) => {
    const what =
      c.weights === 'none'
        ? 'no weights'
        : c.weights === 'missing'
          ? 'MISSING weights'
          : `${c.path}, ${counted(c.tensors, 'tensor')}, ${c.loadable ? 'loadable' : `not loadable${c.referenceError ? `: ${c.referenceError}` : ''}`}`;
    return printable(`  ${c.name.padEnd(width)}  ${c.className ?? '-'}: ${what}`);
  });
}
