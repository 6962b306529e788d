// scanPickle (web/pickle/scan_pickle.js) over every committed checkpoint (tests/checkpoints,
// written by torch.save: make_checkpoints.py): the same report as the native scanner
// (build/native/pickle_scan, the C++ core read directly, zlib for deflated records), the formats
// and unsafe globals expected.json records, through each kind of source; unreadable sources are
// typed errors.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SafetensorsError, scanPickle } from '../../web/index.js';
import { haveFixtures } from './fixtures.js';
import { startServer } from './http_server.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const NATIVE = fileURLToPath(new URL('../../build/native/pickle_scan', import.meta.url));
const HAVE_NATIVE = haveFixtures(NATIVE); // make build makes it; skips (saying so) without it
const FILES = (await readdir(DIR)).filter((f) => !/\.(py|json)$/.test(f)).sort();
const EXPECTED = JSON.parse(await readFile(`${DIR}expected.json`, 'utf8'));

/** The native scanner's report of `file` (it exits 1 for a file that is not safe). */
async function nativeScan(file) {
  const { stdout } = await promisify(execFile)(NATIVE, [`${DIR}${file}`]).catch((error) => {
    if (error.code === 1) return error;
    throw error;
  });
  return { ...JSON.parse(stdout), file };
}

test('every committed checkpoint is scanned (more than twenty files)', () => {
  expect(FILES.length).toBeGreaterThan(20);
  for (const file of Object.keys(EXPECTED)) expect(FILES).toContain(file);
});

describe.skipIf(!HAVE_NATIVE)('the same report as the native scanner', () => {
  test.each(FILES)('%s', async (file) => {
    const scan = await scanPickle(`${DIR}${file}`);
    expect(scan).toEqual(await nativeScan(file));
  });
});

describe("expected.json's facts", () => {
  test.each(Object.keys(EXPECTED))('%s', async (file) => {
    const scan = await scanPickle(`${DIR}${file}`);
    expect(scan.format).toBe(EXPECTED[file].format);
    const unsafe = scan.globals.filter((g) => g.safety === 'unsafe').map((g) => `${g.module}.${g.name}`);
    expect(unsafe).toEqual(EXPECTED[file].unsafe ?? []);
    expect(scan.verdict).toBe(EXPECTED[file].unsafe ? 'unsafe' : 'safe');
  });
});

test('a deflated data.pkl is inflated with DecompressionStream, not reported unreadable', async () => {
  const scan = await scanPickle(`${DIR}views_deflated.pt`);
  expect(scan.findings).toEqual([]);
  expect(scan.verdict).toBe('safe');
  expect(scan.globals.map((g) => g.name)).toContain('_rebuild_tensor_v2');
});

describe('sources', () => {
  let server;
  let bytes;
  beforeAll(async () => {
    bytes = new Uint8Array(await readFile(`${DIR}os_system.pt`));
    server = await startServer();
    server.files.set('/os_system.pt', { bytes, etag: '"1"' });
  });
  afterAll(() => server?.close());

  test('a path, a File, a Blob, bytes and a URL read by Range give one report', async () => {
    const byPath = await scanPickle(`${DIR}os_system.pt`);
    expect(byPath.verdict).toBe('unsafe');
    expect(byPath.file).toBe('os_system.pt');
    expect(await scanPickle(new File([bytes], 'os_system.pt'))).toEqual(byPath);
    expect(await scanPickle(new Blob([bytes]))).toEqual({ ...byPath, file: '' });
    expect(await scanPickle(bytes)).toEqual({ ...byPath, file: '' });
    server.log.length = 0;
    expect(await scanPickle(server.url('/os_system.pt'))).toEqual(byPath);
    const ranges = server.log.map((r) => r.range).filter(Boolean);
    expect(ranges.length).toBeGreaterThan(0);
  });

  test('a file that is not a pickle is reported, not thrown', async () => {
    const scan = await scanPickle(new TextEncoder().encode('just some text, no pickle here'));
    expect(scan.format).toBe('not-pickle');
    expect(scan.verdict).toBe('unknown');
  });

  test('an empty file is reported, not thrown', async () => {
    const scan = await scanPickle(new Uint8Array(0));
    expect(scan.format).toBe('not-pickle');
  });

  test('a source whose reads fail is a ReadError', async () => {
    const failing = { size: bytes.byteLength, read: async () => Promise.reject(new Error('disk gone')) };
    const error = await scanPickle(failing).catch((e) => e);
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe('ReadError');
    expect(error.message).toContain('disk gone');
  });

  test('a missing path is a typed error, and a URL that answers 404 an HttpError', async () => {
    const missing = await scanPickle(`${DIR}no_such_file.pt`).catch((e) => e);
    expect(missing).toBeInstanceOf(SafetensorsError);
    expect(missing.code).not.toBe('InternalError');
    const gone = await scanPickle(server.url('/gone.pt')).catch((e) => e);
    expect(gone).toBeInstanceOf(SafetensorsError);
    expect(gone.code).toBe('HttpError');
  });

  test('a deflated record that is not deflate is reported unreadable, not thrown', async () => {
    const deflated = new Uint8Array(await readFile(`${DIR}views_deflated.pt`));
    // Spoil the deflated data.pkl's bytes after its local header (the directory stays right).
    const name = new TextEncoder().encode('data.pkl');
    let at = deflated.findIndex((_, i) => name.every((c, j) => deflated[i + j] === c));
    at += name.length;
    deflated.fill(0xff, at, at + 16);
    const scan = await scanPickle(deflated);
    expect(scan.verdict).not.toBe('safe');
    expect(scan.findings.length).toBeGreaterThan(0);
  });
});
