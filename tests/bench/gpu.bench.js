// make bench (toGPU, Chromium on WebGPU/SwiftShader): a 64 MiB F16 tensor in a picked file onto
// the GPU as float32, toGPU against getTensor + writeBuffer + onSubmittedWorkDone, and the F16
// bytes converted by a WGSL shader instead; time and the renderer's peak memory; prints Markdown.
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBGPU_FLAGS, launchChromium } from '../browser/chromium.js';
import { startDemoServer } from '../../demo/serve.js';
import { singleTensorFile } from './decode_data.js';
import { median } from './timing.js';

const COUNT = 32 << 20; // 64 MiB of F16
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP = 1;
const MiB = 2 ** 20;

/** The renderer's resident set now and its peak since the last reset, in bytes (Linux /proc). */
async function residentOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}

const dir = await mkdtemp(join(tmpdir(), 'stw-gpu-bench-'));
const { server, url } = await startDemoServer(0, '127.0.0.1', ['web', 'tests']);
// gc(): each run starts after a collection, so the last run's arrays are gone from the resident set.
const browser = await launchChromium([...WEBGPU_FLAGS, '--js-flags=--expose-gc']);
try {
  const path = join(dir, 'f16.safetensors');
  await writeFile(path, singleTensorFile('F16', COUNT));
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(`${url}tests/bench/browser/decode.html`); // the decode benchmark's page: a file input
  await page.waitForFunction(() => document.body.dataset.ready === '1');
  await page.setInputFiles('input', path);
  // A string, not a function: the module is imported by the page.
  const { bytes, userAgent, names } = await page.evaluate(`(async () => {
    window.bench = await import('/tests/bench/browser/gpu_page.js');
    const info = await window.bench.setup(document.querySelector('input').files[0]);
    return { ...info, names: Object.keys(window.bench.variants) };
  })()`);
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  // The page's renderer: the one whose memory grows by the 96 MiB the page fills (and keeps a moment).
  const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  const rss = async () => Promise.all(renderers.map(async (id) => (await residentOf(id)).now));
  const quiet = await rss();
  await page.evaluate('window.held = new Uint8Array(96 * 1024 * 1024).fill(1)');
  const grown = (await rss()).map((r, i) => r - quiet[i]);
  await page.evaluate('window.held = null');
  const pid = renderers[grown.indexOf(Math.max(...grown))];
  if (Math.max(...grown) < 64 * MiB) throw new Error(`no renderer grew by the page's 96 MiB: ${grown}`);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const peaks = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      await page.evaluate('gc()');
      await writeFile(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
      const before = await residentOf(pid);
      const ms = await page.evaluate(`window.bench.run(${JSON.stringify(name)})`);
      const after = await residentOf(pid);
      if (round >= WARMUP) {
        times[name].push(ms);
        peaks[name].push(after.peak - before.now);
      }
    }
  }
  const differ = await page.evaluate('window.bench.differences()');
  const version = userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? userAgent;
  console.log(
    `\nChromium ${version} (headless, Debian), WebGPU on SwiftShader (the CPU); one F16 tensor of ${COUNT.toLocaleString('en')} values (${bytes / MiB} MiB) in a file picked through <input type=file>, onto the GPU as float32 (${(COUNT * 4) / MiB} MiB); ${ROUNDS} rounds after ${WARMUP} warm-up round, the variants in a new order each round; medians. Peak: the renderer's resident memory above its level before the run (after a gc(); VmHWM, reset each run).`,
  );
  console.log('\n### A 64 MiB F16 tensor onto the GPU (Chromium, SwiftShader)\n');
  console.log(
    '| variant | median ms | time vs getTensor + writeBuffer | peak MiB | peak vs getTensor + writeBuffer | float32 words ≠ getTensor |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  const [baseline] = names;
  const t0 = median(times[baseline]);
  const p0 = median(peaks[baseline]);
  for (const name of names) {
    const t = median(times[name]);
    const p = median(peaks[name]);
    const d = differ[name] ?? 'n/a (F16 bytes)';
    console.log(
      `| ${name} | ${t.toFixed(0)} | ${(t / t0).toFixed(2)}x | ${(p / MiB).toFixed(1)} | ${(p / p0).toFixed(2)}x | ${d} |`,
    );
  }
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}
