// The CLI's convert of a PyTorch checkpoint (web/cli/convert.js, without --to): the tensors
// written as .safetensors with metadata { format: 'pt' }, --verify comparing every tensor of
// both files, a checkpoint naming os.system refused with nothing written unless
// --allow-unsafe-globals, and a plain pickle or missing file an error; run as a user runs it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSafetensors } from '../../web/index.js';
import { run } from './cli_run.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
/** @type {string} */
let scratch;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'stw-ckpt-cli-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

test.each(['views.pt', 'legacy.pt', 'tied.pt', 'lightning.ckpt'])(
  'convert --verify %s writes its tensors and says each is equal',
  async (file) => {
    const out = join(scratch, `${file}.safetensors`);
    const { code, stdout, stderr } = await run(['convert', '--verify', `${DIR}${file}`, '-o', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const st = await openSafetensors(out);
    expect(st.metadata).toEqual({ format: 'pt' });
    expect(stdout).toContain(`wrote ${out}: ${st.tensors.length} tensor`);
    expect(stdout).toMatch(new RegExp(`verified: ${st.tensors.length} of ${st.tensors.length} tensors? equal\\n`));
  },
);

test('a checkpoint naming os.system is refused, nothing written; --allow-unsafe-globals converts it', async () => {
  const out = join(scratch, 'os_system.safetensors');
  const refused = await run(['convert', `${DIR}os_system.pt`, '-o', out]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/system \(unsafe\).*--allow-unsafe-globals/);
  expect(existsSync(out)).toBe(false);
  const allowed = await run(['convert', '--verify', '--allow-unsafe-globals', `${DIR}os_system.pt`, '-o', out]);
  expect(allowed.code).toBe(0);
  expect((await openSafetensors(out)).metadata?.['safetensors_wasm.left_behind_globals']).toMatch(/system/);
});

test('a plain pickle and a missing file are errors (exit 1), saying why', async () => {
  const pickle = await run(['convert', `${DIR}data_p2.pkl`, '-o', join(scratch, 'p.safetensors')]);
  expect(pickle.code).toBe(1);
  expect(pickle.stderr).toContain('is not a PyTorch checkpoint (pickle)');
  const missing = await run(['convert', join(scratch, 'nope.pt'), '-o', join(scratch, 'n.safetensors')]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/^convert: .*nope\.pt/);
});
