// Checkpoint.toSafetensors (web/pickle/checkpoint_convert.js) on the committed checkpoints
// (tests/checkpoints, written by torch.save): every fixture round-trips to a loadable
// .safetensors whose tensors are torch's (expected.json: dtype, shape, values), views written as
// contiguous copies, tied tensors both written; a file naming an unsafe global is refused with
// the globals named unless allowUnsafeGlobals, which records them in the metadata.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openCheckpoint, openSafetensors, validateSafetensors } from '../../web/index.js';
import { rejection } from './fixtures.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const EXPECTED = JSON.parse(await readFile(`${DIR}expected.json`, 'utf8'));
const CONVERTIBLE = ['views.pt', 'legacy.pt', 'tied.pt', 'lightning.ckpt', 'parameters.pt', 'embedding.pt'];

/** expected.json's tensors under openCheckpoint's names (state_dict unwrapped). */
function expectedTensors(/** @type {string} */ file) {
  const all = Object.entries(EXPECTED[file].tensors ?? {});
  const inner = all.filter(([name]) => name.startsWith('state_dict.'));
  return inner.length ? inner.map(([name, t]) => [name.slice('state_dict.'.length), t]) : all;
}

describe.each(CONVERTIBLE)('%s', (file) => {
  test.each([
    ['a path', () => `${DIR}${file}`],
    ['a Blob', async () => new Blob([await readFile(`${DIR}${file}`)])],
  ])("from %s: a loadable file with torch's tensors and { format: 'pt' }", async (_, source) => {
    const ckpt = await openCheckpoint(await source());
    const blob = await ckpt.toSafetensors();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect((await validateSafetensors(bytes)).loadable).toBe(true);
    const st = await openSafetensors(bytes);
    expect(st.metadata).toEqual({ format: 'pt' });
    const expected = expectedTensors(file);
    expect(st.tensors.map((t) => t.name).sort()).toEqual(expected.map(([n]) => n).sort());
    for (const [name, t] of expected) {
      expect(st.tensors.find((x) => x.name === name)?.shape, name).toEqual(t.shape);
      const values = await st.getTensor(name);
      expect(values, name).toEqual(await ckpt.getTensor(name));
      if (t.values) expect(Array.from(values, Number), name).toEqual(t.values.flat(Infinity));
    }
  });
});

test('metadata given replaces the default; null writes none', async () => {
  const ckpt = await openCheckpoint(`${DIR}views.pt`);
  const mine = await openSafetensors(await ckpt.toSafetensors({ metadata: { format: 'pt', source: 'views.pt' } }));
  expect(mine.metadata).toEqual({ format: 'pt', source: 'views.pt' });
  const none = await openSafetensors(await ckpt.toSafetensors({ metadata: null }));
  expect(none.metadata ?? null).toBeNull();
});

test('a checkpoint naming os.system is refused, naming it; allowUnsafeGlobals converts its tensors alone', async () => {
  const ckpt = await openCheckpoint(`${DIR}os_system.pt`);
  expect(ckpt.verdict).toBe('unsafe');
  const error = await rejection(ckpt.toSafetensors());
  expect(error.code).toBe('UnsafeCheckpoint');
  expect(error.message).toMatch(/(posix|os)\.system \(unsafe\)/);
  const st = await openSafetensors(await ckpt.toSafetensors({ allowUnsafeGlobals: true }));
  expect(st.tensors.map((t) => t.name).sort()).toEqual(ckpt.tensors.map((t) => t.name).sort());
  expect(st.metadata?.format).toBe('pt');
  expect(st.metadata?.['safetensors_wasm.left_behind_globals']).toMatch(/(posix|os)\.system/);
});

test('complex128, which safetensors has no dtype for, is refused naming the tensor', async () => {
  const ckpt = await openCheckpoint(`${DIR}dtypes.pt`);
  const error = await rejection(ckpt.toSafetensors());
  expect(error.code).toBe('UnsupportedConversion');
  expect(error.message).toContain('complex128');
});
