// The command line as a user of CLIs expects it (issue 30): help on stdout, --version, misuse
// explained, - for stdin, text for a terminal (colours, progress bars, bidi controls escaped,
// counts in the singular).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { progressBar, wantsColour } from '../../web/cli/terminal.js';
import { run, runInTerminal, SCRIPT } from './cli_run.js';

const VERBS = ['validate', 'inspect', 'hash', 'edit', 'convert'];
let dir;
let one;
let big;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stw-cli-usage-'));
  one = join(dir, 'one.safetensors');
  await writeFile(one, writeSafetensors([{ name: 'w', dtype: 'F16', shape: [2], data: new Uint8Array(4).fill(1) }]));
  // Past the size from which a bar is drawn (PROGRESS_MIN_BYTES, 32 MiB).
  big = join(dir, 'big.safetensors');
  const data = new Uint8Array(40 << 20).fill(3);
  await writeFile(big, writeSafetensors([{ name: 'w', dtype: 'F32', shape: [data.length / 4], data }]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('help, version, misuse', { timeout: 180_000 }, () => {
  test('--help and -h: the whole usage on stdout, exit 0; each verb has its own', async () => {
    for (const args of [['--help'], ['-h']]) {
      const { code, stdout, stderr } = await run(args);
      expect([code, stderr]).toEqual([0, '']);
      for (const verb of VERBS) expect(stdout).toContain(`safetensors-wasm ${verb} `);
    }
    for (const verb of VERBS) {
      const { code, stdout, stderr } = await run([verb, '--help']);
      expect([code, stderr], verb).toEqual([0, '']);
      expect(stdout.startsWith(`usage: safetensors-wasm ${verb} `), stdout).toBe(true);
      expect(stdout).not.toContain(`safetensors-wasm ${VERBS.find((v) => v !== verb)} `);
    }
    expect((await run(['hash', 'x.safetensors', '-h'])).stdout).toBe((await run(['hash', '--help'])).stdout);
    expect((await run(['help', 'hash'])).stdout).toBe((await run(['hash', '--help'])).stdout);
  });

  test('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  test('a misuse: exit 2, what was expected and the verb usage on stderr, nothing on stdout', async () => {
    const cases = [
      [[], 'expected a command', 'usage: safetensors-wasm validate'],
      [
        ['frobnicate'],
        'unknown command "frobnicate" (expected validate, inspect, scan, hash, edit, convert, diff, check-adapter, sbom, verify-signature)',
        'usage:',
      ],
      [['validate'], 'validate: expected one or more FILEs', 'usage: safetensors-wasm validate'],
      [
        ['hash', '--sha1', one],
        'hash: unknown option --sha1 (hash takes --json, --quiet, --tensors)',
        'usage: safetensors-wasm hash',
      ],
      [['inspect', one, one], 'inspect: expected one FILE, got 2', 'usage: safetensors-wasm inspect'],
      [
        ['convert', one, '--to', 'f8', '-o', 'x'],
        'convert: expected --to f16 or --to bf16, got f8',
        'usage: safetensors-wasm convert',
      ],
      [['convert', one, '--to', 'f16'], 'convert: expected -o OUT', 'usage: safetensors-wasm convert'],
      [
        ['edit', one, '--set', 'novalue', '-o', 'x'],
        'edit: --set takes KEY=VALUE, got "novalue"',
        'usage: safetensors-wasm edit',
      ],
      [['edit', one, '-o'], 'edit: -o needs a value', 'usage: safetensors-wasm edit'],
      [['hash', '--json=yes', one], 'hash: --json takes no value', 'usage: safetensors-wasm hash'],
      [
        ['validate', '-', '-'],
        'validate: standard input (-) can be read only once',
        'usage: safetensors-wasm validate',
      ],
    ];
    for (const [args, problem, usage] of cases) {
      const { code, stdout, stderr } = await run(args);
      expect([code, stdout], args.join(' ')).toEqual([2, '']);
      expect(stderr).toContain(`safetensors-wasm${args.length && VERBS.includes(args[0]) ? ' ' : ': '}${problem}`);
      expect(stderr).toContain(usage);
    }
  });
});

describe('standard input', { timeout: 180_000 }, () => {
  test('validate -, inspect - and hash - read the file from stdin', async () => {
    const bytes = await readFile(one);
    expect(await run(['validate', '-'], { input: bytes })).toMatchObject({
      code: 0,
      stdout: '-: loadable (1 tensor)\n',
    });
    const inspected = JSON.parse((await run(['inspect', '--json', '-'], { input: bytes })).stdout);
    expect([inspected.file, inspected.tensors.map((t) => t.name)]).toEqual(['-', ['w']]);
    const hashed = await run(['hash', '-'], { input: bytes });
    expect(hashed.stdout.split('\n')[0]).toBe(`${createHash('sha256').update(bytes).digest('hex')}  -`);
    expect((await run(['validate', '-'], { input: bytes.subarray(0, 20) })).code).toBe(1);
  });
});

describe('text', { timeout: 180_000 }, () => {
  test('one tensor is "1 tensor", never "1 tensors"', async () => {
    const validated = await run(['validate', one]);
    expect(validated.stdout).toBe(`${one}: loadable (1 tensor)\n`);
    const inspected = await run(['inspect', one]);
    expect(inspected.stdout.split('\n')).toContain('1 tensor');
    const converted = await run(['convert', one, '--to', 'bf16', '-o', join(dir, 'one-bf16.safetensors')]);
    expect(converted.stdout).toContain(': 1 of 1 tensor converted to BF16');
    for (const out of [validated, inspected, converted]) expect(out.stdout).not.toMatch(/\b1 tensors\b/);
  });

  test('bidi controls in names and metadata are shown escaped, never sent to the terminal', async () => {
    const controls = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ];
    const path = join(dir, 'bidi.safetensors');
    const name = `lora\u202Egpj.exe${controls.join('')}`;
    await writeFile(
      path,
      writeSafetensors([{ name, dtype: 'F32', shape: [1], data: new Uint8Array(4) }], {
        'modelspec.title': 'a\u2066b\u2069c',
      }),
    );
    const outputs = [
      (await run(['inspect', path])).stdout,
      (await run(['validate', '--scan-data', path])).stdout, // AllZeroTensor names the tensor
      (await run(['hash', '--tensors', path])).stdout,
    ];
    for (const out of outputs) {
      for (const c of controls) expect(out.includes(c), JSON.stringify(c)).toBe(false);
      expect(out).toContain('lora\\u202Egpj.exe\\u202A\\u202B');
    }
    expect(outputs[0]).toContain('a\\u2066b\\u2069c');
    expect(outputs[0]).toContain('\\u200E\\u200F\\u061C');
    // --json is data: the names as they are.
    expect(JSON.parse((await run(['inspect', '--json', path])).stdout).tensors[0].name).toBe(name);
  });
});

describe('colours and progress', { timeout: 180_000 }, () => {
  test('colours: only when stdout is a terminal or FORCE_COLOR asks; never with NO_COLOR; never in --json', async () => {
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '' })).toBe(true); // set but empty: no-color.org says ignore it
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect((await run(['validate', one])).stdout).not.toContain('\x1b[');
    expect((await run(['validate', one], { env: { FORCE_COLOR: '1' } })).stdout).toContain('\x1b[32mloadable\x1b[0m');
    expect((await run(['validate', one], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain('\x1b[');
    expect((await run(['validate', '--json', one], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain('\x1b[');
  });

  test('a progress bar: drawn once the read is big enough, at most every 100 ms, fitted to the terminal, erased at the end', () => {
    const written = [];
    let now = 0;
    const stream = { columns: 80, write: (text) => written.push(text) };
    const bar = progressBar(stream, `hashing ${'x'.repeat(80)}.safetensors`, { now: () => now, minBytes: 1000 });
    bar.update(10, 999); // a small read: nothing
    expect(written).toEqual([]);
    bar.update(0, 4000);
    now = 50;
    bar.update(1000, 4000); // too soon
    now = 150;
    bar.update(2000, 4000);
    now = 160;
    bar.update(4000, 4000); // the end is always drawn
    bar.end();
    expect(written).toHaveLength(4);
    for (const line of written.slice(0, 3)) {
      expect(line.startsWith('\r')).toBe(true);
      expect(line.endsWith('\x1b[K')).toBe(true);
      expect(line.length - 4).toBeLessThan(80); // \r and \x1b[K take no columns
      expect(line).toMatch(/^\rhashing …x+\.safetensors \[/);
    }
    expect(written[1]).toMatch(/\[#{5}\.{5}\] +50%/);
    expect(written[2]).toMatch(/\[#+\] 100%/);
    expect(written[3]).toBe('\r\x1b[K');
  });

  test.skipIf(!SCRIPT)(
    'in a terminal: a bar on stderr for hash, validate --scan-data, convert and edit; none with --quiet or --json',
    async () => {
      const expected = (await run(['hash', big])).stdout.split('\n')[0];
      const cases = [
        [['hash', big], 'hashing'],
        [['validate', '--scan-data', big], 'scanning'],
        [['convert', big, '--to', 'f16', '-o', join(dir, 'big-f16.safetensors')], 'converting'],
        [['edit', big, '--set', 'k=v', '-o', join(dir, 'big-edited.safetensors')], 'writing'],
      ];
      for (const [args, doing] of cases) {
        const { code, output } = await runInTerminal(args);
        expect(code, output).toBe(0);
        expect(output).toMatch(new RegExp(`\\r${doing} .*big(-edited)?\\.safetensors \\[#*\\.*\\] +\\d+%`));
        // Erased before the result, which is as through a pipe.
        if (doing === 'hashing') expect(output.split('\r\x1b[K').at(-1).split('\r\n')[0]).toBe(expected);
      }
      for (const flag of ['-q', '--json']) {
        const { output } = await runInTerminal(['hash', flag, big]);
        expect(output, flag).not.toMatch(/\d%/);
      }
      // Colours in a terminal, none with NO_COLOR; none through a pipe (no bar there either).
      expect((await runInTerminal(['validate', one])).output).toContain('\x1b[32mloadable');
      expect((await runInTerminal(['validate', one], { NO_COLOR: '1' })).output).not.toContain('\x1b[3');
      expect((await run(['hash', big])).stderr).toBe('');
    },
  );
});
