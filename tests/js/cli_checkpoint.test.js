// safetensors-wasm validate and inspect on pickle checkpoints (tests/checkpoints, written by
// torch.save): validate gives scan's verdict and says safetensors cannot load the file, with
// scan's exit status (0 safe, 1 otherwise); inspect shows the card, verdict, globals, findings,
// plain values and tensor table. --json keeps the verbs' shapes, adding `pickle`. A file that is
// neither safetensors nor a pickle is reported as before.
import { expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openCheckpoint, scanPickle, validateSafetensors } from '../../web/index.js';
import { run } from './cli_run.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const at = (/** @type {string} */ name) => `${DIR}${name}`;
const NOT_A_MODEL = fileURLToPath(new URL('../../package.json', import.meta.url));

/** scan's report without its file name. */
const scanOf = async (/** @type {string} */ path) => {
  const { format, verdict, globals, findings } = await scanPickle(path);
  return { format, verdict, globals, findings };
};

test('validate: a safe checkpoint exits 0, saying safetensors cannot load it and giving the verdict', async () => {
  const { code, stdout } = await run(['validate', at('embedding.pt'), at('legacy.pt')]);
  expect(code).toBe(0);
  expect(stdout).toContain(
    `${at('embedding.pt')}: not loadable: a PyTorch pickle checkpoint, which safetensors cannot load; scan: safe (pytorch-zip, 4 globals)`,
  );
  expect(stdout).toContain(`${at('legacy.pt')}: not loadable: a PyTorch pickle checkpoint`);
  expect(stdout).toContain('scan: safe (pytorch-legacy');
  expect(stdout).not.toContain('HeaderTooLarge');
});

test('validate: os_system.pt exits 1 and names posix.system, a safe file beside it or not', async () => {
  const { code, stdout } = await run(['validate', at('lightning.ckpt'), at('os_system.pt')]);
  expect(code).toBe(1);
  expect(stdout).toContain(`${at('os_system.pt')}: not loadable: a PyTorch pickle checkpoint`);
  expect(stdout).toContain('scan: unsafe (pytorch-zip, 4 globals)');
  expect(stdout).toMatch(/\n {2}unsafe +posix\.system \(1×\)/);
});

test('validate --json: the report validateSafetensors gives, plus pickle: the scan without its file', async () => {
  const { code, stdout } = await run(['validate', '--json', at('os_system.pt'), at('views_prefix.pt')]);
  expect(code).toBe(1);
  const [evil, prefixed] = JSON.parse(stdout);
  const report = await validateSafetensors(at('os_system.pt'));
  expect(evil).toEqual({ file: at('os_system.pt'), ...report, pickle: await scanOf(at('os_system.pt')) });
  expect(evil.pickle.verdict).toBe('unsafe');
  expect(prefixed.pickle.verdict).toBe('unknown'); // bytes before the zip: a finding
  expect(prefixed.pickle.findings.map((/** @type {any} */ f) => f.code)).toContain('archive-prefix');
});

test('validate --hash: a checkpoint is hashed as any file is (AutoV2: the first 10 hex digits of its SHA-256)', async () => {
  const { code, stdout } = await run(['validate', '--hash', at('embedding.pt')]);
  expect(code).toBe(0);
  const sha256 = createHash('sha256')
    .update(await readFile(at('embedding.pt')))
    .digest('hex');
  expect(stdout).toMatch(new RegExp(`\\n {2}AutoV2 +${sha256.slice(0, 10)}\\n`));
});

test('validate: a file that is neither (package.json) keeps its report and exit 1, with no pickle', async () => {
  const { code, stdout } = await run(['validate', '--json', NOT_A_MODEL]);
  expect(code).toBe(1);
  const [entry] = JSON.parse(stdout);
  expect(entry.loadable).toBe(false);
  expect(entry).not.toHaveProperty('pickle');
});

test('inspect embedding_sd1.pt: the card (embedding, sd1, vectors, name, step), verdict, globals, objects, tensors', async () => {
  const { code, stdout } = await run(['inspect', at('embedding_sd1.pt')]);
  expect(code).toBe(0);
  const ckpt = await openCheckpoint(at('embedding_sd1.pt'));
  expect(stdout).toMatch(/\n {2}kind +embedding\n/);
  expect(stdout).toMatch(/\n {2}family +Stable Diffusion 1\.x \(sd1\)/);
  expect(stdout).toMatch(/\n {2}embedding +3 vectors of width 768\n/);
  expect(stdout).toMatch(/\n {2}trigger words +sd1-style\n/);
  expect(stdout).toMatch(/\n {2}training +step 1500\n/);
  expect(stdout).toMatch(
    / {2}training +step 1500\n\n[^\n]*embedding_sd1\.pt: not loadable: a PyTorch pickle checkpoint/,
  );
  expect(stdout).toContain('scan: safe (pytorch-zip, 4 globals); nothing in it was run');
  for (const g of ckpt.globals) expect(stdout).toMatch(new RegExp(`safe +${g.module}\\.${g.name} \\(${g.count}×\\)`));
  expect(stdout).toContain('1 tensor, 5 plain values');
  expect(stdout).toContain('  sd_checkpoint_name: "v1-5-pruned"');
  expect(stdout).toMatch(/\nstring_to_param\.\* +F32 +\[3, 768\] +\[768, 1\] +0 +0\n?$/);
});

test('inspect os_system.pt exits 1 and lists posix.system as unsafe; - reads standard input', async () => {
  const file = await run(['inspect', at('os_system.pt')]);
  expect(file.code).toBe(1);
  expect(file.stdout).toContain('scan: unsafe (pytorch-zip, 4 globals)');
  expect(file.stdout).toMatch(/unsafe +posix\.system \(1×\)/);
  const piped = await run(['inspect', '-'], { input: await readFile(at('os_system.pt')) });
  expect(piped.code).toBe(1);
  expect(piped.stdout).toMatch(/unsafe +posix\.system \(1×\)/);
});

test('inspect lightning.ckpt --json: inspect’s shape with the card, pickle, tensors and objects', async () => {
  const { code, stdout } = await run(['inspect', '--json', at('lightning.ckpt')]);
  expect(code).toBe(0);
  const out = JSON.parse(stdout);
  const ckpt = await openCheckpoint(at('lightning.ckpt'));
  expect(out.file).toBe(at('lightning.ckpt'));
  expect(out.report).toEqual(await validateSafetensors(at('lightning.ckpt')));
  expect(out.metadata).toBeNull();
  expect(out.pickle).toEqual(await scanOf(at('lightning.ckpt')));
  expect(out.tensors).toEqual(ckpt.tensors);
  expect(out.objects).toEqual(ckpt.objects);
  expect(out.card).toEqual(JSON.parse(JSON.stringify(await ckpt.describe())));
  expect(out.card.training.global_step).toBe(ckpt.objects.find((o) => o.name === 'global_step')?.value);
});

test('inspect of a file that is neither is reported as before (exit 1, no pickle)', async () => {
  const { code, stdout } = await run(['inspect', '--json', NOT_A_MODEL]);
  expect(code).toBe(1);
  expect(JSON.parse(stdout)).not.toHaveProperty('pickle');
});

test('inspect lists the first 40 plain values of a pickle and counts the rest', async () => {
  // Protocol 2: {"v0": 0, ..., "v49": 49}: PROTO 2, EMPTY_DICT, MARK, BINUNICODE key + BININT1
  // value each, SETITEMS, STOP.
  const parts = [0x80, 2, 0x7d, 0x28];
  for (let i = 0; i < 50; i++) {
    const key = new TextEncoder().encode(`v${i}`);
    parts.push(0x58, key.length, 0, 0, 0, ...key, 0x4b, i);
  }
  parts.push(0x75, 0x2e);
  const { code, stdout } = await run(['inspect', '-'], { input: new Uint8Array(parts) });
  expect(code).toBe(0);
  expect(stdout).toContain('-: not loadable: a Python pickle, which safetensors cannot load');
  expect(stdout).toContain('0 tensors, 50 plain values');
  expect(stdout).toContain('  v39: 39\n  … and 10 more');
  expect(stdout).not.toContain('v40:');
});
