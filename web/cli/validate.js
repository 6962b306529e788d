// safetensors-wasm validate: the reference loader's verdict on each FILE (a file, a URL, a
// sharded model or a diffusers pipeline), its findings and, when asked, its data scan and hashes.
import { isPipelineSource, openSafetensorsIndex, openSafetensorsPipeline, validateSafetensors } from '../index.js';
import { findingLine, hashLines, printable, verdictText } from './text.js';
import { unreadable, withFile } from './files.js';
import { parseArgs, usage } from './usage.js';
import {
  checkShardData,
  componentLines,
  isModelArgument,
  modelReport,
  pipelineReport,
  shardHashLines,
  shardLines,
} from './sharded.js';

/** @typedef {import('./sharded.js').ShardEntry} ShardEntry */
/** @typedef {import('./sharded.js').ComponentEntry} ComponentEntry */
/** @typedef {import('./sharded.js').ModelReport} ModelReport */
/** @typedef {import('./sharded.js').PipelineReport} PipelineReport */
/**
 * What validate reports of one argument: a file's report, or a sharded model's (with its
 * shards) or a pipeline's (with its components) in that shape.
 * @typedef {import('../index.js').ValidationReport & { shards?: ShardEntry[], className?: string | null, components?: ComponentEntry[] }} ArgumentReport
 */

/**
 * @param {string} path
 * @param {{ scanData?: boolean, hash?: boolean }} [options]
 * @returns {Promise<ArgumentReport>}
 */
async function validatePath(path, options = {}) {
  try {
    if (await isPipelineSource(path)) return pipelineReport(await openSafetensorsPipeline(path));
    if (await isModelArgument(path)) {
      const model = await openSafetensorsIndex(path);
      const report = modelReport(model);
      if (options.scanData || options.hash) await checkShardData(path, report, model, options, validateSafetensors);
      return report;
    }
    return await withFile(path, (handle) => validateSafetensors(handle, options));
  } catch (error) {
    return unreadable(path, error);
  }
}

/** @param {string[]} args */
export async function validate(args) {
  const parsed = parseArgs(args, ['--json', '--scan-data', '--hash']);
  if (!parsed) return usage();
  const scanData = parsed.has('--scan-data');
  const hash = parsed.has('--hash');
  const results = [];
  for (const file of parsed.files) {
    const r = await validatePath(file, { scanData, hash });
    const { loadable, referenceError, findings, tensors, dataScan, hashes } = r;
    results.push({
      file,
      loadable,
      referenceError,
      findings,
      tensors,
      ...(r.shards ? { shards: r.shards } : {}),
      ...(r.components ? { className: r.className, components: r.components } : {}),
      ...(scanData ? { dataScan: dataScan ?? null } : {}),
      ...(hash ? { hashes: hashes ?? null } : {}),
    });
  }
  if (parsed.has('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      const where = r.shards
        ? ` in ${r.shards.length} shards`
        : r.components
          ? ` in ${r.components.filter((c) => c.tensors > 0).length} components of ${printable(r.className ?? 'a pipeline')}`
          : '';
      console.log(`${r.file}: ${verdictText(r)} (${r.tensors} tensors${where})`);
      for (const f of r.findings) console.log(findingLine(f));
      // An entry with shards is a model's, one with components a pipeline's.
      if (r.shards)
        for (const line of [
          ...shardLines(/** @type {ModelReport} */ (r)),
          ...shardHashLines(/** @type {ModelReport} */ (r)),
        ])
          console.log(line);
      if (r.components) for (const line of componentLines(/** @type {PipelineReport} */ (r))) console.log(line);
      if (r.hashes) for (const line of hashLines(r.hashes)) console.log(`  ${line}`);
    }
  }
  return results.every((r) => r.loadable) ? 0 : 1;
}
