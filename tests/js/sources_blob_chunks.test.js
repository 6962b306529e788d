// A Blob's chunks: BYOB and default stream readers, reused and transferred buffers, and decoding
// from a Blob on disk against decoding from memory. The other source kinds: sources.test.js.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors } from '../../web/index.js';
import { toByteSource } from '../../web/source/byte_source.js';
import { BLOB_READ_BYTES, blobChunks } from '../../web/source/blob_source.js';
import { writeSafetensors, pseudoRandomBytes } from '../../tools/write_safetensors.js';

let dir;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'stw-chunks-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a Blob's chunks", () => {
  const BYTES = pseudoRandomBytes(5 * BLOB_READ_BYTES + 3, 9);
  const [OFFSET, LENGTH] = [7, BYTES.byteLength - 9];

  /**
   * The chunks of `blob`'s range, each copied as it comes, and how many of them were emptied
   * by the end: a chunk whose buffer went into a later read is a detached, empty view.
   */
  async function read(blob, byob, keep = (chunk) => chunk) {
    const copies = [];
    const chunks = [];
    for await (const chunk of blobChunks(blob, OFFSET, LENGTH, byob)) {
      copies.push(chunk.slice());
      chunks.push(chunk);
      keep(chunk);
    }
    return {
      bytes: Buffer.concat(copies),
      count: copies.length,
      emptied: chunks.filter((c) => c.byteLength === 0).length,
    };
  }

  test('a byte stream is read into two reused buffers (a BYOB reader, as in browsers), the bytes in order', async () => {
    const { bytes, count, emptied } = await read(new Blob([BYTES]), true);
    expect(bytes.equals(BYTES.subarray(OFFSET, OFFSET + LENGTH))).toBe(true);
    expect(count).toBeGreaterThanOrEqual(Math.ceil(LENGTH / BLOB_READ_BYTES));
    // Each buffer went back into a read once its chunk's consumer asked for the next chunk.
    expect(emptied).toBe(count - 1);
  });

  test('in Node, a default reader (its chunks as they come, no copy into ours)', async () => {
    const path = join(dir, 'chunks.bin');
    await writeFile(path, BYTES);
    for (const blob of [new Blob([BYTES]), await openAsBlob(path)]) {
      const chunks = [];
      for await (const chunk of (await toByteSource(blob)).chunks(OFFSET, LENGTH)) chunks.push(chunk);
      expect(Buffer.concat(chunks).equals(BYTES.subarray(OFFSET, OFFSET + LENGTH))).toBe(true);
      expect(chunks.every((c) => c.byteLength > 0)).toBe(true);
    }
  });

  test('a Blob whose stream takes no BYOB reader is read with a default reader, the same bytes', async () => {
    // slice() must keep the class: the source streams a slice of the Blob.
    class DefaultStreamBlob extends Blob {
      slice(...args) {
        return new DefaultStreamBlob([super.slice(...args)]);
      }
      stream() {
        let at = 0;
        return new ReadableStream({
          pull: async (controller) => {
            if (at === this.size) return controller.close();
            const end = Math.min(this.size, at + (1 << 20));
            controller.enqueue(new Uint8Array(await Blob.prototype.slice.call(this, at, end).arrayBuffer()));
            at = end;
          },
        });
      }
    }
    expect(() => new DefaultStreamBlob([BYTES]).stream().getReader({ mode: 'byob' })).toThrow(TypeError);
    const { bytes, count, emptied } = await read(new DefaultStreamBlob([BYTES]), true);
    expect(bytes.equals(BYTES.subarray(OFFSET, OFFSET + LENGTH))).toBe(true);
    expect(count).toBeGreaterThan(1);
    expect(emptied).toBe(0);
  });

  test('a consumer that transfers a chunk away gets the next ones in a new buffer', async () => {
    let transferred = 0;
    const { bytes } = await read(new Blob([BYTES]), true, (chunk) => {
      if (transferred++ < 2) structuredClone(chunk.buffer, { transfer: [chunk.buffer] });
    });
    expect(transferred).toBeGreaterThan(2);
    expect(bytes.equals(BYTES.subarray(OFFSET, OFFSET + LENGTH))).toBe(true);
  });

  test('decoding from a Blob on disk matches decoding from memory, through either reader', async () => {
    const n = 3 * BLOB_READ_BYTES + 5;
    const file = writeSafetensors([{ name: 'w', dtype: 'BF16', shape: [n], data: pseudoRandomBytes(2 * n, 4) }]);
    const path = join(dir, 'reused.safetensors');
    await writeFile(path, file);
    const fromMemory = await (await openSafetensors(file)).getTensor('w');
    const blob = await openAsBlob(path);
    for (const byob of [false, true]) {
      const fromDisk = new Uint8Array(file.byteLength);
      let at = 0;
      for await (const chunk of blobChunks(blob, 0, file.byteLength, byob)) {
        fromDisk.set(chunk, at);
        at += chunk.byteLength;
      }
      const st = await openSafetensors(fromDisk);
      expect(
        Buffer.from((await st.getTensor('w')).buffer).equals(Buffer.from(fromMemory.buffer)),
        `byob: ${byob}`,
      ).toBe(true);
    }
    expect(
      Buffer.from((await (await openSafetensors(blob)).getTensor('w')).buffer).equals(Buffer.from(fromMemory.buffer)),
    ).toBe(true);
  });
});
