// Hostile reads through the public API: reads that stall (abort rejects at once), Blobs that
// fail midway and files that change after they were opened, each a typed answer, never a hang.
// Hostile headers and numbers: hostile.test.js.
import { describe, expect, test } from 'vitest';
import { open, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSafetensors, validateSafetensors, SafetensorsError } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

// A Blob whose reads fail after `okBytes`: slice().arrayBuffer() rejects past it, and
// slice().stream() delivers some chunks and then errors.
class FailingBlob extends Blob {
  constructor(parts, okBytes) {
    super(parts);
    this.okBytes = okBytes;
  }

  slice(start = 0, end = this.size) {
    const inner = super.slice(start, end);
    const ok = Math.max(0, this.okBytes - start);
    if (end <= this.okBytes) return inner;
    return {
      size: inner.size,
      arrayBuffer: async () => {
        throw new DOMException('The file could not be read', 'NotReadableError');
      },
      stream: () => {
        const reader = inner.stream().getReader();
        let sent = 0;
        return new ReadableStream({
          async pull(controller) {
            if (sent >= ok) {
              controller.error(new DOMException('The file could not be read', 'NotReadableError'));
              return;
            }
            const { done, value } = await reader.read();
            if (done) controller.close();
            else {
              sent += value.byteLength;
              controller.enqueue(value);
            }
          },
        });
      },
    };
  }
}

const settle = (promise, ms = 10_000) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      (e) => e,
    ),
    new Promise((resolve) => setTimeout(() => resolve('hung'), ms)),
  ]);

describe('stalled reads', () => {
  const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [1 << 20], data: new Uint8Array(4 << 20) }]);
  // Serves the first `good` bytes; any read past them never settles.
  const stalling = (good) => ({
    size: file.byteLength,
    read: (offset, length) =>
      offset + length <= good ? Promise.resolve(file.slice(offset, offset + length)) : new Promise(() => {}),
  });
  const abortSoon = () => AbortSignal.timeout(50);

  test('a header read that never settles: abort rejects at once', async () => {
    const result = await settle(openSafetensors(stalling(8), { signal: abortSoon() }), 2000);
    expect(result).toMatchObject({ name: 'TimeoutError' });
  });

  test('a tensor or scan read that never settles: abort rejects at once', async () => {
    const dataStart = file.byteLength - (4 << 20);
    const st = await openSafetensors(stalling(dataStart + (1 << 20)));
    expect(await settle(st.getTensor('w', { signal: abortSoon() }), 2000)).toMatchObject({ name: 'TimeoutError' });
    const scan = validateSafetensors(stalling(dataStart + (1 << 20)), { scanData: true, signal: abortSoon() });
    expect(await settle(scan, 2000)).toMatchObject({ name: 'TimeoutError' });
  });
});

describe('failing and changing files', () => {
  const data = new Uint8Array(1 << 20).fill(1);
  const file = writeSafetensors([{ name: 'w', dtype: 'F16', shape: [data.byteLength / 2], data }]);

  test('a Blob failing while the header is read rejects with ReadError', async () => {
    const error = await settle(validateSafetensors(new FailingBlob([file], 4)));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error).toMatchObject({ code: 'ReadError' });
    expect(error.cause?.name).toBe('NotReadableError');
  });

  test('a Blob failing midway through a tensor or a scan rejects with ReadError, nothing hangs', async () => {
    const blob = new FailingBlob([file], 300_000);
    const st = await openSafetensors(blob);
    const decode = await settle(st.getTensor('w'));
    expect(decode).toBeInstanceOf(SafetensorsError);
    expect(decode.message).toMatch(/failed at offset \d+/);
    const scan = await settle(validateSafetensors(blob, { scanData: true }));
    expect(scan).toMatchObject({ name: 'SafetensorsError', code: 'ReadError' });
  });

  test('a file truncated after it was opened: getTensor and the scan reject with ReadError', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stw-hostile-'));
    const path = join(dir, 'changing.safetensors');
    try {
      await writeFile(path, file);
      const handle = await open(path, 'r+');
      try {
        const st = await openSafetensors(handle);
        await handle.truncate(file.byteLength - 1000);
        const error = await settle(st.getTensor('w'));
        expect(error).toMatchObject({ name: 'SafetensorsError', code: 'ReadError' });
        expect(error.message).toMatch(/ended at offset \d+/);
        // Grown instead: the verdict was taken on the size at open; reads within it still agree.
        await handle.truncate(file.byteLength + 10);
        const again = await validateSafetensors(handle);
        expect(again.referenceError).toBe('MetadataIncompleteBuffer');
        expect(again.findings[0].message).toContain('10 extra bytes');
      } finally {
        await handle.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
