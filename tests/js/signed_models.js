// Shared by the signature tests on models signed here: the model's files, a key for each curve,
// and a temporary folder (made before the tests, by modelFolders) to write models into.
import { afterAll, beforeAll } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Models signed in these tests: a folder on disk, signed by each curve, in both serializations.
export const CURVES = [
  ['prime256v1', 'P-256'],
  ['secp384r1', 'P-384'],
  ['secp521r1', 'P-521'],
];
export const MODEL = new Map([
  ['config.json', new TextEncoder().encode('{"a": 1}')],
  ['model.safetensors', new Uint8Array(4099).map((_, i) => (i * 31) & 0xff)],
  ['sub/empty.bin', new Uint8Array(0)],
  ['sub/deep/x.txt', new TextEncoder().encode('hello')],
]);
/** The temporary folder (set before the tests, by modelFolders). */
export let dir;
export const keys = Object.fromEntries(
  CURVES.map(([curve]) => [curve, generateKeyPairSync('ec', { namedCurve: curve }).privateKey]),
);

/** Writes MODEL (plus extra files) into a fresh folder and returns its path. */
export async function writeModel(name, files = MODEL) {
  const root = join(dir, name);
  for (const [file, bytes] of files) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), bytes);
  }
  return root;
}

/** Makes the temporary folder before this file's tests and removes it after them. */
export function modelFolders() {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stw-sign-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
}
