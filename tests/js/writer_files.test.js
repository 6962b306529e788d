// The writer on files (issue 13): withMetadata on real files (a new header over the same data
// section, typed refusals), and writing in Node: writeSafetensors to a path, withMetadata({ path })
// streaming from a FileHandle. Serialising: writer.test.js.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, serializeSafetensors, writeSafetensors } from '../../web/index.js';
import { HAVE_REAL, REAL_DIR, rejection } from './fixtures.js';

const bytesOf = async (blob) => new Uint8Array(await blob.arrayBuffer());
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(!HAVE_REAL)('withMetadata', () => {
  test('the kohya LoKr with new metadata: a new header, the data section byte for byte, the same offsets, loadable', async () => {
    const bytes = new Uint8Array(await readFile(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors')));
    const st = await openSafetensors(new Blob([bytes]));
    const metadata = { ...st.metadata, 'modelspec.title': 'Edited "title"', ss_tag_frequency: undefined };
    delete metadata.ss_tag_frequency;
    const edited = await st.withMetadata(metadata);
    const again = await openSafetensors(edited);
    expect(again.report.loadable).toBe(true);
    expect(again.metadata).toEqual(metadata);
    expect(again.tensors.map((t) => [t.name, t.dataOffsets])).toEqual(st.tensors.map((t) => [t.name, t.dataOffsets]));
    const out = await bytesOf(edited);
    expect(sha256(out.subarray(again.dataStart))).toBe(sha256(bytes.subarray(st.dataStart)));
    expect((await again.hash({ file: false })).dataSha256).toBe(st.metadata.sshs_model_hash);
    expect((await again.describe()).title).toBe('Edited "title"');
    const bare = await openSafetensors(await st.withMetadata(null));
    expect(bare.metadata).toBeNull();
    expect(await bare.getTensor(st.tensors[5].name, { as: 'raw' })).toEqual(
      await st.getTensor(st.tensors[5].name, { as: 'raw' }),
    );
    expect((await rejection(st.withMetadata({ a: 1 }))).code).toBe('InvalidMetadata');
  });

  test('a file opened from bytes works too; one opened from a FileHandle is UnsupportedSource', async () => {
    const path = join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors');
    const st = await openSafetensors(new Uint8Array(await readFile(path)));
    expect((await openSafetensors(await st.withMetadata({ format: 'pt', note: 'x' }))).metadata).toEqual({
      format: 'pt',
      note: 'x',
    });
    const { open } = await import('node:fs/promises');
    const handle = await open(path);
    try {
      const fromHandle = await openSafetensors(handle);
      expect((await rejection(fromHandle.withMetadata({}))).code).toBe('UnsupportedSource');
    } finally {
      await handle.close();
    }
  });
});

describe('writing files in Node', () => {
  test("writeSafetensors writes serializeSafetensors's bytes; a failed or aborted write leaves nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stw-write-'));
    try {
      const tensors = {
        b: { dtype: 'F16', shape: [2], data: new Uint16Array([0x3c00, 0xc000]) },
        a: { dtype: 'U8', shape: [3], data: new Blob([new Uint8Array([1, 2, 3])]) },
      };
      const path = join(dir, 'out.safetensors');
      await writeSafetensors(path, tensors, { metadata: { format: 'pt' } });
      expect(new Uint8Array(await readFile(path))).toEqual(
        await bytesOf(await serializeSafetensors(tensors, { metadata: { format: 'pt' } })),
      );
      const missing = await rejection(writeSafetensors(join(dir, 'no', 'such', 'dir.safetensors'), tensors));
      expect(missing.code).toBe('WriteError');
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      expect(
        (await rejection(writeSafetensors(join(dir, 'aborted.safetensors'), tensors, { signal: controller.signal })))
          .message,
      ).toBe('stop');
      const refused = await rejection(
        writeSafetensors(join(dir, 'bad.safetensors'), { x: { dtype: 'F32', shape: [2], data: new Float32Array(1) } }),
      );
      expect(refused.code).toBe('InvalidTensor');
      expect((await readdir(dir)).sort()).toEqual(['out.safetensors']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test.skipIf(!HAVE_REAL)('withMetadata({ path }) streams the data section from a FileHandle', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stw-edit-'));
    const { open } = await import('node:fs/promises');
    const source = join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors');
    const handle = await open(source);
    try {
      const st = await openSafetensors(handle);
      const path = join(dir, 'edited.safetensors');
      await st.withMetadata({ 'modelspec.title': 'x' }, { path });
      const out = new Uint8Array(await readFile(path));
      const again = await openSafetensors(out);
      expect(again.metadata).toEqual({ 'modelspec.title': 'x' });
      const original = new Uint8Array(await readFile(source));
      expect(sha256(out.subarray(again.dataStart))).toBe(sha256(original.subarray(st.dataStart)));
    } finally {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
