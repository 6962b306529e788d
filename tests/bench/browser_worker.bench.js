// make bench (workers, Chromium): the page's main-thread blocking (long tasks over 50 ms)
// while a 64 MiB F16 tensor is decoded on the page and through openInWorker, and the speedup
// of two workers over one on four 16 MiB tensors, on this 2-core machine. Prints Markdown.
import { launchChromium } from '../browser/chromium.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/serve.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { weightCodes } from '../../tools/weight_codes.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP = 2;

const dir = await mkdtemp(join(tmpdir(), 'stw-worker-bench-'));
const { server, url } = await startDemoServer(0, '127.0.0.1', ['web', 'tests']);
const browser = await launchChromium();
try {
  const path = join(dir, 'model.safetensors');
  const tensors = [{ name: 'big', dtype: 'F16', shape: [32 << 20], data: weightCodes('F16', 32 << 20, 1) }];
  for (let k = 0; k < 4; k++)
    tensors.push({ name: `p${k}`, dtype: 'F16', shape: [8 << 20], data: weightCodes('F16', 8 << 20, k + 2) });
  await writeFile(path, writeSafetensors(tensors, { format: 'pt' }));
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(`${url}tests/bench/browser/worker.html`);
  await page.waitForFunction(() => document.body.dataset.ready === '1');
  await page.setInputFiles('input', path);
  const results = await page.evaluate(([r, w]) => window.runWorkerBench(r, w), [ROUNDS, WARMUP]);
  console.log(
    `\nChromium (headless), ${cpus().length} cores; a 128 MiB F16 file picked through <input type=file>; ${ROUNDS} alternating rounds after ${WARMUP} warm-up rounds; medians.`,
  );
  console.log('\n### Main-thread blocking and worker pools (Chromium)\n');
  console.log(
    '| variant | median ms | long tasks (> 50 ms) | blocking ms (sum over 50 ms) | longest task ms |\n|---|---:|---:|---:|---:|',
  );
  for (const [name, r] of Object.entries(results))
    console.log(
      `| ${name} | ${r.ms.toFixed(1)} | ${r.longTasks} | ${r.blocking.toFixed(0)} | ${r.longest.toFixed(0)} |`,
    );
  const pool =
    results['openInWorker, 1 worker: getTensors of 4 x 16 MiB'].ms /
    results['openInWorker, 2 workers: getTensors of 4 x 16 MiB'].ms;
  console.log(`\nTwo workers decode the four tensors ${pool.toFixed(2)}x as fast as one.`);
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}
