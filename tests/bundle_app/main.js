// A consumer app, as a user would write it: the package imported by name, no bundler
// configuration. Picking a file decodes its first tensor here, in a module worker of the
// app's own, and through openInWorker (the package's workers); then describes it, which loads
// the model card's module (the page records which .wasm files it had fetched before that, and
// every file describe() fetched), and hashes it (hash-wasm, in browsers).
import { openSafetensors } from 'safetensors-wasm';
import { openInWorker } from 'safetensors-wasm/worker';

const out = document.getElementById('out');
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

function inWorker(file) {
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => (e.data.error ? reject(new Error(e.data.error)) : resolve(e.data));
    worker.postMessage(file);
  });
}

document.getElementById('file').addEventListener('change', async (e) => {
  const [file] = e.target.files;
  try {
    const st = await openSafetensors(file);
    const name = st.tensors[0].name;
    const here = await st.getTensor(name, { as: 'float32' });
    // Every script and .wasm this page fetched to open and decode (the budget's measure).
    const fetchedToDecode = performance
      .getEntriesByType('resource')
      .map((r) => new URL(r.name).pathname)
      .filter((path) => /\.(js|wasm)$/.test(path));
    const there = await inWorker(file);
    const remote = await openInWorker(file, { concurrency: 2 });
    const pool = Array.from(await remote.getTensor(name, { as: 'float32' }));
    const remoteParameters = (await remote.describe()).parameters.total; // the card module, in the package's worker
    remote.close();
    // The .wasm files this page fetched (the workers fetch their own).
    const wasmFetched = () =>
      new Set(
        performance
          .getEntriesByType('resource')
          .map((r) => r.name)
          .filter((n) => n.endsWith('.wasm')),
      ).size;
    const wasmBeforeCard = wasmFetched();
    // Every file the page fetches for describe(): what the card costs a page to download.
    const fetched = () => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname);
    const fetchedBefore = new Set(fetched());
    const card = await st.describe();
    const fetchedByDescribe = fetched().filter((path) => !fetchedBefore.has(path));
    out.textContent = JSON.stringify({
      name,
      here: Array.from(here),
      there: Array.from(there.values),
      transferred: there.values.buffer.byteLength,
      workerName: there.name,
      pool,
      parameters: card.parameters.total,
      remoteParameters,
      wasmBeforeCard,
      wasmAfterCard: wasmFetched(),
      fetchedByDescribe,
      fetchedToDecode,
      sha256: (await st.hash({ data: false })).sha256,
    });
  } catch (error) {
    out.textContent = `error: ${error.message}`;
  }
  document.body.dataset.state = 'done';
});
document.body.dataset.state = 'ready';
