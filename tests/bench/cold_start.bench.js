// make bench (issue 39, cold start in Chromium): the first card of a picked file, as a page that
// has loaded nothing yet gets it. The package is packed and installed by name into a Vite app
// (tests/bench/cold_app), built for production and served on 127.0.0.1; each round launches a
// fresh Chromium (a fresh profile: no HTTP or code cache carried over), picks the file and times
// on the page, from the pick: the import of the package, openSafetensors, describe(); and, in a
// fresh Chromium of its own, the plain-JS baseline (File.slice + JSON.parse of the header), so
// that each is the first read of the picked file (on one page, whichever ran second read a file
// the first had read, and the ratio swung with the order). A round's ratio is its card over
// its baseline; the table gives their median. Each round also times the floor under any first
// card (tests/bench/cold_floor: a one-line module's import and the two .wasm compiled, nothing
// run), in a fresh Chromium of its own. It also times
// the page that opens with { preloadCard: true } (the card module loading beside the open), the
// one that calls preload() when it loads (before the pick), and <safetensors-card>'s first card
// (its `load`), imported when the page loads and after the pick. COLD_BEFORE=DIR
// (an earlier checkout of the package, web/wasm built) adds its app to the same rounds, for a
// before/after in one run; COLD_VARIANTS=REGEX keeps only the variants it matches. Prints Markdown.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackedApp, onPage } from '../browser/packed_app.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const APP = fileURLToPath(new URL('./cold_app/', import.meta.url));
// The floor under any first card: a one-line module's import and the two .wasm compiled.
const FLOOR = fileURLToPath(new URL('./cold_floor/', import.meta.url));
const WASM = fileURLToPath(new URL('../../web/wasm/', import.meta.url));
const FILES = {
  "the demo's sample": fileURLToPath(new URL('../../demo/sample.safetensors', import.meta.url)),
  'kohya LoKr (1,750 tensors)': fileURLToPath(
    new URL('../../../shared/fixtures/real/kohya_lycoris_lokr_dim4_f16.safetensors', import.meta.url),
  ),
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One fresh Chromium on the built app: the page's timings for `path`. */
async function coldRun(dist, path, query) {
  const { result, errors } = await onPage(dist, `?${query}`, async (page) => {
    await page.waitForFunction(() => document.body.dataset.state === 'ready');
    await page.setInputFiles('#file', path);
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 60_000 });
    return page.textContent('#out');
  });
  if (result.startsWith('error') || errors.length) throw new Error(`${result} ${errors.join('; ')}`);
  return JSON.parse(result);
}

const work = await mkdtemp(join(tmpdir(), 'stw-cold-bench-'));
try {
  await mkdir(join(work, 'now'));
  const dist = join((await buildPackedApp(join(work, 'now'), APP)).app, 'dist');
  const floor = join(work, 'floor');
  await mkdir(floor);
  for (const name of await readdir(FLOOR)) await copyFile(join(FLOOR, name), join(floor, name));
  for (const name of ['safetensors_core.wasm', 'safetensors_card.wasm'])
    await copyFile(join(WASM, name), join(floor, name));
  const hasPreload = typeof (await import('../../web/index.js')).preload === 'function';
  const variants = [{ name: 'plain use', dist, query: 'order=package&preload=0' }];
  variants.push({ name: 'opens with { preloadCard: true }', dist, query: 'order=package&hint=1' });
  // Not the measure (the page loads the package before the pick): what a page gets that
  // calls preload() when it loads.
  if (hasPreload) variants.push({ name: 'preload() when the page loads', dist, query: 'order=package&preload=early' });
  // <safetensors-card> (issue 44): imported when the page loads (its idle preload done before the
  // pick), and imported only after the pick; from the pick to its `load` event, rendered.
  variants.push({
    name: '<safetensors-card>, imported when the page loads',
    dist,
    query: 'order=package&element=load',
  });
  variants.push({ name: '<safetensors-card>, imported after the pick', dist, query: 'order=package&element=pick' });
  // COLD_VARIANTS=regex: only the variants whose name matches (the floor and baseline always run).
  if (process.env.COLD_VARIANTS) {
    const keep = new RegExp(process.env.COLD_VARIANTS);
    variants.splice(0, variants.length, ...variants.filter((v) => keep.test(v.name)));
  }
  if (process.env.COLD_BEFORE) {
    await mkdir(join(work, 'before'));
    const before = (await buildPackedApp(join(work, 'before'), APP, process.env.COLD_BEFORE)).app;
    variants.unshift({
      name: `before (${process.env.COLD_BEFORE_NAME ?? process.env.COLD_BEFORE})`,
      dist: join(before, 'dist'),
      query: 'order=package&preload=0',
    });
  }
  console.log(
    `\nCold start in Chromium (headless, Debian): a Vite production build of an app with the packed package as a dependency, ${ROUNDS} fresh launches (fresh profile) per file and variant, and ${ROUNDS} of the baseline alone; medians, ms from the pick.\n`,
  );
  console.log(
    '| file | page | plain JS | import | open | describe | first card | card / plain (median of runs) | warm open + describe |\n|---|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const [label, path] of Object.entries(FILES)) {
    if (!existsSync(path)) {
      if (process.env.CI === 'true') throw new Error(`${path} is missing`);
      console.log(`| ${label} | (absent: ../shared/fixtures/real; skipped) | | | | | | | |`);
      continue;
    }
    // Rounds interleave the variants, so that the machine's load falls on each alike.
    const runs = variants.map(() => []);
    const floors = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { plain } = await coldRun(dist, path, 'order=plain');
      for (const [v, variant] of variants.entries())
        runs[v].push({ ...(await coldRun(variant.dist, path, variant.query)), plain });
      floors.push({ ...(await coldRun(floor, path, '')), plain });
    }
    const f = (pick) => median(floors.map(pick));
    console.log(
      `| ${label} | floor: a one-line module's import, then the core's and the card's .wasm compiled, nothing run (columns: import, core, card) | ${f((r) => r.plain.ms).toFixed(1)} | ${f((r) => r.floor.import).toFixed(1)} | ${f((r) => r.floor.core).toFixed(1)} | ${f((r) => r.floor.card).toFixed(1)} | ${f((r) => r.floor.ms).toFixed(1)} | **${f((r) => r.floor.ms / r.plain.ms).toFixed(2)}x** | |`,
    );
    for (const [v, variant] of variants.entries()) {
      const m = (pick) => median(runs[v].map(pick));
      const ratio = median(runs[v].map((r) => r.package.ms / r.plain.ms));
      console.log(
        `| ${label} | ${variant.name} | ${m((r) => r.plain.ms).toFixed(1)} | ${m((r) => r.package.import).toFixed(1)} | ${m((r) => r.package.open).toFixed(1)} | ${m((r) => r.package.describe).toFixed(1)} | ${m((r) => r.package.ms).toFixed(1)} | **${ratio.toFixed(2)}x** | ${m((r) => r.warm.open + r.warm.describe).toFixed(1)} |`,
      );
      if (runs[v][0].preloadedAt !== null)
        console.log(
          `|  | (preload() resolved ${m((r) => r.preloadedAt).toFixed(0)} ms after the page started) | | | | | | | |`,
        );
      if (process.env.COLD_FETCHES)
        console.log(
          runs[v]
            .at(-1)
            .fetched.map((f) => `${f.file} ${f.start.toFixed(0)}-${f.end.toFixed(0)}`)
            .join(', '),
        );
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
