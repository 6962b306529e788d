// The cold-start benchmark's app (tests/bench/cold_start.bench.js), built by Vite with the
// packed package as a dependency: on a pick it times the plain-JS baseline (File.slice +
// JSON.parse of the header) or the first card (import of the package + openSafetensors +
// describe()), as the page's URL says (?order=plain or ?order=package; both, in that order,
// for ?order=plain,package or package,plain: the second then reads a file the first has read), and
// with ?preload=1 calls the package's preload() right after the import (with ?preload=early,
// the page imports the package and calls preload() when it loads, before the pick; with ?hint=1
// it opens with { preloadCard: true }, the card module loading beside the open); then the same again,
// warm (what is left when nothing has to load). With ?element=load the page imports
// safetensors-wasm/element when it loads (which preloads the modules once the page is idle) and
// the first card is <safetensors-card>'s, from the pick to its `load` event (rendered); with
// ?element=pick the element is imported after the pick. It shows the phases (ms from the pick)
// and the files fetched for the card, with their timings.
const out = document.getElementById('out');
const query = new URLSearchParams(location.search);

async function plain(file) {
  const start = performance.now();
  const length = Number(new DataView(await file.slice(0, 8).arrayBuffer()).getBigUint64(0, true));
  const header = JSON.parse(await file.slice(8, 8 + length).text());
  return { ms: performance.now() - start, keys: Object.keys(header).length };
}

/** The first card as <safetensors-card> shows it: from the pick to `load`, the element imported first if need be. */
async function elementCard(file) {
  const start = performance.now();
  await import('safetensors-wasm/element');
  const imported = performance.now();
  const card =
    document.querySelector('safetensors-card') ?? document.body.appendChild(document.createElement('safetensors-card'));
  const loaded = new Promise((resolve, reject) => {
    card.addEventListener('load', (e) => resolve(e.detail), { once: true });
    card.addEventListener('error', (e) => reject(e.detail), { once: true });
  });
  card.source = null;
  card.source = file;
  const detail = await loaded;
  const shown = performance.now();
  return {
    import: imported - start,
    open: shown - imported,
    describe: 0,
    ms: shown - start,
    start,
    tensors: detail.report.tensors,
    kind: detail.card?.kind,
  };
}

async function firstCard(file) {
  if (query.get('element')) return elementCard(file);
  const start = performance.now();
  const api = await import('safetensors-wasm');
  const imported = performance.now();
  if (query.get('preload') === '1') api.preload();
  const st = await api.openSafetensors(file, query.get('hint') === '1' ? { preloadCard: true } : {});
  const opened = performance.now();
  const card = await st.describe();
  const described = performance.now();
  return {
    import: imported - start,
    open: opened - imported,
    describe: described - opened,
    ms: described - start,
    start,
    tensors: st.tensors.length,
    kind: card.kind,
  };
}

// A page that will show a card: the package and its modules load before the pick.
let preloadedAt = null; // ms from the page's start to preload()'s end
// The element's page: imported when the page loads; its own preload and warm-up run once the
// page is idle, and a person picks a file seconds later (the page is ready after three).
const elementAtLoad =
  query.get('element') === 'load'
    ? import('safetensors-wasm/element').then(() => new Promise((resolve) => setTimeout(resolve, 3000)))
    : null;
const early =
  query.get('preload') === 'early'
    ? import('safetensors-wasm')
        .then((api) => api.preload())
        .then(() => {
          preloadedAt = performance.now();
        })
    : null;

document.getElementById('file').addEventListener('change', async (e) => {
  const [file] = e.target.files;
  try {
    const result = {};
    for (const step of (query.get('order') ?? 'plain,package').split(','))
      result[step] = step === 'plain' ? await plain(file) : await firstCard(file);
    // A page that ran only the baseline stops there (the benchmark launches its own).
    if (!result.package) {
      out.textContent = JSON.stringify(result);
      document.body.dataset.state = 'done';
      return;
    }
    result.warm = await firstCard(file);
    const since = result.package.start;
    result.fetched = performance
      .getEntriesByType('resource')
      .filter((r) => r.startTime >= since - 1 && r.startTime < result.warm.start)
      .map((r) => ({
        file: new URL(r.name).pathname.replace(/^\/assets\//, ''),
        start: r.startTime - since,
        end: r.responseEnd - since,
      }));
    result.preloadedAt = preloadedAt;
    out.textContent = JSON.stringify(result);
  } catch (error) {
    out.textContent = `error: ${error.message}`;
  }
  document.body.dataset.state = 'done';
});
// Ready for the pick (with ?preload=early, once preload() has loaded the modules).
Promise.all([early, elementAtLoad]).then(() => {
  document.body.dataset.state = 'ready';
});
