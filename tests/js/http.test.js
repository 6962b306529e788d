// Files over HTTP (issue 11): Range reads against a local server, one request per file when
// the header fits the first read. A server that goes wrong: http_server_faults.test.js.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { rejection } from './fixtures.js';
import { FILE, MANY, server, serveFiles } from './http_served_files.js';

serveFiles();

describe('reading over HTTP', () => {
  test('one request opens a file whose header fits the first read; tensors equal the local ones', async () => {
    const remote = await openSafetensors(server.url('/m.safetensors'));
    expect(server.log).toHaveLength(1);
    expect(server.log[0].range).toBe('bytes=0-262143');
    const local = await openSafetensors(FILE);
    expect(remote.tensors).toEqual(local.tensors);
    expect(remote.metadata).toEqual(local.metadata);
    for (const name of ['x', 'y']) {
      expect(await remote.getTensor(name)).toEqual(await local.getTensor(name));
    }
    // The data of this small file came with the first read: no request more.
    expect(server.log).toHaveLength(1);
  });

  test('two requests when the header is longer than the first read; reads ask only for their bytes', async () => {
    const st = await openSafetensors(new URL(server.url('/many.safetensors')), { firstRead: 1024 });
    expect(st.tensors).toHaveLength(400);
    expect(server.log.map((r) => r.range)).toEqual([
      'bytes=0-1023',
      `bytes=1024-${8 + Number(new DataView(MANY.buffer).getBigUint64(0, true)) - 1}`,
    ]);
    const t = st.tensors.at(-1);
    const begin = MANY.byteLength - (st.tensors.at(-1).dataOffsets[1] - t.dataOffsets[0]);
    await st.getTensor(t.name);
    expect(server.log.at(-1).range).toBe(`bytes=${begin}-${MANY.byteLength - 1}`);
  });

  test('validate with scanData and hash over HTTP gives what the bytes give', async () => {
    const url = server.url('/m.safetensors');
    const remote = await validateSafetensors(url, { scanData: true, hash: true, firstRead: 64 });
    const local = await validateSafetensors(FILE, { scanData: true, hash: true });
    expect(remote).toEqual(local);
    expect(remote.hashes.sha256).toBe(createHash('sha256').update(FILE).digest('hex'));
  });

  test('headers reach the server with every request', async () => {
    const st = await openSafetensors(server.url('/m.safetensors'), {
      headers: { Authorization: 'Bearer t0k' },
      firstRead: 16,
    });
    await st.getTensor('y');
    expect(server.log.length).toBeGreaterThan(1);
    for (const r of server.log) expect(r.headers.authorization).toBe('Bearer t0k');
  });

  test('an empty file is the reference verdict, not a network error', async () => {
    server.files.set('/empty.safetensors', { bytes: new Uint8Array(0), etag: '"e"' });
    const error = await rejection(openSafetensors(server.url('/empty.safetensors')));
    expect(error.code).toBe('HeaderTooSmall');
  });
});
