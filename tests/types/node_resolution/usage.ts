// A TypeScript project with `moduleResolution: "node"` (node10), which reads no `exports`: the
// package's entry points and their types are found by name (`types`, and `typesVersions` for
// the worker). tests/js/types_resolution.test.js compiles it against the package installed by name.
import { openSafetensors, type SafetensorsFile } from 'safetensors-wasm';
import { openInWorker, type WorkerFile } from 'safetensors-wasm/worker';

export async function tensorCount(file: Blob): Promise<number> {
  const st: SafetensorsFile = await openSafetensors(file);
  const remote: WorkerFile = await openInWorker(file, { concurrency: 2 });
  const values: Float32Array = await remote.getTensor(st.tensors[0].name, { as: 'float32' });
  remote.close();
  // @ts-expect-error the worker's options are typed: a string is not a concurrency
  await openInWorker(file, { concurrency: 'two' });
  return remote.tensors.length + values.length;
}
