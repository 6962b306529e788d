// The safetensors-wasm command line, run as a user would: validate, inspect, hash, usage errors and
// http(s) arguments on single files. Sharded models, pipelines, edit and convert: cli_models.test.js.
import { expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rawFile, writeSafetensors } from '../../tools/write_safetensors.js';
import { writeFindingFiles } from '../../tools/finding_files.js';
import { readFileSync } from 'node:fs';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';
import { bad, dir, good, goodAndBadFiles, run, sha256 } from './cli_good_bad.js';

goodAndBadFiles();

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

test('validate --json shows every finding, each on the file crafted for it; --scan-data and --hash add theirs', async () => {
  const cases = await writeFindingFiles(dir);
  const header = cases.filter((c) => !c.scan && !c.hash);
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
  expect(scanned[0].dataScan.tensors[0]).toEqual({
    name: 'w',
    dtype: 'F32',
    nan: 1,
    posInf: 0,
    negInf: 1,
    allZero: false,
  });
  const hashed = cases.filter((c) => c.hash);
  expect(hashed.length).toBeGreaterThan(0);
  const unhashed = JSON.parse((await run('validate', '--json', ...hashed.map((c) => c.path))).stdout);
  const withHash = JSON.parse((await run('validate', '--json', '--hash', ...hashed.map((c) => c.path))).stdout);
  for (const [i, c] of hashed.entries()) {
    expect(unhashed[i].findings.map((f) => f.code)).not.toContain(c.code);
    expect(withHash[i].findings.map((f) => f.code)).toContain(c.code);
    expect(withHash[i].hashes.sha256).toBe(sha256(readFileSync(c.path)));
  }
}, 30_000);

test('validate: exit 0 when all are loadable', async () => {
  const { code, stdout } = await run('validate', good, good);
  expect(code).toBe(0);
  expect(stdout).toContain('good.safetensors: loadable (1 tensor)\n');
});

test('inspect prints the card, then the verdict, metadata and tensor table', async () => {
  const { code, stdout } = await run('inspect', good);
  expect(code).toBe(0);
  expect(stdout.indexOf('parameters  4 (4; F16 4)')).toBeGreaterThan(0);
  // The weights' memory as stored and at 16, 8 and 4 bits a weight.
  expect(stdout).toContain('memory      8 bytes stored; 16-bit 8 bytes, 8-bit 4 bytes, 4-bit 2 bytes\n');
  expect(stdout.indexOf('parameters')).toBeLessThan(stdout.indexOf(': loadable'));
  expect(stdout).toContain('format: pt');
  expect(stdout).toMatch(/w\s+F16\s+\[2, 2\]\s+0-8\s+8/);
});

test.skipIf(!HAVE_REAL)('inspect on the kohya LoKr: the card first; --json gives { file, report, card }', async () => {
  const path = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
  const { code, stdout } = await run('inspect', path);
  expect(code).toBe(0);
  const lines = stdout.split('\n');
  expect(lines[1]).toMatch(/^ {2}title +smart_falcon_lokr_3\.0e-4$/);
  expect(lines[2]).toMatch(/^ {2}kind +adapter: LoKr \(kohya, lycoris\.kohya\), rank 4, alpha 4/);
  expect(lines[3]).toMatch(/^ {2}family +Stable Diffusion 1\.x \(sd1\); from lora_unet_/);
  expect(stdout).toMatch(/trigger words +smart falcon \\\(umamusume\\\) \(130\)/);
  expect(stdout).toMatch(/training +epochs 10, steps 3010, images 1204/);
  const json = JSON.parse((await run('inspect', '--json', path)).stdout);
  expect(json.file).toBe(path);
  expect(json.report.loadable).toBe(true);
  expect(json.card.family.id).toBe('sd1');
  expect(json.card.modules.tensors).toBe(1750);
  expect(json.tensors).toHaveLength(1750);
});

test('inspect of a rejected file: the card of its header when whole (cut short), the verdict, exit 1; a terminal gets no control characters from names or metadata', async () => {
  const rejected = await run('inspect', bad);
  expect(rejected.code).toBe(1);
  expect(rejected.stdout.startsWith(`${bad}\n  title       (none)\n  kind        unknown\n`)).toBe(true);
  expect(rejected.stdout).toContain(`\n${bad}: not loadable: MetadataIncompleteBuffer`);
  const broken = join(dir, 'broken.safetensors');
  await writeFile(broken, rawFile('{"a":1}'));
  const noCard = await run('inspect', broken);
  expect(noCard.code).toBe(1);
  expect(noCard.stdout.startsWith(`${broken}: not loadable: `)).toBe(true);
  const path = join(dir, 'title.safetensors');
  const escape = 'a\u001b[31mred\u0007\u009b';
  await writeFile(
    path,
    writeSafetensors([{ name: `t${escape}`, dtype: 'U8', shape: [1], data: new Uint8Array(1) }], {
      'modelspec.title': escape,
      [`k${escape}`]: escape,
    }),
  );
  const { stdout } = await run('inspect', path);
  expect(stdout).toMatch(/title +a \[31mred {2}\n/);
  expect(stdout).toContain('ta [31mred  ');
  expect(stdout).toContain('ka [31mred  : a [31mred  ');
  // eslint-disable-next-line no-control-regex
  expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
});

test('hash prints lines sha256sum -c accepts, then AutoV2, AutoV3 and the claims; exit 1 on a failed claim', async () => {
  const claimed = join(dir, 'claimed.safetensors');
  const file = writeSafetensors(
    [{ name: 'w', dtype: 'F16', shape: [2, 2], data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }],
    { sshs_model_hash: '0'.repeat(64) },
  );
  await writeFile(claimed, file);
  const { code, stdout } = await run('hash', good, claimed);
  expect(code).toBe(1);
  const dataStart = 8 + Number(new DataView(file.buffer).getBigUint64(0, true));
  expect(stdout).toContain(`${sha256(readFileSync(good))}  ${good}\n`);
  expect(stdout).toContain(`  AutoV2        ${sha256(readFileSync(good)).slice(0, 10)}\n`);
  expect(stdout).toContain(`  AutoV3           ${sha256(file.subarray(dataStart)).slice(0, 12)}\n`);
  expect(stdout).toMatch(/sshs_model_hash +MISMATCH: claims 0{64}, is [0-9a-f]{64}/);
  const listed = join(dir, 'sums.txt');
  await writeFile(
    listed,
    stdout
      .split('\n')
      .filter((l) => /^[0-9a-f]{64} {2}/.test(l))
      .join('\n') + '\n',
  );
  const check = await new Promise((resolve) =>
    execFile('sha256sum', ['-c', listed], (error, out) => resolve({ error, out })),
  );
  expect(check.error).toBeNull();
  expect(check.out).toContain(`${claimed}: OK`);
  expect((await run('hash', good)).code).toBe(0);
});

test('hash --json --tensors: every value, per tensor too; an unreadable file is an error entry', async () => {
  const { code, stdout } = await run('hash', '--json', '--tensors', good, join(dir, 'missing.safetensors'));
  expect(code).toBe(1);
  const [result, missing] = JSON.parse(stdout);
  const bytes = readFileSync(good);
  expect(result).toMatchObject({ file: good, loadable: true, sha256: sha256(bytes), autoV1: null, checks: [] });
  expect(result.tensors).toEqual({ w: sha256(new Uint8Array(8)) });
  expect(missing.error).toContain('missing.safetensors');
});

test('usage errors exit 2', async () => {
  expect((await run()).code).toBe(2);
  expect((await run('validate')).code).toBe(2);
  expect((await run('frobnicate', good)).code).toBe(2);
  expect((await run('hash', '--sha1', good)).code).toBe(2);
  expect((await run('inspect', good, good)).code).toBe(2);
});

test('http(s) arguments: validate, inspect and hash read the file through Range requests', async () => {
  const { startServer } = await import('./http_server.js');
  const server = await startServer();
  try {
    const bytes = readFileSync(good);
    server.files.set('/good.safetensors', { bytes, etag: '"g"' });
    const url = server.url('/good.safetensors');
    const validated = await run('validate', '--json', url);
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.stdout)[0]).toMatchObject({ file: url, loadable: true });
    const inspected = await run('inspect', url);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain('w');
    const hashed = await run('hash', url);
    expect(hashed.code).toBe(0);
    expect(hashed.stdout.split('\n')[0]).toBe(`${sha256(bytes)}  ${url}`);
    for (const request of server.log) expect(request.range).toMatch(/^bytes=\d+-\d+$/);
    const missing = await run('validate', '--json', server.url('/nope.safetensors'));
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)[0].findings[0]).toMatchObject({ code: 'HttpError' });
  } finally {
    await server.close();
  }
});
