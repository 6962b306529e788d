// TypeScript with `moduleResolution: "node"` (node10, which ignores `exports`) finds the types of
// both entry points, `safetensors-wasm` and `safetensors-wasm/worker`, of the package installed
// by name: tests/types/node_resolution compiled in a folder whose node_modules links to it.
import { expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROJECT = join(ROOT, 'tests/types/node_resolution');

test('moduleResolution "node": the main and the worker entry points type-check by name', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stw-types-'));
  try {
    await mkdir(join(dir, 'node_modules'));
    await symlink(ROOT, join(dir, 'node_modules', 'safetensors-wasm'), 'dir');
    for (const name of ['tsconfig.json', 'usage.ts']) await copyFile(join(PROJECT, name), join(dir, name));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', dir, '--traceResolution'], { cwd: dir }).catch((e) => e);
    const errors = (result.stdout ?? '').split('\n').filter((line) => /error TS/.test(line));
    expect(errors).toEqual([]);
    expect(result.code ?? 0).toBe(0);
    // The worker's types came from the package's worker.d.ts, through typesVersions.
    expect(result.stdout).toMatch(/'safetensors-wasm\/worker' was successfully resolved to '[^']*web\/worker\.d\.ts'/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
