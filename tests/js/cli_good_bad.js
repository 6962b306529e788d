// Shared by the CLI tests: the command line run with pipes (arguments spread), and a good and a
// cut-short file in a temporary folder made before the tests (by goodAndBadFiles).
import { afterAll, beforeAll } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { CLI } from './cli_run.js';

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The temporary folder, a loadable file and a cut-short one in it (set by goodAndBadFiles). */
export let dir;
export let good;
export let bad;

export function run(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
}

/** Writes the good and the bad file before this file's tests; removes the folder after them. */
export function goodAndBadFiles() {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stw-cli-'));
    good = join(dir, 'good.safetensors');
    bad = join(dir, 'bad.safetensors');
    const file = writeSafetensors([{ name: 'w', dtype: 'F16', shape: [2, 2], data: new Uint8Array(8) }], {
      format: 'pt',
    });
    await writeFile(good, file);
    await writeFile(bad, file.subarray(0, file.byteLength - 3));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
}
