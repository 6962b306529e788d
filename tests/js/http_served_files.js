// Shared by the HTTP tests: two files (one whose header fits a first read, one whose header does
// not) served by a local server from before each test, its request log and answer reset.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { writeSafetensors, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { startServer } from './http_server.js';

export const FILE = writeSafetensors(
  [
    { name: 'x', dtype: 'F32', shape: [64, 64], data: pseudoRandomBytes(64 * 64 * 4) },
    { name: 'y', dtype: 'BF16', shape: [300], data: pseudoRandomBytes(600, 2) },
  ],
  { note: 'remote' },
);
// A header longer than a small first read: many tensors with long names.
export const MANY = writeSafetensors(
  Array.from({ length: 400 }, (_, i) => ({
    name: `model.layers.${i}.self_attn.q_proj.weight`,
    dtype: 'F16',
    shape: [4],
    data: pseudoRandomBytes(8, i + 3),
  })),
);

/** The running server (set before the tests, by serveFiles). */
export let server;

/** Serves FILE at /m.safetensors and MANY at /many.safetensors for the tests of this file. */
export function serveFiles() {
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.files.clear();
    server.files.set('/m.safetensors', { bytes: FILE, etag: '"v1"' });
    server.files.set('/many.safetensors', { bytes: MANY, etag: '"m1"' });
    server.log.length = 0;
    server.answer = null;
  });
}
