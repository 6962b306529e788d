// safetensors-wasm inspect: the model card of one FILE (a file, a URL, a sharded model or a
// diffusers pipeline), then its verdict, findings, metadata and tensor table.
import { SafetensorsError } from '../core/errors.js';
import { openFile } from '../file/open_file.js';
import { cardBlock, cardLines, checkpointLines, counted, findingLine, printable, table, verdictText } from './text.js';
import { configBeside, isOneFile, library, unreadable, withFile } from './files.js';
import { componentLines, isModelArgument, modelReport, pipelineReport, separateFiles, shardLines } from './sharded.js';
import { holdsPickle, isPickleReport, pickleSource, scanStatus, validateSafetensors } from './validate.js';

/**
 * One read of the header: the opened file and its card (with the KV cache of the config.json
 * beside it), or for a rejected file the report its error carries and, when its header listed
 * tensors, the card of that header (a second read).
 * @template T
 * @param {string} path
 * @param {(st: import('../index.js').SafetensorsFile | null, report: import('../index.js').ValidationReport, card: import('../index.js').ModelCard | null, cardNote?: string) => T} fn
 * @returns {Promise<T>}
 */
async function openPath(path, fn) {
  try {
    const config = await configBeside(path);
    return await withFile(path, async (handle) => {
      const st = await openFile(handle, { config }, true); // what openSafetensors does (web/index.js)
      return fn(st, st.report, await st.describe({ readAlpha: true }));
    });
  } catch (error) {
    const report = error instanceof SafetensorsError && error.report ? error.report : unreadable(path, error);
    // A rejected file may have a whole header: the card of the header as read, with a note when it
    // is built from part of it (stdin is read once).
    const described =
      report.tensors > 0 && path !== '-'
        ? await withFile(path, (handle) => validateSafetensors(handle, { describe: true }))
        : null;
    return fn(null, report, described?.card ?? null, described?.cardNote);
  }
}

/**
 * A model or pipeline that could not be opened: its one finding, as text or in the JSON shape
 * of a successful inspect (`empty` holds that shape's other fields); exit status 1.
 * @param {string} file
 * @param {unknown} error what was thrown
 * @param {boolean} json
 * @param {object} empty
 */
function openFailed(file, error, json, empty) {
  const report = unreadable(file, error);
  if (json) process.stdout.write(`${JSON.stringify({ file, report, ...empty }, null, 2)}\n`);
  else for (const f of report.findings) console.log(findingLine(f));
  return 1;
}

/**
 * A sharded model: its card, verdict, findings, shards and tensors (each with its shard).
 * @param {string} file
 * @param {boolean} json
 */
async function inspectModel(file, json) {
  let model;
  try {
    model = await (await library()).openSafetensorsIndex(file);
  } catch (error) {
    return openFailed(file, error, json, { card: null, metadata: null, shards: [], tensors: [] });
  }
  const report = modelReport(model);
  const card = await model.describe();
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ file, report, card, metadata: model.metadata, shards: report.shards, tensors: model.tensors }, null, 2)}\n`,
    );
    return model.loadable ? 0 : 1;
  }
  console.log(cardBlock(file, cardLines(card)));
  console.log(
    `${file}: ${verdictText(report)} (${counted(report.tensors, 'tensor')} in ${counted(report.shards.length, 'shard')})`,
  );
  for (const f of report.findings) console.log(findingLine(f));
  console.log(`\nshards:\n${shardLines(report).join('\n')}`);
  if (model.metadata) console.log(`\nindex metadata: ${printable(JSON.stringify(model.metadata))}`);
  if (model.tensors.length) {
    /** @type {(string | number)[][]} */
    const rows = [['name', 'dtype', 'shape', 'shard', 'bytes']];
    for (const t of model.tensors)
      rows.push([printable(t.name), t.dtype, `[${t.shape.join(', ')}]`, printable(t.shard), t.byteLength]);
    console.log(`\n${table(rows)}`);
  }
  return model.loadable ? 0 : 1;
}

/**
 * A diffusers pipeline: its verdict, findings, components and each component's card.
 * @param {string} file
 * @param {boolean} json
 * @param {string | undefined} variant
 */
async function inspectPipeline(file, json, variant) {
  let pipeline;
  try {
    pipeline = await (await library()).openSafetensorsPipeline(file, { variant });
  } catch (error) {
    return openFailed(file, error, json, { className: null, components: [] });
  }
  const report = pipelineReport(pipeline);
  const cards = await Promise.all(pipeline.components.map((c) => c.model?.describe() ?? null));
  if (json) {
    const components = report.components.map((c, i) => ({ ...c, card: cards[i] }));
    process.stdout.write(
      `${JSON.stringify({ file, report: { ...report, components: undefined }, className: pipeline.className, metadata: pipeline.metadata, components }, null, 2)}\n`,
    );
    return pipeline.loadable ? 0 : 1;
  }
  console.log(
    `${file}: ${printable(pipeline.className ?? 'a diffusers pipeline')}, ${verdictText(report)} (${counted(report.tensors, 'tensor')})`,
  );
  for (const f of report.findings) console.log(findingLine(f));
  console.log(`\ncomponents:\n${componentLines(report).join('\n')}`);
  pipeline.components.forEach((c, i) => {
    if (cards[i])
      console.log(
        `\n${printable(c.name)}\n${cardLines(cards[i])
          .map((l) => `  ${l}`)
          .join('\n')}`,
      );
  });
  return pipeline.loadable ? 0 : 1;
}

/**
 * A pickle (validate's report says it may be one): its card, verdict, globals, findings, plain
 * values and tensors (with `out`, its JSON object, inspect's plus `pickle`, `objects` and
 * `objectsLeftOut`, is pushed there). The scan's exit status; null when FILE holds no pickle or
 * cannot be read as one (then what it failed on joins `report`), and nothing was printed.
 * @param {string} file
 * @param {import('../index.js').ValidationReport} report
 * @param {object[] | null} out
 */
async function inspectPickle(file, report, out) {
  try {
    const { openCheckpoint } = await import('../pickle/open_checkpoint.js');
    const ckpt = await openCheckpoint(await pickleSource(file));
    if (!holdsPickle(ckpt)) return null;
    const { format, verdict, globals, findings, tensors, objects, objectsLeftOut } = ckpt;
    const card = await ckpt.describe();
    const pickle = { format, verdict, globals, findings };
    if (out) out.push({ file, report, card, metadata: null, pickle, tensors, objects, objectsLeftOut });
    else console.log(checkpointLines(file, card, ckpt).join('\n'));
    return scanStatus(ckpt);
  } catch (error) {
    report.findings.push(...unreadable(file, error).findings);
    return null;
  }
}

/**
 * One file: its card, verdict, findings, metadata and tensor table (with `out`, its JSON
 * object is pushed there instead).
 * @param {string} file
 * @param {object[] | null} out
 * @param {boolean} civitaiWanted --civitai: hash the file and ask Civitai which model version it is
 */
async function inspectFile(file, out, civitaiWanted) {
  return openPath(file, async (st, report, card, cardNote) => {
    // A pickle is read as one, by the pickle reader (nothing in it is run).
    const pickled = !st && isPickleReport(report) ? await inspectPickle(file, report, out) : null;
    if (pickled !== null) return pickled;
    // --civitai's code (and the library's lookup) is loaded only when asked for.
    const lookup = civitaiWanted && st ? await import('./civitai.js') : null;
    const civitai = lookup && st ? await lookup.findOnCivitai(st) : undefined;
    if (out) {
      out.push({ file, report, card, cardNote, civitai, metadata: st?.metadata ?? null, tensors: st?.tensors ?? [] });
      return st ? 0 : 1;
    }
    if (card) console.log(cardBlock(file, [...cardLines(card), ...(cardNote ? [`(card ${cardNote})`] : [])]));
    if (civitai && lookup) console.log(`${lookup.civitaiText(civitai)}\n`);
    console.log(`${file}: ${verdictText(report)}`);
    for (const f of report.findings) console.log(findingLine(f));
    if (!st) return 1;
    console.log(`size ${st.fileSize} bytes, header ${st.headerSize} bytes, data from byte ${st.dataStart}`);
    console.log(counted(st.tensors.length, 'tensor'));
    if (st.metadata) {
      console.log('\nmetadata:');
      for (const [k, v] of Object.entries(st.metadata))
        console.log(printable(`  ${k}: ${v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v}`));
    }
    if (st.tensors.length) {
      /** @type {(string | number)[][]} */
      const rows = [['name', 'dtype', 'shape', 'offsets', 'bytes']];
      for (const t of st.tensors)
        rows.push([
          printable(t.name),
          t.dtype,
          `[${t.shape.join(', ')}]`,
          `${t.dataOffsets[0]}-${t.dataOffsets[1]}`,
          t.byteLength,
        ]);
      console.log(`\n${table(rows)}`);
    }
    return 0;
  });
}

/**
 * A pipeline, a sharded model or a folder of files, inspected; null when FILE is one file after all.
 * @param {import('./usage.js').Parsed} parsed
 * @param {string} file
 * @param {boolean} json
 * @returns {Promise<number | null>}
 */
async function inspectMany(parsed, file, json) {
  const { isPipelineSource } = await import('../sharded/pipeline_files.js');
  const pipeline = file !== '-' && (await isPipelineSource(file));
  if (parsed.has('--civitai') && (pipeline || (file !== '-' && (await isModelArgument(file)))))
    console.error('inspect --civitai looks up single files: not done for a sharded model or a pipeline');
  if (pipeline) return inspectPipeline(file, json, parsed.value('--variant'));
  // A folder of unrelated files (LoRAs, no index): each file inspected in turn (--json: an array).
  const separate = await separateFiles(file);
  if (separate) {
    /** @type {object[] | null} */
    const out = json ? [] : null;
    let status = 0;
    for (const [i, path] of separate.entries()) {
      if (!json && i > 0) console.log('');
      status = Math.max(status, await inspectFile(path, out, parsed.has('--civitai')));
    }
    if (out) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return status;
  }
  if (file !== '-' && (await isModelArgument(file))) return inspectModel(file, json);
  return null;
}

/**
 * @param {import('./usage.js').Parsed} parsed
 */
export async function inspect(parsed) {
  const [file] = parsed.files;
  const json = parsed.has('--json');
  // One file (the common case) skips the looks for a pipeline, a sharded model or a folder.
  const many = (await isOneFile(file)) ? null : await inspectMany(parsed, file, json);
  if (many !== null) return many;
  /** @type {object[] | null} */
  const out = json ? [] : null;
  const status = await inspectFile(file, out, parsed.has('--civitai'));
  if (out) process.stdout.write(`${JSON.stringify(out[0], null, 2)}\n`);
  return status;
}
