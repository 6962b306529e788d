// safetensors-wasm verify-signature, run as a user would, the way sigstore/model-transparency's
// scripts/tests/test-verify-v1.*.sh run the reference CLI (exit 0 verified, 1 not, 2 usage).
import { describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haveFixtures } from './fixtures.js';

const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));
const SIGNING = fileURLToPath(new URL('../../../shared/fixtures/signing/', import.meta.url));
const HAVE_SIGNING = haveFixtures(SIGNING);
const KEY = 'keys/certificate/signing-key-pub.pem';
const KEYLESS = ['--identity', 'stefanb@us.ibm.com', '--issuer', 'https://sigstore.verify.ibm.com/oauth2'];

function run(args, cwd = SIGNING) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'verify-signature', ...args], { cwd }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!HAVE_SIGNING)('verify-signature', () => {
  test('key, a single file: exit 0 and the file named "."', async () => {
    const r = await run([
      'v1.0.0-elliptic-key/signme-1',
      '--signature',
      'v1.0.0-elliptic-key/model.sig',
      '--public-key',
      KEY,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^v1\.0\.0-elliptic-key\/signme-1: verified \(key: P-384 key e8450dec4eb99dae…\)/);
    expect(r.stdout).toMatch(/ok +\.\n/);
  });

  test('--ignore-paths is resolved from the current directory, as the reference CLI does', async () => {
    const args = ['--signature', 'v1.0.1-elliptic-key/model.sig', '--public-key', KEY];
    expect(
      (await run(['v1.0.1-elliptic-key', ...args, '--ignore-paths', './v1.0.1-elliptic-key/ignore-me'])).code,
    ).toBe(0);
    const without = await run(['v1.0.1-elliptic-key', ...args]);
    expect(without.code).toBe(1);
    expect(without.stdout).toMatch(/NOT verified/);
    expect(without.stdout).toMatch(/unexpected +ignore-me/);
    expect(without.stdout).toMatch(/reason {2}ModelMismatch/);
  });

  test('keyless from inside the model folder (test-verify-v1.1.0-sigstore.sh, second case)', async () => {
    const r = await run(
      ['.', '--ignore-paths', 'ignore-me', '--signature', 'model.sig', ...KEYLESS],
      join(SIGNING, 'v1.1.0-sigstore'),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/verified \(sigstore: stefanb@us\.ibm\.com/);
  });

  test('certificate chain with --json: one document, exit 0', async () => {
    const r = await run([
      'v1.1.0-certificate',
      '--signature',
      'v1.1.0-certificate/model.sig',
      '--certificate-chain',
      'keys/certificate/ca-cert.pem',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ model: 'v1.1.0-certificate', verified: true, method: 'certificate', error: null });
    expect(doc.files).toEqual([
      { name: 'signme-1', status: 'ok' },
      { name: 'signme-2', status: 'ok' },
    ]);
  });

  test('a wrong method is exit 1 with the reason; usage errors are exit 2', async () => {
    const wrong = await run(['v1.1.0-sigstore', '--signature', 'v1.1.0-sigstore/model.sig', '--public-key', KEY]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/KeyMismatch/);
    for (const args of [
      ['v1.1.0-sigstore', '--signature', 'v1.1.0-sigstore/model.sig'],
      ['v1.1.0-sigstore', '--public-key', KEY],
      ['v1.1.0-sigstore', '--signature', 'x', '--identity', 'a@b.c'],
      ['v1.1.0-sigstore', '--signature', 'x', '--public-key', KEY, '--bogus'],
      ['--signature', 'x', '--public-key', KEY],
      ['v1.1.0-sigstore', '--signature', 'v1.1.0-sigstore/model.sig', '--public-key', 'missing.pem'],
      ['v1.1.0-sigstore', '--signature', 'v1.1.0-sigstore/model.sig', '--public-key', 'v1.1.0-sigstore/signme-1'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/verify-signature: /);
    }
  });
});
