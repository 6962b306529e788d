// Files over HTTP (issue 11), when the server goes wrong: no Range support, error statuses,
// retries with backoff, network failures, a file changed between requests, bad bodies, stalls,
// and URLs that are not http(s). Reading from a good server: http.test.js.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { openSafetensors, validateSafetensors, SafetensorsError } from '../../web/index.js';
import { writeSafetensors, pseudoRandomBytes } from '../../tools/write_safetensors.js';
import { rejection } from './fixtures.js';
import { FILE, server, serveFiles } from './http_served_files.js';

serveFiles();

describe('server behaviours', () => {
  // A server that ignores Range and sends `bytes` whole (200), as a static server without
  // Range support does; `length: false` leaves Content-Length out (chunked). Counts what it sent.
  function wholeFileServer(bytes, { length = true } = {}) {
    const state = { sent: 0, closedEarly: false };
    server.answer = (req, res) => {
      res.writeHead(200, { ETag: '"w"', ...(length ? { 'Content-Length': bytes.byteLength } : {}) });
      state.sent = 0;
      const pump = () => {
        while (state.sent < bytes.byteLength) {
          const chunk = bytes.subarray(state.sent, state.sent + (1 << 20));
          state.sent += chunk.byteLength;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => {
        state.closedEarly = state.sent < bytes.byteLength || !res.writableFinished;
      });
      pump();
      return true;
    };
    return state;
  }

  test.each([
    ['with its Content-Length', true, (64 << 20) + 8, /answered 200 OK with 67108872 bytes/],
    ['chunked, without one', false, 96 << 20, /answered 200 OK with 6\d{7} bytes/],
  ])(
    'a server that ignores Range with a file over 64 MiB (%s): RangeNotSupported naming its reply, the transfer stopped',
    async (_, length, size, reply) => {
      const state = wholeFileServer(new Uint8Array(size), { length });
      const error = await rejection(openSafetensors(server.url('/m.safetensors')));
      expect(error).toBeInstanceOf(SafetensorsError);
      expect(error.code).toBe('RangeNotSupported');
      expect(error.status).toBe(200);
      expect(error.message).toMatch(reply);
      expect(error.message).toMatch(/over 64 MiB.*byte ranges/);
      await new Promise((r) => setTimeout(r, 200));
      expect(state.closedEarly).toBe(true);
      expect(state.sent).toBeLessThan(size);
      expect(server.log).toHaveLength(1);
    },
  );

  test.each([
    ['with its Content-Length', true],
    ['chunked, without one', false],
  ])(
    'a server that ignores Range with a file of at most 64 MiB (%s): read whole in one GET; tensors, scan and hashes as local',
    async (_, length) => {
      // Larger than the first read (256 KiB), so a Range server would be asked again.
      const big = writeSafetensors([
        { name: 'w', dtype: 'F32', shape: [1 << 18], data: pseudoRandomBytes(1 << 20, 9) },
      ]);
      wholeFileServer(big, { length });
      const url = server.url('/m.safetensors');
      const st = await openSafetensors(url);
      expect(st.fileSize).toBe(big.byteLength);
      expect(await st.getTensor('w')).toEqual(await (await openSafetensors(big)).getTensor('w'));
      expect((await st.hash()).sha256).toBe(createHash('sha256').update(big).digest('hex'));
      expect(server.log).toHaveLength(1);
      expect(await validateSafetensors(url, { scanData: true, hash: true })).toEqual(
        await validateSafetensors(big, { scanData: true, hash: true }),
      );
      expect(server.log).toHaveLength(2);
    },
  );

  test('a later request answered with the whole file (200): RangeNotSupported, stopped', async () => {
    const st = await openSafetensors(server.url('/m.safetensors'), { firstRead: 64 });
    wholeFileServer(FILE);
    const error = await rejection(st.getTensor('x'));
    expect(error.code).toBe('RangeNotSupported');
    expect(error.message).toMatch(/answered 200 OK with \d+ bytes \(the whole file\)/);
  });

  test.each([
    [404, /check the URL/],
    [401, /token/],
    [403, /token/],
    [410, /410/],
  ])('%i: HttpError with the status, asked once', async (status, hint) => {
    server.answer = (req, res) => {
      res.writeHead(status).end();
      return true;
    };
    const error = await rejection(openSafetensors(server.url('/m.safetensors')));
    expect(error.code).toBe('HttpError');
    expect(error.status).toBe(status);
    expect(error.message).toMatch(hint);
    expect(server.log).toHaveLength(1);
  });

  test('validateSafetensors on a URL that answers 404 or 403: a verdict with the status, not a throw', async () => {
    const missing = await validateSafetensors(server.url('/nope.safetensors'), { hash: true, scanData: true });
    expect(missing).toMatchObject({ loadable: false, referenceError: null, tensors: 0, status: 404 });
    expect(missing.findings).toHaveLength(1);
    expect(missing.findings[0]).toMatchObject({ code: 'HttpError', severity: 'error' });
    expect(missing.findings[0].message).toMatch(/answered 404.*check the URL/);
    server.answer = (req, res) => {
      res.writeHead(403).end();
      return true;
    };
    expect(await validateSafetensors(server.url('/m.safetensors'))).toMatchObject({ loadable: false, status: 403 });
    // Not an HTTP status: still thrown (a TypeError for a bad argument).
    await expect(validateSafetensors(server.url('/m.safetensors'), { firstRead: 1 })).rejects.toThrow(TypeError);
  });

  test('5xx is retried with backoff, then succeeds; a lasting 5xx is an HttpError after 3 attempts', async () => {
    let failures = 2;
    server.answer = (req, res) => {
      if (failures-- <= 0) return false;
      res.writeHead(503).end();
      return true;
    };
    const st = await openSafetensors(server.url('/m.safetensors'));
    expect(st.tensors).toHaveLength(2);
    expect(server.log).toHaveLength(3);
    server.log.length = 0;
    server.answer = (req, res) => {
      res.writeHead(502).end();
      return true;
    };
    const error = await rejection(openSafetensors(server.url('/m.safetensors')));
    expect(error.code).toBe('HttpError');
    expect(error.status).toBe(502);
    expect(server.log).toHaveLength(3);
  });

  test('network failures are retried, then a ReadError that explains CORS', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new TypeError('fetch failed');
    };
    const error = await rejection(openSafetensors('https://example.invalid/m.safetensors', { fetch: failing }));
    expect(error.code).toBe('ReadError');
    expect(error.message).toMatch(/Access-Control-Allow-Origin/);
    expect(error.message).toMatch(/Content-Range/);
    expect(calls).toBe(3);
  });

  test('a file replaced on the server between requests: ReadError "changed on the server"', async () => {
    const st = await openSafetensors(server.url('/m.safetensors'), { firstRead: 64 });
    server.files.set('/m.safetensors', { bytes: FILE, etag: '"v2"' });
    const byEtag = await rejection(st.getTensor('x'));
    expect(byEtag.code).toBe('ReadError');
    expect(byEtag.message).toMatch(/changed on the server/);
    const longer = new Uint8Array(FILE.byteLength + 8);
    longer.set(FILE);
    server.files.set('/m.safetensors', { bytes: longer, etag: '"v1"' });
    const bySize = await rejection(st.getTensor('x'));
    expect(bySize.message).toMatch(/changed on the server/);
  });

  test('a compressed range and a short body are ReadErrors', async () => {
    server.answer = (req, res) => {
      res
        .writeHead(206, { 'Content-Range': `bytes 0-99/${FILE.byteLength}`, 'Content-Encoding': 'gzip' })
        .end(FILE.subarray(0, 100));
      return true;
    };
    const compressed = await rejection(openSafetensors(server.url('/m.safetensors'), { firstRead: 100 }));
    expect(compressed.code).toBe('ReadError');
    expect(compressed.message).toMatch(/Content-Encoding/);
    server.answer = (req, res) => {
      res.writeHead(206, { 'Content-Range': `bytes 0-99/${FILE.byteLength}` });
      res.write(FILE.subarray(0, 50));
      setTimeout(() => res.destroy(), 20);
      return true;
    };
    const short = await rejection(openSafetensors(server.url('/m.safetensors'), { firstRead: 100 }));
    expect(short.code).toBe('ReadError');
  });

  test('a response that stalls ends when the signal aborts', async () => {
    const st = await openSafetensors(server.url('/m.safetensors'), { firstRead: 64 });
    server.answer = (req, res) => {
      const [, start, end] = /bytes=(\d+)-(\d+)/.exec(req.headers.range).map(Number);
      res.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${FILE.byteLength}` });
      res.write(FILE.subarray(start, start + 6)); // then nothing
      return true;
    };
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(st.getTensor('x', { signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('not an http(s) URL: another scheme is a TypeError that says what is accepted; in Node a path is a file', async () => {
    await expect(openSafetensors('ftp://host/path.safetensors')).rejects.toThrow(/http/);
    await expect(openSafetensors(new URL('s3://bucket/x.safetensors'))).rejects.toThrow(TypeError);
    await expect(openSafetensors('/no/such/path.safetensors')).rejects.toMatchObject({ code: 'ReadError' });
  });
});
