// Runs inside Chromium (driven by tests/bench/browser_worker.bench.js): the page's long tasks
// while a 64 MiB F16 tensor is decoded on the page and through openInWorker, and a pool of
// workers decoding four tensors at once.
import { openSafetensors } from '../../../web/index.js';
import { openInWorker } from '../../../web/worker.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const settle = () => new Promise((resolve) => setTimeout(resolve, 100)); // long-task entries arrive late

/** Runs `fn`, returning its time and the page's long tasks (over 50 ms) meanwhile. */
async function watched(fn) {
  const entries = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ type: 'longtask' });
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  await settle();
  observer.disconnect();
  return {
    ms,
    longTasks: entries.length,
    blocking: entries.reduce((sum, e) => sum + Math.max(0, e.duration - 50), 0),
    longest: Math.max(0, ...entries.map((e) => e.duration)),
  };
}

window.runWorkerBench = async (rounds, warmup) => {
  const file = document.querySelector('input').files[0];
  const st = await openSafetensors(file);
  const one = await openInWorker(file, { concurrency: 1 });
  const two = await openInWorker(file, { concurrency: 2 });
  const parts = ['p0', 'p1', 'p2', 'p3'];
  const variants = {
    'getTensor on the page (64 MiB F16 → float32)': () => st.getTensor('big'),
    'openInWorker: getTensor (64 MiB F16 → float32)': () => one.getTensor('big'),
    'getTensors of 4 x 16 MiB on the page': () => st.getTensors(parts),
    'openInWorker, 1 worker: getTensors of 4 x 16 MiB': () => one.getTensors(parts),
    'openInWorker, 2 workers: getTensors of 4 x 16 MiB': () => two.getTensors(parts),
  };
  const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const [name, fn] of Object.entries(variants)) {
      const sample = await watched(fn);
      if (round >= warmup) samples[name].push(sample);
    }
  }
  one.close();
  two.close();
  return Object.fromEntries(
    Object.entries(samples).map(([name, xs]) => [
      name,
      {
        ms: median(xs.map((x) => x.ms)),
        longTasks: median(xs.map((x) => x.longTasks)),
        blocking: median(xs.map((x) => x.blocking)),
        longest: median(xs.map((x) => x.longest)),
      },
    ]),
  );
};
document.body.dataset.ready = '1';
