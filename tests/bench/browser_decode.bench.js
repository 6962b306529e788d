// make bench (decode and scan, Chromium): a 16M-value F16 file picked through <input type=file>
// (a disk-backed File, as users have), decoded and scanned in the page several ways; prints Markdown.
import { launchChromium } from '../browser/chromium.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/serve.js';
import { beyondFloor, beyondFloorAndReads } from './allocation_floor.js';
import { singleTensorFile } from './decode_data.js';

const COUNT = 16 << 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP = 3;

const dir = await mkdtemp(join(tmpdir(), 'stw-browser-bench-'));
const { server, url } = await startDemoServer(0, '127.0.0.1', ['web', 'tests']);
const browser = await launchChromium();
try {
  const path = join(dir, 'f16.safetensors');
  await writeFile(path, singleTensorFile('F16', COUNT));
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(`${url}tests/bench/browser/decode.html`);
  await page.waitForFunction(() => document.body.dataset.ready === '1');
  await page.setInputFiles('input', path);
  const { bytes, userAgent, medians } = await page.evaluate(([r, w]) => window.runBench(r, w), [ROUNDS, WARMUP]);
  const chromiumVersion = userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? userAgent;
  console.log(
    `\nChromium ${chromiumVersion} (headless, Debian); ${COUNT.toLocaleString('en')} F16 values (${bytes / 2 ** 20} MiB) in a file picked through <input type=file>; ${ROUNDS} rounds after ${WARMUP} warm-up rounds, the variants in a new order each round; medians.`,
  );
  const baseline = 'plain JS: slice().arrayBuffer() + 64K lookup table';
  const ours = 'getTensor (Blob stream → wasm SIMD → Float32Array)';
  console.log('\n### F16 → Float32Array from a picked File (Chromium)\n');
  console.log('| variant | median ms | time vs plain JS | MB/s of F16 input |\n|---|---:|---:|---:|');
  for (const [name, ms] of Object.entries(medians)) {
    console.log(
      `| ${name} | ${ms.toFixed(1)} | ${(ms / medians[baseline]).toFixed(2)}x | ${(bytes / 1e6 / (ms / 1000)).toFixed(0)} |`,
    );
  }
  const readRate = medians['read only: slice().stream()'];
  const reused = 'getTensor into a reused Float32Array';
  console.log(
    `\ngetTensor is ${(medians[baseline] / medians[ours]).toFixed(2)}x as fast as the plain JS way; its throughput is ${(readRate / medians[ours]).toFixed(2)}x the raw stream read rate (aim >= 0.9x), ${(readRate / medians[reused]).toFixed(2)}x when filling a reused array.`,
  );
  console.log(beyondFloor(medians, ours, baseline));
  console.log(beyondFloorAndReads(medians, ours, baseline));
  const streamed = medians['streamTensor (pieces in one reused array)'];
  console.log(
    `streamTensor runs at ${(readRate / streamed).toFixed(2)}x the raw stream read rate of the same bytes (aim >= 0.9x).`,
  );
  const f16 = Object.keys(medians).find((k) => k.startsWith('native Float16Array'));
  if (f16) console.log(`Against native Float16Array: ${(medians[f16] / medians[ours]).toFixed(2)}x as fast.`);

  const scan = await page.evaluate(([r, w]) => window.runScanBench(r, w), [ROUNDS, WARMUP]);
  const plainScan = 'plain JS: slice().arrayBuffer() + Uint16Array loop';
  const ourScan = 'validateSafetensors(file, { scanData: true })';
  console.log('\n### Data scan of the same file (Chromium)\n');
  console.log('| variant | median ms | time vs plain JS | MB/s of F16 input |\n|---|---:|---:|---:|');
  for (const [name, ms] of Object.entries(scan.medians)) {
    console.log(
      `| ${name} | ${ms.toFixed(1)} | ${(ms / scan.medians[plainScan]).toFixed(2)}x | ${(scan.bytes / 1e6 / (ms / 1000)).toFixed(0)} |`,
    );
  }
  console.log(
    `\nThe scan is ${(scan.medians[plainScan] / scan.medians[ourScan]).toFixed(2)}x as fast as plain JS, at ${(scan.medians['read only: slice().stream()'] / scan.medians[ourScan]).toFixed(2)}x the raw stream read rate.`,
  );
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}
