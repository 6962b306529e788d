// safetensors-wasm scan over the committed checkpoints (tests/checkpoints): the JSON per file
// is scanPickle's, the exit code 0 only when every file is safe, 1 otherwise, 2 for a usage or
// read error; the text names each global that is not safe, and a pickle's strings reach the
// terminal without their control characters.
import { expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { scanPickle } from '../../web/index.js';
import { run } from './cli_run.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const at = (/** @type {string} */ name) => `${DIR}${name}`;

test('--json: one entry per FILE, scanPickle’s report with the FILE as given; exit 0 when all are safe', async () => {
  const files = [at('views.pt'), at('legacy.pt'), at('views_deflated.pt')];
  const { code, stdout } = await run(['scan', '--json', ...files]);
  expect(code).toBe(0);
  const entries = JSON.parse(stdout);
  expect(entries.map((e) => e.file)).toEqual(files);
  for (const [i, file] of files.entries())
    expect(entries[i]).toEqual(await scanPickle(file).then((s) => ({ ...s, file })));
  expect(entries.every((e) => e.verdict === 'safe')).toBe(true);
});

test('exit 1 when one file is not safe; the text names its unsafe global', async () => {
  const { code, stdout } = await run(['scan', at('views.pt'), at('os_system.pt')]);
  expect(code).toBe(1);
  expect(stdout).toContain(`${at('views.pt')}: safe (pytorch-zip, 3 globals)`);
  expect(stdout).toContain(`${at('os_system.pt')}: unsafe (pytorch-zip, 4 globals)`);
  expect(stdout).toMatch(/unsafe +posix\.system \(1×\)/);
  const unknown = await run(['scan', at('views_disagree.pt')]);
  expect(unknown.code).toBe(1);
  expect(unknown.stdout).toContain('local-header-disagrees');
});

test('exit 2 for a file that cannot be read (the others still scanned) and for no FILE', async () => {
  const { code, stdout } = await run(['scan', '--json', at('no_such.pt'), at('views.pt')]);
  expect(code).toBe(2);
  const [missing, views] = JSON.parse(stdout);
  expect(missing.error.code).not.toBe('InternalError');
  expect(missing.error.message).toContain('no_such.pt');
  expect(views.verdict).toBe('safe');
  const usage = await run(['scan']);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('usage: safetensors-wasm scan');
});

test('- reads standard input', async () => {
  const { code, stdout } = await run(['scan', '--json', '-'], { input: await readFile(at('os_system_p2.pkl')) });
  expect(code).toBe(1);
  expect(JSON.parse(stdout)[0]).toMatchObject({ file: '-', format: 'pickle', verdict: 'unsafe' });
});

test("a global's name with control characters reaches the terminal without them", async () => {
  // Protocol 0: GLOBAL "os\x1b[2J\nsystem", then STOP (the name is read, never called).
  const pickle = new TextEncoder().encode('cos\x1b[2J\nsystem\n.');
  const { stdout } = await run(['scan', '-'], { input: pickle });
  expect(stdout).not.toContain('\x1b');
  expect(stdout).toContain('os [2J.system');
});
