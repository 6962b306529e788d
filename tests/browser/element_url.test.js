// <safetensors-card src="…"> in Chromium: a file on another origin read by Range requests, the
// header only (the server counts what was asked: not the 8 MiB of data), and a 404, which is an
// `error` event (HttpError with its status) and no `load`, the card's properties emptied.
import { describe, expect, test } from 'vitest';
import { answerTo, answers, cardText, elementBrowser, openCard, shownNames } from './element_page.js';
import { startServer } from '../js/http_server.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const ctx = elementBrowser('stw-element-url-');

describe('<safetensors-card> given a URL (Chromium)', () => {
  test('a URL in `src`: read by Range requests, the header only (not the 8 MiB of data); a 404 is an `error` with HttpError and its status', async () => {
    const filler = new Uint8Array(8 << 20).fill(7);
    const bytes = writeSafetensors(
      [
        { name: 'a.weight', dtype: 'F32', shape: [2, 2], data: new Uint8Array(16) },
        { name: 'zz.filler', dtype: 'U8', shape: [filler.byteLength], data: filler },
      ],
      { 'modelspec.title': 'A remote file' },
    );
    const dataStart = 8 + Number(new DataView(bytes.buffer).getBigUint64(0, true));
    const server = await startServer();
    server.files.set('/m/remote.safetensors', { bytes, etag: '"r1"' });
    const { page, errors } = await openCard(ctx);
    try {
      const load = await answerTo(
        page,
        (url) => window.card.setAttribute('src', url),
        server.url('/m/remote.safetensors'),
      );
      expect(load).toMatchObject({ type: 'load', detail: { kind: 'file', loadable: true, title: 'A remote file' } });
      expect((await shownNames(page)).sort()).toEqual(['a.weight', 'zz.filler']);
      // GETs of the file (CORS preflights aside): each one a Range request, none past the header's first read.
      const gets = server.log.filter(
        (r) => r.path === '/m/remote.safetensors' && r.headers['access-control-request-method'] === undefined,
      );
      expect(gets.length).toBeGreaterThan(0);
      const ranges = gets.map(
        (r) =>
          /^bytes=(\d+)-(\d+)$/
            .exec(r.range ?? '')
            ?.slice(1)
            .map(Number) ?? null,
      );
      expect(
        ranges.every((r) => r !== null),
        JSON.stringify(gets.map((r) => r.range)),
      ).toBe(true);
      const asked = ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
      expect(asked).toBeLessThan(bytes.byteLength / 8);
      expect(Math.max(...ranges.map(([, last]) => last))).toBeLessThan(Math.max(dataStart, 256 << 10) + 64);

      const failed = await answerTo(
        page,
        (url) => window.card.setAttribute('src', url),
        server.url('/m/absent.safetensors'),
      );
      expect(failed).toEqual({
        type: 'error',
        state: 'error',
        detail: { name: 'SafetensorsError', code: 'HttpError', status: 404 },
      });
      expect(await page.evaluate(() => [window.card.report, window.card.card, window.card.opened])).toEqual([
        null,
        null,
        null,
      ]);
      expect(await cardText(page, 'verdict')).toBe('could not read the source');
      expect(await cardText(page, 'failure')).toMatch(/^HttpError: /);
      await page.waitForTimeout(300);
      expect((await answers(page)).map((a) => a.type)).toEqual(['load', 'error']);
    } finally {
      await server.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
