#!/usr/bin/env node
// safetensors-wasm validate | inspect | hash | edit | convert: see USAGE. Text for people goes to stdout,
// --json prints one JSON document. Files are read through FileHandles: Node 20's
// openAsBlob truncates sizes past 4 GiB.
import { open } from 'node:fs/promises';
import { isPipelineSource, openSafetensors, openSafetensorsIndex, openSafetensorsPipeline, validateSafetensors, SafetensorsError } from '../index.js';
import { cardLines, hashLines, printable } from './text.js';
import { isHttpUrl } from '../source/http_source.js';
import { convert, edit } from './write.js';
import { checkShardData, componentLines, isModelArgument, modelReport, pipelineReport, shardHashLines, shardLines } from './sharded.js';

const USAGE = `usage: safetensors-wasm validate [--json] [--scan-data] [--hash] FILE...
       safetensors-wasm inspect [--json] FILE
       safetensors-wasm hash [--json] [--tensors] FILE...
       safetensors-wasm edit FILE [--set KEY=VALUE]... [--delete KEY]... [--clear] -o OUT
       safetensors-wasm convert FILE --to f16|bf16 -o OUT

validate  says whether the reference safetensors loader accepts each file
          (exit 0 when all are loadable, 1 otherwise); --json prints one JSON array;
          --scan-data also reads every tensor, counting NaN, infinities and all-zero tensors;
          --hash also hashes each file in the same read
inspect   prints the model card (what the file is), then the verdict, findings, metadata and
          the tensor table; --json prints { file, report, card, metadata, tensors }
hash      prints each file's SHA-256 as sha256sum does, then AutoV2, AutoV3, AutoV1, the data
          section's SHA-256 and the check of every hash the metadata claims (exit 0 when all
          files were read and no claim failed, 1 otherwise); --tensors adds each tensor's SHA-256
edit      writes FILE with its metadata changed (--clear starts from none) to OUT, the tensor
          data copied byte for byte (its hashes stay); OUT may be FILE: it is replaced only
          once the new file is whole
convert   writes FILE with its F32, F64 and other 16-bit float tensors as F16 or BF16
          (rounded to nearest even; NaN stays NaN) to OUT; other tensors are copied

A FILE may be an http:// or https:// URL: it is read with Range requests (the header in
one request when it fits in 256 KiB, tensors as needed), never downloaded whole.
For validate and inspect, a FILE may also be a sharded model: its *.safetensors.index.json
(path or URL) or a folder (its index, or without one every .safetensors file in it); the
shards are checked one by one and against the index (--scan-data and --hash read each
shard in turn). A diffusers pipeline (a folder holding
model_index.json, or its path or URL) is checked component by component.`;

// A path is opened as a FileHandle; an http(s) URL is read by the library (Range requests).
async function withFile(path, fn) {
  if (isHttpUrl(path)) return fn(path);
  const handle = await open(path, 'r');
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

// A file we cannot read gets a report too, so --json output stays one entry per argument.
function unreadable(path, error) {
  const code = error instanceof SafetensorsError ? error.code : 'ReadError';
  return { loadable: false, referenceError: null, findings: [{ code, severity: 'error', message: `cannot read ${path}: ${error.message}` }], tensors: 0 };
}

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

function findingLine(f) {
  // A shard's scan or hash finding does not name its shard; cross-shard findings do.
  const shard = f.shard !== undefined && !f.message.includes(f.shard) ? `${f.shard}: ` : '';
  return printable(`  ${f.severity.padEnd(7)} ${f.component !== undefined ? `${f.component}: ` : ''}${shard}${f.code}${f.tensor !== undefined ? ` [${f.tensor}]` : ''}: ${f.message}`);
}

const verdictText = (r) => (r.loadable ? 'loadable' : `not loadable${r.referenceError ? `: ${r.referenceError}` : ''}`);

/** Splits flags (all of them known) from file arguments; null when the usage is wrong. */
function parseArgs(args, known, { single = false } = {}) {
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const files = args.filter((a) => !a.startsWith('--'));
  if ([...flags].some((f) => !known.includes(f)) || files.length === 0 || (single && files.length !== 1)) return null;
  return { has: (flag) => flags.has(flag), files };
}

async function validate(args) {
  const parsed = parseArgs(args, ['--json', '--scan-data', '--hash']);
  if (!parsed) return usage();
  const scanData = parsed.has('--scan-data');
  const hash = parsed.has('--hash');
  const results = [];
  for (const file of parsed.files) {
    const r = await validatePath(file, { scanData, hash });
    const { loadable, referenceError, findings, tensors, dataScan, hashes } = r;
    results.push({ file, loadable, referenceError, findings, tensors, ...(r.shards ? { shards: r.shards } : {}), ...(r.components ? { className: r.className, components: r.components } : {}), ...(scanData ? { dataScan: dataScan ?? null } : {}), ...(hash ? { hashes: hashes ?? null } : {}) });
  }
  if (parsed.has('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      const where = r.shards ? ` in ${r.shards.length} shards` : r.components ? ` in ${r.components.filter((c) => c.tensors > 0).length} components of ${printable(r.className ?? 'a pipeline')}` : '';
      console.log(`${r.file}: ${verdictText(r)} (${r.tensors} tensors${where})`);
      for (const f of r.findings) console.log(findingLine(f));
      if (r.shards) for (const line of [...shardLines(r), ...shardHashLines(r)]) console.log(line);
      if (r.components) for (const line of componentLines(r)) console.log(line);
      if (r.hashes) for (const line of hashLines(r.hashes)) console.log(`  ${line}`);
    }
  }
  return results.every((r) => r.loadable) ? 0 : 1;
}

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((v, c) => String(v).padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}

// One read of the header: the opened file and its card, or for a rejected file the report its error carries.
async function openPath(path, fn) {
  try {
    return await withFile(path, async (handle) => {
      const st = await openSafetensors(handle);
      return fn(st, st.report, await st.describe({ readAlpha: true }));
    });
  } catch (error) {
    const report = error instanceof SafetensorsError && error.report ? error.report : unreadable(path, error);
    return fn(null, report, null);
  }
}

// A model or pipeline that could not be opened: its one finding, as text or in the JSON shape
// of a successful inspect (`empty` holds that shape's other fields); exit status 1.
function openFailed(file, error, json, empty) {
  const report = unreadable(file, error);
  if (json) process.stdout.write(`${JSON.stringify({ file, report, ...empty }, null, 2)}\n`);
  else for (const f of report.findings) console.log(findingLine(f));
  return 1;
}

// A sharded model: its card, verdict, findings, shards and tensors (each with its shard).
async function inspectModel(file, json) {
  let model;
  try {
    model = await openSafetensorsIndex(file);
  } catch (error) {
    return openFailed(file, error, json, { card: null, metadata: null, shards: [], tensors: [] });
  }
  const report = modelReport(model);
  const card = await model.describe();
  if (json) {
    process.stdout.write(`${JSON.stringify({ file, report, card, metadata: model.metadata, shards: report.shards, tensors: model.tensors }, null, 2)}\n`);
    return model.loadable ? 0 : 1;
  }
  console.log(`${file}\n${cardLines(card).map((l) => `  ${l}`).join('\n')}\n`);
  console.log(`${file}: ${verdictText(report)} (${report.tensors} tensors in ${report.shards.length} shards)`);
  for (const f of report.findings) console.log(findingLine(f));
  console.log(`\nshards:\n${shardLines(report).join('\n')}`);
  if (model.metadata) console.log(`\nindex metadata: ${printable(JSON.stringify(model.metadata))}`);
  if (model.tensors.length) {
    const rows = [['name', 'dtype', 'shape', 'shard', 'bytes']];
    for (const t of model.tensors) rows.push([printable(t.name), t.dtype, `[${t.shape.join(', ')}]`, printable(t.shard), t.byteLength]);
    console.log(`\n${table(rows)}`);
  }
  return model.loadable ? 0 : 1;
}

// A diffusers pipeline: its verdict, findings, components and each component's card.
async function inspectPipeline(file, json) {
  let pipeline;
  try {
    pipeline = await openSafetensorsPipeline(file);
  } catch (error) {
    return openFailed(file, error, json, { className: null, components: [] });
  }
  const report = pipelineReport(pipeline);
  const cards = await Promise.all(pipeline.components.map((c) => c.model?.describe() ?? null));
  if (json) {
    const components = report.components.map((c, i) => ({ ...c, card: cards[i] }));
    process.stdout.write(`${JSON.stringify({ file, report: { ...report, components: undefined }, className: pipeline.className, metadata: pipeline.metadata, components }, null, 2)}\n`);
    return pipeline.loadable ? 0 : 1;
  }
  console.log(`${file}: ${printable(pipeline.className ?? 'a diffusers pipeline')}, ${verdictText(report)} (${report.tensors} tensors)`);
  for (const f of report.findings) console.log(findingLine(f));
  console.log(`\ncomponents:\n${componentLines(report).join('\n')}`);
  pipeline.components.forEach((c, i) => {
    if (cards[i]) console.log(`\n${printable(c.name)}\n${cardLines(cards[i]).map((l) => `  ${l}`).join('\n')}`);
  });
  return pipeline.loadable ? 0 : 1;
}

async function inspect(args) {
  const parsed = parseArgs(args, ['--json'], { single: true });
  if (!parsed) return usage();
  const [file] = parsed.files;
  if (await isPipelineSource(file)) return inspectPipeline(file, parsed.has('--json'));
  if (await isModelArgument(file)) return inspectModel(file, parsed.has('--json'));
  return openPath(file, (st, report, card) => {
    if (parsed.has('--json')) {
      const json = { file, report, card, metadata: st?.metadata ?? null, tensors: st?.tensors ?? [] };
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      return st ? 0 : 1;
    }
    if (card) console.log(`${file}\n${cardLines(card).map((l) => `  ${l}`).join('\n')}\n`);
    console.log(`${file}: ${verdictText(report)}`);
    for (const f of report.findings) console.log(findingLine(f));
    if (!st) return 1;
    console.log(`size ${st.fileSize} bytes, header ${st.headerSize} bytes, data from byte ${st.dataStart}`);
    console.log(`${st.tensors.length} tensors`);
    if (st.metadata) {
      console.log('\nmetadata:');
      for (const [k, v] of Object.entries(st.metadata)) console.log(printable(`  ${k}: ${v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v}`));
    }
    if (st.tensors.length) {
      const rows = [['name', 'dtype', 'shape', 'offsets', 'bytes']];
      for (const t of st.tensors) rows.push([printable(t.name), t.dtype, `[${t.shape.join(', ')}]`, `${t.dataOffsets[0]}-${t.dataOffsets[1]}`, t.byteLength]);
      console.log(`\n${table(rows)}`);
    }
    return 0;
  });
}

// A file's hashes: with --tensors through the opened file (a rejected file gets the rest).
async function hashPath(path, tensors) {
  try {
    return await withFile(path, async (handle) => {
      if (tensors) {
        try {
          const st = await openSafetensors(handle);
          return { file: path, loadable: true, ...(await st.hash({ tensors: true })) };
        } catch (error) {
          if (!(error instanceof SafetensorsError && error.report)) throw error;
        }
      }
      const report = await validateSafetensors(handle, { hash: true });
      return { file: path, loadable: report.loadable, ...report.hashes };
    });
  } catch (error) {
    return { file: path, error: unreadable(path, error).findings[0].message };
  }
}

async function hash(args) {
  const parsed = parseArgs(args, ['--json', '--tensors']);
  if (!parsed) return usage();
  const results = [];
  for (const file of parsed.files) results.push(await hashPath(file, parsed.has('--tensors')));
  if (parsed.has('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      if (r.error) {
        console.error(r.error);
        continue;
      }
      console.log(`${r.sha256}  ${r.file}`);
      for (const line of hashLines(r)) console.log(`  ${line}`);
    }
  }
  return results.every((r) => !r.error && r.checks.every((c) => c.match)) ? 0 : 1;
}

function usage() {
  console.error(USAGE);
  return 2;
}

const [command, ...rest] = process.argv.slice(2);
const commands = { validate, inspect, hash, edit: (/** @type {string[]} */ args) => edit(args, usage), convert: (/** @type {string[]} */ args) => convert(args, usage) };
const run = commands[command] ?? usage;
process.exitCode = await run(rest);
