// Civitai: the card's reference from metadata (AIR, civitai.com URLs, a claimed data hash),
// lookupCivitai against a local server answering in the shape Civitai documents for
// GET /api/v1/model-versions/by-hash/{hash} (https://developer.civitai.com/site/reference/model-versions),
// and `inspect --civitai`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lookupCivitai, openSafetensors, SafetensorsError } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { startServer } from './http_server.js';
import { versionJson } from './civitai_answer.js';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));

const json = (value) => new TextEncoder().encode(JSON.stringify(value));

let server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('the card names the Civitai model its metadata gives', () => {
  test('an AIR in a description, a claimed data hash (ModelSpec 0x form)', async () => {
    const data = new Uint8Array(16).fill(3);
    const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [4], data }], {
      'modelspec.description': 'Trained for urn:air:sdxl:lora:civitai:328553@368189.',
      'modelspec.hash_sha256': `0x${sha256(data)}`,
    });
    const card = await (await openSafetensors(file)).describe();
    expect(card.civitai).toEqual({
      air: 'urn:air:sdxl:lora:civitai:328553@368189',
      modelId: 328553,
      versionId: 368189,
      pageUrl: 'https://civitai.com/models/328553?modelVersionId=368189',
      byHashUrl: `https://civitai.com/api/v1/model-versions/by-hash/${sha256(data).slice(0, 12)}`,
    });
  });

  test('a civitai.com URL; nothing when the metadata names no Civitai model', async () => {
    const data = new Uint8Array(8);
    const withUrl = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data }], {
      ssmd_source: 'https://civitai.com/models/4201/name?modelVersionId=130072',
    });
    const card = await (await openSafetensors(withUrl)).describe();
    expect(card.civitai).toMatchObject({ air: null, modelId: 4201, versionId: 130072, byHashUrl: null });
    const plain = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data }], { format: 'pt' });
    expect((await (await openSafetensors(plain)).describe()).civitai).toBeNull();
  });
});

describe('lookupCivitai', () => {
  test('answers the model version, its names, base model, trained words, AIR and pages', async () => {
    const hash = 'abcdef012345';
    server.files.set(`/api/v1/model-versions/by-hash/${hash}`, {
      bytes: json(versionJson(368189, 328553)),
      etag: '"1"',
    });
    const found = await lookupCivitai('0xABCDEF012345', { baseUrl: server.url('/') });
    expect(found).toEqual({
      modelId: 328553,
      modelName: 'Test Watercolor',
      versionId: 368189,
      versionName: 'v2.0',
      baseModel: 'SDXL 1.0',
      trainedWords: ['sks style', 'watercolor'],
      air: 'urn:air:sdxl:lora:civitai:328553@368189',
      downloadUrl: 'https://civitai.com/api/download/models/368189',
      pageUrl: `${server.url('')}/models/328553?modelVersionId=368189`,
    });
    expect(server.log.at(-1).path).toBe(`/api/v1/model-versions/by-hash/${hash}`);
  });

  test('null when Civitai knows no such file (404)', async () => {
    await expect(lookupCivitai('0'.repeat(64), { baseUrl: server.url('/') })).resolves.toBeNull();
  });

  test('typed errors: another status, an answer that is not a model version, a bad hash', async () => {
    server.files.set('/api/v1/model-versions/by-hash/1234567890', { bytes: json({ error: 'x' }), etag: '"2"' });
    await expect(lookupCivitai('1234567890', { baseUrl: server.url('/') })).rejects.toMatchObject({
      code: 'UnexpectedResponse',
    });
    server.files.set('/api/v1/model-versions/by-hash/12345678', { bytes: json('nope').subarray(1), etag: '"3"' });
    await expect(lookupCivitai('12345678', { baseUrl: server.url('/') })).rejects.toBeInstanceOf(SafetensorsError);
    server.answer = (req, res) => {
      if (!req.url.includes('/by-hash/')) return false;
      res.writeHead(401).end('{"error":"Unauthorized"}');
      return true;
    };
    try {
      await expect(lookupCivitai('aaaaaaaaaa', { baseUrl: server.url('/') })).rejects.toMatchObject({
        code: 'HttpError',
        status: 401,
      });
    } finally {
      server.answer = null;
    }
    await expect(lookupCivitai('xyz')).rejects.toBeInstanceOf(TypeError);
    await expect(lookupCivitai('abc', { baseUrl: server.url('/') })).rejects.toBeInstanceOf(TypeError);
    await expect(lookupCivitai('abcdef012345', { baseUrl: 'ftp://x' })).rejects.toBeInstanceOf(TypeError);
  });

  test('an aborted signal rejects with its reason, and the fetch given is used', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      lookupCivitai('abcdef012345', { baseUrl: server.url('/'), signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    const asked = [];
    const fetch = async (url, init) => {
      asked.push(String(url));
      return new Response(JSON.stringify(versionJson(7, 6)), { status: 200, headers: init?.headers });
    };
    const found = await lookupCivitai('abcdef0123', { fetch });
    expect(asked).toEqual(['https://civitai.com/api/v1/model-versions/by-hash/abcdef0123']);
    expect(found).toMatchObject({ modelId: 6, versionId: 7, pageUrl: 'https://civitai.com/models/6?modelVersionId=7' });
  });
});

test('inspect --civitai hashes the file and prints the model version Civitai answers for its AutoV3', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stw-civitai-'));
  try {
    const data = new Uint8Array(64).fill(9);
    const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [16], data }], {
      format: 'pt',
      'modelspec.description': 'reads \u202eright to left\u2066 and back',
    });
    const path = join(dir, 'lora.safetensors');
    await writeFile(path, file);
    // Civitai knows the data section's AutoV3 only: the file's SHA-256 gets a 404 first.
    const autoV3 = sha256(data).slice(0, 12);
    server.files.set(`/api/v1/model-versions/by-hash/${autoV3}`, { bytes: json(versionJson(11, 10)), etag: '"4"' });
    const before = server.log.length;
    const out = await new Promise((resolve) =>
      execFile(
        process.execPath,
        [CLI, 'inspect', '--civitai', path],
        { env: { ...process.env, SAFETENSORS_WASM_CIVITAI_URL: server.url('') } },
        (error, stdout) => resolve({ code: error ? error.code : 0, stdout }),
      ),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/model\s+Test Watercolor \(10\)/);
    expect(out.stdout).toContain('reads \\u202Eright to left\\u2066 and back'); // bidi controls shown escaped, never applied
    expect(out.stdout).toMatch(/version\s+v2\.0 \(11\)/);
    expect(out.stdout).toMatch(new RegExp(`found by\\s+${autoV3}`));
    expect(server.log.slice(before).map((l) => l.path)).toEqual([
      `/api/v1/model-versions/by-hash/${sha256(file)}`,
      `/api/v1/model-versions/by-hash/${autoV3}`,
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
