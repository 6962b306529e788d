// A checkpoint holding tensors that are not a strided view of one storage (other_tensors.pt,
// torch.save of a quantized and a sparse tensor beside a plain one; make_other_tensors.py):
// openCheckpoint lists the quantized one as a tensor of torch dtype quint8 (no safetensors dtype)
// and the sparse one in unreadTensors (`other-tensor`), the plain tensor is read, the
// scan's verdict stays safe (its globals are), and convert refuses
// the file naming both (UnsupportedConversion; the CLI exits 1 and writes nothing) instead of
// writing a file that lacks them.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCheckpoint, scanPickle } from '../../web/index.js';
import { rejection } from './fixtures.js';
import { run } from './cli_run.js';

const FILE = fileURLToPath(new URL('../checkpoints/other_tensors.pt', import.meta.url));
/** @type {string} */
let scratch;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'stw-ckpt-other-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

test('the quantized tensor is listed without a safetensors dtype, the sparse one is unread; the plain one is read', async () => {
  expect((await scanPickle(FILE)).verdict).toBe('safe');
  const ckpt = await openCheckpoint(FILE);
  expect(ckpt.unreadTensors.map((u) => [u.name, u.code])).toEqual([['sparse', 'other-tensor']]);
  expect(ckpt.tensors.map((t) => [t.name, t.dtype, t.torchDtype])).toEqual([
    ['weight', 'F32', 'float32'],
    ['quantized', null, 'quint8'],
  ]);
  expect(Array.from(await ckpt.getTensor('weight'))).toEqual([0, 1, 2, 3]);
});

test('toSafetensors refuses the file, naming both tensors', async () => {
  const error = await rejection((await openCheckpoint(FILE)).toSafetensors());
  expect(error.code).toBe('UnsupportedConversion');
  expect(error.message).toMatch(/: "quantized" is torch\.quint8, "sparse" \(other-tensor/);
});

test('the CLI exits 1 and writes nothing', async () => {
  const out = join(scratch, 'other.safetensors');
  const { code, stderr } = await run(['convert', FILE, '-o', out]);
  expect(code).toBe(1);
  expect(stderr).toMatch(/quantized/);
  expect(existsSync(out)).toBe(false);
});
