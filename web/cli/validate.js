// safetensors-wasm validate and scan, the two verdicts on each FILE: validate's is the reference
// loader's (a file, a URL, a sharded model or a diffusers pipeline), with its findings and, when
// asked, its data scan and hashes; scan's is a pickle's (a PyTorch checkpoint, a pickle, NumPy),
// from the globals it names, read without running it.
import { SafetensorsError } from '../core/errors.js';
import { validateWith } from '../file/validate.js';
import { counted, findingLine, hashLines, pickleVerdictLines, printable, scanLines, verdictText } from './text.js';
import { isOneFile, library, readStdin, unreadable, withFile } from './files.js';
import {
  checkShardData,
  separateFiles,
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
 * The package's validateSafetensors for a cold CLI process: the card's code and the data scan's
 * and hashes' load only when the options ask for them (a plain validate loads the header's).
 * @param {import('../index.js').SafetensorsSource} input
 * @param {import('../index.js').ValidateOptions} [options]
 */
export function validateSafetensors(input, options = {}) {
  return validateWith(input, options, {
    card: async () => {
      const [{ buildCard }, { cardObject }] = await Promise.all([
        import('../card/model_card.js'),
        import('../card/card_table.js'),
      ]);
      return { buildCard, cardObject };
    },
    scan: async () => {
      const [{ scanData }, { hashSource }] = await Promise.all([
        import('../tensors/data_scan.js'),
        import('../hashing/hash_source.js'),
      ]);
      return { scanData, hashSource };
    },
  });
}

/**
 * What validate reports of one argument: a file's report, or a sharded model's (with its
 * shards) or a pipeline's (with its components) in that shape.
 * @typedef {import('../index.js').ValidationReport & { shards?: ShardEntry[], className?: string | null, components?: ComponentEntry[] }} ArgumentReport
 */

/**
 * @param {string} path
 * @param {boolean} oneFile isOneFile(path) said so: no pipeline or sharded model to look for
 * @param {{ scanData?: boolean, hash?: boolean, variant?: string }} options
 * @param {import('./terminal.js').Terminal} term
 * @returns {Promise<ArgumentReport>}
 */
async function validatePath(path, oneFile, options, term) {
  const { variant, ...read } = options;
  try {
    if (!oneFile && path !== '-') {
      const { isPipelineSource } = await import('../sharded/pipeline_files.js');
      if (await isPipelineSource(path)) {
        const { openSafetensorsPipeline } = await library();
        return pipelineReport(await openSafetensorsPipeline(path, { variant }));
      }
      if (await isModelArgument(path)) {
        const model = await (await library()).openSafetensorsIndex(path);
        const report = modelReport(model);
        if (read.scanData || read.hash) await checkShardData(path, report, model, read, validateSafetensors, term);
        return report;
      }
    }
    if (!read.scanData && !read.hash) return await withFile(path, (source) => validateSafetensors(source));
    const doing = read.scanData && read.hash ? 'reading' : read.hash ? 'hashing' : 'scanning';
    return await withFile(path, (source) =>
      term.withProgress(`${doing} ${printable(path)}`, (onProgress) =>
        validateSafetensors(source, { ...read, onProgress }),
      ),
    );
  } catch (error) {
    return unreadable(path, error);
  }
}

/**
 * What a NotSafetensors finding calls a file the pickle reader may read
 * (cpp/analysis/foreign_format.h): a zip is one when it holds a pickle (the scan says).
 */
const PICKLE_FORMATS = new Set(['pytorch-zip', 'pickle', 'zip']);

/**
 * Whether validate's report says FILE may be a pickle (a torch.save zip, a plain pickle, a zip).
 * @param {import('../index.js').ValidationReport} report
 */
export const isPickleReport = (report) =>
  !report.loadable && report.findings.some((f) => f.code === 'NotSafetensors' && PICKLE_FORMATS.has(f.format ?? ''));

/** Whether the scan read a pickle: a zip of other files (no pickle, no global) is not one. */
export const holdsPickle = (/** @type {{ format: string, globals: unknown[] }} */ scan) =>
  scan.format !== 'not-pickle' && !(scan.format === 'zip' && scan.globals.length === 0);

/** A FILE as the pickle reader takes it: standard input's bytes for -. */
export const pickleSource = async (/** @type {string} */ path) => (path === '-' ? await readStdin() : path);

/** The scan's exit status: 0 when the file is safe, 1 otherwise. */
export const scanStatus = (/** @type {{ verdict: string }} */ scan) => (scan.verdict === 'safe' ? 0 : 1);

/**
 * validate on a pickle: its scan without the file name; undefined when it holds no pickle.
 * @param {string} path
 */
async function pickleScanOf(path) {
  const { scanPickle } = await import('../pickle/scan_pickle.js');
  const { format, verdict, globals, findings } = await scanPickle(await pickleSource(path));
  return holdsPickle({ format, globals }) ? { format, verdict, globals, findings } : undefined;
}

/**
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function validate(parsed, term) {
  const scanData = parsed.has('--scan-data');
  const hash = parsed.has('--hash');
  const variant = parsed.value('--variant');
  const results = [];
  // A folder of unrelated files (LoRAs, no index) is its files, each with its own verdict.
  /** @type {[string, boolean][]} each path, and whether it surely names one file */
  const paths = [];
  for (const arg of parsed.files) {
    if (await isOneFile(arg)) paths.push([arg, true]);
    else paths.push(...((await separateFiles(arg)) ?? [arg]).map((p) => /** @type {[string, boolean]} */ ([p, false])));
  }
  for (const [file, oneFile] of paths) {
    const r = await validatePath(file, oneFile, { scanData, hash, variant }, term);
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
      // A pickle checkpoint: scan's report (its status stands for loadable in the exit code).
      ...(isPickleReport(r) ? { pickle: await pickleScanOf(file).catch(() => undefined) } : {}),
    });
  }
  if (parsed.has('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      if (r.pickle) {
        for (const line of pickleVerdictLines(r.file, r.pickle)) console.log(line);
        if (r.hashes) for (const line of hashLines(r.hashes)) console.log(`  ${line}`);
        continue;
      }
      const where = r.shards
        ? ` in ${counted(r.shards.length, 'shard')}`
        : r.components
          ? ` in ${counted(r.components.filter((c) => c.tensors > 0).length, 'component')} of ${printable(r.className ?? 'a pipeline')}`
          : '';
      console.log(`${r.file}: ${verdictText(r)} (${counted(r.tensors, 'tensor')}${where})`);
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
  return results.every((r) => (r.pickle ? scanStatus(r.pickle) === 0 : r.loadable)) ? 0 : 1;
}

/**
 * safetensors-wasm scan: each FILE's pickle scan (exit 0 when every file is safe, 1 when one is
 * not, 2 when one cannot be read).
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} _term
 */
export async function scan(parsed, _term) {
  /** @type {(import('../index.js').PickleScan | { file: string, error: { code: string, message: string } })[]} */
  const results = [];
  let status = 0;
  for (const file of parsed.files) {
    try {
      const { scanPickle } = await import('../pickle/scan_pickle.js');
      const found = await scanPickle(await pickleSource(file));
      results.push({ ...found, file });
      if (found.verdict !== 'safe' && status === 0) status = 1;
    } catch (error) {
      const code = error instanceof SafetensorsError ? error.code : 'ReadError';
      const message = `scan: ${error instanceof Error ? error.message : error}`;
      results.push({ file, error: { code, message } });
      status = 2;
    }
  }
  if (parsed.has('--json')) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else
    for (const r of results) {
      if ('error' in r) console.error(printable(r.error.message));
      else for (const line of scanLines(r)) console.log(line);
    }
  return status;
}
