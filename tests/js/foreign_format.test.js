// NotSafetensors through the package and the CLI: files of other formats made by
// tools/foreign_files.py (Python's own zipfile, pickle, gzip, json; GGUF, PNG and JPEG from their
// specs), the Git LFS pointers from the wild, files cut short, and the files it must not fire on.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSafetensors, openSafetensorsIndex, validateSafetensors } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR, haveFixtures, rawFile, recordingSource, rejection } from './fixtures.js';

const WILD_DIR = fileURLToPath(new URL('../../../shared/fixtures/wild/', import.meta.url));
const HAVE_WILD = haveFixtures(WILD_DIR);
const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url));
const SNIFF = 64 * 1024;

let dir;
/** @type {{ file: string, format: string, bytes: Uint8Array }[]} */
let generated;

function run(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout) => resolve({ code: error ? error.code : 0, stdout }));
  });
}

const notSafetensors = (report) => report.findings.find((f) => f.code === 'NotSafetensors');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-foreign-'));
  execFileSync('python3', [fileURLToPath(new URL('../../tools/foreign_files.py', import.meta.url)), dir]);
  generated = readFileSync(join(dir, 'expected.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
    .map(([file, format]) => ({ file, format, bytes: new Uint8Array(readFileSync(join(dir, file))) }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('validateSafetensors names the format of every generated file, beside the reference verdict', async () => {
  expect(generated.length).toBeGreaterThanOrEqual(20);
  const formats = new Set();
  for (const { file, format, bytes } of generated) {
    const report = await validateSafetensors(bytes);
    expect(report.loadable, file).toBe(false);
    expect(report.referenceError, file).not.toBeNull();
    // The reference error first, then what the file is instead.
    expect(report.findings[0].code, file).toBe(report.referenceError);
    expect(report.findings[1], file).toMatchObject({ code: 'NotSafetensors', severity: 'error', format });
    expect(report.findings[1].message, file).toMatch(/^this is an? /);
    formats.add(format);
  }
  expect([...formats].sort()).toEqual(
    ['empty', 'gguf', 'git-lfs-pointer', 'gzip', 'html', 'jpeg', 'json', 'pickle', 'png', 'pytorch-zip', 'zip'].sort(),
  );
});

test('openSafetensors rejects with the reference error kind; its report names the format', async () => {
  const { bytes } = generated.find((g) => g.file === 'torch_save.pt');
  const error = await rejection(openSafetensors(bytes));
  expect(error.code).toBe('HeaderTooLarge');
  expect(notSafetensors(error.report)).toMatchObject({ format: 'pytorch-zip' });
  expect(notSafetensors(error.report).message).toContain('do not load it');
  expect(notSafetensors(error.report).message).toContain('convert');
});

test('what the messages say: an index is for openSafetensorsIndex, a pipeline for openSafetensorsPipeline', async () => {
  const message = async (file) =>
    notSafetensors(await validateSafetensors(generated.find((g) => g.file === file).bytes)).message;
  expect(await message('model.safetensors.index.json')).toContain('openSafetensorsIndex');
  expect(await message('model_index.json')).toContain('openSafetensorsPipeline');
  expect(await message('hub_blob_page.safetensors')).toContain('/resolve/');
  expect(await message('model.gguf')).toContain("architecture 'llama'");
  expect(await message('legacy_torch_save.bin')).toContain('do not load it');
});

// Detection reads at most the first 64 KiB: a source that records every read, on each generated
// file and on a 10 GiB "file" that is a web page. The one exception is a gzip stream whose
// first 8 bytes make a header length the file can hold: the reference reads that header itself.
test('detection reads at most the first 64 KiB', async () => {
  for (const { file, bytes } of generated) {
    const source = recordingSource(bytes);
    await validateSafetensors(source);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = bytes.byteLength >= 8 ? Number(view.getBigUint64(0, true)) : Infinity;
    const limit = n <= 1e8 && n <= bytes.byteLength - 8 ? 8 + n : SNIFF;
    for (const [offset, length] of source.reads) expect(offset + length, file).toBeLessThanOrEqual(limit);
  }
  const page = new TextEncoder().encode(`<!DOCTYPE html><html><head><title>Sign in</title></head>${' '.repeat(SNIFF)}`);
  const big = recordingSource(page, 10 * 2 ** 30);
  const report = await validateSafetensors(big);
  expect(notSafetensors(report)).toMatchObject({ format: 'html' });
  expect(notSafetensors(report).message).toContain("'Sign in'");
  expect(big.reads.reduce((sum, [, length]) => sum + length, 0)).toBeLessThanOrEqual(SNIFF);
});

test('a file cut short gets both byte counts, in its data or in its header', async () => {
  const whole = rawFile('{"w":{"dtype":"F32","shape":[64],"data_offsets":[0,256]}}', 256);
  const dataCut = await validateSafetensors(whole.subarray(0, whole.byteLength - 100));
  expect(dataCut.referenceError).toBe('MetadataIncompleteBuffer');
  expect(dataCut.findings[0].message).toMatch(
    new RegExp(
      `^the file has ${whole.byteLength - 100} bytes, the header needs ${whole.byteLength}: the download looks cut short`,
    ),
  );
  const headerCut = await validateSafetensors(whole.subarray(0, 40));
  expect(headerCut.referenceError).toBe('InvalidHeaderLength');
  expect(headerCut.findings[0].message).toMatch(
    new RegExp(`^the file has 40 bytes, the header needs ${whole.byteLength - 256}: the download looks cut short`),
  );
  expect(notSafetensors(dataCut)).toBeUndefined();
  expect(notSafetensors(headerCut)).toBeUndefined();
});

test('the CLI: validate --json gives the finding with its format; the text verdict names it in plain words', async () => {
  const pointer = join(dir, 'lfs_pointer.safetensors');
  const json = await run('validate', '--json', pointer);
  expect(json.code).toBe(1);
  const [entry] = JSON.parse(json.stdout);
  expect(entry).toMatchObject({ loadable: false, referenceError: 'HeaderTooLarge' });
  expect(entry.findings[1]).toMatchObject({ code: 'NotSafetensors', severity: 'error', format: 'git-lfs-pointer' });
  const text = await run('validate', pointer);
  expect(text.stdout).toContain(
    `${pointer}: not loadable: HeaderTooLarge; this is a Git LFS pointer, not a safetensors file (0 tensors)`,
  );
  expect(text.stdout).toMatch(/error {3}NotSafetensors: this is a Git LFS pointer, not the model/);
  // A checkpoint is read as one (tests/js/cli_checkpoint.test.js): its scan is safe, exit 0.
  const inspect = await run('inspect', join(dir, 'torch_save.pt'));
  expect(inspect.code).toBe(0);
  expect(inspect.stdout).toContain('not loadable: a PyTorch pickle checkpoint, which safetensors cannot load');
  const zip = await run('validate', join(dir, 'model.zip'));
  expect(zip.stdout).toContain('not loadable: HeaderTooLarge; this is a zip archive, not a safetensors file');
  const inspectJson = JSON.parse((await run('inspect', '--json', join(dir, 'model.gguf'))).stdout);
  expect(notSafetensors(inspectJson.report)).toMatchObject({ format: 'gguf' });
});

test('a sharded model whose shard is a Git LFS pointer: ShardNotLoadable says so', async () => {
  const pointer = generated.find((g) => g.file === 'lfs_pointer.safetensors').bytes;
  const model = await openSafetensorsIndex({
    index: { metadata: { total_size: 16 }, weight_map: { w: 'model-00001-of-00001.safetensors' } },
    resolve: () => pointer,
  });
  expect(model.loadable).toBe(false);
  const finding = model.findings.find((f) => f.code === 'ShardNotLoadable');
  expect(finding.message).toMatch(/\(HeaderTooLarge\): this is a Git LFS pointer, not the model/);
  expect(notSafetensors(model.shards[0].report)).toMatchObject({ format: 'git-lfs-pointer' });
});

describe.runIf(HAVE_WILD)('the Git LFS pointers committed in the wild (../shared/fixtures/wild)', () => {
  // invoke-ai/InvokeAI, hydrixer/ID2223-lab2, cocopo11/ink-and-wash-textual-inversion (README there).
  test('each is named a Git LFS pointer with the size and oid it gives', async () => {
    const pointers = readdirSync(WILD_DIR).filter((f) => f.startsWith('lfs_pointer_'));
    expect(pointers).toHaveLength(3);
    for (const name of pointers) {
      const text = readFileSync(join(WILD_DIR, name), 'utf8');
      const oid = /oid sha256:([0-9a-f]{64})/.exec(text)[1];
      const size = Number(/size (\d+)/.exec(text)[1]);
      const report = await validateSafetensors(new Uint8Array(readFileSync(join(WILD_DIR, name))));
      expect(report.referenceError, name).toBe('HeaderTooLarge');
      const finding = notSafetensors(report);
      expect(finding, name).toMatchObject({ format: 'git-lfs-pointer' });
      expect(finding.message).toContain(oid);
      expect(finding.message).toContain(`${size.toLocaleString('en')} bytes`);
      expect(finding.message).toContain('git lfs pull');
    }
  });
});

// Every valid safetensors file the tests have, and the wild ones (one of them cut short).
test('no NotSafetensors finding on any safetensors file: the real and wild fixtures and the demo sample', async () => {
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name));
      else if (entry.name.endsWith('.safetensors') && !entry.name.startsWith('lfs_pointer_'))
        files.push(join(folder, entry.name));
    }
  };
  if (HAVE_REAL) walk(REAL_DIR);
  if (HAVE_WILD) walk(WILD_DIR);
  expect(existsSync(SAMPLE), 'make build writes demo/sample.safetensors').toBe(true);
  files.push(SAMPLE);
  for (const path of files) {
    const report = await validateSafetensors(new Uint8Array(readFileSync(path)));
    expect(notSafetensors(report), path).toBeUndefined();
  }
  expect(files.length).toBeGreaterThan(HAVE_REAL && HAVE_WILD ? 25 : 0);
});
