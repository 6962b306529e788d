// A consumer app, as a user would write it: the package imported by name, no bundler
// configuration. Picking a file decodes its first tensor here and, in a module worker, there.
import { openSafetensors } from 'safetensors-wasm';

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
    const there = await inWorker(file);
    out.textContent = JSON.stringify({ name, here: Array.from(here), there: Array.from(there.values), transferred: there.values.buffer.byteLength, workerName: there.name });
  } catch (error) {
    out.textContent = `error: ${error.message}`;
  }
  document.body.dataset.state = 'done';
});
document.body.dataset.state = 'ready';
