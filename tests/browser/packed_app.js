// Shared by the packaging test: the package packed and installed by name into the consumer app
// (tests/bundle_app), built by Vite and webpack 5 (packedApp); a static server and Chromium to
// open a build, the app run on a picked file and what it must show, README's Try-it blocks.
import { afterAll, beforeAll } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium } from './chromium.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

export const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const APP = fileURLToPath(new URL('../bundle_app/', import.meta.url));

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

function serve(root) {
  const server = createServer(async (req, res) => {
    const path =
      normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^\/+/, '') || 'index.html';
    try {
      if (path.includes('..')) throw new Error('outside');
      const body = await readFile(join(root, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })),
  );
}

/** webpack 5 in production mode, no configuration beyond entry and output; its stats. */
export async function webpackBuild(context, outDir) {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) => {
    const compiler = webpack({
      context,
      entry: './main.js',
      mode: 'production',
      output: { path: outDir, clean: true },
    });
    compiler.run((error, result) => compiler.close(() => (error ? reject(error) : resolve(result))));
  });
  await copyFile(join(context, 'index.html'), join(outDir, 'index.html'));
  const json = stats.toJson({ all: false, errors: true, warnings: true });
  return { errors: json.errors.map((e) => e.message), warnings: json.warnings.map((w) => w.message) };
}

/** The file the app is given. */
export const PICKED = writeSafetensors([
  {
    name: 'layer.weight',
    dtype: 'BF16',
    shape: [4],
    data: new Uint8Array(new Uint16Array([0x3f80, 0xc040, 0x0000, 0x7f80]).buffer),
  },
]);

/** Serves `root`, opens its page `path` in Chromium and runs `act(page)`: its result and the page's errors. */
export async function onPage(root, path, act) {
  const { server, url } = await serve(root);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + path);
    return { result: await act(page), errors };
  } finally {
    await browser.close();
    server.close();
  }
}

/**
 * Opens the built app in Chromium, picks a file, and returns what the page shows (the files
 * describe() fetched apart) and the page's errors.
 */
export async function runApp(root, work) {
  const { result, errors } = await onPage(root, '', async (page) => {
    await page.waitForFunction(() => document.body.dataset.state === 'ready');
    const path = join(work, 'pick.safetensors');
    await writeFile(path, PICKED);
    await page.setInputFiles('#file', path);
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    return page.textContent('#out');
  });
  if (result.startsWith('error')) return { shown: result, errors };
  const { fetchedByDescribe, fetchedToDecode, ...shown } = JSON.parse(result);
  return { shown, fetchedByDescribe, fetchedToDecode, errors };
}

// Opening and decoding on the page fetch one .wasm (the core); describe() fetches the card's.
export const EXPECTED = {
  name: 'layer.weight',
  here: [1, -3, 0, null],
  there: [1, -3, 0, null],
  transferred: 16,
  workerName: 'layer.weight',
  pool: [1, -3, 0, null],
  parameters: 4,
  remoteParameters: 4,
  wasmBeforeCard: 1,
  wasmAfterCard: 2,
  // Hashed on the page by hash-wasm (node:crypto is Node's only).
  sha256: createHash('sha256').update(PICKED).digest('hex'),
};

/** A file for the README's walks: two BF16 tensors. */
export const TRY_FILE = writeSafetensors([
  { name: 'layer.bias', dtype: 'BF16', shape: [2], data: new Uint8Array(new Uint16Array([0x3f80, 0xc040]).buffer) },
  { name: 'layer.weight', dtype: 'BF16', shape: [2, 2], data: new Uint8Array(8) },
]);

/** The code block of README.md's "Try it" that follows `<!-- try-it:TAG -->`. */
export async function tryIt(tag, lang) {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const match = readme.match(new RegExp(`<!-- try-it:${tag} -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``));
  if (!match) throw new Error(`README.md has no try-it:${tag} block`);
  return match[1];
}

export async function filesUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * Packs the package into `work`, installs it by name into a copy of the app folder `source`
 * (at work/app) and builds that with Vite (into app/dist); returns { packed, app }.
 * @param {string} work a temporary folder
 * @param {string} [source] the app's folder (tests/bundle_app unless told)
 * @param {string} [root] the package's folder (this checkout unless told)
 */
export async function buildPackedApp(work, source = APP, root = ROOT) {
  const [packed] = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root })).stdout);
  const app = join(work, 'app');
  await mkdir(app);
  for (const name of await readdir(source)) await copyFile(join(source, name), join(app, name));
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { 'safetensors-wasm': `file:${join(work, packed.filename)}` },
    }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app });
  const { build } = await import('vite');
  await build({ root: app, logLevel: 'error', build: { outDir: join(app, 'dist'), emptyOutDir: true } });
  return { packed, app };
}

/**
 * Packs the package, installs it into a copy of the app and builds it (Vite, webpack 5),
 * before this file's tests; the returned ctx holds { work, packed, app, webpack } once they run.
 */
export function packedApp() {
  const ctx = {};
  beforeAll(async () => {
    ctx.work = await mkdtemp(join(tmpdir(), 'stw-bundle-'));
    Object.assign(ctx, await buildPackedApp(ctx.work));
    ctx.webpack = await webpackBuild(ctx.app, join(ctx.app, 'dist-webpack'));
  }, 240_000);
  afterAll(async () => {
    if (ctx.work) await rm(ctx.work, { recursive: true, force: true });
  });
  return ctx;
}
