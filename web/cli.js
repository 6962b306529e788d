#!/usr/bin/env node
// safetensors-wasm validate [--json] [--scan-data] FILE... | inspect FILE
// Files are read through FileHandles: Node 20's openAsBlob truncates sizes past 4 GiB.
import { open } from 'node:fs/promises';
import { openSafetensors, validateSafetensors, SafetensorsError } from './index.js';

const USAGE = `usage: safetensors-wasm validate [--json] [--scan-data] FILE...
       safetensors-wasm inspect FILE

validate  says whether the reference safetensors loader accepts each file
          (exit 0 when all are loadable, 1 otherwise); --json prints one JSON array;
          --scan-data also reads every tensor, counting NaN, infinities and all-zero tensors
inspect   prints the header: verdict, findings, metadata and the tensor table`;

async function withFile(path, fn) {
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
    return await withFile(path, (handle) => validateSafetensors(handle, options));
  } catch (error) {
    return unreadable(path, error);
  }
}

function findingLine(f) {
  return `  ${f.severity.padEnd(7)} ${f.code}${f.tensor !== undefined ? ` [${f.tensor}]` : ''}: ${f.message}`;
}

async function validate(args) {
  const flags = new Set(['--json', '--scan-data']);
  const json = args.includes('--json');
  const scanData = args.includes('--scan-data');
  const files = args.filter((a) => !flags.has(a));
  if (files.length === 0 || files.some((f) => f.startsWith('--'))) return usage();
  const results = [];
  for (const file of files) {
    const r = await validatePath(file, { scanData });
    const { loadable, referenceError, findings, tensors, dataScan } = r;
    results.push({ file, loadable, referenceError, findings, tensors, ...(scanData ? { dataScan: dataScan ?? null } : {}) });
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      const verdict = r.loadable ? 'loadable' : `not loadable${r.referenceError ? `: ${r.referenceError}` : ''}`;
      console.log(`${r.file}: ${verdict} (${r.tensors} tensors)`);
      for (const f of r.findings) console.log(findingLine(f));
    }
  }
  return results.every((r) => r.loadable) ? 0 : 1;
}

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((v, c) => String(v).padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}

// One read of the header: the opened file, or for a rejected file the report its error carries.
async function openPath(path) {
  try {
    return await withFile(path, async (handle) => {
      const st = await openSafetensors(handle);
      return { st, report: st.report };
    });
  } catch (error) {
    if (error instanceof SafetensorsError && error.report) return { st: null, report: error.report };
    return { st: null, report: unreadable(path, error) };
  }
}

async function inspect(args) {
  if (args.length !== 1) return usage();
  const [file] = args;
  const { st, report } = await openPath(file);
  console.log(`${file}: ${report.loadable ? 'loadable' : `not loadable${report.referenceError ? `: ${report.referenceError}` : ''}`}`);
  for (const f of report.findings) console.log(findingLine(f));
  if (!st) return 1;
  const params = st.tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);
  console.log(`size ${st.fileSize} bytes, header ${st.headerSize} bytes, data from byte ${st.dataStart}`);
  console.log(`${st.tensors.length} tensors, ${params} parameters`);
  if (st.metadata) {
    console.log('\nmetadata:');
    for (const [k, v] of Object.entries(st.metadata)) console.log(`  ${k}: ${v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v}`);
  }
  if (st.tensors.length) {
    const rows = [['name', 'dtype', 'shape', 'offsets', 'bytes']];
    for (const t of st.tensors) rows.push([t.name, t.dtype, `[${t.shape.join(', ')}]`, `${t.dataOffsets[0]}-${t.dataOffsets[1]}`, t.byteLength]);
    console.log(`\n${table(rows)}`);
  }
  return 0;
}

function usage() {
  console.error(USAGE);
  return 2;
}

const [command, ...rest] = process.argv.slice(2);
const commands = { validate, inspect };
const run = commands[command] ?? usage;
process.exitCode = await run(rest);
