// The safetensors-wasm command line, run as a user would.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { writeFindingFiles } from '../../tools/finding_files.js';

const CLI = fileURLToPath(new URL('../../web/cli.js', import.meta.url));
let dir;
let good;
let bad;

function run(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-cli-'));
  good = join(dir, 'good.safetensors');
  bad = join(dir, 'bad.safetensors');
  const file = writeSafetensors([{ name: 'w', dtype: 'F16', shape: [2, 2], data: new Uint8Array(8) }], { format: 'pt' });
  await writeFile(good, file);
  await writeFile(bad, file.subarray(0, file.byteLength - 3));
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

test('validate --json: one object per file in argument order, exit 1 when any is not loadable', async () => {
  const { code, stdout } = await run('validate', '--json', bad, good, join(dir, 'missing.safetensors'));
  expect(code).toBe(1);
  const results = JSON.parse(stdout);
  expect(results.map((r) => r.file)).toEqual([bad, good, join(dir, 'missing.safetensors')]);
  expect(results[0]).toMatchObject({ loadable: false, referenceError: 'MetadataIncompleteBuffer', tensors: 1 });
  expect(results[0].findings[0].message).toContain('3 bytes missing');
  expect(results[1]).toEqual({ file: good, loadable: true, referenceError: null, findings: [], tensors: 1 });
  expect(results[2]).toMatchObject({ loadable: false, referenceError: null, tensors: 0 });
  expect(results[2].findings[0].code).toBe('ReadError');
});

test('validate --json shows every finding, each on the file crafted for it; --scan-data adds the scan findings', async () => {
  const cases = await writeFindingFiles(dir);
  const header = cases.filter((c) => !c.scan);
  const { stdout } = await run('validate', '--json', ...header.map((c) => c.path));
  const results = JSON.parse(stdout);
  for (const [i, c] of header.entries()) {
    expect(results[i].loadable, c.code).toBe(c.loadable);
    const finding = results[i].findings.find((f) => f.code === c.code);
    expect(finding, `${c.code} in ${JSON.stringify(results[i].findings)}`).toBeDefined();
    expect(['error', 'warning', 'info']).toContain(finding.severity);
    expect(finding.message.length).toBeGreaterThan(40);
  }
  const polyglot = results[header.findIndex((c) => c.code === 'MetadataIncompleteBuffer')];
  expect(polyglot.findings[0].message).toContain('4 extra bytes');
  const scan = cases.filter((c) => c.scan);
  const plain = JSON.parse((await run('validate', '--json', ...scan.map((c) => c.path))).stdout);
  const scanned = JSON.parse((await run('validate', '--json', '--scan-data', ...scan.map((c) => c.path))).stdout);
  for (const [i, c] of scan.entries()) {
    expect(plain[i].findings.map((f) => f.code)).not.toContain(c.code);
    expect(scanned[i].findings.map((f) => f.code)).toContain(c.code);
    expect(scanned[i].dataScan.tensors).toHaveLength(1);
  }
  expect(scanned[0].dataScan.tensors[0]).toEqual({ name: 'w', dtype: 'F32', nan: 1, posInf: 0, negInf: 1, allZero: false });
}, 30_000);

test('validate: exit 0 when all are loadable', async () => {
  const { code, stdout } = await run('validate', good, good);
  expect(code).toBe(0);
  expect(stdout).toContain('good.safetensors: loadable (1 tensors)');
});

test('inspect prints the verdict, metadata and tensor table', async () => {
  const { code, stdout } = await run('inspect', good);
  expect(code).toBe(0);
  expect(stdout).toContain('loadable');
  expect(stdout).toContain('format: pt');
  expect(stdout).toMatch(/w\s+F16\s+\[2, 2\]\s+0-8\s+8/);
});

test('usage errors exit 2', async () => {
  expect((await run()).code).toBe(2);
  expect((await run('validate')).code).toBe(2);
  expect((await run('frobnicate', good)).code).toBe(2);
});
