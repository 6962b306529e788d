// Sharded models over HTTP (issue 11): a refused or oversized index, a shard header longer than
// the index suggests, a missing shard. The real sharded model from a URL: sharded.test.js.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSafetensorsIndex } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { rejection } from './fixtures.js';
import { startServer } from './http_server.js';

const f32 = (...values) => new Uint8Array(new Float32Array(values).buffer);

describe('sharded models over HTTP', () => {
  let server;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('an index the server refuses is an HttpError; one too large is stopped at its Content-Length', async () => {
    const missing = await rejection(openSafetensorsIndex(server.url('/none/model.safetensors.index.json')));
    expect(missing.code).toBe('HttpError');
    expect(missing.status).toBe(404);
    let sent = 0;
    server.answer = (req, res) => {
      if (!req.url.endsWith('.index.json')) return false; // config.json, asked for beside it: none
      res.writeHead(200, { 'Content-Length': String(300 << 20) });
      res.write(new Uint8Array(1 << 16), () => {
        sent++;
      });
      return true;
    };
    const large = await rejection(openSafetensorsIndex(server.url('/big/model.safetensors.index.json')));
    server.answer = null;
    expect(large.code).toBe('InvalidIndex');
    expect(large.message).toContain('limit');
    expect(sent).toBeLessThanOrEqual(1);
  });

  test('a shard whose header is longer than the index suggests (large metadata) opens with a second request', async () => {
    const big = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [1], data: f32(5) }], {
      notes: 'x'.repeat(20_000),
    });
    const small = writeSafetensors([{ name: 'v', dtype: 'F32', shape: [1], data: f32(6) }]);
    server.files.set('/b/big.safetensors', { bytes: big, etag: '"b"' });
    server.files.set('/b/small.safetensors', { bytes: small, etag: '"s"' });
    server.files.set('/b/model.safetensors.index.json', {
      bytes: new TextEncoder().encode(JSON.stringify({ weight_map: { w: 'big.safetensors', v: 'small.safetensors' } })),
      etag: '"i"',
    });
    server.log.length = 0;
    const model = await openSafetensorsIndex(server.url('/b/model.safetensors.index.json'));
    expect(model.findings).toEqual([]);
    expect(model.shards[0].tensors[0].name).toBe('w');
    expect(server.log.filter((r) => r.path === '/b/big.safetensors')).toHaveLength(2);
    expect(server.log.filter((r) => r.path === '/b/small.safetensors')).toHaveLength(1);
    expect(Array.from(await model.getTensor('w'))).toEqual([5]);
  });

  test('a shard the server does not have is ShardMissing with its status in the message', async () => {
    server.files.set('/m/model.safetensors.index.json', {
      bytes: new TextEncoder().encode(JSON.stringify({ weight_map: { w: 'gone.safetensors' } })),
      etag: '"i"',
    });
    const model = await openSafetensorsIndex(server.url('/m/model.safetensors.index.json'));
    expect(model.findings).toHaveLength(1);
    expect(model.findings[0]).toMatchObject({ code: 'ShardMissing', shard: 'gone.safetensors', severity: 'error' });
    expect(model.findings[0].message).toContain('404');
  });
});
