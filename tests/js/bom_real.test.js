// createModelBom and `safetensors-wasm sbom` on real files read in place (the sharded model, the
// kohya LyCORIS LoKr file), checked against the CycloneDX 1.6 JSON schema; sbom's exit codes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelBom } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';
import { CLI, FIXED, props, schemaErrors, sha256 } from './bom_check.js';

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-bom-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.runIf(HAVE_REAL)('real files, read in place', () => {
  test('the sharded model: its card through the index, every shard and the index hashed', async () => {
    const folder = join(REAL_DIR, 'sharded');
    const bom = await createModelBom(folder, FIXED);
    expect(await schemaErrors(bom)).toBeNull();
    const names = (await readdir(folder)).sort();
    expect(bom.components.map((c) => c.name)).toEqual(names);
    for (const c of bom.components) expect(c.hashes[0].content).toBe(sha256(await readFile(join(folder, c.name))));
    const card = props(bom.metadata.component.modelCard.properties);
    expect(Number(card['safetensors-wasm:parameters'])).toBeGreaterThan(0);
  });

  test('the kohya LyCORIS LoKr file; `sbom` writes the same BOM (bar serial and time) to -o OUT', async () => {
    const file = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
    const bom = await createModelBom(file, FIXED);
    expect(await schemaErrors(bom)).toBeNull();
    expect(props(bom.metadata.component.modelCard.properties)['safetensors-wasm:adapter']).toBe('lokr');
    const out = join(dir, 'lokr.cdx.json');
    const code = await new Promise((resolve) =>
      execFile(process.execPath, [CLI, 'sbom', file, '-o', out], (e) => resolve(e ? e.code : 0)),
    );
    expect(code).toBe(0);
    const written = JSON.parse(await readFile(out, 'utf8'));
    expect(await schemaErrors(written)).toBeNull();
    expect({
      ...written,
      serialNumber: FIXED.serialNumber,
      metadata: { ...written.metadata, timestamp: bom.metadata.timestamp },
    }).toEqual(bom);
  });
});

test('sbom: usage errors exit 2, an unreadable model 1', async () => {
  const run = (...args) =>
    new Promise((resolve) => execFile(process.execPath, [CLI, 'sbom', ...args], (e) => resolve(e ? e.code : 0)));
  expect(await run()).toBe(2);
  expect(await run('a', 'b')).toBe(2);
  expect(await run('a', '-o')).toBe(2);
  expect(await run(join(dir, 'absent'))).toBe(1);
});
