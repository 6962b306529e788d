// The demo's "Find on Civitai" in Chromium: Civitai's by-hash API is played by playwright's
// routing, answering in the shape Civitai documents (tests/js/civitai_answer.js). Nothing leaves
// the page before the click; the answer is shown as text with one checked link; 404, a network
// failure and a stopped lookup each say so.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBrowser, openDemo, pickFile } from './demo_browser.js';
import { versionJson } from '../js/civitai_answer.js';
import { runRead } from './demo_pick.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const demo = demoBrowser('stw-civitai-');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const BY_HASH = 'https://civitai.com/api/v1/model-versions/by-hash/';
const text = (page, testid) => page.textContent(`[data-testid=${testid}]`);

/** A LoRA-like file; `claimHash`: its metadata claims its data hash (ModelSpec's 0x form). */
async function loraFile(name, claimHash) {
  const data = new Uint8Array(64).map((_, i) => i * 7);
  const bytes = writeSafetensors([{ name: 'lora.down.weight', dtype: 'F32', shape: [16], data }], {
    'modelspec.title': 'a watercolor LoRA',
    ...(claimHash ? { 'modelspec.hash_sha256': `0x${sha256(data)}` } : {}),
  });
  const path = join(demo.dir, name);
  await writeFile(path, bytes);
  return { path, file: sha256(bytes), autoV3: sha256(data).slice(0, 12) };
}

/**
 * The demo opened with every request it makes recorded from the start (`requests`), and
 * Civitai's by-hash API answered by `answer(route, hash)`.
 */
async function openRouted(answer) {
  const requests = [];
  const opened = await openDemo(demo, async (page) => {
    page.on('request', (r) => requests.push(r.url()));
    await page.route(`${BY_HASH}*`, (route) => answer(route, route.request().url().slice(BY_HASH.length)));
  });
  return { ...opened, requests };
}

const cors = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };
const answerJson = (route, value, status = 200) =>
  route.fulfill({ status, headers: cors, body: JSON.stringify(value) });

async function findOnCivitai(page, until = /^(Found|Not on Civitai|Could not|Civitai|Stopped)/) {
  await page.click('[data-testid=civitai-button]');
  await page.waitForFunction(
    (re) =>
      new RegExp(re).test(
        document.getElementById('card').shadowRoot.querySelector('[data-testid=civitai-status]').textContent,
      ),
    until.source,
  );
  return text(page, 'civitai-status');
}

describe('the demo finds a file on Civitai, on a click only (Chromium)', () => {
  test("the metadata's data hash: nothing sent before the click, then the model version as text and a checked link", async () => {
    const lora = await loraFile('claimed.safetensors', true);
    const hostile = '<img src=x onerror="document.body.dataset.pwned=1">Watercolor';
    const { page, errors, requests } = await openRouted((route) =>
      answerJson(
        route,
        versionJson(368189, 328553, { model: { name: hostile }, trainedWords: ['sks style', '<b>x</b>'] }),
      ),
    );
    await pickFile(page, lora.path);
    expect(await page.isVisible('[data-testid=civitai-button]')).toBe(true);
    expect(await text(page, 'civitai-note')).toContain(`AutoV3 ${lora.autoV3}`);
    const origin = new URL(demo.url).origin;
    expect(requests.length).toBeGreaterThan(5); // the page, its scripts, the sample: all from the demo's server
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);

    expect(await findOnCivitai(page)).toBe('Found on Civitai.');
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([`${BY_HASH}${lora.autoV3}`]);
    expect(await text(page, 'civitai-model')).toBe(hostile);
    expect(await text(page, 'civitai-version')).toBe('v2.0');
    expect(await text(page, 'civitai-base-model')).toBe('SDXL 1.0');
    expect(await text(page, 'civitai-trained-words')).toBe('sks style, <b>x</b>');
    expect(await text(page, 'civitai-air')).toBe('urn:air:sdxl:lora:civitai:328553@368189');
    expect(await page.getAttribute('[data-testid=civitai-link]', 'href')).toBe(
      'https://civitai.com/models/328553?modelVersionId=368189',
    );
    expect(await page.locator('[data-testid=civitai-result] img, [data-testid=civitai-result] b').count()).toBe(0);
    expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  });

  test('after Compute hashes: the file\'s SHA-256, then its AutoV3; 404 for both is "not on Civitai"', async () => {
    const lora = await loraFile('plain.safetensors', false);
    const asked = [];
    const { page, errors } = await openRouted((route, hash) => {
      asked.push(hash);
      return answerJson(route, { error: 'No model with id' }, 404);
    });
    await pickFile(page, lora.path);
    expect(await page.locator('[data-testid=civitai-button]').count()).toBe(0); // no Civitai reference, no hash yet
    await runRead(page, 'hash');
    await page.waitForSelector('[data-testid=civitai-button]:visible');
    expect(await findOnCivitai(page)).toBe('Not on Civitai: Civitai knows no file with this hash.');
    expect(asked).toEqual([lora.file, lora.autoV3]);
    expect(await page.locator('[data-testid=civitai-result]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a network failure and a lookup stopped by a second click each say so', async () => {
    const lora = await loraFile('offline.safetensors', true);
    let mode = 'fail';
    const held = [];
    const { page, errors } = await openRouted((route) => {
      if (mode === 'fail') return route.abort('internetdisconnected');
      held.push(route); // never answered: the user stops it
      return undefined;
    });
    await pickFile(page, lora.path);
    expect(await findOnCivitai(page)).toMatch(/^Could not reach civitai\.com/);
    mode = 'hold';
    await page.click('[data-testid=civitai-button]');
    await page.waitForFunction(
      () =>
        document.getElementById('card').shadowRoot.querySelector('[data-testid=civitai-button]').textContent === 'Stop',
    );
    await expect.poll(() => held.length).toBe(1);
    expect(await findOnCivitai(page)).toBe('Stopped: nothing more is asked of Civitai.');
    expect(await text(page, 'civitai-button')).toBe('Find on Civitai');
    expect(errors).toEqual([]);
    await page.close();
  });
});
