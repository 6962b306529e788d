// st.convert from sources it must read (issue 30): a URL is read one request per run of
// adjacent tensors, not one per tensor; the metadata's claims of the data's hashes, which the
// conversion makes false, are dropped, so that hashing our own output finds no mismatch.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, serializeSafetensors, validateSafetensors } from '../../web/index.js';
import { startServer } from './http_server.js';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = async (blob) => new Uint8Array(await blob.arrayBuffer());

/** 38 F32 tensors of 16 KiB (608 KiB of data) and an I64 one, as the reference writer lays them out. */
async function manyTensors(metadata) {
  const tensors = { step: { dtype: 'I64', shape: [1], data: BigInt64Array.from([7n]) } };
  for (let i = 0; i < 38; i++)
    tensors[`layer.${String(i).padStart(2, '0')}.weight`] = {
      dtype: 'F32',
      shape: [64, 64],
      data: Float32Array.from({ length: 4096 }, (_, k) => Math.sin(i * 4096 + k)),
    };
  return bytesOf(await serializeSafetensors(tensors, { metadata }));
}

let dir;
let server;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'st-convert-src-'));
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('convert from a source it reads', () => {
  test('from a URL: one request per run of adjacent tensors (here one), and the same file as from the bytes', async () => {
    const bytes = await manyTensors({ format: 'pt' });
    server.files.set('/many.safetensors', { bytes, etag: '"1"' });
    const expected = await bytesOf(await (await openSafetensors(bytes)).convert({ to: 'F16' }));
    for (const path of [undefined, join(dir, 'from-url.safetensors')]) {
      // The first read holds the header only; every tensor is after it.
      const st = await openSafetensors(server.url('/many.safetensors'), { firstRead: 1024 });
      server.log.length = 0;
      const blob = await st.convert({ to: 'F16', path });
      const out = path ? new Uint8Array(await readFile(path)) : await bytesOf(blob);
      expect(sha256(out)).toBe(sha256(expected));
      // The I64 tensor is written first and read first; the F32 ones follow it in both files.
      expect(server.log.map((r) => r.range)).toEqual([`bytes=${st.dataStart}-${bytes.byteLength - 1}`]);
    }
    // One tensor left F32 is written before the F16 ones: the runs are then I64, layer.05,
    // layers 00-04 and layers 06-37 (one request each, where one per tensor made 39).
    const st = await openSafetensors(server.url('/many.safetensors'), { firstRead: 1024 });
    server.log.length = 0;
    await st.convert({ to: 'F16', tensors: (name) => name !== 'layer.05.weight' });
    expect(server.log).toHaveLength(4);
  });

  test('from a FileHandle: the same file as from the bytes', async () => {
    const bytes = await manyTensors(null);
    const path = join(dir, 'handle.safetensors');
    await writeFile(path, bytes);
    const handle = await open(path);
    try {
      const out = await bytesOf(await (await openSafetensors(handle)).convert({ to: 'BF16' }));
      expect(sha256(out)).toBe(sha256(await bytesOf(await (await openSafetensors(bytes)).convert({ to: 'BF16' }))));
    } finally {
      await handle.close();
    }
  });

  test('hash claims of the data are dropped when tensors change; base-model hashes and other keys stay', async () => {
    const plain = await manyTensors(null);
    const data = plain.subarray((await openSafetensors(plain)).dataStart);
    const metadata = {
      format: 'pt',
      sshs_model_hash: sha256(data),
      'modelspec.hash_sha256': `0x${sha256(data)}`,
      sshs_legacy_hash: 'e3b0c442',
      ss_sd_model_hash: 'abcdef12',
      'modelspec.title': 'kept',
    };
    const source = await manyTensors(metadata);
    expect((await validateSafetensors(source, { hash: true })).hashes.checks.every((c) => c.match)).toBe(true);
    const converted = await bytesOf(await (await openSafetensors(source)).convert({ to: 'F16' }));
    const st = await openSafetensors(converted);
    expect(st.metadata).toEqual({ format: 'pt', ss_sd_model_hash: 'abcdef12', 'modelspec.title': 'kept' });
    const report = await validateSafetensors(converted, { hash: true });
    expect(report.findings.map((f) => f.code)).not.toContain('EmbeddedHashMismatch');
    // Nothing to convert (F16 to F16): the data, and so the claims of its hashes, stay.
    const claimed = await bytesOf(
      await st.withMetadata({ ...st.metadata, sshs_model_hash: sha256(converted.subarray(st.dataStart)) }),
    );
    const again = await bytesOf(await (await openSafetensors(claimed)).convert({ to: 'F16' }));
    expect(sha256(again)).toBe(sha256(claimed));
    expect((await validateSafetensors(again, { hash: true })).hashes.checks).toEqual([
      expect.objectContaining({ key: 'sshs_model_hash', match: true }),
    ]);
  });
});
